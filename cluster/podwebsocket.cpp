// SPDX-License-Identifier: GPL-3.0-or-later
#include "podwebsocket.h"

#include "kubeclient.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>
#include <QWebSocket>
#include <QWebSocketHandshakeOptions>

namespace gpudesk {

namespace {
constexpr int DefaultPingMs = 20000;

// /api/v1/namespaces/NS/pods/NAME/SUB?… → NS, NAME, SUB.
struct PodPath
{
    QString ns, pod, subresource;
};
PodPath splitPath(const QString &path)
{
    const QStringList parts = path.section(u'?', 0, 0).split(u'/', Qt::SkipEmptyParts);
    return {parts.value(3), parts.value(5), parts.value(6)};
}
} // namespace

PodWebSocket::PodWebSocket(KubeClient *client, const QString &path, const QStringList &protocols,
                           QObject *parent)
    : QObject(parent), m_client(client), m_path(path), m_protocols(protocols)
{
    m_ping.setInterval(DefaultPingMs);
    connect(&m_ping, &QTimer::timeout, this, [this] {
        if (!m_ws || !m_open)
            return;
        // Two intervals without an answer: the path is gone even if TCP has not noticed.
        if (m_sincePong.elapsed() > 2 * m_ping.interval() + 1000) {
            fail(tr("The stream stopped answering (no answer to pings for %1 s).")
                     .arg(m_sincePong.elapsed() / 1000),
                 0);
            return;
        }
        m_ws->ping();
    });
}

PodWebSocket::~PodWebSocket()
{
    if (m_ws)
        m_ws->abort();
}

void PodWebSocket::setPingInterval(int ms)
{
    m_ping.setInterval(ms);
}

QString PodWebSocket::protocol() const
{
    return m_ws ? m_ws->subprotocol() : QString();
}

qint64 PodWebSocket::bytesToWrite() const
{
    return m_ws ? m_ws->bytesToWrite() : 0;
}

void PodWebSocket::open()
{
    m_client->ensureCredentials(this, [this](const QString &error) {
        if (!error.isEmpty())
            fail(error, 0);
        else
            start();
    });
}

void PodWebSocket::start()
{
    if (m_ws)
        m_ws->deleteLater();
    m_ws = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
    m_ws->setProxy(m_client->proxy());
    // What is decrypted and unframed in one turn of the event loop is bounded by this: a fast
    // download through a tunnel comes in slices, between which the window repaints.
    // The buffer holds one whole frame and its header, or QtWebSockets waits for the rest of
    // a frame that cannot arrive.
    m_ws->setReadBufferSize(MaxFrameBytes + 16);
    m_ws->setMaxAllowedIncomingFrameSize(quint64(MaxFrameBytes));
    m_ws->setMaxAllowedIncomingMessageSize(quint64(MaxMessageBytes));
    QNetworkRequest req = m_client->request(m_path);
    m_ws->setSslConfiguration(req.sslConfiguration());
    QUrl url = req.url();
    url.setScheme(url.scheme() == QLatin1String("http") ? QStringLiteral("ws")
                                                        : QStringLiteral("wss"));
    req.setUrl(url);
    QWebSocketHandshakeOptions options;
    options.setSubprotocols(m_protocols);
    connect(m_ws, &QWebSocket::connected, this, [this] {
        m_open = true;
        m_sincePong.start();
        m_ping.start();
        emit opened();
    });
    connect(m_ws, &QWebSocket::binaryMessageReceived, this, &PodWebSocket::message);
    // QtWebSockets tells the handshake's bytes too: only what went out once open is ours.
    connect(m_ws, &QWebSocket::bytesWritten, this, [this] {
        if (m_open)
            emit written();
    });
    connect(m_ws, &QWebSocket::pong, this, [this](quint64 elapsed) {
        m_sincePong.restart();
        m_lastPong = qint64(elapsed);
        emit ponged(qint64(elapsed));
    });
    connect(m_ws, qOverload<QAbstractSocket::SocketError>(&QWebSocket::error), this,
            &PodWebSocket::onError);
    connect(m_ws, &QWebSocket::disconnected, this, [this] {
        if (m_done)
            return;
        m_ping.stop();
        if (!m_open) {
            onError();
            return;
        }
        // A close frame is an orderly end; a vanished connection is not.
        const auto code = m_ws->closeCode();
        if (code == QWebSocketProtocol::CloseCodeTooMuchData) {
            fail(tr("The API server sent more than %1 KiB in one message on the stream; exec and "
                    "port-forward send 32 KiB at a time. gpudesk closed the stream.")
                     .arg(MaxMessageBytes >> 10),
                 0);
        } else if (code == QWebSocketProtocol::CloseCodeNormal) {
            m_done = true;
            m_open = false;
            emit closed();
        } else {
            fail(
                tr("The stream was cut (%1).")
                    .arg(m_ws->closeReason().isEmpty() ? m_ws->errorString() : m_ws->closeReason()),
                0);
        }
    });
    m_ws->open(req, options);
}

void PodWebSocket::onError()
{
    if (m_done || !m_ws)
        return;
    const QString qtError = m_ws->errorString();
    if (m_open) {
        fail(tr("The stream was cut: %1").arg(qtError), 0);
        return;
    }
    // QtWebSockets reports a refused upgrade as "Unhandled http status code: 403 (…)".
    static const QRegularExpression statusRe(QStringLiteral("status code: (\\d{3})"));
    const auto m = statusRe.match(qtError);
    const int status = m.hasMatch() ? m.captured(1).toInt() : 0;
    if (status == 401 && !m_retried401 && m_client->unauthorized()) {
        m_retried401 = true;
        QMetaObject::invokeMethod(this, &PodWebSocket::open, Qt::QueuedConnection);
        return;
    }
    if (status == 0) {
        fail(tr("Could not open a stream to the API server: %1").arg(qtError), 0);
        return;
    }
    explainRefusal(status, qtError);
}

void PodWebSocket::explainRefusal(int status, const QString &qtError)
{
    m_done = true; // the explanation below is the end of this stream
    const PodPath p = splitPath(m_path);
    // Whole sentences for each kind of stream: translations need their own word order.
    const bool forward = p.subresource == QLatin1String("portforward");
    if (status == 403) {
        m_done = false;
        fail(forward ? tr("The API server refused to let you forward ports to pod %1 in %2 (HTTP "
                          "403: pods/portforward create is not allowed for you there).")
                           .arg(p.pod, p.ns)
                     : tr("The API server refused to let you run commands in pod %1 in %2 (HTTP "
                          "403: pods/exec create is not allowed for you there).")
                           .arg(p.pod, p.ns),
             status);
        return;
    }
    // Ask the pod why: the upgrade's own answer is not readable through QtWebSockets.
    m_client->get(
        QStringLiteral("/api/v1/namespaces/%1/pods/%2").arg(p.ns, p.pod), this,
        [this, status, p, forward, qtError](const KubeReply &r) {
            m_done = false;
            if (r.notFound()) {
                fail(tr("Pod %1 is not in %2 any more.").arg(p.pod, p.ns), status);
                return;
            }
            const QJsonObject st =
                QJsonDocument::fromJson(r.body).object().value(QLatin1String("status")).toObject();
            const QString phase = st.value(QLatin1String("phase")).toString();
            if (r.ok() && phase != QLatin1String("Running")) {
                const QString shown = phase.isEmpty() ? tr("unknown") : phase;
                fail(forward ? tr("Cannot forward a port to pod %1: it is %2, not running.")
                                   .arg(p.pod, shown)
                             : tr("Cannot run a command in pod %1: it is %2, not running.")
                                   .arg(p.pod, shown),
                     status);
                return;
            }
            fail(forward ? tr("The API server refused to forward a port to pod %1 (%2).")
                               .arg(p.pod, qtError)
                         : tr("The API server refused to run a command in pod %1 (%2).")
                               .arg(p.pod, qtError),
                 status);
        });
}

void PodWebSocket::fail(const QString &error, int httpStatus)
{
    if (m_done)
        return;
    m_done = true;
    m_open = false;
    m_ping.stop();
    if (m_ws)
        m_ws->abort();
    emit failed(error, httpStatus);
}

void PodWebSocket::send(const QByteArray &message)
{
    if (m_ws && m_open)
        m_ws->sendBinaryMessage(message);
}

void PodWebSocket::close()
{
    if (!m_ws || m_done)
        return;
    m_done = true;
    m_open = false;
    m_ping.stop();
    m_ws->close();
}

} // namespace gpudesk
