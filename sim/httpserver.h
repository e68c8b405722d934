// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSslConfiguration>
#include <QString>
#include <QUrlQuery>

#include <functional>

class QSslSocket;
class QTcpServer;

namespace sim {

struct HttpRequest
{
    QByteArray method;
    QByteArray path; // percent-decoded path without the query
    QUrlQuery query;
    QList<QPair<QByteArray, QByteArray>> headers; // names in lower case
    QByteArray body;

    QByteArray header(const QByteArray &lowerName) const;
    QString queryValue(const QString &key) const
    {
        return query.queryItemValue(key, QUrl::FullyDecoded);
    }
    bool hasQuery(const QString &key) const { return query.hasQueryItem(key); }
};

// HTTP/1.1 request framing (Content-Length or chunked body), a pure function of the bytes so
// that it can be fuzzed: takes one complete request off the front of `buffer`.
class HttpRequestParser
{
public:
    enum class Result
    {
        NeedMore,
        Request,
        Error
    };
    static Result parse(QByteArray &buffer, HttpRequest *request, int *errorStatus,
                        QByteArray *errorMessage);
};

// One HTTP/1.1 connection with keep-alive. A response is either complete (Content-Length) or a
// chunked stream: pulled from a producer while the socket drains (large lists, logs), or pushed
// by the owner (watch, follow) until it ends it. Requests queue while a response is in progress.
class HttpConnection : public QObject
{
    Q_OBJECT
public:
    using Producer = std::function<QByteArray()>; // empty result = end of body

    explicit HttpConnection(QSslSocket *socket, QObject *parent = nullptr);

    // Header lines ("Name: value") the next response carries besides the usual ones.
    void addResponseHeader(const QByteArray &name, const QByteArray &value)
    {
        m_extraHeaders += name + ": " + value + "\r\n";
    }
    void respond(int status, const QByteArray &contentType, const QByteArray &body);
    void respondProduced(int status, const QByteArray &contentType, Producer producer);
    void beginStream(int status, const QByteArray &contentType);
    void writeChunk(const QByteArray &data);
    void endStream();
    // Drops the connection mid-response, as a crashed server or a cut network would.
    void abort();
    // Answers `head` (a 101 Switching Protocols) and gives the socket up to its new owner, with
    // what the client already sent after its request; this connection then goes.
    QSslSocket *upgrade(const QByteArray &head, QByteArray *leftover);
    bool isOpen() const;
    qint64 bytesToWrite() const;

signals:
    void requestReady(sim::HttpConnection *connection, const sim::HttpRequest &request);
    void closed();

private:
    void onReadyRead();
    void onBytesWritten();
    void parse();
    void writeHead(int status, const QByteArray &contentType, qint64 contentLength);
    void finishResponse();
    void fail(int status, const QByteArray &message);

    QSslSocket *m_socket;
    QByteArray m_buffer;
    QByteArray m_extraHeaders;
    bool m_busy = false;      // a response is in progress
    bool m_streaming = false; // chunked response open
    Producer m_producer;
    bool m_producing = false; // inside onBytesWritten: a flush may emit bytesWritten again
    bool m_closeAfter = false;
};

class HttpServer : public QObject
{
    Q_OBJECT
public:
    using Handler = std::function<void(HttpConnection *, const HttpRequest &)>;

    HttpServer(const QSslConfiguration &tls, Handler handler, QObject *parent = nullptr);
    // Plain HTTP, for peers that only speak it on loopback (a registry's notification sender
    // trusts only the system's CAs, as Harbor's core is reached inside its own network).
    explicit HttpServer(Handler handler, QObject *parent = nullptr);
    bool listen(const QHostAddress &address, quint16 port, QString *error);
    quint16 port() const;

private:
    void accept();

    QTcpServer *m_server;
    Handler m_handler;
};

QByteArray httpReasonPhrase(int status);

} // namespace sim
