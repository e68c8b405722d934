// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpudesk {

class ClusterStore;
class TelemetryStore;
struct JobRequest;

// What the submit check reads of the cluster, copied out of the store on the UI thread (the
// store is not thread-safe) so that the check itself can run on a worker: the nodes with what
// is free on each and who holds their GPUs, the job's queue and who uses it, the namespace's
// quotas and who uses them. Copying is linear in the GPU pods, not in every pod
// (docs/benchmarks.md: 2,000 nodes, 100,000 pods).
struct CapacitySnapshot
{
    // A workload's GPUs on one node (or in a queue, or a namespace).
    struct Holder
    {
        QString ns;
        QString name; // the job's name, or the bare pod's
        QString user;
        QString vc;
        int gpus = 0;
    };
    struct Node
    {
        QString name;
        QString model; // nvidia.com/gpu.product
        bool ready = false;
        bool schedulable = true;
        Labels labels;
        QStringList taints;
        int gpuAllocatable = 0;
        // Free as the scheduler counts it; with only some pods visible, at most this many.
        int gpuFree = 0;
        qint64 cpuAllocatableMilli = 0;
        qint64 cpuFreeMilli = 0;
        qint64 memoryAllocatableBytes = 0;
        qint64 memoryFreeBytes = 0;
        QList<Holder> holders; // most GPUs first
        // Its network interfaces by the node's latest sample over SSH; empty when unknown.
        QStringList interfaces;
    };
    // A job of the queue whose gang waits for admission (its pod group Pending or Inqueue).
    struct Waiting
    {
        QString ns;
        QString name;
        int gpus = 0;
        qint64 created = 0;
    };

    QList<Node> nodes; // sorted by name
    // Every pod is visible: free is exact. Otherwise (a researcher's account) free is an upper
    // bound and `scope` the one namespace seen.
    bool exact = true;
    QString scope;
    bool queuesKnown = false; // Volcano's queues could be read
    std::optional<QueueInfo> queue;
    QStringList openQueues;
    QList<Holder> queueHolders; // the queue's workloads that hold GPUs, most first
    QList<Waiting> ahead;       // oldest first
    QList<ResourceQuotaInfo> quotas;
    QList<LimitRangeInfo> limitRanges; // the namespace's
    // Why the LimitRanges could not be read (the server's words: RBAC denies listing them);
    // empty when they were. The defaults and bounds are then not known, and the check says so.
    QString limitRangesUnreadable;
    QList<Holder> namespaceHolders; // the namespace's workloads that hold GPUs, most first
    qint64 now = 0;

    static CapacitySnapshot of(const ClusterStore &store, const JobRequest &job,
                               const TelemetryStore *telemetry = nullptr);
    // A namespace's LimitRanges, by name.
    static QList<LimitRangeInfo> limitRangesIn(const ClusterStore &store, const QString &ns);
    // Holders summed by workload (across nodes), the most GPUs first.
    static QList<Holder> merged(const QList<Holder> &holders);
    // The queue a job goes to when it names none.
    static QString queueOf(const JobRequest &job);
};

} // namespace gpudesk
