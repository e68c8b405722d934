// SPDX-License-Identifier: GPL-3.0-or-later
#include "spdychannels.h"

#include "spdysession.h"

namespace sim {

SpdyChannels::SpdyChannels(SpdySession *session, QObject *parent)
    : ChannelTransport(parent), m_session(session)
{
    connect(session, &SpdySession::drained, this, &ChannelTransport::drained);
}

bool SpdyChannels::isOpen() const
{
    return m_session && m_session->isOpen();
}

qint64 SpdyChannels::bytesToWrite() const
{
    return m_session ? m_session->bytesToWrite() : 0;
}

void SpdyChannels::setReadPaused(bool paused)
{
    if (m_session)
        m_session->setReadPaused(paused);
}

QByteArray SpdyChannels::protocol() const
{
    return m_session ? m_session->protocol() : QByteArray();
}

qint64 SpdyChannels::idleMs() const
{
    return m_session ? m_session->idleMs() : 0;
}

} // namespace sim
