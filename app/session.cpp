// SPDX-License-Identifier: GPL-3.0-or-later
#include "session.h"

#include "clusterprobe.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "connectionstate.h"
#include "keychainsecrets.h"
#include "kubeclient.h"
#include "sshpool.h"
#include "telemetrysession.h"
#include "telemetrystore.h"

#include <QSettings>

namespace gpudesk {

Session::Session(QStringList kubeconfigFiles, ConnectionState *state, ClusterStore *store,
                 QObject *parent)
    : QObject(parent), m_files(std::move(kubeconfigFiles)), m_state(state), m_store(store)
{}

void Session::enableTelemetry(TelemetryStore *telemetry, const QString &sshConfig)
{
    m_telemetry = telemetry;
    m_sshConfig = sshConfig;
}

void Session::startTelemetry()
{
    if (!m_telemetry)
        return;
    // Per-context settings, for clusters whose nodes are not in the user's SSH config.
    QSettings settings;
    settings.beginGroup(QStringLiteral("ssh/") + m_context);
    SshDefaults defaults;
    defaults.user = settings.value(QStringLiteral("user")).toString();
    defaults.identityFile = settings.value(QStringLiteral("identityFile")).toString();
    defaults.proxyJump = settings.value(QStringLiteral("proxyJump")).toString();
    const QString config =
        !m_sshConfig.isEmpty() ? m_sshConfig : settings.value(QStringLiteral("config")).toString();
    m_telemetrySession = new TelemetrySession(m_store, m_telemetry, m_client);
    QString error;
    if (!m_telemetrySession->configure(config, defaults, &error)) {
        emit telemetryFailed(error);
        delete m_telemetrySession;
        emit sshPoolChanged(nullptr);
        return;
    }
    // A passphrase or password the user chose to keep in the system keychain is used without
    // asking again.
    SshPool *pool = m_telemetrySession->pool();
    new KeychainSecrets(pool, m_telemetrySession);
    m_telemetrySession->start();
    emit sshPoolChanged(pool);
}

bool Session::loadConfig(QString *error)
{
    m_config = KubeConfig::load(m_files, error);
    return m_config.has_value();
}

QStringList Session::contexts() const
{
    return m_config ? m_config->contexts() : QStringList();
}

QString Session::currentContext() const
{
    return m_context.isEmpty() && m_config ? m_config->currentContext() : m_context;
}

void Session::connectTo(const QString &context)
{
    if (!m_config)
        return;
    m_context = context.isEmpty() ? m_config->currentContext() : context;
    // The client owns the sync and the probe: pending replies and watches go with it.
    if (m_client)
        m_client->deleteLater();
    m_client = nullptr;
    m_sync = nullptr;
    // The telemetry belongs to the client: its SSH links are cancelled with it.
    if (m_telemetrySession)
        m_telemetrySession->stop();
    if (m_telemetry)
        m_telemetry->clear();
    m_store->clear();
    emit sshPoolChanged(nullptr);
    emit connectionChanged(nullptr, nullptr);
    QString error;
    const auto endpoint = m_config->endpoint(m_context, &error);
    if (!endpoint) {
        m_state->setFailed(m_context, error);
        return;
    }
    QSettings().setValue(QStringLiteral("session/lastContext"), m_context);
    m_client = new KubeClient(*endpoint, this);
    m_state->setConnecting(m_context, endpoint->server, m_client->verifiesTls());
    if (!m_client->setupError().isEmpty()) {
        m_state->setFailed(m_context, m_client->setupError());
        return;
    }
    connect(m_client, &KubeClient::credentialsFailed, this,
            [this](const QString &e) { m_state->setFailed(m_context, e); });
    // An exec plugin runs before the first request; everything else starts at once.
    KubeClient *client = m_client;
    client->ensureCredentials(
        client, [this, client, ns = endpoint->defaultNamespace](const QString &error) {
            if (!error.isEmpty())
                return; // credentialsFailed has said it
            auto *probe = new ClusterProbe(client, client);
            connect(probe, &ClusterProbe::finished, m_state, &ConnectionState::setConnected);
            connect(probe, &ClusterProbe::failed, this,
                    [this](const QString &e) { m_state->setFailed(m_context, e); });
            probe->start();
            ClusterSync::Options options;
            options.fallbackNamespace = ns;
            m_sync = new ClusterSync(client, options, client);
            connect(m_sync, &ClusterSync::delta, m_store, &ClusterStore::apply);
            emit connectionChanged(client, m_sync);
            m_sync->start();
            startTelemetry();
        });
}

} // namespace gpudesk
