// SPDX-License-Identifier: GPL-3.0-or-later
#include "clusterstore.h"

#include <algorithm>

namespace gpudesk {

void ClusterStore::replaceNodes(const QList<NodeInfo> &nodes)
{
    m_nodes.clear();
    for (const auto &n : nodes)
        m_nodes[n.name] = n;
    recount();
}

void ClusterStore::replacePods(const QList<PodInfo> &pods)
{
    m_pods.clear();
    for (const auto &p : pods)
        m_pods.insert(p.uid, p);
    recount();
}

void ClusterStore::replaceQueues(const QList<QueueInfo> &queues)
{
    m_queues.clear();
    for (const auto &q : queues)
        m_queues[q.name] = q;
    emit changed();
}

void ClusterStore::replaceNamespaces(const QList<NamespaceInfo> &namespaces)
{
    m_namespaces.clear();
    for (const auto &n : namespaces)
        m_namespaces[n.name] = n;
    emit changed();
}

void ClusterStore::recount()
{
    m_allocatedByNode.clear();
    m_allocatedByQueue.clear();
    m_allocatedByNamespace.clear();
    m_pendingDemand = 0;
    for (const auto &p : std::as_const(m_pods)) {
        if (p.finished() || p.gpuRequest == 0)
            continue;
        if (p.nodeName.isEmpty()) {
            m_pendingDemand += p.gpuRequest;
            continue;
        }
        m_allocatedByNode[p.nodeName] += p.gpuRequest;
        m_allocatedByQueue[p.queue.isEmpty() ? QStringLiteral("default") : p.queue] += p.gpuRequest;
        m_allocatedByNamespace[p.ns] += p.gpuRequest;
    }
    emit changed();
}

QList<NodeInfo> ClusterStore::nodes() const
{
    QList<NodeInfo> out;
    for (const auto &[name, n] : m_nodes)
        out.append(n);
    return out;
}

QList<QueueInfo> ClusterStore::queues() const
{
    QList<QueueInfo> out;
    for (const auto &[name, q] : m_queues)
        out.append(q);
    return out;
}

QList<NamespaceInfo> ClusterStore::users() const
{
    QList<NamespaceInfo> out;
    for (const auto &[name, n] : m_namespaces) {
        if (!n.user.isEmpty())
            out.append(n);
    }
    std::sort(out.begin(), out.end(),
              [](const NamespaceInfo &a, const NamespaceInfo &b) { return a.user < b.user; });
    return out;
}

GpuCount ClusterStore::nodeGpus(const QString &name) const
{
    GpuCount c;
    const auto it = m_nodes.find(name);
    if (it == m_nodes.end())
        return c;
    c.total = it->second.gpuAllocatable;
    c.allocated = m_allocatedByNode.value(name);
    if (it->second.ready && !it->second.unschedulable)
        c.free = std::max(0, c.total - c.allocated);
    return c;
}

GpuTotals ClusterStore::totals() const
{
    GpuTotals t;
    for (const auto &[name, n] : m_nodes) {
        const GpuCount c = nodeGpus(name);
        t.gpus.total += c.total;
        t.gpus.allocated += c.allocated;
        t.gpus.free += c.free;
    }
    t.pendingDemand = m_pendingDemand;
    return t;
}

int ClusterStore::queueAllocated(const QString &queue) const
{
    return m_allocatedByQueue.value(queue);
}

int ClusterStore::userAllocated(const QString &user) const
{
    int n = 0;
    for (const auto &[name, ns] : m_namespaces) {
        if (ns.user == user)
            n += m_allocatedByNamespace.value(name);
    }
    return n;
}

} // namespace gpudesk
