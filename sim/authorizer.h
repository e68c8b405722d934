// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>

namespace sim {

class ObjectStore;

struct UserInfo
{
    QString name;
    QStringList groups;
};

struct RequestAttributes
{
    QString verb;
    QString group;
    QString resource;
    QString subresource;
    QString ns;
    QString name;
    bool isResourceRequest = true;
    QString path; // for non-resource requests
};

// What a service account's token is bound to: the account (by uid, so a deleted and recreated
// account does not inherit its predecessor's tokens), an expiry on the simulated clock for
// TokenRequest tokens, or the token Secret it was issued in for legacy tokens.
struct TokenBinding
{
    QString ns;
    QString serviceAccount;
    QString serviceAccountUid;
    qint64 expiresMs = 0; // 0: no expiry (a legacy Secret token)
    QString secretName;
    QString secretUid;
};

// Bearer tokens → users. The admin and alice tokens are fixed per state directory; service
// account tokens are issued by the TokenRequest API and the token controller, and are only
// accepted while what they are bound to still holds (the validator says).
class Authenticator
{
public:
    using Validator = std::function<bool(const TokenBinding &)>;

    void addToken(const QString &token, const UserInfo &user) { m_tokens.insert(token, user); }
    void addBoundToken(const QString &token, const UserInfo &user, const TokenBinding &binding);
    void setValidator(Validator v) { m_validator = std::move(v); }
    const UserInfo *authenticate(const QByteArray &authorizationHeader);

private:
    QHash<QString, UserInfo> m_tokens;
    QHash<QString, TokenBinding> m_bindings;
    Validator m_validator;
};

// RBAC as Kubernetes evaluates it, over the Roles and Bindings in the store.
class Authorizer
{
public:
    explicit Authorizer(const ObjectStore *store) : m_store(store) {}
    bool allowed(const UserInfo &user, const RequestAttributes &attrs, QString *reason) const;
    // What SelfSubjectRulesReview answers for a namespace.
    nlohmann::json rules(const UserInfo &user, const QString &ns) const;
    static QString forbiddenMessage(const UserInfo &user, const RequestAttributes &attrs);
    // The impersonation filter: `Impersonate-User` / `Impersonate-Group` headers turn `user`
    // into the one named, if RBAC lets `user` impersonate it (verb impersonate on users,
    // groups or serviceaccounts). Without the headers `*as` is `user`; refused, `*error` says
    // why in the API's words.
    bool impersonate(const UserInfo &user, const QList<QPair<QByteArray, QByteArray>> &headers,
                     UserInfo *as, QString *error) const;

private:
    std::vector<nlohmann::json> applicableRules(const UserInfo &user, const QString &ns) const;
    const ObjectStore *m_store;
};

} // namespace sim
