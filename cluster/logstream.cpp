// SPDX-License-Identifier: GPL-3.0-or-later
#include "logstream.h"

#include "kubeclient.h"

#include <QNetworkReply>
#include <QRandomGenerator>
#include <QUrlQuery>

namespace gpudesk {

namespace {
// The check of a quiet stream's server: a small request on a fresh connection.
constexpr int kServerCheckMs = 5000;
} // namespace

LogStream::LogStream(KubeClient *client, QString ns, QString pod, QObject *parent)
    : QObject(parent), m_client(client), m_ns(std::move(ns)), m_pod(std::move(pod))
{
    client->attach(&m_nam);
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &LogStream::open);
    m_quiet.setSingleShot(true);
    connect(&m_quiet, &QTimer::timeout, this, &LogStream::checkServer);
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
    if (o.limitBytes > 0)
        q.addQueryItem(QStringLiteral("limitBytes"), QString::number(o.limitBytes));
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
    dropReply();
}

void LogStream::dropReply()
{
    m_quiet.stop();
    for (QNetworkReply *r : {m_reply.data(), m_check.data()}) {
        if (!r)
            continue;
        r->disconnect(this);
        r->abort();
        r->deleteLater();
    }
    // A line cut off here is sent again, whole, by the stream that resumes from the last line.
    m_partial.clear();
    m_skippingLongLine = false;
}

void LogStream::checkServer()
{
    if (!m_reply || m_check)
        return;
    m_checkNam = std::make_unique<QNetworkAccessManager>();
    m_client->attach(m_checkNam.get());
    QNetworkRequest req = m_client->request(QStringLiteral("/version"));
    req.setTransferTimeout(kServerCheckMs);
    QNetworkReply *check = m_checkNam->get(req);
    m_check = check;
    connect(check, &QNetworkReply::finished, this, [this, check] {
        check->deleteLater();
        if (check->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() > 0) {
            // The server answers. The container may just be quiet, or a proxy dropped the
            // stream without a word: open it again from the last line (nothing lost or
            // repeated), which costs one request a quiet interval.
            dropReply();
            open();
            return;
        }
        const QString quietS = QString::number(m_options.quietCheckMs / 1000.0, 'g', 3);
        dropReply();
        const int delay = int(std::min(15000.0, 500.0 * (1 << std::min(m_attempt++, 5))));
        setState(Reconnecting,
                 tr("No log line for %1 s, and %2 did not answer a check within %3 s: the API "
                    "server is not responding")
                     .arg(quietS)
                     .arg(m_client->endpoint().server)
                     .arg(kServerCheckMs / 1000));
        m_retry.start(delay);
    });
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
    m_resumedAt = m_lastTimestamp;
    QNetworkRequest req = m_client->request(path(m_ns, m_pod, m_options, m_lastTimestamp));
    req.setRawHeader("Accept", "*/*");
    if (m_options.follow)
        req.setTransferTimeout(0); // a quiet container is not a dead link
    else
        req.setTransferTimeout(60000);
    m_partial.clear();
    m_skippingLongLine = false;
    m_reply = m_nam.get(req);
    connect(m_reply, &QNetworkReply::readyRead, this, &LogStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &LogStream::onFinished);
    if (m_options.follow && m_options.quietCheckMs > 0)
        m_quiet.start(m_options.quietCheckMs);
    setState(Streaming);
}

void LogStream::onReadyRead()
{
    if (m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() >= 400)
        return; // the error body is read in onFinished
    if (m_quiet.isActive())
        m_quiet.start();
    m_attempt = 0;
    deliver(m_reply->readAll(), false);
}

void LogStream::deliver(const QByteArray &chunk, bool final)
{
    if (m_skippingLongLine) {
        // The rest of a line shown cut: dropped up to its end.
        const qsizetype nl = chunk.indexOf('\n');
        if (nl < 0)
            return;
        m_skippingLongLine = false;
        m_partial += chunk.mid(nl + 1);
    } else {
        m_partial += chunk;
    }
    QList<LogLine> out;
    qsizetype start = 0;
    // A line this long is shown cut, with a note, whether or not its end came with it.
    const QByteArray cutNote = tr(" … [line cut at %1 MiB by gpudesk; a download keeps it whole]")
                                   .arg(MaxLineBytes >> 20)
                                   .toUtf8();
    auto take = [&](qsizetype end) {
        const QByteArray line = end - start > MaxLineBytes
                                    ? m_partial.mid(start, MaxLineBytes) + cutNote
                                    : m_partial.mid(start, end - start);
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
            if (!m_resumedAt.isEmpty()) {
                if (l.timestamp < m_resumedAt)
                    return;
                if (l.timestamp == m_resumedAt && m_skipAtLast > 0) {
                    --m_skipAtLast;
                    return;
                }
                if (l.timestamp > m_resumedAt)
                    m_resumedAt.clear(); // past what was shown: everything is new now
            }
            if (l.timestamp == m_lastTimestamp) {
                ++m_seenAtLast;
            } else if (l.timestamp > m_lastTimestamp) {
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
    if (m_partial.size() > MaxLineBytes && !final) {
        // A line without its end this long: shown cut, with a note, and the rest skipped (a
        // broken or hostile stream would otherwise grow this buffer without a bound).
        start = 0;
        take(m_partial.size());
        m_partial = QByteArray();
        m_skippingLongLine = true;
    }
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
    m_quiet.stop();
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
    m_skippingLongLine = false;
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
