// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clustersync.h"
#include "kubeclient.h"
#include "kubeconfig.h"

#include <QObject>
#include <QPointer>

#include <optional>

namespace gpudesk {

class ClusterStore;
class ClusterSync;
class ConnectionState;
class KubeClient;
class SshPool;
class TelemetrySession;
class TelemetryStore;

// Owns the connection to the chosen context: the client, the probe that fills ConnectionState,
// and the informers that fill the store. A context switch clears the store and starts over.
class Session : public QObject
{
    Q_OBJECT
public:
    Session(QStringList kubeconfigFiles, ConnectionState *state, ClusterStore *store,
            QObject *parent = nullptr);
    // Node telemetry over SSH for every context (off when never called). The SSH config is
    // `sshConfig`, else the context's setting ssh/<context>/config, else ~/.ssh/config.
    void enableTelemetry(TelemetryStore *telemetry, const QString &sshConfig);

    bool loadConfig(QString *error);
    QStringList contexts() const;
    QString currentContext() const;
    void connectTo(const QString &context);
    void reconnect() { connectTo(m_context); }
    KubeClient *client() const { return m_client; }
    ClusterSync *sync() const { return m_sync; }

signals:
    void connectionChanged(gpudesk::KubeClient *client, gpudesk::ClusterSync *sync);
    void sshPoolChanged(gpudesk::SshPool *pool);
    void telemetryFailed(const QString &message);

private:
    QStringList m_files;
    std::optional<KubeConfig> m_config;
    ConnectionState *m_state;
    ClusterStore *m_store;
    QString m_context;
    QPointer<KubeClient> m_client;
    QPointer<ClusterSync> m_sync;
    void startTelemetry();
    TelemetryStore *m_telemetry = nullptr;
    QString m_sshConfig;
    QPointer<TelemetrySession> m_telemetrySession;
};

} // namespace gpudesk
