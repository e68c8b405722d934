// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubeconfig.h"

#include <QObject>
#include <QPointer>

#include <memory>

namespace gpudesk {

class ClusterStore;
class ClusterSync;
class ConnectionState;
class KubeClient;
class SshPool;
class TelemetrySession;
class TelemetryStore;

// Everything that talks to one context: its API client, its informers, its nodes' SSH links.
// A context switch retires it (no more syncing or sampling) but does not delete it from under
// work that still uses it: an operation, a tunnel, holds a Lease (a shared pointer) and the
// connection is deleted once the last one lets go.
class ContextConnection : public QObject
{
    Q_OBJECT
public:
    using Lease = std::shared_ptr<ContextConnection>;

    // Made through create(): the lease's deleter is deleteLater, so that a connection let go in
    // one of its own callbacks outlives the callback.
    static Lease create(const ClusterEndpoint &endpoint);
    ~ContextConnection() override;

    const QString &context() const { return m_endpoint.context; }
    const ClusterEndpoint &endpoint() const { return m_endpoint; }
    KubeClient *client() const { return m_client; }
    ClusterSync *sync() const;
    TelemetrySession *telemetry() const;
    SshPool *pool() const;
    bool isRetired() const { return m_retired; }

    // Lists and watches into `store`, reporting to `state`; the namespace fallback is the
    // context's (a researcher's account).
    void startSync(ClusterStore *store, ConnectionState *state);
    // Samples the nodes over SSH into `telemetry`; false with `error` when the SSH config is
    // unreadable.
    bool startTelemetry(ClusterStore *store, TelemetryStore *telemetry, const QString &sshConfig,
                        QString *error);
    // Stops syncing and sampling; operations holding a lease go on with the client and pool.
    void retire();

signals:
    void syncStarted();

private:
    explicit ContextConnection(const ClusterEndpoint &endpoint);

    ClusterEndpoint m_endpoint;
    KubeClient *m_client;
    QPointer<ClusterSync> m_sync;
    QPointer<TelemetrySession> m_telemetry;
    bool m_retired = false;
};

} // namespace gpudesk
