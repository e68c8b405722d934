// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "spdychannels.h"

#include <QHash>
#include <QList>
#include <QTimer>

namespace sim {

class SpdySession;
struct SpdyFrame;

// exec and attach over SPDY/3.1 (v4.channel.k8s.io): the client opens one stream per channel,
// named by its "streamtype" header (error, stdin, stdout, stderr, resize). What the command
// writes waits until its channel's stream is there; if the streams the request asked for are not
// all open within the kubelet's 30 s, the connection goes, as the kubelet's does. The end: FIN
// on every stream, then GOAWAY.
class SpdyExecChannels : public SpdyChannels
{
    Q_OBJECT
public:
    // `expected`: the channels the request asked for (error always; stdin, stdout, stderr;
    // resize with a terminal).
    SpdyExecChannels(SpdySession *session, const QList<char> &expected, QObject *parent);
    static constexpr int kStreamWaitMs = 30000;

    void sendBinary(const QByteArray &message) override;
    void close(quint16 code = 1000, const QByteArray &reason = {}) override;
    void abort() override;
    bool endsStdin() const override { return true; }

private:
    void opened(quint32 stream, const SpdyFrame &syn);
    bool ready() const;
    void flush();

    QList<char> m_expected;
    QHash<char, quint32> m_streams; // channel → stream
    QHash<quint32, char> m_channels;
    QList<QByteArray> m_pending; // messages for channels not open yet
    bool m_closeWanted = false;
    QTimer m_wait;
};

} // namespace sim
