// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QTcpServer>

#include <functional>

class QTcpSocket;

// A plain-HTTP server on 127.0.0.1 whose every answer a test scripts: a well-formed page, a
// Table where a list belongs, a 410 for every continue token, an endless body, a byte every
// ten seconds, or silence. The outermost edge only — what it serves is what a broken proxy or
// a hostile API server would, so that gpudesk's own client is what is tested.
class ScriptedServer : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QByteArray method;
        QByteArray target; // path and query, as sent
        QList<std::pair<QByteArray, QByteArray>> headers;
        QByteArray body;
        QByteArray header(const QByteArray &name) const;
    };
    // Answers one request on `socket` (write, keep writing on a timer, or never answer); the
    // socket belongs to the server.
    using Handler = std::function<void(const Request &, QTcpSocket *)>;

    explicit ScriptedServer(Handler handler, QObject *parent = nullptr);
    quint16 port() const { return m_server.serverPort(); }
    QString url() const;
    QList<Request> requests() const { return m_requests; }
    int count(const QByteArray &pathPrefix) const;

    // A complete response: status line, Content-Type, Content-Length, body.
    static void respond(QTcpSocket *socket, int status, const QByteArray &body,
                        const QByteArray &contentType = "application/json");
    // Starts a chunked response; write chunks with chunk().
    static void startChunked(QTcpSocket *socket, int status = 200,
                             const QByteArray &contentType = "application/json");
    static void chunk(QTcpSocket *socket, const QByteArray &data);

private:
    void onConnection();
    QTcpServer m_server;
    Handler m_handler;
    QList<Request> m_requests;
};
