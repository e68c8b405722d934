// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodeaccess.h"

#include "clustersession.h"
#include "contextconnection.h"
#include "keychain.h"
#include "keychainsecrets.h"
#include "sshpool.h"
#include "telemetrystore.h"

namespace gpudesk {

NodeAccess::NodeAccess(ClusterSession *session, QObject *parent)
    : QObject(parent), m_session(session)
{
    connect(session, &ClusterSession::connectionChanged, this, &NodeAccess::availabilityChanged);
}

SshPool *NodeAccess::pool() const
{
    const auto &c = m_session->connection();
    return c ? c->pool() : nullptr;
}

bool NodeAccess::available() const
{
    return pool() != nullptr;
}

QString NodeAccess::endpoint(const QString &node) const
{
    SshPool *p = pool();
    return p ? p->target(node).endpoint() : QString();
}

bool NodeAccess::trustHostKey(const QString &node, bool always, QString *error)
{
    SshPool *p = pool();
    if (!p) {
        *error = tr("Node telemetry is off.");
        return false;
    }
    const bool ok = p->trustHostKey(node, always, error);
    // The decision shows at once, before the next connection attempt reports.
    m_session->telemetry()->setSshStatus(node, p->status(node));
    return ok;
}

void NodeAccess::setSecret(const QString &secretFor, const QByteArray &secret, bool remember)
{
    if (SshPool *p = pool())
        p->setSecret(secretFor, secret);
    if (remember)
        Keychain::write(KeychainSecrets::entryFor(secretFor), secret, this,
                        [this](const QString &e) {
                            if (!e.isEmpty())
                                emit notice(tr("Not saved in the system keychain: %1. It is "
                                               "kept for this session.")
                                                .arg(e));
                        });
}

void NodeAccess::retryNow(const QString &node)
{
    if (SshPool *p = pool())
        p->retryNow(node);
}

} // namespace gpudesk
