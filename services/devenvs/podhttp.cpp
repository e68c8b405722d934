// SPDX-License-Identifier: GPL-3.0-or-later
#include "podhttp.h"

#include "portforwardstream.h"

#include <QCoreApplication>
#include <QTimer>

#include <memory>

namespace gpudesk::PodHttp {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("gpudesk::PodHttp", text);
}
} // namespace

bool parseResponse(const QByteArray &raw, bool closed, int *status, QByteArray *body)
{
    const qsizetype headEnd = raw.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return false;
    const QList<QByteArray> lines = raw.left(headEnd).split('\n');
    const QList<QByteArray> statusLine = lines.first().trimmed().split(' ');
    // Not HTTP (what listens is another program, or a broken one): never whole, said at once.
    bool ok = false;
    const int code = statusLine.size() < 2 ? 0 : statusLine.at(1).toInt(&ok);
    if (!statusLine.first().startsWith("HTTP/1.") || !ok || code < 100 || code > 599) {
        *status = NotHttp;
        return false;
    }
    *status = code;
    qint64 length = -1;
    bool chunked = false;
    for (const QByteArray &line : lines.mid(1)) {
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "content-length")
            length = value.toLongLong();
        else if (name == "transfer-encoding" && value.toLower().contains("chunked"))
            chunked = true;
    }
    const QByteArray rest = raw.mid(headEnd + 4);
    if (chunked) {
        body->clear();
        qsizetype at = 0;
        for (;;) {
            const qsizetype eol = rest.indexOf("\r\n", at);
            if (eol < 0)
                return false;
            bool ok = false;
            const qint64 size =
                rest.mid(at, eol - at).split(';').first().trimmed().toLongLong(&ok, 16);
            // A size beyond what may be read is refused before any arithmetic with it.
            if (!ok || size < 0 || size > MaxAnswerBytes)
                return false;
            if (size == 0)
                return true;
            if (rest.size() < eol + 2 + size + 2)
                return false;
            body->append(rest.mid(eol + 2, size));
            at = eol + 2 + size + 2;
        }
    }
    if (length >= 0) {
        if (rest.size() < length)
            return false;
        *body = rest.left(length);
        return true;
    }
    *body = rest;
    return closed;
}

void get(KubeClient *client, const QString &ns, const QString &pod, quint16 port,
         const QString &path, const QByteArray &authorization, QObject *context,
         std::function<void(const Answer &)> done)
{
    auto *stream = new PortForwardStream(client, ns, pod, port, context);
    auto *timeout = new QTimer(stream);
    timeout->setSingleShot(true);
    auto raw = std::make_shared<QByteArray>();
    auto ended = std::make_shared<bool>(false);
    auto finish = [stream, ended, done](const Answer &a) {
        if (std::exchange(*ended, true))
            return;
        stream->close();
        stream->deleteLater();
        done(a);
    };
    auto conclude = [raw, finish, pod, path](bool closed) {
        Answer a;
        if (parseResponse(*raw, closed, &a.status, &a.body)) {
            finish(a);
        } else if (a.status == NotHttp) {
            a.status = 0;
            a.error = tr("%1 did not answer %2 in HTTP.").arg(pod, path);
            finish(a);
        } else if (closed) {
            a.error = tr("%1 closed the connection before answering %2.").arg(pod, path);
            finish(a);
        }
    };
    QObject::connect(
        stream, &PortForwardStream::ready, context, [stream, path, port, authorization] {
            QByteArray request = "GET " + path.toUtf8() +
                                 " HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port) +
                                 "\r\nAccept: application/json\r\nConnection: close\r\n";
            if (!authorization.isEmpty())
                request += "Authorization: " + authorization + "\r\n";
            stream->write(request + "\r\n");
        });
    QObject::connect(
        stream, &PortForwardStream::received, context,
        [raw, conclude, finish, pod](const QByteArray &data) {
            raw->append(data);
            if (raw->size() > MaxAnswerBytes) {
                Answer a;
                a.error =
                    tr("%1 answered with more than %2 MiB.").arg(pod).arg(MaxAnswerBytes >> 20);
                finish(a);
                return;
            }
            conclude(false);
        });
    QObject::connect(stream, &PortForwardStream::finished, context, [conclude] { conclude(true); });
    // A program that takes the connection and never answers is no answer either.
    QObject::connect(timeout, &QTimer::timeout, context, [finish, pod, path] {
        Answer a;
        a.error =
            tr("%1 did not answer %2 within %3 s.").arg(pod, path).arg(AnswerTimeoutMs / 1000);
        finish(a);
    });
    timeout->start(AnswerTimeoutMs);
    QObject::connect(stream, &PortForwardStream::failed, context,
                     [finish](const QString &error, bool) {
                         finish(Answer{0, {}, error});
                     });
    stream->open();
}

void banner(KubeClient *client, const QString &ns, const QString &pod, quint16 port, int silenceMs,
            QObject *context, std::function<void(bool, const QString &)> done)
{
    auto *stream = new PortForwardStream(client, ns, pod, port, context);
    auto *silence = new QTimer(stream);
    silence->setSingleShot(true);
    auto ended = std::make_shared<bool>(false);
    auto finish = [stream, ended, done](bool answered, const QString &why) {
        if (std::exchange(*ended, true))
            return;
        stream->close();
        stream->deleteLater();
        done(answered, why);
    };
    QObject::connect(stream, &PortForwardStream::ready, silence,
                     [silence, silenceMs] { silence->start(silenceMs); });
    QObject::connect(silence, &QTimer::timeout, context, [finish, pod, port, silenceMs] {
        finish(
            false,
            tr("port %1 of %2 said nothing within %3 s").arg(port).arg(pod).arg(silenceMs / 1000));
    });
    QObject::connect(stream, &PortForwardStream::received, context,
                     [finish](const QByteArray &) { finish(true, {}); });
    QObject::connect(stream, &PortForwardStream::finished, context, [finish, pod, port] {
        finish(false, tr("port %1 of %2 closed without a word").arg(port).arg(pod));
    });
    QObject::connect(stream, &PortForwardStream::failed, context,
                     [finish](const QString &error, bool) { finish(false, error); });
    stream->open();
}

} // namespace gpudesk::PodHttp
