// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubeconfig.h"

#include <QObject>
#include <QPointer>

#include <optional>

namespace gpudesk {

class ClusterProbe;
class ConnectionState;
class KubeClient;

// Owns the connection to the chosen context and feeds ConnectionState.
class Session : public QObject
{
    Q_OBJECT
public:
    Session(QStringList kubeconfigFiles, ConnectionState *state, QObject *parent = nullptr);

    bool loadConfig(QString *error);
    QStringList contexts() const;
    QString currentContext() const;
    void connectTo(const QString &context);
    void reconnect() { connectTo(m_context); }

private:
    QStringList m_files;
    std::optional<KubeConfig> m_config;
    ConnectionState *m_state;
    QString m_context;
    QPointer<KubeClient> m_client;
};

} // namespace gpudesk
