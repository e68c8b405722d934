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

// Owns the connection to the chosen context: the client, the probe that fills ConnectionState,
// and the informers that fill the store. A context switch clears the store and starts over.
class Session : public QObject
{
    Q_OBJECT
public:
    Session(QStringList kubeconfigFiles, ConnectionState *state, ClusterStore *store,
            QObject *parent = nullptr);

    bool loadConfig(QString *error);
    QStringList contexts() const;
    QString currentContext() const;
    void connectTo(const QString &context);
    void reconnect() { connectTo(m_context); }
    KubeClient *client() const { return m_client; }
    ClusterSync *sync() const { return m_sync; }

signals:
    void connectionChanged(gpudesk::KubeClient *client, gpudesk::ClusterSync *sync);

private:
    QStringList m_files;
    std::optional<KubeConfig> m_config;
    ConnectionState *m_state;
    ClusterStore *m_store;
    QString m_context;
    QPointer<KubeClient> m_client;
    QPointer<ClusterSync> m_sync;
};

} // namespace gpudesk
