// SPDX-License-Identifier: GPL-3.0-or-later
#include "connectionstate.h"

namespace gpudesk {

void ConnectionState::setConnecting(const QString &context, const QString &server, bool tlsVerified)
{
    m_state = State::Connecting;
    m_context = context;
    m_server = server;
    m_tlsVerified = tlsVerified;
    m_error.clear();
    m_summary = {};
    emit changed();
}

void ConnectionState::setConnected(const ClusterSummary &summary)
{
    m_state = State::Connected;
    m_summary = summary;
    emit changed();
}

void ConnectionState::setFailed(const QString &context, const QString &error)
{
    m_state = State::Failed;
    m_context = context;
    m_error = error;
    emit changed();
}

} // namespace gpudesk
