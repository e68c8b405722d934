// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QHash>
#include <QString>
#include <QStringList>

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

// Bearer tokens → users. The admin and alice tokens are fixed per state directory; service
// account tokens are issued by the TokenRequest API.
class Authenticator
{
public:
    void addToken(const QString &token, const UserInfo &user) { m_tokens.insert(token, user); }
    const UserInfo *authenticate(const QByteArray &authorizationHeader) const;

private:
    QHash<QString, UserInfo> m_tokens;
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

private:
    std::vector<nlohmann::json> applicableRules(const UserInfo &user, const QString &ns) const;
    const ObjectStore *m_store;
};

} // namespace sim
