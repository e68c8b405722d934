// SPDX-License-Identifier: GPL-3.0-or-later
#include "usermanifests.h"

#include "userdrift.h"

namespace gpudesk {

using json = nlohmann::json;

namespace {

const QString kRbac = QStringLiteral("rbac.authorization.k8s.io");

std::string str(const QString &s)
{
    return s.toStdString();
}

QByteArray bytes(const json &j)
{
    return QByteArray::fromStdString(j.dump());
}

} // namespace

json UserManifests::resourceList(const ResourceAmounts &amounts)
{
    json out = json::object();
    for (auto it = amounts.cbegin(); it != amounts.cend(); ++it)
        out[str(it.key())] = str(quantity::format(it.key(), it.value()));
    return out;
}

json UserManifests::subjectsOf(const QString &ns, const QString &user)
{
    return json::array(
        {json{{"kind", "User"}, {"apiGroup", str(kRbac)}, {"name", str(user)}},
         json{{"kind", "ServiceAccount"}, {"name", str(user)}, {"namespace", str(ns)}}});
}

QByteArray UserManifests::namespaceJson(const UserSpec &u)
{
    json labels{{"gpudesk.io/user", str(u.name)}, {"app.kubernetes.io/managed-by", "gpudesk"}};
    if (!u.vc.isEmpty())
        labels["gpudesk.io/vc"] = str(u.vc);
    return bytes(json{{"apiVersion", "v1"},
                      {"kind", "Namespace"},
                      {"metadata", {{"name", str(u.namespaceName())}, {"labels", labels}}}});
}

QByteArray UserManifests::serviceAccountJson(const QString &ns, const QString &user)
{
    return bytes(json{{"apiVersion", "v1"},
                      {"kind", "ServiceAccount"},
                      {"metadata",
                       {{"name", str(user)},
                        {"namespace", str(ns)},
                        {"labels", {{"gpudesk.io/user", str(user)}}}}}});
}

QByteArray UserManifests::roleBindingJson(const QString &ns, const QString &user,
                                          const QString &clusterRole)
{
    return bytes(
        json{{"apiVersion", "rbac.authorization.k8s.io/v1"},
             {"kind", "RoleBinding"},
             {"metadata",
              {{"name", str(UserDriftCheck::roleBindingName())},
               {"namespace", str(ns)},
               {"labels", {{"gpudesk.io/user", str(user)}}}}},
             {"roleRef",
              {{"apiGroup", str(kRbac)}, {"kind", "ClusterRole"}, {"name", str(clusterRole)}}},
             {"subjects", subjectsOf(ns, user)}});
}

QByteArray UserManifests::quotaJson(const QString &ns, const ResourceAmounts &hard)
{
    return bytes(
        json{{"apiVersion", "v1"},
             {"kind", "ResourceQuota"},
             {"metadata",
              {{"name", str(UserDriftCheck::quotaName())},
               {"namespace", str(ns)},
               {"annotations", {{"gpudesk.io/hard", str(UserDriftCheck::hardAnnotation(hard))}}}}},
             {"spec", {{"hard", resourceList(hard)}}}});
}

QByteArray UserManifests::limitRangeJson(const QString &ns, const ResourceAmounts &request,
                                         const ResourceAmounts &limit)
{
    json item{{"type", "Container"}, {"defaultRequest", resourceList(request)}};
    if (!limit.isEmpty())
        item["default"] = resourceList(limit);
    return bytes(json{
        {"apiVersion", "v1"},
        {"kind", "LimitRange"},
        {"metadata", {{"name", str(UserDriftCheck::limitRangeName())}, {"namespace", str(ns)}}},
        {"spec", {{"limits", json::array({item})}}}});
}

QByteArray UserManifests::viewBindingJson(const QString &ns, const QString &user,
                                          const QString &clusterRole)
{
    return bytes(
        json{{"apiVersion", "rbac.authorization.k8s.io/v1"},
             {"kind", "ClusterRoleBinding"},
             {"metadata",
              {{"name", str(UserDriftCheck::viewBindingName(user))},
               {"labels", {{"gpudesk.io/user", str(user)}}}}},
             {"roleRef",
              {{"apiGroup", str(kRbac)}, {"kind", "ClusterRole"}, {"name", str(clusterRole)}}},
             {"subjects", subjectsOf(ns, user)}});
}

} // namespace gpudesk
