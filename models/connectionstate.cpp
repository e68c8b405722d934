// SPDX-License-Identifier: GPL-3.0-or-later
#include "connectionstate.h"

namespace gpudesk {

void ConnectionState::setConnecting(const QString &context, const QString &server, bool tlsVerified)
{
    // A reconnect to the same context keeps what is shown until the new lists replace it; the
    // figures are stale meanwhile, not gone.
    m_state = State::Connecting;
    m_context = context;
    m_server = server;
    m_tlsVerified = tlsVerified;
    m_error.clear();
    m_summary = {};
    m_collections.clear();
    m_serverError.clear();
    updateStaleness();
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
    updateStaleness();
    emit changed();
}

void ConnectionState::setCollections(const QList<InformerStatus> &collections)
{
    m_collections = collections;
    updateStaleness();
    emit changed();
}

void ConnectionState::setServerError(const QString &error, const QDateTime &since)
{
    if (error == m_serverError)
        return;
    m_serverError = error;
    m_serverErrorSince = error.isEmpty() ? QDateTime() : since;
    updateStaleness();
    emit changed();
}

const InformerStatus *ConnectionState::collection(Resource r) const
{
    for (const InformerStatus &s : m_collections)
        if (s.resource == r)
            return &s;
    return nullptr;
}

QString ConnectionState::podsScope() const
{
    const InformerStatus *pods = collection(Resource::Pods);
    return pods ? pods->scope : QString();
}

bool ConnectionState::hasVolcano() const
{
    const InformerStatus *q = collection(Resource::Queues);
    return !q || q->state != InformerStatus::Unavailable;
}

void ConnectionState::updateStaleness()
{
    QDateTime since;
    QString reason;
    if (!m_serverError.isEmpty()) {
        since = m_serverErrorSince;
        reason = tr("The API server cannot be reached: %1").arg(m_serverError);
    } else {
        for (const InformerStatus &s : std::as_const(m_collections)) {
            // Live once, now retrying: what was listed is getting old.
            if ((s.state == InformerStatus::Retrying || s.state == InformerStatus::Failed) &&
                s.relists > 0 && (!since.isValid() || s.since < since)) {
                since = s.since;
                reason = tr("%1 cannot be watched: %2").arg(resourceName(s.resource), s.error);
            }
        }
    }
    m_staleSince = since;
    m_staleReason = reason;
}

QString ConnectionState::noFigures(bool nothingRead) const
{
    switch (m_state) {
    case State::Connected:
        return {};
    case State::Connecting:
        return nothingRead ? tr("Connecting to %1… no figures yet.").arg(m_server) : QString();
    case State::Failed:
        return m_context.isEmpty() ? tr("Not connected: %1").arg(m_error)
                                   : tr("Not connected to %1: %2").arg(m_context, m_error);
    case State::Idle:
        break;
    }
    return tr("Not connected to a cluster.");
}

} // namespace gpudesk
