// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sshconfig.h"
#include "sshtargets.h"

#include <QObject>
#include <QPointer>

#include <optional>

namespace gpudesk {

class ClusterStore;
class SshPool;
class TelemetrySampler;
class TelemetryStore;
struct StoreChanges;

// Node telemetry for one context: resolves every node of the store to an SSH target (the SSH
// config, then the cluster's defaults), keeps the sampler's node list in step with the store,
// and feeds the samples and SSH states into the TelemetryStore. The window and --report share it.
class TelemetrySession : public QObject
{
    Q_OBJECT
public:
    TelemetrySession(const ClusterStore *cluster, TelemetryStore *telemetry,
                     QObject *parent = nullptr);
    ~TelemetrySession() override;

    // Loads the SSH config (a missing default file is fine); false with `error` when unreadable.
    bool configure(const QString &sshConfigPath, const SshDefaults &defaults, QString *error);
    void start(int intervalMs = 2000);
    void stop();
    void sweepOnce();
    void refreshTargets();

    SshPool *pool() const { return m_pool; }
    TelemetrySampler *sampler() const { return m_sampler; }
    QStringList configWarnings() const { return m_config ? m_config->warnings() : QStringList(); }

signals:
    void sweepFinished(int answered, int failed, int skipped, qint64 elapsedMs);

private:
    const ClusterStore *m_cluster;
    TelemetryStore *m_telemetry;
    SshPool *m_pool;
    TelemetrySampler *m_sampler;
    std::optional<SshConfig> m_config;
    SshDefaults m_defaults;
};

} // namespace gpudesk
