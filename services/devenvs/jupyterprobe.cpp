// SPDX-License-Identifier: GPL-3.0-or-later
#include "jupyterprobe.h"

#include "podexec.h"
#include "podhttp.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace gpudesk {

namespace {

// Jupyter writes microseconds and "Z" or "+00:00"; Qt reads milliseconds.
qint64 jupyterTime(const QString &text)
{
    static const QRegularExpression micro(QStringLiteral("(\\.\\d{3})\\d+"));
    QString t = text;
    t.replace(micro, QStringLiteral("\\1"));
    const QDateTime when = QDateTime::fromString(t, Qt::ISODateWithMs);
    return when.isValid() ? when.toMSecsSinceEpoch() : 0;
}

} // namespace

QList<JupyterProbe::Server> JupyterProbe::parseServerList(const QByteArray &out,
                                                          quint16 fallbackPort)
{
    QList<Server> servers;
    auto add = [&](const QJsonObject &o) {
        if (o.isEmpty())
            return;
        Server s;
        const int port = o.value(QLatin1String("port")).toInt(fallbackPort);
        s.port = port > 0 && port <= 65535 ? quint16(port) : fallbackPort;
        s.token = o.value(QLatin1String("token")).toString();
        s.baseUrl = o.value(QLatin1String("base_url")).toString(QStringLiteral("/"));
        if (!s.baseUrl.endsWith(u'/'))
            s.baseUrl += u'/';
        servers << s;
    };
    for (const QByteArray &line : out.split('\n')) {
        const QJsonDocument doc = QJsonDocument::fromJson(line.trimmed());
        if (doc.isObject())
            add(doc.object());
        else if (doc.isArray())
            for (const QJsonValue &v : doc.array())
                add(v.toObject());
    }
    return servers;
}

bool JupyterProbe::readActivity(const QByteArray &kernels, const QByteArray &terminals,
                                JupyterUse *use)
{
    const QJsonDocument k = QJsonDocument::fromJson(kernels);
    const QJsonDocument t = QJsonDocument::fromJson(terminals);
    if (!k.isArray() || !t.isArray())
        return false;
    use->kernels = int(k.array().size());
    use->terminals = int(t.array().size());
    use->busy = false;
    use->lastActivity = 0;
    for (const QJsonValue &kernel : k.array()) {
        use->lastActivity = std::max(
            use->lastActivity, jupyterTime(kernel[QLatin1String("last_activity")].toString()));
        if (kernel[QLatin1String("execution_state")].toString() == QLatin1String("busy"))
            use->busy = true;
    }
    for (const QJsonValue &terminal : t.array())
        use->lastActivity = std::max(
            use->lastActivity, jupyterTime(terminal[QLatin1String("last_activity")].toString()));
    return true;
}

JupyterProbe::JupyterProbe(KubeClient *client, QString ns, QString pod, quint16 jupyterPort,
                           QObject *parent)
    : QObject(parent), m_client(client), m_ns(std::move(ns)), m_pod(std::move(pod)),
      m_port(jupyterPort)
{
    m_timeout.setSingleShot(true);
    m_timeout.setInterval(TimeoutMs);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        fail(tr("Jupyter in %1 did not answer within %2 s.").arg(m_pod).arg(TimeoutMs / 1000));
    });
}

void JupyterProbe::fail(const QString &error)
{
    if (std::exchange(m_done, true))
        return;
    m_timeout.stop();
    JupyterUse use;
    use.error = error;
    emit finished(use);
}

void JupyterProbe::start()
{
    m_timeout.start();
    auto *exec = new PodExec(m_client, m_ns, m_pod,
                             {QStringLiteral("jupyter"), QStringLiteral("server"),
                              QStringLiteral("list"), QStringLiteral("--json")},
                             {}, this);
    connect(exec, &PodExec::finished, this, [this, exec](int code, const QString &error) {
        exec->deleteLater();
        if (m_done)
            return;
        if (code != 0) {
            fail(error.isEmpty() ? tr("`jupyter server list` ended with exit code %1 in %2.")
                                       .arg(code)
                                       .arg(m_pod)
                                 : error);
            return;
        }
        const QList<Server> servers = parseServerList(exec->stdoutData(), m_port);
        if (servers.isEmpty()) {
            fail(tr("No Jupyter server runs in %1.").arg(m_pod));
            return;
        }
        m_server = servers.first();
        get(QStringLiteral("api/kernels"), [this](const QByteArray &kernels) {
            m_kernels = kernels;
            get(QStringLiteral("api/terminals"), [this](const QByteArray &terminals) {
                JupyterUse use;
                if (!readActivity(m_kernels, terminals, &use)) {
                    fail(tr("Jupyter in %1 answered with something other than its kernels and "
                            "terminals.")
                             .arg(m_pod));
                    return;
                }
                use.checked = QDateTime::currentMSecsSinceEpoch();
                m_done = true;
                m_timeout.stop();
                emit finished(use);
            });
        });
    });
    exec->start();
}

void JupyterProbe::get(const QString &path, std::function<void(const QByteArray &)> then)
{
    const QString target = m_server.baseUrl + path;
    const QByteArray auth =
        m_server.token.isEmpty() ? QByteArray() : "token " + m_server.token.toUtf8();
    PodHttp::get(
        m_client, m_ns, m_pod, m_server.port, target, auth, this,
        [this, then, target](const PodHttp::Answer &a) {
            if (m_done)
                return;
            // A server without terminals answers 404: it has none, which is an answer.
            if (a.status == 0)
                fail(a.error);
            else if (a.status == 404 && target.endsWith(QLatin1String("api/terminals")))
                then("[]");
            else if (a.status == 403 || a.status == 401)
                fail(tr("Jupyter in %1 refused its own token (HTTP %2).").arg(m_pod).arg(a.status));
            else if (a.status != 200)
                fail(
                    tr("Jupyter in %1 answered %2 with HTTP %3.").arg(m_pod, target).arg(a.status));
            else
                then(a.body);
        });
}

} // namespace gpudesk
