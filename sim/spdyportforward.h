// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "spdychannels.h"

#include <QHash>
#include <QObject>
#include <QPointer>

namespace sim {

class SpdySession;
struct SpdyFrame;

// One forwarded connection of port-forward over SPDY/3.1 (portforward.k8s.io): the client's
// data and error streams of one request id, as channels 0 (data) and 1 (error). Its end is a
// FIN on both; the connection stays for the next request.
class SpdyPortChannels : public SpdyChannels
{
    Q_OBJECT
public:
    SpdyPortChannels(SpdySession *session, quint32 dataStream, quint32 errorStream,
                     QObject *parent);
    void sendBinary(const QByteArray &message) override;
    void close(quint16 code = 1000, const QByteArray &reason = {}) override;
    void abort() override;
    bool isOpen() const override;
    bool endsStdin() const override { return false; }

    // The client ended its data stream: nothing more goes to the port.
    void remoteEnded();
    quint32 dataStream() const { return m_data; }
    quint32 errorStream() const { return m_error; }

signals:
    void dataEnded();

private:
    void end();

    quint32 m_data;
    quint32 m_error;
    bool m_ended = false;
};

// The kubelet's side of port-forward over SPDY: streams paired by their "requestid" header,
// each pair a connection to its "port". A stream without a port or of an unknown type is reset.
class SpdyPortForward : public QObject
{
    Q_OBJECT
public:
    SpdyPortForward(SpdySession *session, QObject *parent);

signals:
    void connectionOpened(sim::SpdyPortChannels *channels, quint16 port);

private:
    void opened(quint32 stream, const SpdyFrame &syn);

    struct Pending
    {
        quint32 data = 0;
        quint32 error = 0;
        quint16 port = 0;
    };
    QPointer<SpdySession> m_session;
    QHash<QByteArray, Pending> m_pending; // request id → streams so far
    QHash<quint32, QPointer<SpdyPortChannels>> m_byStream;
};

} // namespace sim
