// SPDX-License-Identifier: GPL-3.0-or-later
#include "scriptedserver.h"

#include <QTcpSocket>

QByteArray ScriptedServer::Request::header(const QByteArray &name) const
{
    for (const auto &[k, v] : headers)
        if (k.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

ScriptedServer::ScriptedServer(Handler handler, QObject *parent)
    : QObject(parent), m_handler(std::move(handler))
{
    connect(&m_server, &QTcpServer::newConnection, this, &ScriptedServer::onConnection);
    m_server.listen(QHostAddress::LocalHost, 0);
}

QString ScriptedServer::url() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(port());
}

int ScriptedServer::count(const QByteArray &pathPrefix) const
{
    int n = 0;
    for (const Request &r : m_requests)
        n += r.target.startsWith(pathPrefix) ? 1 : 0;
    return n;
}

void ScriptedServer::onConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        socket->setParent(this);
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
            *buffer += socket->readAll();
            // One request at a time per connection (Qt's client pipelines nothing by default).
            while (true) {
                const qsizetype end = buffer->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                Request r;
                const QList<QByteArray> lines = buffer->left(end).split('\n');
                const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
                r.method = first.value(0);
                r.target = first.value(1);
                qsizetype length = 0;
                for (qsizetype i = 1; i < lines.size(); ++i) {
                    const qsizetype colon = lines[i].indexOf(':');
                    if (colon < 0)
                        continue;
                    const QByteArray key = lines[i].left(colon).trimmed();
                    const QByteArray value = lines[i].mid(colon + 1).trimmed();
                    r.headers.append({key, value});
                    if (key.compare("content-length", Qt::CaseInsensitive) == 0)
                        length = value.toLongLong();
                }
                if (buffer->size() < end + 4 + length)
                    return;
                r.body = buffer->mid(end + 4, length);
                buffer->remove(0, end + 4 + length);
                m_requests.append(r);
                m_handler(r, socket);
            }
        });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }
}

void ScriptedServer::respond(QTcpSocket *socket, int status, const QByteArray &body,
                             const QByteArray &contentType)
{
    socket->write("HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: " + contentType +
                  "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
}

void ScriptedServer::startChunked(QTcpSocket *socket, int status, const QByteArray &contentType)
{
    socket->write("HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: " + contentType +
                  "\r\nTransfer-Encoding: chunked\r\n\r\n");
}

void ScriptedServer::chunk(QTcpSocket *socket, const QByteArray &data)
{
    socket->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
}
