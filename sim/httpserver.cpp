// SPDX-License-Identifier: GPL-3.0-or-later
#include "httpserver.h"

#include <QDateTime>
#include <QLocale>
#include <QSslServer>
#include <QSslSocket>
#include <QTimeZone>
#include <QUrl>

namespace sim {
namespace {
constexpr qsizetype kMaxHeaderBytes = 1 << 20;
constexpr qsizetype kMaxBodyBytes = 16 << 20;
// Keep this much queued in the TLS socket; the producer is asked for more as it drains.
constexpr qint64 kHighWater = 4 << 20;
} // namespace

QByteArray HttpRequest::header(const QByteArray &lowerName) const
{
    for (const auto &h : headers) {
        if (h.first == lowerName)
            return h.second;
    }
    return {};
}

QByteArray httpReasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 413:
        return "Request Entity Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 504:
        return "Gateway Timeout";
    default:
        return "Unknown";
    }
}

HttpConnection::HttpConnection(QSslSocket *socket, QObject *parent)
    : QObject(parent), m_socket(socket)
{
    socket->setParent(this);
    connect(socket, &QSslSocket::readyRead, this, &HttpConnection::onReadyRead);
    // Plain bytes are encrypted at once; the encrypted queue drains later: watch both, or a
    // slow reader stalls a produced response.
    connect(socket, &QSslSocket::bytesWritten, this, &HttpConnection::onBytesWritten);
    connect(socket, &QSslSocket::encryptedBytesWritten, this, &HttpConnection::onBytesWritten);
    connect(socket, &QSslSocket::disconnected, this, [this] {
        emit closed();
        deleteLater();
    });
    connect(socket, &QSslSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket->state() != QAbstractSocket::ConnectedState) {
            emit closed();
            deleteLater();
        }
    });
    if (socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &HttpConnection::onReadyRead, Qt::QueuedConnection);
}

bool HttpConnection::isOpen() const
{
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

qint64 HttpConnection::bytesToWrite() const
{
    return m_socket ? m_socket->bytesToWrite() + m_socket->encryptedBytesToWrite() : 0;
}

void HttpConnection::onReadyRead()
{
    m_buffer += m_socket->readAll();
    parse();
}

HttpRequestParser::Result HttpRequestParser::parse(QByteArray &buffer, HttpRequest *req,
                                                   int *errorStatus, QByteArray *errorMessage)
{
    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0) {
        if (buffer.size() <= kMaxHeaderBytes)
            return Result::NeedMore;
        *errorStatus = 431;
        *errorMessage = "request header too large";
        return Result::Error;
    }
    const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine[2].startsWith("HTTP/1.") ||
        !requestLine[1].startsWith('/')) {
        *errorStatus = 400;
        *errorMessage = "malformed request line";
        return Result::Error;
    }
    *req = HttpRequest();
    req->method = requestLine[0];
    const QUrl url = QUrl::fromEncoded(requestLine[1]);
    req->path = url.path(QUrl::FullyDecoded).toUtf8();
    // As Go's url.ParseQuery: a '+' in a query is a space (kubectl sends `command=exit+3`).
    req->query = QUrlQuery(url.query(QUrl::FullyEncoded).replace(u'+', QLatin1String("%20")));
    bool chunked = false;
    qsizetype contentLength = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        req->headers.append({name, value});
        if (name == "content-length") {
            bool ok = false;
            contentLength = value.toLongLong(&ok);
            if (!ok)
                contentLength = -1;
        } else if (name == "transfer-encoding" && value.toLower().contains("chunked")) {
            chunked = true;
        }
    }
    qsizetype consumed = headerEnd + 4;
    if (chunked) {
        // Decode a chunked body; wait for more data while it is incomplete.
        qsizetype pos = consumed;
        QByteArray body;
        bool complete = false;
        while (true) {
            const qsizetype eol = buffer.indexOf("\r\n", pos);
            if (eol < 0)
                break;
            bool ok = false;
            const qsizetype size =
                buffer.mid(pos, eol - pos).split(';').first().toLongLong(&ok, 16);
            if (!ok || size < 0 || size > kMaxBodyBytes) {
                *errorStatus = 400;
                *errorMessage = "malformed chunk";
                return Result::Error;
            }
            if (size == 0) {
                const qsizetype end = buffer.indexOf("\r\n", eol + 2);
                if (end < 0)
                    break;
                pos = end + 2;
                complete = true;
                break;
            }
            if (buffer.size() < eol + 2 + size + 2)
                break;
            body += buffer.mid(eol + 2, size);
            pos = eol + 2 + size + 2;
            if (body.size() > kMaxBodyBytes) {
                *errorStatus = 413;
                *errorMessage = "request body too large";
                return Result::Error;
            }
        }
        if (!complete)
            return Result::NeedMore;
        req->body = body;
        consumed = pos;
    } else {
        if (contentLength < 0 || contentLength > kMaxBodyBytes) {
            *errorStatus = contentLength < 0 ? 400 : 413;
            *errorMessage = contentLength < 0 ? "invalid Content-Length" : "request body too large";
            return Result::Error;
        }
        if (buffer.size() < consumed + contentLength)
            return Result::NeedMore;
        req->body = buffer.mid(consumed, contentLength);
        consumed += contentLength;
    }
    buffer.remove(0, consumed);
    return Result::Request;
}

void HttpConnection::parse()
{
    while (!m_busy) {
        HttpRequest req;
        int status = 0;
        QByteArray message;
        switch (HttpRequestParser::parse(m_buffer, &req, &status, &message)) {
        case HttpRequestParser::Result::NeedMore:
            return;
        case HttpRequestParser::Result::Error:
            fail(status, message);
            return;
        case HttpRequestParser::Result::Request:
            m_closeAfter = req.header("connection").toLower() == "close";
            m_busy = true;
            emit requestReady(this, req);
            break;
        }
    }
}

void HttpConnection::writeHead(int status, const QByteArray &contentType, qint64 contentLength)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + httpReasonPhrase(status) +
                      "\r\nContent-Type: " + contentType +
                      "\r\nCache-Control: no-cache, private\r\nDate: " +
                      QLocale::c()
                          .toString(QDateTime::currentDateTimeUtc(),
                                    QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
                          .toLatin1() +
                      "\r\n";
    if (contentLength >= 0)
        head += "Content-Length: " + QByteArray::number(contentLength) + "\r\n";
    else
        head += "Transfer-Encoding: chunked\r\n";
    if (m_closeAfter)
        head += "Connection: close\r\n";
    head += std::exchange(m_extraHeaders, {});
    head += "\r\n";
    m_socket->write(head);
}

void HttpConnection::respond(int status, const QByteArray &contentType, const QByteArray &body)
{
    writeHead(status, contentType, body.size());
    m_socket->write(body);
    finishResponse();
}

void HttpConnection::respondProduced(int status, const QByteArray &contentType, Producer producer)
{
    beginStream(status, contentType);
    m_producer = std::move(producer);
    onBytesWritten();
}

void HttpConnection::beginStream(int status, const QByteArray &contentType)
{
    writeHead(status, contentType, -1);
    m_streaming = true;
}

void HttpConnection::writeChunk(const QByteArray &data)
{
    if (!m_streaming || data.isEmpty())
        return;
    m_socket->write(QByteArray::number(data.size(), 16) + "\r\n");
    m_socket->write(data);
    m_socket->write("\r\n");
    m_socket->flush();
}

void HttpConnection::endStream()
{
    if (!m_streaming)
        return;
    m_socket->write("0\r\n\r\n");
    m_streaming = false;
    m_producer = nullptr;
    finishResponse();
}

void HttpConnection::abort()
{
    m_streaming = false;
    m_producer = nullptr;
    if (m_socket)
        m_socket->abort();
}

QSslSocket *HttpConnection::upgrade(const QByteArray &head, QByteArray *leftover)
{
    m_socket->write(head);
    m_socket->disconnect(this);
    m_socket->setParent(nullptr);
    *leftover = std::exchange(m_buffer, {});
    QSslSocket *socket = std::exchange(m_socket, nullptr);
    m_busy = true; // no more requests on this connection
    emit closed();
    deleteLater();
    return socket;
}

void HttpConnection::onBytesWritten()
{
    // writeChunk() flushes, and QSslSocket may emit bytesWritten from inside that flush: a
    // second producer loop inside the TLS backend's write corrupts it (the simulator crashed).
    if (!m_producer || m_producing)
        return;
    m_producing = true;
    while (m_producer && bytesToWrite() < kHighWater) {
        const QByteArray piece = m_producer();
        if (piece.isEmpty()) {
            m_producing = false;
            endStream();
            return;
        }
        writeChunk(piece);
    }
    m_producing = false;
}

void HttpConnection::finishResponse()
{
    m_busy = false;
    if (m_closeAfter) {
        m_socket->disconnectFromHost();
        return;
    }
    if (!m_buffer.isEmpty())
        QMetaObject::invokeMethod(this, &HttpConnection::parse, Qt::QueuedConnection);
}

void HttpConnection::fail(int status, const QByteArray &message)
{
    m_closeAfter = true;
    m_buffer.clear();
    respond(status, "text/plain; charset=utf-8", message + '\n');
}

namespace {

// Hands out its connections as QSslSocket in unencrypted mode, so HttpConnection serves both.
class PlainServer : public QTcpServer
{
public:
    using QTcpServer::QTcpServer;

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QSslSocket(this);
        if (socket->setSocketDescriptor(descriptor))
            addPendingConnection(socket);
        else
            delete socket;
    }
};

} // namespace

HttpServer::HttpServer(const QSslConfiguration &tls, Handler handler, QObject *parent)
    : QObject(parent), m_handler(std::move(handler))
{
    auto *server = new QSslServer(this);
    server->setSslConfiguration(tls);
    server->setHandshakeTimeout(10000);
    m_server = server;
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, &HttpServer::accept);
}

HttpServer::HttpServer(Handler handler, QObject *parent)
    : QObject(parent), m_server(new PlainServer(this)), m_handler(std::move(handler))
{
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, &HttpServer::accept);
}

void HttpServer::accept()
{
    while (auto *socket = qobject_cast<QSslSocket *>(m_server->nextPendingConnection())) {
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        auto *conn = new HttpConnection(socket, this);
        connect(conn, &HttpConnection::requestReady, this,
                [this](HttpConnection *c, const HttpRequest &r) { m_handler(c, r); });
    }
}

bool HttpServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    if (!m_server->listen(address, port)) {
        *error = m_server->errorString();
        return false;
    }
    return true;
}

quint16 HttpServer::port() const
{
    return m_server->serverPort();
}

} // namespace sim
