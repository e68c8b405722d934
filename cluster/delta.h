// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <QMetaType>

namespace gpudesk {

// What an informer learnt about one collection since its last report: objects added or changed,
// and the keys of objects gone. A relist carries the whole collection and replaces what was known.
// Keys are the name for cluster-scoped kinds (nodes, namespaces, queues) and the uid otherwise.
struct Delta
{
    Resource resource = Resource::Pods;
    bool relist = false;
    QList<NodeInfo> nodes;
    QList<NamespaceInfo> namespaces;
    QList<PodInfo> pods;
    QList<EventInfo> events;
    QList<QueueInfo> queues;
    QList<JobInfo> jobs;
    QStringList removed;

    bool isEmpty() const
    {
        return !relist && nodes.isEmpty() && namespaces.isEmpty() && pods.isEmpty() &&
               events.isEmpty() && queues.isEmpty() && jobs.isEmpty() && removed.isEmpty();
    }
    qsizetype size() const
    {
        return nodes.size() + namespaces.size() + pods.size() + events.size() + queues.size() +
               jobs.size() + removed.size();
    }
    void append(Delta &&other)
    {
        nodes.append(std::move(other.nodes));
        namespaces.append(std::move(other.namespaces));
        pods.append(std::move(other.pods));
        events.append(std::move(other.events));
        queues.append(std::move(other.queues));
        jobs.append(std::move(other.jobs));
        removed.append(std::move(other.removed));
    }
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::Delta)
