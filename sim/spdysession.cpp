// SPDX-License-Identifier: GPL-3.0-or-later
#include "spdysession.h"

#include <QLoggingCategory>
#include <QSslSocket>

namespace sim {

Q_LOGGING_CATEGORY(lcSpdy, "gpudesk.sim.spdy", QtWarningMsg)

namespace {
constexpr qint64 kHighWater = 4 << 20;
// Data frames the server sends are cut at this size, as spdystream's writers do at theirs.
constexpr qsizetype kMaxDataFrame = 32 << 10;
} // namespace

bool SpdySession::wantsSpdy(const HttpRequest &r)
{
    return r.header("upgrade").toLower().contains("spdy/3.1") &&
           r.header("connection").toLower().contains("upgrade");
}

QByteArray SpdySession::chooseProtocol(const HttpRequest &r, const QList<QByteArray> &supported)
{
    // client-go sends one header per version, newest first; the server takes the first it has.
    for (const auto &h : r.headers) {
        if (h.first != "x-stream-protocol-version")
            continue;
        for (const QByteArray &p : h.second.split(','))
            if (supported.contains(p.trimmed()))
                return p.trimmed();
    }
    return {};
}

SpdySession *SpdySession::accept(HttpConnection *c, const QByteArray &protocol, QObject *parent)
{
    const QByteArray head = "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n"
                            "Upgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: " +
                            protocol + "\r\n\r\n";
    QByteArray leftover;
    QSslSocket *socket = c->upgrade(head, &leftover);
    return new SpdySession(socket, leftover, protocol, parent);
}

SpdySession::SpdySession(QSslSocket *socket, const QByteArray &leftover, const QByteArray &protocol,
                         QObject *parent)
    : QObject(parent), m_socket(socket), m_buffer(leftover), m_protocol(protocol)
{
    m_socket->setParent(this);
    m_socket->setReadBufferSize(1 << 20);
    m_activity.start();
    connect(m_socket, &QSslSocket::readyRead, this, &SpdySession::onReadyRead);
    connect(m_socket, &QSslSocket::encryptedBytesWritten, this, [this] {
        if (bytesToWrite() < kHighWater)
            emit drained();
    });
    connect(m_socket, &QSslSocket::disconnected, this, &SpdySession::end);
    connect(m_socket, &QSslSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket->state() != QAbstractSocket::ConnectedState)
            end();
    });
    if (!m_buffer.isEmpty() || m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &SpdySession::onReadyRead, Qt::QueuedConnection);
}

bool SpdySession::isOpen() const
{
    return !m_finished && !m_closing && m_socket->state() == QAbstractSocket::ConnectedState;
}

qint64 SpdySession::bytesToWrite() const
{
    return m_socket->bytesToWrite() + m_socket->encryptedBytesToWrite();
}

void SpdySession::setReadPaused(bool paused)
{
    m_paused = paused;
    if (!paused)
        QMetaObject::invokeMethod(this, &SpdySession::onReadyRead, Qt::QueuedConnection);
}

void SpdySession::onReadyRead()
{
    if (m_paused || m_finished)
        return;
    m_buffer += m_socket->read(1 << 20);
    while (!m_paused && !m_finished) {
        SpdyFrame frame;
        QString error;
        const auto result = m_framer.parse(m_buffer, &frame, &error);
        if (result == SpdyFramer::Result::NeedMore)
            break;
        if (result == SpdyFramer::Result::Error) {
            fail(error);
            return;
        }
        m_activity.restart();
        handle(frame);
    }
    if (!m_paused && !m_finished && m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &SpdySession::onReadyRead, Qt::QueuedConnection);
}

void SpdySession::handle(const SpdyFrame &frame)
{
    switch (frame.type) {
    case SpdyFrame::SynStream:
        // Client streams have odd ids that only grow (section 2.3.2).
        if (frame.streamId % 2 == 0 || frame.streamId <= m_lastStream) {
            send(SpdyFramer::rstStream(frame.streamId, SpdyFramer::ProtocolError));
            return;
        }
        m_lastStream = frame.streamId;
        m_open.insert(frame.streamId);
        send(m_framer.synReply(frame.streamId, {}));
        emit streamOpened(frame.streamId, frame);
        if (frame.fin() || (frame.flags & SpdyFrame::FlagUnidirectional))
            emit streamEnded(frame.streamId);
        return;
    case SpdyFrame::Data:
        if (!m_open.contains(frame.streamId)) {
            send(SpdyFramer::rstStream(frame.streamId, SpdyFramer::InvalidStream));
            return;
        }
        if (!frame.data.isEmpty())
            emit streamData(frame.streamId, frame.data);
        if (frame.fin())
            emit streamEnded(frame.streamId);
        return;
    case SpdyFrame::RstStream:
        if (m_open.remove(frame.streamId)) {
            m_finishedOut.insert(frame.streamId); // nothing more may go to a reset stream
            emit streamEnded(frame.streamId);
        }
        return;
    case SpdyFrame::Ping:
        send(SpdyFramer::ping(frame.value));
        return;
    case SpdyFrame::GoAway:
        m_closing = true;
        m_socket->disconnectFromHost();
        return;
    default:
        return; // SETTINGS, WINDOW_UPDATE, HEADERS: nothing this server acts on
    }
}

void SpdySession::fail(const QString &why)
{
    qCWarning(lcSpdy) << "SPDY connection ends:" << why;
    send(SpdyFramer::goAway(m_lastStream, SpdyFramer::ProtocolError));
    m_closing = true;
    m_socket->disconnectFromHost();
}

void SpdySession::send(const QByteArray &bytes)
{
    if (m_finished || m_socket->state() != QAbstractSocket::ConnectedState)
        return;
    m_socket->write(bytes);
}

void SpdySession::write(quint32 stream, const QByteArray &data)
{
    if (m_closing || !m_open.contains(stream) || m_finishedOut.contains(stream))
        return;
    m_activity.restart();
    for (qsizetype at = 0; at < data.size(); at += kMaxDataFrame)
        send(SpdyFramer::data(stream, data.mid(at, kMaxDataFrame)));
}

void SpdySession::finish(quint32 stream)
{
    if (m_closing || !m_open.contains(stream) || m_finishedOut.contains(stream))
        return;
    m_finishedOut.insert(stream);
    send(SpdyFramer::data(stream, {}, true));
}

void SpdySession::reset(quint32 stream, quint32 status)
{
    if (!m_open.remove(stream))
        return;
    m_finishedOut.insert(stream);
    send(SpdyFramer::rstStream(stream, status));
}

void SpdySession::close()
{
    if (m_closing || m_finished)
        return;
    send(SpdyFramer::goAway(m_lastStream));
    m_closing = true;
    m_socket->disconnectFromHost();
}

void SpdySession::abort()
{
    m_socket->abort();
    end();
}

void SpdySession::end()
{
    if (m_finished)
        return;
    m_finished = true;
    emit closed();
    deleteLater();
}

} // namespace sim
