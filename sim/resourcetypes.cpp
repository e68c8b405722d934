// SPDX-License-Identifier: GPL-3.0-or-later
#include "resourcetypes.h"

namespace sim {
namespace {
const QStringList kAllVerbs = {
    QStringLiteral("create"), QStringLiteral("delete"), QStringLiteral("deletecollection"),
    QStringLiteral("get"),    QStringLiteral("list"),   QStringLiteral("patch"),
    QStringLiteral("update"), QStringLiteral("watch")};
const QStringList kReadCreate = {QStringLiteral("create")};

ResourceType make(const char *group, const char *version, const char *resource,
                  const char *singular, const char *kind, bool namespaced,
                  QStringList shortNames = {}, QStringList subresources = {},
                  QStringList categories = {}, QStringList verbs = kAllVerbs)
{
    return ResourceType{QString::fromLatin1(group),    QString::fromLatin1(version),
                        QString::fromLatin1(resource), QString::fromLatin1(singular),
                        QString::fromLatin1(kind),     namespaced,
                        std::move(shortNames),         std::move(verbs),
                        std::move(categories),         std::move(subresources)};
}
} // namespace

ResourceTypes::ResourceTypes(const QString &mpiJobVersion)
{
    const QByteArray mpi = mpiJobVersion.toLatin1();
    const QStringList all{QStringLiteral("all")};
    using L = QStringList;
    m_types = {
        make("", "v1", "namespaces", "namespace", "Namespace", false, L{QStringLiteral("ns")},
             L{QStringLiteral("status"), QStringLiteral("finalize")}),
        make("", "v1", "nodes", "node", "Node", false, L{QStringLiteral("no")},
             L{QStringLiteral("status")}),
        make("", "v1", "pods", "pod", "Pod", true, L{QStringLiteral("po")},
             L{QStringLiteral("status"), QStringLiteral("log"), QStringLiteral("eviction"),
               QStringLiteral("exec"), QStringLiteral("portforward")},
             all),
        make("", "v1", "events", "event", "Event", true, L{QStringLiteral("ev")}),
        make("", "v1", "resourcequotas", "resourcequota", "ResourceQuota", true,
             L{QStringLiteral("quota")}, L{QStringLiteral("status")}),
        make("", "v1", "limitranges", "limitrange", "LimitRange", true,
             L{QStringLiteral("limits")}),
        make("", "v1", "persistentvolumeclaims", "persistentvolumeclaim", "PersistentVolumeClaim",
             true, L{QStringLiteral("pvc")}, L{QStringLiteral("status")}),
        make("", "v1", "serviceaccounts", "serviceaccount", "ServiceAccount", true,
             L{QStringLiteral("sa")}, L{QStringLiteral("token")}),
        make("", "v1", "secrets", "secret", "Secret", true),
        make("", "v1", "configmaps", "configmap", "ConfigMap", true, L{QStringLiteral("cm")}),
        make("", "v1", "services", "service", "Service", true, L{QStringLiteral("svc")},
             L{QStringLiteral("status")}, all),
        make("policy", "v1", "poddisruptionbudgets", "poddisruptionbudget", "PodDisruptionBudget",
             true, L{QStringLiteral("pdb")}, L{QStringLiteral("status")}),
        make("rbac.authorization.k8s.io", "v1", "roles", "role", "Role", true),
        make("rbac.authorization.k8s.io", "v1", "rolebindings", "rolebinding", "RoleBinding", true),
        make("rbac.authorization.k8s.io", "v1", "clusterroles", "clusterrole", "ClusterRole",
             false),
        make("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "clusterrolebinding",
             "ClusterRoleBinding", false),
        make("authorization.k8s.io", "v1", "selfsubjectaccessreviews", "",
             "SelfSubjectAccessReview", false, {}, {}, {}, kReadCreate),
        make("authorization.k8s.io", "v1", "subjectaccessreviews", "", "SubjectAccessReview", false,
             {}, {}, {}, kReadCreate),
        make("authorization.k8s.io", "v1", "localsubjectaccessreviews", "",
             "LocalSubjectAccessReview", true, {}, {}, {}, kReadCreate),
        make("authorization.k8s.io", "v1", "selfsubjectrulesreviews", "", "SelfSubjectRulesReview",
             false, {}, {}, {}, kReadCreate),
        make("scheduling.k8s.io", "v1", "priorityclasses", "priorityclass", "PriorityClass", false,
             L{QStringLiteral("pc")}),
        make("scheduling.volcano.sh", "v1beta1", "queues", "queue", "Queue", false,
             L{QStringLiteral("q"), QStringLiteral("queue-v1beta1")}, L{QStringLiteral("status")}),
        make("scheduling.volcano.sh", "v1beta1", "podgroups", "podgroup", "PodGroup", true,
             L{QStringLiteral("pg"), QStringLiteral("podgroup-v1beta1")},
             L{QStringLiteral("status")}),
        make("batch.volcano.sh", "v1alpha1", "jobs", "job", "Job", true,
             L{QStringLiteral("vcjob"), QStringLiteral("vj")}, L{QStringLiteral("status")}),
        make("bus.volcano.sh", "v1alpha1", "commands", "command", "Command", true),
        make("kubeflow.org", "v1", "pytorchjobs", "pytorchjob", "PyTorchJob", true, {},
             L{QStringLiteral("status")}, L{QStringLiteral("all"), QStringLiteral("kubeflow")}),
        make("kubeflow.org", mpi.constData(), "mpijobs", "mpijob", "MPIJob", true, {},
             L{QStringLiteral("status")}, L{QStringLiteral("kubeflow")}),
    };
}

const ResourceType *ResourceTypes::find(const QString &group, const QString &version,
                                        const QString &resource) const
{
    for (const auto &t : m_types) {
        if (t.group == group && t.version == version && t.resource == resource)
            return &t;
    }
    return nullptr;
}

const ResourceType *ResourceTypes::served(const QString &group, const QString &resource) const
{
    for (const auto &t : m_types) {
        if (t.group == group && t.resource == resource)
            return &t;
    }
    return nullptr;
}

const ResourceType *ResourceTypes::byKind(const QString &apiVersion, const QString &kind) const
{
    for (const auto &t : m_types) {
        if (t.apiVersion() == apiVersion && t.kind == kind)
            return &t;
    }
    return nullptr;
}

QStringList ResourceTypes::groups() const
{
    QStringList out;
    for (const auto &t : m_types) {
        if (!t.group.isEmpty() && !out.contains(t.group))
            out.append(t.group);
    }
    return out;
}

QStringList ResourceTypes::versions(const QString &group) const
{
    QStringList out;
    for (const auto &t : m_types) {
        if (t.group == group && !out.contains(t.version))
            out.append(t.version);
    }
    return out;
}

} // namespace sim
