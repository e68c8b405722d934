// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvreadiness.h"

#include "clustersession.h"
#include "clusterstore.h"
#include "contextconnection.h"
#include "devenvsmodel.h"
#include "entities.h"
#include "podhttp.h"

#include <QDateTime>

namespace gpudesk {

DevEnvReadiness::DevEnvReadiness(ClusterSession *session, DevEnvsModel *model, QObject *parent)
    : QObject(parent), m_session(session), m_model(model)
{
    m_timer.setInterval(PollMs);
    connect(&m_timer, &QTimer::timeout, this, &DevEnvReadiness::tick);
    m_timer.start();
    connect(session, &ClusterSession::connectionChanged, this, &DevEnvReadiness::clear);
}

void DevEnvReadiness::clear()
{
    ++m_generation;
    m_answered.clear();
    m_inFlight.clear();
    m_tried.clear();
}

void DevEnvReadiness::tick()
{
    const auto &connection = m_session->connection();
    if (!connection)
        return;
    QSet<QString> running;
    for (const QString &key : m_model->keys()) {
        const PodInfo *p = m_session->store()->devEnvs().currentPod(key);
        if (!p || p->phase != QLatin1String("Running") || p->deleting)
            continue;
        running.insert(p->uid);
        const QSet<QString> answered = m_answered.value(p->uid);
        // A port still silent minutes after the start is not about to answer: asked once a
        // minute, not every few seconds (an admin sees every user's environments).
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const int every = now - p->created > SettleMs ? LateIntervalMs : PollMs;
        for (const auto &[service, port] : p->namedPorts) {
            if (answered.contains(service) || m_inFlight.size() >= MaxConcurrent ||
                now - m_tried.value(p->uid + u'/' + service) < every)
                continue;
            m_tried.insert(p->uid + u'/' + service, now);
            probe(key, p->uid, p->ns, p->name, service, quint16(port));
        }
    }
    // What is known of pods no longer running goes with them.
    for (auto it = m_answered.begin(); it != m_answered.end();)
        it = running.contains(it.key()) ? std::next(it) : m_answered.erase(it);
    for (auto it = m_tried.begin(); it != m_tried.end();)
        it = running.contains(it.key().section(u'/', 0, 0)) ? std::next(it) : m_tried.erase(it);
}

void DevEnvReadiness::probe(const QString &key, const QString &podUid, const QString &ns,
                            const QString &pod, const QString &service, quint16 port)
{
    const QString flight = podUid + u'/' + service;
    if (m_inFlight.contains(flight))
        return;
    m_inFlight.insert(flight);
    const auto &connection = m_session->connection();
    const quint64 generation = m_generation;
    auto answer = [this, key, podUid, service, flight, generation,
                   lease = connection](bool answered, const QString &why) {
        if (generation != m_generation)
            return;
        m_inFlight.remove(flight);
        QSet<QString> &done = m_answered[podUid];
        if (answered)
            done.insert(service);
        m_model->setServiceAnswer(key, podUid, service, answered, why);
    };
    // sshd speaks first; a web service answers a request.
    if (service == QLatin1String("ssh")) {
        PodHttp::banner(connection->client(), ns, pod, port, 5000, this, answer);
        return;
    }
    PodHttp::get(connection->client(), ns, pod, port, QStringLiteral("/"), {}, this,
                 [answer](const PodHttp::Answer &a) { answer(a.status > 0, a.error); });
}

} // namespace gpudesk
