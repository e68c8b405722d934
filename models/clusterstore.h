// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <QHash>
#include <QObject>

#include <map>

namespace gpudesk {

// GPU figures as the scheduler counts them.
struct GpuCount
{
    int total = 0;     // allocatable nvidia.com/gpu
    int allocated = 0; // requested by pods bound to the node and not finished
    int free = 0;      // total − allocated, on nodes that are Ready and schedulable; else 0
};

struct GpuTotals
{
    GpuCount gpus;
    int pendingDemand = 0; // requested by pods not bound to a node and not finished
};

// The cluster state gpudesk knows, keyed by uid, and the accounting derived from it. Plain data
// in, figures out: no I/O here.
class ClusterStore : public QObject
{
    Q_OBJECT
public:
    explicit ClusterStore(QObject *parent = nullptr) : QObject(parent) {}

    // A full list replaces what was known of that kind (a relist).
    void replaceNodes(const QList<NodeInfo> &nodes);
    void replacePods(const QList<PodInfo> &pods);
    void replaceQueues(const QList<QueueInfo> &queues);
    void replaceNamespaces(const QList<NamespaceInfo> &namespaces);

    QList<NodeInfo> nodes() const; // sorted by name
    QList<QueueInfo> queues() const;
    QList<NamespaceInfo> users() const; // namespaces that belong to a user, sorted by user
    GpuTotals totals() const;
    GpuCount nodeGpus(const QString &node) const;
    int queueAllocated(const QString &queue) const; // pods with no queue count as "default"
    int userAllocated(const QString &user) const;

signals:
    void changed();

private:
    void recount();

    std::map<QString, NodeInfo> m_nodes; // by name
    QHash<QString, PodInfo> m_pods;      // by uid
    std::map<QString, QueueInfo> m_queues;
    std::map<QString, NamespaceInfo> m_namespaces;
    // Derived, recomputed on change.
    QHash<QString, int> m_allocatedByNode;
    QHash<QString, int> m_allocatedByQueue;
    QHash<QString, int> m_allocatedByNamespace;
    int m_pendingDemand = 0;
};

} // namespace gpudesk
