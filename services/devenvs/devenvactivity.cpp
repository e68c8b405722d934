// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvactivity.h"

#include "clustersession.h"
#include "clusterstore.h"
#include "contextconnection.h"
#include "devenvsmodel.h"
#include "entities.h"
#include "jupyterprobe.h"
#include "telemetrystore.h"

#include <QDateTime>

namespace gpudesk {

namespace {
// GPUs busy this recently: the environment is in use, its Jupyter need not be asked.
constexpr qint64 RecentlyBusyMs = 5 * 60 * 1000;
} // namespace

DevEnvActivity::DevEnvActivity(ClusterSession *session, DevEnvsModel *model, QObject *parent)
    : QObject(parent), m_session(session), m_model(model)
{
    // The timer only looks for who is due; each environment is asked every m_intervalMs.
    m_timer.setInterval(5000);
    connect(&m_timer, &QTimer::timeout, this, &DevEnvActivity::tick);
    m_timer.start();
    connect(session, &ClusterSession::connectionChanged, this, &DevEnvActivity::clear);
}

void DevEnvActivity::setIntervalMs(int ms)
{
    m_intervalMs = ms;
    m_timer.setInterval(std::min(5000, std::max(100, ms / 4)));
}

void DevEnvActivity::clear()
{
    ++m_generation;
    // Their streams use the client of the connection that went.
    qDeleteAll(findChildren<JupyterProbe *>(Qt::FindDirectChildrenOnly));
    m_asked.clear();
    m_use.clear();
    m_queue.clear();
    m_inFlight.clear();
    emit updated();
}

void DevEnvActivity::refresh()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (auto it = m_asked.begin(); it != m_asked.end(); ++it)
        if (now - it.value() > 1000)
            it.value() = 0;
    tick();
}

QHash<QString, JupyterUse> DevEnvActivity::byPod() const
{
    QHash<QString, JupyterUse> out;
    for (const auto &[uid, use] : m_use)
        if (use.checked > 0)
            out.insert(uid, use);
    return out;
}

void DevEnvActivity::tick()
{
    if (!m_session->connection())
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const QString &key : m_model->keys()) {
        const PodInfo *p = m_session->store()->devEnvs().currentPod(key);
        if (!p || p->phase != QLatin1String("Running") || p->deleting || m_inFlight.contains(key) ||
            m_queue.contains(key) || now - m_asked.value(key) < m_intervalMs)
            continue;
        bool jupyter = false;
        for (const auto &[name, port] : p->namedPorts)
            jupyter = jupyter || name == QLatin1String("jupyter");
        if (!jupyter)
            continue;
        if (m_telemetry)
            if (const auto a = m_telemetry->gpuActivity(p->uid);
                a && a->lastBusy > 0 && now - a->lastBusy < RecentlyBusyMs)
                continue;
        m_queue << key;
    }
    pump();
}

void DevEnvActivity::pump()
{
    const auto &connection = m_session->connection();
    while (connection && m_inFlight.size() < MaxConcurrent && !m_queue.isEmpty()) {
        const QString key = m_queue.takeFirst();
        const PodInfo *p = m_session->store()->devEnvs().currentPod(key);
        if (!p)
            continue;
        quint16 port = 0;
        for (const auto &[name, number] : p->namedPorts)
            if (name == QLatin1String("jupyter"))
                port = quint16(number);
        m_asked.insert(key, QDateTime::currentMSecsSinceEpoch());
        m_inFlight.insert(key);
        auto *probe = new JupyterProbe(connection->client(), p->ns, p->name, port, this);
        probe->holdConnection(connection);
        const QString uid = p->uid;
        const quint64 generation = m_generation;
        connect(probe, &JupyterProbe::finished, this,
                [this, probe, key, uid, generation](const JupyterUse &answer) {
                    probe->deleteLater();
                    if (generation != m_generation)
                        return;
                    m_inFlight.remove(key);
                    // A failed ask keeps what the last answer said of the same pod, with why.
                    JupyterUse use = answer;
                    if (!answer.error.isEmpty()) {
                        const auto old = m_use.constFind(key);
                        if (old != m_use.cend() && old->first == uid) {
                            use = old->second;
                            use.error = answer.error;
                            // Busy was true then; unanswered, it is not known now.
                            use.busy = false;
                        }
                    }
                    m_use.insert(key, {uid, use});
                    m_model->setJupyterUse(key, uid, use);
                    emit updated();
                    pump();
                });
        probe->start();
    }
}

} // namespace gpudesk
