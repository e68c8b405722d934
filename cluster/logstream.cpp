// SPDX-License-Identifier: GPL-3.0-or-later
#include "logstream.h"

#include "kubeclient.h"

#include <QNetworkReply>
#include <QRandomGenerator>
#include <QUrlQuery>

namespace gpudesk {

LogStream::LogStream(KubeClient *client, QString ns, QString pod, QObject *parent)
    : QObject(parent), m_client(client), m_ns(std::move(ns)), m_pod(std::move(pod))
{
    client->attach(&m_nam);
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &LogStream::open);
}

LogStream::~LogStream()
{
    stop();
}

QString LogStream::path(const QString &ns, const QString &pod, const Options &o,
                        const QByteArray &sinceTime)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("timestamps"), QStringLiteral("true"));
    if (!o.container.isEmpty())
        q.addQueryItem(QStringLiteral("container"), o.container);
    if (o.follow)
        q.addQueryItem(QStringLiteral("follow"), QStringLiteral("true"));
    if (o.previous)
        q.addQueryItem(QStringLiteral("previous"), QStringLiteral("true"));
    if (!sinceTime.isEmpty())
        q.addQueryItem(QStringLiteral("sinceTime"), QString::fromLatin1(sinceTime));
    else if (o.tailLines >= 0)
        q.addQueryItem(QStringLiteral("tailLines"), QString::number(o.tailLines));
    return QStringLiteral("/api/v1/namespaces/%1/pods/%2/log?").arg(ns, pod) +
           q.toString(QUrl::FullyEncoded);
}

void LogStream::start(const Options &options)
{
    stop();
    m_options = options;
    m_lastTimestamp.clear();
    m_seenAtLast = m_skipAtLast = 0;
    m_attempt = 0;
    open();
}

void LogStream::stop()
{
    m_retry.stop();
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
    m_partial.clear();
}

void LogStream::setState(State state, const QString &message)
{
    m_state = state;
    emit stateChanged(state, message);
}

void LogStream::open()
{
    // Resuming: from the last line's time; lines at exactly that time already shown are skipped.
    m_skipAtLast = m_lastTimestamp.isEmpty() ? 0 : m_seenAtLast;
    QNetworkRequest req = m_client->request(path(m_ns, m_pod, m_options, m_lastTimestamp));
    req.setRawHeader("Accept", "*/*");
    if (m_options.follow)
        req.setTransferTimeout(0); // a quiet container is not a dead link
    else
        req.setTransferTimeout(60000);
    m_partial.clear();
    m_reply = m_nam.get(req);
    connect(m_reply, &QNetworkReply::readyRead, this, &LogStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &LogStream::onFinished);
    setState(Streaming);
}

void LogStream::onReadyRead()
{
    if (m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() >= 400)
        return; // the error body is read in onFinished
    deliver(m_reply->readAll(), false);
}

void LogStream::deliver(const QByteArray &chunk, bool final)
{
    m_partial += chunk;
    QList<LogLine> out;
    qsizetype start = 0;
    auto take = [&](qsizetype end) {
        const QByteArray line = m_partial.mid(start, end - start);
        const qsizetype space = line.indexOf(' ');
        LogLine l;
        if (space > 0 && line.at(0) >= '0' && line.at(0) <= '9') {
            l.timestamp = line.left(space);
            l.text = line.mid(space + 1);
        } else {
            l.text = line;
        }
        if (!l.timestamp.isEmpty()) {
            // RFC 3339 with the same precision compares as text.
            if (!m_lastTimestamp.isEmpty() && l.timestamp < m_lastTimestamp)
                return;
            if (l.timestamp == m_lastTimestamp) {
                if (m_skipAtLast > 0) {
                    --m_skipAtLast;
                    return;
                }
                ++m_seenAtLast;
            } else {
                m_lastTimestamp = l.timestamp;
                m_seenAtLast = 1;
                m_skipAtLast = 0;
            }
        }
        out.append(std::move(l));
    };
    for (qsizetype nl = m_partial.indexOf('\n'); nl >= 0; nl = m_partial.indexOf('\n', start)) {
        take(nl);
        start = nl + 1;
    }
    m_partial.remove(0, start);
    if (final && !m_partial.isEmpty()) {
        start = 0;
        take(m_partial.size());
        m_partial.clear();
    }
    if (!out.isEmpty())
        emit lines(out);
}

void LogStream::onFinished()
{
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status >= 400) {
        const QByteArray body = reply->readAll();
        const QString server = statusMessage(body);
        setState(Failed, server.isEmpty() ? QString::fromUtf8(body.left(500)).trimmed() : server);
        return;
    }
    if (reply->error() == QNetworkReply::NoError) {
        deliver(reply->readAll(), true);
        m_attempt = 0;
        setState(Ended);
        return;
    }
    // A line cut off by the break is dropped: the resume sends it again, whole.
    m_partial.clear();
    if (!m_options.follow) {
        setState(Failed, m_client->describeError(reply));
        return;
    }
    // The link broke while following: resume after a short, growing, jittered pause.
    const int delay = int(std::min(15000.0, 500.0 * (1 << std::min(m_attempt++, 5))) *
                          (0.8 + 0.4 * QRandomGenerator::global()->generateDouble()));
    setState(Reconnecting, m_client->describeError(reply));
    m_retry.start(delay);
}

} // namespace gpudesk
