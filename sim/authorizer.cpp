// SPDX-License-Identifier: GPL-3.0-or-later
#include "authorizer.h"

#include "objectfactory.h"

#include "objectstore.h"

namespace sim {

using nlohmann::json;

void Authenticator::addBoundToken(const QString &token, const UserInfo &user,
                                  const TokenBinding &binding)
{
    m_tokens.insert(token, user);
    m_bindings.insert(token, binding);
}

const UserInfo *Authenticator::authenticate(const QByteArray &header)
{
    if (!header.startsWith("Bearer "))
        return nullptr;
    const QString token = QString::fromLatin1(header.mid(7).trimmed());
    const auto it = m_tokens.constFind(token);
    if (it == m_tokens.constEnd())
        return nullptr;
    const auto bound = m_bindings.constFind(token);
    if (bound != m_bindings.constEnd() && m_validator && !m_validator(bound.value())) {
        // Expired, or its account or Secret is gone: never valid again.
        m_bindings.remove(token);
        m_tokens.remove(token);
        return nullptr;
    }
    return &it.value();
}

namespace {

bool subjectMatches(const json &subject, const UserInfo &user)
{
    const std::string kind = subject.value("kind", "");
    const QString name = QString::fromStdString(subject.value("name", ""));
    if (kind == "User")
        return name == user.name;
    if (kind == "Group")
        return user.groups.contains(name);
    if (kind == "ServiceAccount")
        return user.name == QStringLiteral("system:serviceaccount:%1:%2")
                                .arg(QString::fromStdString(subject.value("namespace", "")), name);
    return false;
}

bool listHas(const json &list, const QString &value)
{
    if (!list.is_array())
        return false;
    for (const auto &v : list) {
        if (v.is_string() &&
            (v.get<std::string>() == "*" || v.get<std::string>() == value.toStdString()))
            return true;
    }
    return false;
}

bool ruleAllows(const json &rule, const RequestAttributes &a)
{
    if (!a.isResourceRequest) {
        if (!listHas(rule.value("verbs", json()), a.verb))
            return false;
        for (const auto &u : sub(rule, "nonResourceURLs")) {
            const std::string s = u.get<std::string>();
            if (s == "*" || s == a.path.toStdString() ||
                (s.size() > 1 && s.back() == '*' &&
                 a.path.toStdString().compare(0, s.size() - 1, s, 0, s.size() - 1) == 0))
                return true;
        }
        return false;
    }
    const QString res = a.subresource.isEmpty() ? a.resource : a.resource + u'/' + a.subresource;
    if (!listHas(rule.value("verbs", json()), a.verb) ||
        !listHas(rule.value("apiGroups", json()), a.group) ||
        !listHas(rule.value("resources", json()), res))
        return false;
    const json names = sub(rule, "resourceNames");
    if (names.empty())
        return true;
    return !a.name.isEmpty() && listHas(names, a.name);
}

} // namespace

std::vector<json> Authorizer::applicableRules(const UserInfo &user, const QString &ns) const
{
    const ResourceTypes *types = m_store->types();
    const QString rbac = QStringLiteral("rbac.authorization.k8s.io");
    const auto *crbType =
        types->find(rbac, QStringLiteral("v1"), QStringLiteral("clusterrolebindings"));
    const auto *rbType = types->find(rbac, QStringLiteral("v1"), QStringLiteral("rolebindings"));
    const auto *crType = types->find(rbac, QStringLiteral("v1"), QStringLiteral("clusterroles"));
    const auto *rType = types->find(rbac, QStringLiteral("v1"), QStringLiteral("roles"));
    std::vector<json> rules;
    auto addRole = [&](const json &roleRef, const QString &bindingNs) {
        const QString name = QString::fromStdString(roleRef.value("name", ""));
        const bool cluster = roleRef.value("kind", "") == "ClusterRole";
        const auto role =
            cluster ? m_store->get(crType, {}, name) : m_store->get(rType, bindingNs, name);
        if (!role.ok())
            return;
        for (const auto &r : sub(*role.object.object, "rules"))
            rules.push_back(r);
    };
    auto bound = [&](const json &binding) {
        for (const auto &s : sub(binding, "subjects")) {
            if (subjectMatches(s, user))
                return true;
        }
        return false;
    };
    for (const auto &b : m_store->list(crbType)) {
        if (bound(*b.object))
            addRole(sub(*b.object, "roleRef"), {});
    }
    if (!ns.isEmpty()) {
        for (const auto &b : m_store->list(rbType, ns)) {
            if (bound(*b.object))
                addRole(sub(*b.object, "roleRef"), ns);
        }
    }
    return rules;
}

bool Authorizer::allowed(const UserInfo &user, const RequestAttributes &attrs,
                         QString *reason) const
{
    if (user.groups.contains(QStringLiteral("system:masters"))) {
        *reason = QString();
        return true;
    }
    // Discovery and health are open to every authenticated user (system:discovery).
    if (!attrs.isResourceRequest &&
        (attrs.path == QLatin1String("/version") || attrs.path.startsWith(QLatin1String("/api")) ||
         attrs.path == QLatin1String("/openapi") ||
         attrs.path.startsWith(QLatin1String("/openapi/")) ||
         attrs.path.startsWith(QLatin1String("/healthz")) ||
         attrs.path.startsWith(QLatin1String("/livez")) ||
         attrs.path.startsWith(QLatin1String("/readyz"))))
        return true;
    // Every authenticated user may review its own access (system:basic-user).
    if (attrs.group == QLatin1String("authorization.k8s.io") &&
        attrs.verb == QLatin1String("create") &&
        attrs.resource.startsWith(QLatin1String("selfsubject")))
        return true;
    for (const auto &rule : applicableRules(user, attrs.ns)) {
        if (ruleAllows(rule, attrs)) {
            *reason = QStringLiteral("RBAC: allowed");
            return true;
        }
    }
    *reason = QString();
    return false;
}

QString Authorizer::forbiddenMessage(const UserInfo &user, const RequestAttributes &a)
{
    if (!a.isResourceRequest)
        return QStringLiteral("forbidden: User \"%1\" cannot %2 path \"%3\"")
            .arg(user.name, a.verb.toLower(), a.path);
    const QString res = a.subresource.isEmpty() ? a.resource : a.resource + u'/' + a.subresource;
    const QString subject = a.name.isEmpty() ? res : QStringLiteral("%1 \"%2\"").arg(res, a.name);
    const QString scope = a.ns.isEmpty() ? QStringLiteral("at the cluster scope")
                                         : QStringLiteral("in the namespace \"%1\"").arg(a.ns);
    return QStringLiteral("%1 is forbidden: User \"%2\" cannot %3 resource \"%4\" in API group "
                          "\"%5\" %6")
        .arg(subject, user.name, a.verb, res, a.group, scope);
}

bool Authorizer::impersonate(const UserInfo &user,
                             const QList<QPair<QByteArray, QByteArray>> &headers, UserInfo *as,
                             QString *error) const
{
    QString name;
    QStringList groups;
    for (const auto &[key, value] : headers) {
        if (key == "impersonate-user")
            name = QString::fromUtf8(value);
        else if (key == "impersonate-group")
            groups << QString::fromUtf8(value);
    }
    *as = user;
    if (name.isEmpty() && groups.isEmpty())
        return true;
    if (name.isEmpty()) {
        *error = QStringLiteral("requested [%1] without impersonating a user")
                     .arg(groups.join(QStringLiteral(" ")));
        return false;
    }
    // What must be allowed, one check per impersonated name, as the filter does.
    auto check = [&](RequestAttributes a) {
        a.verb = QStringLiteral("impersonate");
        QString reason;
        if (allowed(user, a, &reason))
            return true;
        *error = forbiddenMessage(user, a);
        return false;
    };
    const QStringList sa = name.split(u':');
    UserInfo out;
    out.name = name;
    if (sa.size() == 4 && name.startsWith(QLatin1String("system:serviceaccount:"))) {
        RequestAttributes a;
        a.resource = QStringLiteral("serviceaccounts");
        a.ns = sa[2];
        a.name = sa[3];
        if (!check(a))
            return false;
        out.groups = {QStringLiteral("system:serviceaccounts"),
                      QStringLiteral("system:serviceaccounts:") + sa[2]};
    } else {
        RequestAttributes a;
        a.resource = QStringLiteral("users");
        a.name = name;
        if (!check(a))
            return false;
    }
    for (const QString &g : std::as_const(groups)) {
        RequestAttributes a;
        a.resource = QStringLiteral("groups");
        a.name = g;
        if (!check(a))
            return false;
        if (!out.groups.contains(g))
            out.groups << g;
    }
    if (!out.groups.contains(QStringLiteral("system:authenticated")))
        out.groups << QStringLiteral("system:authenticated");
    *as = out;
    return true;
}

json Authorizer::rules(const UserInfo &user, const QString &ns) const
{
    json resourceRules = json::array();
    json nonResourceRules = json::array();
    if (user.groups.contains(QStringLiteral("system:masters"))) {
        resourceRules.push_back(json{{"verbs", {"*"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}});
        nonResourceRules.push_back(json{{"verbs", {"*"}}, {"nonResourceURLs", {"*"}}});
    } else {
        resourceRules.push_back(
            json{{"verbs", {"create"}},
                 {"apiGroups", {"authorization.k8s.io"}},
                 {"resources", {"selfsubjectaccessreviews", "selfsubjectrulesreviews"}}});
        nonResourceRules.push_back(
            json{{"verbs", {"get"}},
                 {"nonResourceURLs",
                  {"/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi",
                   "/openapi/*", "/readyz", "/version", "/version/"}}});
        for (const auto &r : applicableRules(user, ns)) {
            if (r.contains("nonResourceURLs"))
                nonResourceRules.push_back(r);
            else
                resourceRules.push_back(r);
        }
    }
    return json{{"resourceRules", resourceRules},
                {"nonResourceRules", nonResourceRules},
                {"incomplete", false}};
}

} // namespace sim
