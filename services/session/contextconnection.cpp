// SPDX-License-Identifier: GPL-3.0-or-later
#include "contextconnection.h"

#include "appsettings.h"

#include "clusterprobe.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "connectionstate.h"
#include "keychainsecrets.h"
#include "kubeclient.h"
#include "sshpool.h"
#include "telemetrysampler.h"
#include "telemetrysession.h"
#include "telemetrystore.h"

#include <algorithm>

namespace gpudesk {

ContextConnection::Lease ContextConnection::create(const ClusterEndpoint &endpoint)
{
    return Lease(new ContextConnection(endpoint), [](ContextConnection *c) { c->deleteLater(); });
}

ContextConnection::ContextConnection(const ClusterEndpoint &endpoint)
    : m_endpoint(endpoint), m_client(new KubeClient(endpoint, this))
{}

ContextConnection::~ContextConnection() = default;

ClusterSync *ContextConnection::sync() const
{
    return m_sync;
}

TelemetrySession *ContextConnection::telemetry() const
{
    return m_telemetry;
}

SshPool *ContextConnection::pool() const
{
    return m_telemetry ? m_telemetry->pool() : nullptr;
}

void ContextConnection::startSync(ClusterStore *store, ConnectionState *state)
{
    auto publish = [this, state] {
        if (m_retired || !m_sync)
            return;
        QList<InformerStatus> statuses;
        for (Informer *i : m_sync->informers())
            statuses.append(i->status());
        state->setCollections(statuses);
        state->setServerError(m_sync->serverError(), m_sync->serverErrorSince());
    };
    connect(m_client, &KubeClient::credentialsFailed, state,
            [this, state](const QString &e) { state->setFailed(m_endpoint.context, e); });
    // An exec plugin runs before the first request; everything else starts at once.
    m_client->ensureCredentials(this, [this, store, state, publish](const QString &error) {
        if (!error.isEmpty() || m_retired)
            return; // credentialsFailed has said it
        auto *probe = new ClusterProbe(m_client, this);
        connect(probe, &ClusterProbe::finished, state, [this, state](const ClusterSummary &s) {
            if (!m_retired)
                state->setConnected(s);
        });
        connect(probe, &ClusterProbe::failed, state, [this, state](const QString &e) {
            if (!m_retired)
                state->setFailed(m_endpoint.context, e);
        });
        probe->start();
        ClusterSync::Options options;
        options.fallbackNamespace = m_endpoint.defaultNamespace;
        m_sync = new ClusterSync(m_client, options, this);
        connect(m_sync, &ClusterSync::delta, store, [this, store](const Delta &d) {
            if (!m_retired)
                store->apply(d);
        });
        connect(m_sync, &ClusterSync::statusChanged, state, publish);
        m_sync->start();
        publish();
        emit syncStarted();
    });
}

bool ContextConnection::startTelemetry(ClusterStore *store, TelemetryStore *telemetry,
                                       const QString &sshConfig, QString *error)
{
    // Per-context settings, for clusters whose nodes are not in the user's SSH config.
    const AppSettings::Ssh ssh = AppSettings::ssh(m_endpoint.context);
    SshDefaults defaults;
    defaults.user = ssh.user;
    defaults.identityFile = ssh.identityFile;
    defaults.proxyJump = ssh.proxyJump;
    const QString config = !sshConfig.isEmpty() ? sshConfig : ssh.config;
    auto *session = new TelemetrySession(store, telemetry, this);
    if (!session->configure(config, defaults, error)) {
        delete session;
        return false;
    }
    m_telemetry = session;
    // A passphrase or password the user chose to keep in the system keychain is used without
    // asking again.
    new KeychainSecrets(session->pool(), session);
    // Settings › Thresholds: how often each node is sampled.
    session->start(AppSettings::telemetryIntervalSeconds() * 1000);
    return true;
}

void ContextConnection::retire()
{
    m_retired = true;
    if (m_sync)
        m_sync->stop();
    // Sampling stops; the pool's links stay for whatever still holds a lease (a kill in flight
    // must not lose its session) and close when the connection goes.
    if (m_telemetry)
        m_telemetry->sampler()->stop();
}

} // namespace gpudesk
