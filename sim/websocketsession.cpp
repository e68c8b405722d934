// SPDX-License-Identifier: GPL-3.0-or-later
#include "websocketsession.h"

#include <QCryptographicHash>
#include <QSslSocket>
#include <QtEndian>

namespace sim {
namespace {
constexpr qsizetype kMaxMessageBytes = 16 << 20;
constexpr qint64 kHighWater = 4 << 20;

enum Opcode : quint8
{
    Continuation = 0x0,
    Text = 0x1,
    Binary = 0x2,
    Close = 0x8,
    Ping = 0x9,
    Pong = 0xA,
};
} // namespace

QString WebSocketSession::checkUpgrade(const HttpRequest &r)
{
    if (r.method != "GET")
        return QStringLiteral("Upgrade request required");
    if (!r.header("upgrade").toLower().contains("websocket") ||
        !r.header("connection").toLower().contains("upgrade"))
        return QStringLiteral("Upgrade request required");
    if (r.header("sec-websocket-version") != "13")
        return QStringLiteral("unsupported WebSocket version (13 is)");
    if (QByteArray::fromBase64(r.header("sec-websocket-key")).size() != 16)
        return QStringLiteral("missing or malformed Sec-WebSocket-Key");
    return {};
}

QByteArray WebSocketSession::acceptKey(const QByteArray &clientKey)
{
    return QCryptographicHash::hash(QByteArray(clientKey + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"),
                                    QCryptographicHash::Sha1)
        .toBase64();
}

QByteArray WebSocketSession::chooseProtocol(const HttpRequest &r,
                                            const QList<QByteArray> &supported)
{
    // The header may come once with a list, or several times.
    for (const auto &h : r.headers) {
        if (h.first != "sec-websocket-protocol")
            continue;
        for (const QByteArray &p : h.second.split(','))
            if (supported.contains(p.trimmed()))
                return p.trimmed();
    }
    return {};
}

WebSocketSession *WebSocketSession::accept(HttpConnection *c, const HttpRequest &r,
                                           const QByteArray &protocol, QObject *parent)
{
    QByteArray head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Accept: " +
                      acceptKey(r.header("sec-websocket-key")) + "\r\n";
    if (!protocol.isEmpty())
        head += "Sec-WebSocket-Protocol: " + protocol + "\r\n";
    head += "\r\n";
    QByteArray leftover;
    QSslSocket *socket = c->upgrade(head, &leftover);
    return new WebSocketSession(socket, leftover, protocol, parent);
}

WebSocketSession::WebSocketSession(QSslSocket *socket, const QByteArray &leftover,
                                   const QByteArray &protocol, QObject *parent)
    : ChannelTransport(parent), m_socket(socket), m_buffer(leftover), m_protocol(protocol)
{
    m_socket->setParent(this);
    // What the client sends waits in the kernel while a backend is slow (TCP pushes back).
    m_socket->setReadBufferSize(1 << 20);
    m_activity.start();
    connect(m_socket, &QSslSocket::readyRead, this, &WebSocketSession::onReadyRead);
    connect(m_socket, &QSslSocket::encryptedBytesWritten, this, [this] {
        if (bytesToWrite() < kHighWater)
            emit drained();
    });
    connect(m_socket, &QSslSocket::disconnected, this, &WebSocketSession::finish);
    connect(m_socket, &QSslSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket->state() != QAbstractSocket::ConnectedState)
            finish();
    });
    if (!m_buffer.isEmpty() || m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &WebSocketSession::onReadyRead, Qt::QueuedConnection);
}

bool WebSocketSession::isOpen() const
{
    return !m_finished && !m_closing && m_socket->state() == QAbstractSocket::ConnectedState;
}

qint64 WebSocketSession::bytesToWrite() const
{
    return m_socket->bytesToWrite() + m_socket->encryptedBytesToWrite();
}

void WebSocketSession::setReadPaused(bool paused)
{
    m_paused = paused;
    if (!paused)
        QMetaObject::invokeMethod(this, &WebSocketSession::onReadyRead, Qt::QueuedConnection);
}

void WebSocketSession::onReadyRead()
{
    if (m_paused || m_finished)
        return;
    m_buffer += m_socket->read(1 << 20);
    parseFrames();
    if (!m_paused && m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &WebSocketSession::onReadyRead, Qt::QueuedConnection);
}

void WebSocketSession::parseFrames()
{
    while (!m_paused && !m_finished) {
        if (m_buffer.size() < 2)
            return;
        const auto *b = reinterpret_cast<const uchar *>(m_buffer.constData());
        const bool fin = b[0] & 0x80;
        const quint8 opcode = b[0] & 0x0F;
        const bool masked = b[1] & 0x80;
        quint64 length = b[1] & 0x7F;
        qsizetype pos = 2;
        if (length == 126) {
            if (m_buffer.size() < 4)
                return;
            length = qFromBigEndian<quint16>(b + 2);
            pos = 4;
        } else if (length == 127) {
            if (m_buffer.size() < 10)
                return;
            length = qFromBigEndian<quint64>(b + 2);
            pos = 10;
        }
        if (!masked) {
            close(1002, "client frames must be masked");
            return;
        }
        if (length > quint64(kMaxMessageBytes) ||
            quint64(m_message.size()) + length > quint64(kMaxMessageBytes)) {
            close(1009, "message too big");
            return;
        }
        if (m_buffer.size() < pos + 4 + qsizetype(length))
            return;
        const uchar *mask = b + pos;
        QByteArray payload = m_buffer.mid(pos + 4, qsizetype(length));
        for (qsizetype i = 0; i < payload.size(); ++i)
            payload[i] = char(payload[i] ^ mask[i % 4]);
        m_buffer.remove(0, pos + 4 + qsizetype(length));
        m_activity.restart();
        switch (opcode) {
        case Ping:
            sendFrame(Pong, payload);
            break;
        case Pong:
            break;
        case Close:
            // Echo the client's code, then go (RFC 6455 5.5.1).
            if (!m_closing)
                sendFrame(Close, payload.left(2));
            m_closing = true;
            m_socket->disconnectFromHost();
            return;
        case Text:
        case Binary:
        case Continuation:
            m_message += payload;
            if (fin)
                emit binaryMessage(std::exchange(m_message, {}));
            break;
        default:
            close(1002, "unknown opcode");
            return;
        }
    }
}

void WebSocketSession::sendFrame(quint8 opcode, const QByteArray &payload)
{
    if (m_finished || m_socket->state() != QAbstractSocket::ConnectedState)
        return;
    QByteArray head(1, char(0x80 | opcode)); // server frames are not masked
    const qsizetype n = payload.size();
    if (n < 126) {
        head.append(char(n));
    } else if (n <= 0xFFFF) {
        head.append(char(126));
        uchar len[2];
        qToBigEndian<quint16>(quint16(n), len);
        head.append(reinterpret_cast<const char *>(len), 2);
    } else {
        head.append(char(127));
        uchar len[8];
        qToBigEndian<quint64>(quint64(n), len);
        head.append(reinterpret_cast<const char *>(len), 8);
    }
    m_socket->write(head);
    m_socket->write(payload);
}

void WebSocketSession::sendBinary(const QByteArray &message)
{
    if (m_closing)
        return;
    m_activity.restart();
    sendFrame(Binary, message);
}

void WebSocketSession::close(quint16 code, const QByteArray &reason)
{
    if (m_closing || m_finished)
        return;
    uchar c[2];
    qToBigEndian<quint16>(code, c);
    sendFrame(Close, QByteArray(reinterpret_cast<const char *>(c), 2) + reason.left(120));
    m_closing = true;
    m_socket->disconnectFromHost();
}

void WebSocketSession::abort()
{
    m_socket->abort();
    finish();
}

void WebSocketSession::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    emit closed();
    deleteLater();
}

} // namespace sim
