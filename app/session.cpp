// SPDX-License-Identifier: GPL-3.0-or-later
#include "session.h"

#include "clusterprobe.h"
#include "connectionstate.h"
#include "kubeclient.h"

namespace gpudesk {

Session::Session(QStringList kubeconfigFiles, ConnectionState *state, QObject *parent)
    : QObject(parent), m_files(std::move(kubeconfigFiles)), m_state(state)
{}

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
    if (m_client)
        m_client->deleteLater(); // its pending replies and probe go with it
    QString error;
    const auto endpoint = m_config->endpoint(m_context, &error);
    if (!endpoint) {
        m_state->setFailed(m_context, error);
        return;
    }
    m_client = new KubeClient(*endpoint, this);
    m_state->setConnecting(m_context, endpoint->server, m_client->verifiesTls());
    auto *probe = new ClusterProbe(m_client, m_client);
    connect(probe, &ClusterProbe::finished, m_state, &ConnectionState::setConnected);
    connect(probe, &ClusterProbe::failed, this,
            [this](const QString &e) { m_state->setFailed(m_context, e); });
    probe->start();
}

} // namespace gpudesk
