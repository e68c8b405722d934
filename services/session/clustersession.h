// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

#include <memory>

namespace gpudesk {

class ClusterStore;
class ConnectionState;
class ContextConnection;
class KubeConfig;
class TelemetryStore;

// The connection to the chosen context, as the window and the services see it: loads the
// kubeconfig, connects, switches contexts and reconnects. A switch retires the old connection
// (its operations finish on it) and clears the store; a reconnect to the same context keeps the
// store and the node history, so that figures and idle times survive F5 and relists replace
// what they must.
class ClusterSession : public QObject
{
    Q_OBJECT
public:
    ClusterSession(QStringList kubeconfigFiles, ConnectionState *state, ClusterStore *store,
                   TelemetryStore *telemetry, QObject *parent = nullptr);
    ~ClusterSession() override;

    // Node telemetry over SSH (off unless called). The SSH config is `sshConfig`, else the
    // context's setting ssh/<context>/config, else ~/.ssh/config.
    void enableTelemetry(const QString &sshConfig);
    bool telemetryEnabled() const { return m_telemetryEnabled; }

    bool loadConfig(QString *error);
    // The kubeconfig files it reads ($KUBECONFIG's, --kubeconfig's), for a child gpudesk.
    QStringList kubeconfigFiles() const { return m_files; }
    // Another kubeconfig (the file a user picked on a first start); loadConfig() reads it.
    void setKubeconfigFiles(const QStringList &files) { m_files = files; }
    QStringList contexts() const;
    QString currentContext() const;
    // The context connected to (or being connected to); "" before the first connectTo().
    QString context() const { return m_context; }
    void connectTo(const QString &context);
    void reconnect();

    ConnectionState *state() const { return m_state; }
    ClusterStore *store() const { return m_store; }
    TelemetryStore *telemetry() const { return m_telemetry; }
    // What the SSH config says that gpudesk does not follow (each naming its line).
    QStringList sshConfigWarnings() const;
    // The current connection (null when none); services take a lease for work that must
    // finish on it.
    const std::shared_ptr<ContextConnection> &connection() const { return m_connection; }

signals:
    // A new connection (or none) is current; the old one, if any, was retired.
    void connectionChanged();
    // Node telemetry could not start, in a sentence.
    void telemetryFailed(const QString &message);
    // A context the kubeconfig does not have was asked for while connected: the connection
    // stays as it was; `why` says what is missing.
    void contextRefused(const QString &context, const QString &why);

private:
    QStringList m_files;
    std::unique_ptr<KubeConfig> m_config;
    ConnectionState *m_state;
    ClusterStore *m_store;
    TelemetryStore *m_telemetry;
    QString m_context;
    std::shared_ptr<ContextConnection> m_connection;
    bool m_telemetryEnabled = false;
    QString m_sshConfig;
};

} // namespace gpudesk
