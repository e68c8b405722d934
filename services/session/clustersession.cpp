// SPDX-License-Identifier: GPL-3.0-or-later
#include "clustersession.h"

#include "appsettings.h"

#include "clusterstore.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "telemetrysession.h"
#include "telemetrystore.h"

namespace gpudesk {

ClusterSession::ClusterSession(QStringList kubeconfigFiles, ConnectionState *state,
                               ClusterStore *store, TelemetryStore *telemetry, QObject *parent)
    : QObject(parent), m_files(std::move(kubeconfigFiles)), m_state(state), m_store(store),
      m_telemetry(telemetry)
{}

ClusterSession::~ClusterSession()
{
    if (m_connection)
        m_connection->retire();
}

void ClusterSession::enableTelemetry(const QString &sshConfig)
{
    m_telemetryEnabled = true;
    m_sshConfig = sshConfig;
}

bool ClusterSession::loadConfig(QString *error)
{
    auto config = KubeConfig::load(m_files, error);
    m_config = config ? std::make_unique<KubeConfig>(std::move(*config)) : nullptr;
    return m_config != nullptr;
}

QStringList ClusterSession::contexts() const
{
    return m_config ? m_config->contexts() : QStringList();
}

QString ClusterSession::currentContext() const
{
    return m_context.isEmpty() && m_config ? m_config->currentContext() : m_context;
}

QStringList ClusterSession::sshConfigWarnings() const
{
    return m_connection && m_connection->telemetry() ? m_connection->telemetry()->configWarnings()
                                                     : QStringList();
}

void ClusterSession::reconnect()
{
    connectTo(m_context);
}

void ClusterSession::connectTo(const QString &context)
{
    if (!m_config)
        return;
    const QString next = context.isEmpty() ? m_config->currentContext() : context;
    if (m_connection && !m_config->contexts().contains(next)) {
        // An unknown name must not end a working connection and leave the window on none.
        QString why;
        m_config->endpoint(next, &why);
        emit contextRefused(next, why);
        return;
    }
    const bool sameContext = next == m_context && m_connection;
    m_context = next;
    if (m_connection) {
        m_connection->retire();
        m_connection.reset();
    }
    // Another cluster: nothing of the old one may stay on screen. The same one: keep what is
    // known (and the nodes' history) until the new lists replace it.
    if (!sameContext) {
        m_telemetry->clear();
        m_store->clear();
    }
    emit connectionChanged();
    QString error;
    const auto endpoint = m_config->endpoint(m_context, &error);
    if (!endpoint) {
        m_state->setFailed(m_context, error);
        return;
    }
    AppSettings::setLastContext(m_context);
    m_connection = ContextConnection::create(*endpoint);
    KubeClient *client = m_connection->client();
    m_state->setConnecting(m_context, endpoint->server, client->verifiesTls());
    if (!client->setupError().isEmpty()) {
        m_state->setFailed(m_context, client->setupError());
        return;
    }
    m_connection->startSync(m_store, m_state);
    if (m_telemetryEnabled) {
        QString telemetryError;
        if (!m_connection->startTelemetry(m_store, m_telemetry, m_sshConfig, &telemetryError))
            emit telemetryFailed(telemetryError);
    }
    emit connectionChanged();
}

} // namespace gpudesk
