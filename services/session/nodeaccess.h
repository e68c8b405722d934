// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

namespace gpudesk {

class ClusterSession;
class SshPool;

// What the user decides about reaching the nodes over SSH: trusting a host key (once or for
// good), giving a passphrase or password (kept in memory, or in the system keychain when asked),
// trying a node again now. Acts on the current connection's SSH links.
class NodeAccess : public QObject
{
    Q_OBJECT
public:
    explicit NodeAccess(ClusterSession *session, QObject *parent = nullptr);

    // Node telemetry runs for the current connection.
    bool available() const;
    // user@host:port as the node is reached ("" when unknown).
    QString endpoint(const QString &node) const;
    bool trustHostKey(const QString &node, bool always, QString *error);
    // `secretFor` as SshStatus::secretFor names it; `remember`: also into the system keychain.
    void setSecret(const QString &secretFor, const QByteArray &secret, bool remember);
    void retryNow(const QString &node);

signals:
    void availabilityChanged();
    // Something the user should read (a keychain that refused the secret, say).
    void notice(const QString &message);

private:
    SshPool *pool() const;
    ClusterSession *m_session;
};

} // namespace gpudesk
