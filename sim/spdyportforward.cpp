// SPDX-License-Identifier: GPL-3.0-or-later
#include "spdyportforward.h"

#include "spdysession.h"

namespace sim {

SpdyPortChannels::SpdyPortChannels(SpdySession *session, quint32 dataStream, quint32 errorStream,
                                   QObject *parent)
    : SpdyChannels(session, parent), m_data(dataStream), m_error(errorStream)
{
    connect(session, &SpdySession::closed, this, &SpdyPortChannels::end);
}

void SpdyPortChannels::sendBinary(const QByteArray &message)
{
    if (message.isEmpty() || !m_session || m_ended)
        return;
    m_session->write(message.at(0) == 0 ? m_data : m_error, message.mid(1));
}

void SpdyPortChannels::close(quint16, const QByteArray &)
{
    if (m_session && !m_ended) {
        m_session->finish(m_data);
        m_session->finish(m_error);
    }
    end();
}

void SpdyPortChannels::end()
{
    if (std::exchange(m_ended, true))
        return;
    emit closed();
    deleteLater();
}

void SpdyPortChannels::remoteEnded()
{
    emit dataEnded();
}

void SpdyPortChannels::abort()
{
    if (m_session)
        m_session->abort();
    end();
}

bool SpdyPortChannels::isOpen() const
{
    return !m_ended && SpdyChannels::isOpen();
}

SpdyPortForward::SpdyPortForward(SpdySession *session, QObject *parent)
    : QObject(parent), m_session(session)
{
    connect(session, &SpdySession::streamOpened, this, &SpdyPortForward::opened);
    connect(session, &SpdySession::streamData, this, [this](quint32 stream, const QByteArray &d) {
        const auto ch = m_byStream.value(stream);
        if (ch && stream == ch->dataStream())
            emit ch->binaryMessage(QByteArray(1, 0) + d);
    });
    connect(session, &SpdySession::streamEnded, this, [this](quint32 stream) {
        const auto ch = m_byStream.take(stream);
        if (ch && stream == ch->dataStream())
            ch->remoteEnded();
    });
    connect(session, &SpdySession::closed, this, &QObject::deleteLater);
}

void SpdyPortForward::opened(quint32 stream, const SpdyFrame &syn)
{
    const QByteArray type = syn.header("streamtype");
    const QByteArray requestId = syn.header("requestid");
    bool ok = false;
    const uint port = syn.header("port").toUInt(&ok);
    if ((type != "data" && type != "error") || !ok || port == 0 || port > 65535) {
        m_session->reset(stream, SpdyFramer::RefusedStream);
        return;
    }
    Pending &p = m_pending[requestId];
    quint32 &slot = type == "data" ? p.data : p.error;
    if (slot != 0 || (p.port != 0 && p.port != port)) {
        m_session->reset(stream, SpdyFramer::StreamInUse);
        return;
    }
    slot = stream;
    p.port = quint16(port);
    if (p.data == 0 || p.error == 0)
        return;
    const Pending done = m_pending.take(requestId);
    auto *channels = new SpdyPortChannels(m_session, done.data, done.error, this);
    m_byStream.insert(done.data, channels);
    m_byStream.insert(done.error, channels);
    emit connectionOpened(channels, done.port);
}

} // namespace sim
