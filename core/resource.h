// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <array>

namespace gpudesk {

// Every Kubernetes collection gpudesk keeps in sync, declared once. Adding a kind is a line here,
// its entity type (entities.h) and its decoder (Decoder::decode<T>): the Delta, the store's
// table, the informer, discovery and the change notice follow from this line.
//
// X(enum name, entity type, API group, versions gpudesk reads (preferred first, comma
//   separated), plural, Kind, scope)
// The versions are candidates: discovery picks the first one the cluster serves.
#define GPUDESK_KINDS(X)                                                                           \
    X(Nodes, NodeInfo, "", "v1", "nodes", "Node", Cluster)                                         \
    X(Namespaces, NamespaceInfo, "", "v1", "namespaces", "Namespace", Cluster)                     \
    X(ResourceQuotas, ResourceQuotaInfo, "", "v1", "resourcequotas", "ResourceQuota", Namespaced)  \
    X(LimitRanges, LimitRangeInfo, "", "v1", "limitranges", "LimitRange", Namespaced)              \
    X(Pods, PodInfo, "", "v1", "pods", "Pod", Namespaced)                                          \
    X(Events, EventInfo, "", "v1", "events", "Event", Namespaced)                                  \
    X(Queues, QueueInfo, "scheduling.volcano.sh", "v1beta1", "queues", "Queue", Cluster)           \
    X(PodGroups, PodGroupInfo, "scheduling.volcano.sh", "v1beta1", "podgroups", "PodGroup",        \
      Namespaced)                                                                                  \
    X(VolcanoJobs, JobInfo, "batch.volcano.sh", "v1alpha1", "jobs", "Job", Namespaced)             \
    X(PyTorchJobs, JobInfo, "kubeflow.org", "v1", "pytorchjobs", "PyTorchJob", Namespaced)         \
    X(MPIJobs, JobInfo, "kubeflow.org", "v2beta1,v1", "mpijobs", "MPIJob", Namespaced)

enum class Resource
{
#define GPUDESK_KIND_ENUM(name, type, group, versions, plural, kind, scope) name,
    GPUDESK_KINDS(GPUDESK_KIND_ENUM)
#undef GPUDESK_KIND_ENUM
};

enum class Scope
{
    Cluster,
    Namespaced
};

struct ResourceInfo
{
    const char *group;    // "" for the core group
    const char *versions; // candidates, preferred first: "v2beta1,v1"
    const char *plural;
    const char *kind;
    Scope scope;
    bool namespaced() const { return scope == Scope::Namespaced; }
    // Cluster-scoped objects are keyed by name (unique, and what the API addresses them by);
    // namespaced ones by uid, which survives nothing but the object itself.
    bool keyedByName() const { return scope == Scope::Cluster; }
    QStringList candidateVersions() const
    {
        return QString::fromLatin1(versions).split(u',', Qt::SkipEmptyParts);
    }
};

inline constexpr std::array kAllResources{
#define GPUDESK_KIND_VALUE(name, type, group, versions, plural, kind, scope) Resource::name,
    GPUDESK_KINDS(GPUDESK_KIND_VALUE)
#undef GPUDESK_KIND_VALUE
};
inline constexpr int kResourceCount = int(kAllResources.size());

inline constexpr ResourceInfo resourceInfo(Resource r)
{
    switch (r) {
#define GPUDESK_KIND_INFO(name, type, group, versions, plural, kind, scope)                        \
    case Resource::name:                                                                           \
        return {group, versions, plural, kind, Scope::scope};
        GPUDESK_KINDS(GPUDESK_KIND_INFO)
#undef GPUDESK_KIND_INFO
    }
    return {"", "v1", "", "", Scope::Cluster};
}

// The preferred version, for callers that have not asked discovery (tests, tools).
inline QString defaultVersion(Resource r)
{
    return resourceInfo(r).candidateVersions().value(0);
}

// "/api/v1" or "/apis/<group>/<version>".
inline QString groupVersionPath(Resource r, const QString &version)
{
    const ResourceInfo info = resourceInfo(r);
    if (!*info.group)
        return QStringLiteral("/api/") + version;
    return QStringLiteral("/apis/") + QLatin1String(info.group) + u'/' + version;
}

// The collection's path at `version` (default: the preferred one), cluster-wide or (for
// namespaced kinds) inside one namespace.
inline QString resourcePath(Resource r, const QString &ns = {}, const QString &version = {})
{
    const ResourceInfo info = resourceInfo(r);
    QString path = groupVersionPath(r, version.isEmpty() ? defaultVersion(r) : version);
    if (!ns.isEmpty() && info.namespaced())
        path += QStringLiteral("/namespaces/") + ns;
    return path + u'/' + QLatin1String(info.plural);
}

// "pods", "jobs.batch.volcano.sh": the name kubectl and RBAC messages use.
inline QString resourceName(Resource r)
{
    const ResourceInfo info = resourceInfo(r);
    if (!*info.group)
        return QLatin1String(info.plural);
    return QLatin1String(info.plural) + u'.' + QLatin1String(info.group);
}

} // namespace gpudesk
