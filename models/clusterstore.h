// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "delta.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <deque>
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

// What the pods bound to a node request (pods not finished).
struct NodeUse
{
    int pods = 0;
    qint64 cpuMilli = 0;
    qint64 memoryBytes = 0;
};

// What changed since the last `updated` signal, so that models touch only those rows.
struct StoreChanges
{
    bool reset = false;      // everything was cleared (context switch): models rebuild
    QSet<QString> nodes;     // names: the node, or its pods' GPU use, changed
    QSet<QString> pods;      // uids
    QSet<QString> workloads; // workload keys (see ClusterStore::workloadKey)
    QSet<QString> events;    // uids
    bool queues = false;
    bool namespaces = false;

    bool isEmpty() const
    {
        return !reset && nodes.isEmpty() && pods.isEmpty() && workloads.isEmpty() &&
               events.isEmpty() && !queues && !namespaces;
    }
};

// Jobs (and bare pods) by state, for the Overview.
struct WorkloadCounts
{
    int running = 0;
    int waiting = 0;
    int problem = 0;
    int finished = 0;
};

// A job with its pods, or a pod on its own: what the Workloads page lists.
struct WorkloadInfo
{
    QString key;  // the job's uid (or owner's uid), or the bare pod's uid
    QString kind; // Job (Volcano), PyTorchJob, MPIJob, ReplicaSet…, or Pod
    QString ns;
    QString name;
    QString queue;
    QString status;
    QString message;
    qint64 created = 0;
    const JobInfo *job = nullptr; // when the job object itself is known
};

// The cluster state gpudesk knows, with indexes and the accounting derived from it. Plain data
// in (decoded deltas), figures out: no I/O here. Deltas are applied in order, and announced
// coalesced, at most ten times a second. A delta of a few thousand objects is applied at once; a
// larger one (the first list of 100,000 pods, a relist) is applied in slices of a few
// milliseconds across turns of the event loop, with any delta that arrives meanwhile queued
// behind it, so the window keeps painting while a big cluster loads; queries then see it
// partly applied (as after a burst of watch events) until caughtUp().
class ClusterStore : public QObject
{
    Q_OBJECT
public:
    explicit ClusterStore(QObject *parent = nullptr);

    void apply(const gpudesk::Delta &delta);
    void clear(); // context switch
    // Applies whatever is still queued and announces pending changes now instead of at the next
    // tick (tests, the report: what it reads is then complete).
    void flush();
    // True while a large delta is being applied in slices.
    bool isCatchingUp() const { return !m_backlog.empty(); }

    // A full list replaces what was known of that kind (a relist); for tests and tools.
    void replaceNodes(const QList<NodeInfo> &nodes);
    void replacePods(const QList<PodInfo> &pods);
    void replaceQueues(const QList<QueueInfo> &queues);
    void replaceNamespaces(const QList<NamespaceInfo> &namespaces);

    QList<NodeInfo> nodes() const; // sorted by name
    const NodeInfo *node(const QString &name) const;
    const PodInfo *pod(const QString &uid) const;
    const QHash<QString, PodInfo> &pods() const { return m_pods; }
    QList<const PodInfo *> podsOnNode(const QString &node) const;
    const QHash<QString, EventInfo> &events() const { return m_events; }
    QList<const EventInfo *> eventsFor(const QString &objectUid) const;
    const JobInfo *job(const QString &uid) const;
    QList<QueueInfo> queues() const;
    const QueueInfo *queue(const QString &name) const;
    QList<NamespaceInfo> users() const; // namespaces that belong to a user, sorted by user
    const NamespaceInfo *namespaceInfo(const QString &ns) const;

    // Workloads: jobs (whether or not they have pods yet), other controllers' pods grouped by
    // owner, and bare pods.
    static QString workloadKey(const PodInfo &pod);
    QStringList workloadKeys() const;
    std::optional<WorkloadInfo> workload(const QString &key) const;
    QList<const PodInfo *> podsOfWorkload(const QString &key) const;
    // Volcano / Kubeflow jobs by their state and bare pods by theirs (pods of other
    // controllers are not jobs).
    WorkloadCounts workloadCounts() const;
    // The user a namespace belongs to (its label, else the namespace) and a pod's VC.
    QString userOf(const QString &ns) const;
    QString vcOf(const PodInfo &pod) const;

    GpuTotals totals() const;
    GpuCount nodeGpus(const QString &node) const;
    NodeUse nodeUse(const QString &node) const;
    int queueAllocated(const QString &queue) const; // pods with no queue count as "default"
    int userAllocated(const QString &user) const;

signals:
    void updated(const gpudesk::StoreChanges &changes);
    // The last queued delta has been applied (its changes are announced at the next tick).
    void caughtUp();

private:
    // A delta on its way into the store; a pod relist goes through its stages a slice at a time.
    struct QueuedDelta
    {
        Delta delta;
        int stage = 0;
        qsizetype pos = 0;
        QSet<QString> seen; // uids in the relist
        QStringList gone;   // uids known before and not in the relist
    };
    void applyNow(const Delta &delta);
    void drain();
    bool applySlice(QueuedDelta &queued, const QDeadlineTimer &deadline);
    void publish();
    void upsertPod(const PodInfo &pod);
    void removePod(const QString &uid);
    void account(const PodInfo &pod, int sign);
    void relistJobs(Resource kind, const QList<JobInfo> &jobs);
    void upsertEvent(const EventInfo &event);
    void removeEvent(const QString &uid);
    void schedule();

    std::map<QString, NodeInfo> m_nodes; // by name
    QHash<QString, PodInfo> m_pods;      // by uid
    QHash<QString, JobInfo> m_jobs;      // by uid
    QHash<QString, EventInfo> m_events;  // by uid
    std::map<QString, QueueInfo> m_queues;
    std::map<QString, NamespaceInfo> m_namespaces;
    // Indexes.
    QHash<QString, QSet<QString>> m_podsByNode;
    QHash<QString, QSet<QString>> m_podsByWorkload;
    QHash<QString, QSet<QString>> m_eventsByObject;
    // Derived, kept up to date pod by pod.
    QHash<QString, int> m_allocatedByNode;
    QHash<QString, int> m_allocatedByQueue;
    QHash<QString, int> m_allocatedByNamespace;
    // By user: derived from the two above when asked after a change (the Users page asks for
    // every row after each update; summing namespaces per row was quadratic).
    mutable QHash<QString, int> m_allocatedByUser;
    mutable bool m_allocatedByUserStale = true;
    QHash<QString, NodeUse> m_useByNode;
    int m_pendingDemand = 0;

    StoreChanges m_pending;
    QTimer m_tick;
    std::deque<QueuedDelta> m_backlog;
    QTimer m_drain;
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::StoreChanges)
