// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectref.h"

#include "clusterstore.h"
#include "resource.h"

namespace gpudesk {

ObjectRef ObjectRef::pod(const ClusterStore &store, const QString &uid)
{
    ObjectRef r;
    const PodInfo *p = store.pod(uid);
    if (!p)
        return r;
    r.kind = QStringLiteral("Pod");
    r.ns = p->ns;
    r.name = p->name;
    r.apiPath = resourcePath(Resource::Pods, p->ns) + u'/' + p->name;
    r.pods = {p->name};
    r.containers = p->containers;
    r.eventUids = {p->uid};
    r.workloadKey = ClusterStore::workloadKey(*p);
    r.podUids = {p->uid};
    return r;
}

ObjectRef ObjectRef::workload(const ClusterStore &store, const QString &key)
{
    const auto w = store.workload(key);
    if (!w)
        return {};
    if (w->kind == QLatin1String("Pod"))
        return pod(store, key);
    ObjectRef r;
    r.kind = w->kind;
    r.ns = w->ns;
    r.name = w->name;
    r.eventUids = {key};
    r.workloadKey = key;
    if (w->job)
        r.apiPath = resourcePath(w->job->kind, w->ns) + u'/' + w->name;
    for (const PodInfo *p : store.podsOfWorkload(key)) {
        r.pods.append(p->name);
        r.eventUids.append(p->uid);
        r.podUids.append(p->uid);
        if (r.containers.isEmpty())
            r.containers = p->containers;
    }
    // A controller gpudesk does not watch (a ReplicaSet): its first pod stands for it.
    if (r.apiPath.isEmpty() && !r.pods.isEmpty())
        r.apiPath = resourcePath(Resource::Pods, w->ns) + u'/' + r.pods.first();
    return r;
}

ObjectRef ObjectRef::node(const ClusterStore &store, const QString &name)
{
    ObjectRef r;
    const NodeInfo *n = store.node(name);
    if (!n)
        return r;
    r.kind = QStringLiteral("Node");
    r.name = name;
    r.apiPath = resourcePath(Resource::Nodes) + u'/' + name;
    r.eventUids = {n->uid};
    return r;
}

} // namespace gpudesk
