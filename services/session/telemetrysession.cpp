// SPDX-License-Identifier: GPL-3.0-or-later
#include "telemetrysession.h"

#include "clusterstore.h"
#include "sshpool.h"
#include "telemetrysampler.h"
#include "telemetrystore.h"

#include <QFileInfo>

namespace gpudesk {

TelemetrySession::TelemetrySession(const ClusterStore *cluster, TelemetryStore *telemetry,
                                   QObject *parent)
    : QObject(parent), m_cluster(cluster), m_telemetry(telemetry), m_pool(new SshPool(this)),
      m_sampler(new TelemetrySampler(m_pool, this))
{
    connect(m_sampler, &TelemetrySampler::sampled, m_telemetry, &TelemetryStore::apply);
    connect(m_pool, &SshPool::statusChanged, m_telemetry, &TelemetryStore::setSshStatus);
    connect(m_sampler, &TelemetrySampler::sweepFinished, this, &TelemetrySession::sweepFinished);
    m_sampler->setPodsOfNode([this](const QString &node) {
        QList<nodecmd::PodRef> pods;
        for (const PodInfo *p : m_cluster->podsOnNode(node))
            if (p->phase == QLatin1String("Running") && !p->qosClass.isEmpty() &&
                m_telemetry->wantsUsageOf(*p))
                pods.append({p->uid, p->qosClass});
        return pods;
    });
    connect(m_cluster, &ClusterStore::updated, this, [this](const StoreChanges &c) {
        if (c.reset || !c.nodes.isEmpty())
            refreshTargets();
    });
}

TelemetrySession::~TelemetrySession() = default;

bool TelemetrySession::configure(const QString &sshConfigPath, const SshDefaults &defaults,
                                 QString *error)
{
    const QString path = sshConfigPath.isEmpty() ? SshConfig::defaultPath() : sshConfigPath;
    if (!sshConfigPath.isEmpty() && !QFileInfo::exists(sshConfigPath)) {
        *error = tr("The SSH config %1 does not exist.").arg(sshConfigPath);
        return false;
    }
    m_config = SshConfig::load(path, error);
    m_defaults = defaults;
    return m_config.has_value();
}

void TelemetrySession::refreshTargets()
{
    if (!m_config)
        return;
    QList<SshTarget> targets;
    for (const NodeInfo &n : m_cluster->nodes())
        targets.append(resolveSshTarget(*m_config, m_defaults, n.name, n.internalIP));
    m_sampler->setTargets(targets);
}

void TelemetrySession::start(int intervalMs)
{
    refreshTargets();
    m_sampler->setInterval(intervalMs);
    m_sampler->start();
}

void TelemetrySession::stop()
{
    m_sampler->stop();
    m_pool->cancelAll();
}

void TelemetrySession::sweepOnce()
{
    refreshTargets();
    m_sampler->sweep();
}

} // namespace gpudesk
