// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <array>

namespace gpudesk {

// The Kubernetes collections gpudesk keeps in sync.
enum class Resource
{
    Nodes,
    Namespaces,
    Pods,
    Events,
    Queues,
    VolcanoJobs,
    PyTorchJobs,
    MPIJobs,
};

inline constexpr std::array kAllResources{
    Resource::Nodes,  Resource::Namespaces,  Resource::Pods,        Resource::Events,
    Resource::Queues, Resource::VolcanoJobs, Resource::PyTorchJobs, Resource::MPIJobs};

struct ResourceInfo
{
    const char *group;   // "" for the core group
    const char *version; // v1, v1beta1, ...
    const char *plural;
    bool namespaced;
};

inline ResourceInfo resourceInfo(Resource r)
{
    switch (r) {
    case Resource::Nodes:
        return {"", "v1", "nodes", false};
    case Resource::Namespaces:
        return {"", "v1", "namespaces", false};
    case Resource::Pods:
        return {"", "v1", "pods", true};
    case Resource::Events:
        return {"", "v1", "events", true};
    case Resource::Queues:
        return {"scheduling.volcano.sh", "v1beta1", "queues", false};
    case Resource::VolcanoJobs:
        return {"batch.volcano.sh", "v1alpha1", "jobs", true};
    case Resource::PyTorchJobs:
        return {"kubeflow.org", "v1", "pytorchjobs", true};
    case Resource::MPIJobs:
        return {"kubeflow.org", "v1", "mpijobs", true};
    }
    return {"", "v1", "", false};
}

// The collection's path, cluster-wide or (for namespaced kinds) inside one namespace.
inline QString resourcePath(Resource r, const QString &ns = {})
{
    const ResourceInfo info = resourceInfo(r);
    QString path = QStringLiteral("/api/v1");
    if (*info.group)
        path = QStringLiteral("/apis/") + QLatin1String(info.group) + u'/' +
               QLatin1String(info.version);
    if (!ns.isEmpty() && info.namespaced)
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
