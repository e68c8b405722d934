// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "channeltransport.h"

#include <QPointer>

namespace sim {

class SpdySession;

// What the channels of exec and of one forwarded connection share over SPDY: the connection
// they run on, whose state, buffer and pause are theirs.
class SpdyChannels : public ChannelTransport
{
    Q_OBJECT
public:
    explicit SpdyChannels(SpdySession *session, QObject *parent);

    bool isOpen() const override;
    qint64 bytesToWrite() const override;
    // One connection carries every channel: pausing one pauses them all, as a kubelet's full
    // buffer does.
    void setReadPaused(bool paused) override;
    QByteArray protocol() const override;
    qint64 idleMs() const override;
    bool announcesPorts() const override { return false; }

protected:
    QPointer<SpdySession> m_session;
};

} // namespace sim
