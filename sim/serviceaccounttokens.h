// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apihelpers.h"
#include "authorizer.h"

#include <QObject>

namespace sim {

// Service account credentials as the API server and kube-controller-manager issue them: the
// TokenRequest subresource (tokens bound to the account's uid with an expiry on the simulated
// clock) and the token controller, which fills Secrets of type
// kubernetes.io/service-account-token with a token, the cluster's CA and the namespace, and
// deletes them with their account. A token stops working the moment its account (or Secret) is
// deleted, even if one of the same name is made again: that is how an account is revoked.
class ServiceAccountTokens : public QObject
{
    Q_OBJECT
public:
    ServiceAccountTokens(ObjectStore *store, Authenticator *authn, QObject *parent = nullptr);

    void setCaPem(const QByteArray &pem) { m_caPem = pem; }
    // POST …/serviceaccounts/NAME/token
    void tokenRequest(HttpConnection *c, const HttpRequest &r, const ApiRoute &route);

private:
    void onChanged(const ResourceType *type, const WatchEvent &event);
    void fillSecret(const QString &ns, const QString &name);
    void deleteSecretsOf(const QString &ns, const QString &serviceAccount);
    bool stillValid(const TokenBinding &binding) const;
    static QString newToken();
    static UserInfo userOf(const QString &ns, const QString &serviceAccount);

    ObjectStore *m_store;
    Authenticator *m_authn;
    const ResourceType *m_accounts;
    const ResourceType *m_secrets;
    QByteArray m_caPem;
};

} // namespace sim
