// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clock.h"
#include "delta.h"
#include "devenvindex.h"
#include "uidset.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <array>
#include <deque>
#include <map>
#include <memory>

namespace gpudesk {

// GPU figures as the scheduler counts them, over the pods this account may see. When it may
// not list every namespace's pods, `allocated` counts only the visible ones: a lower bound, and
// `free` is then not known (see GpuAccounting for what can be said).
struct GpuCount
{
    int total = 0;     // allocatable nvidia.com/gpu
    int allocated = 0; // requested by (visible) pods bound to the node and not finished
    int free = 0;      // total − allocated, on nodes that are Ready and schedulable; else 0
};

struct GpuTotals
{
    GpuCount gpus;
    // Requested by pods not bound to a node and not finished, plus the minResources of Volcano
    // pod groups still waiting for admission (their jobs have no pods yet).
    int pendingDemand = 0;
    int pendingMig = 0; // MIG instances requested by pods not bound to a node
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
    QSet<Resource> kinds;    // collections with any change
    QSet<QString> nodes;     // names: the node, or its pods' GPU use, changed
    QSet<QString> pods;      // uids
    QSet<QString> workloads; // workload keys (see ClusterStore::workloadKey)
    QSet<QString> events;    // uids
    QSet<QString> devEnvs;   // dev environments (DevEnvIndex keys) whose pods changed
    // Namespaces whose pods, jobs or quotas changed (a user's figures).
    QSet<QString> namespaces;

    bool changed(Resource r) const { return reset || kinds.contains(r); }
    bool isEmpty() const
    {
        return !reset && kinds.isEmpty() && nodes.isEmpty() && pods.isEmpty() &&
               workloads.isEmpty() && events.isEmpty() && namespaces.isEmpty() && devEnvs.isEmpty();
    }
};

// Jobs (and bare pods) by state: one vocabulary for the Overview, the Users and VCs pages and
// the report. Each workload is in one of running, waiting, failed, finished; `stuck` counts
// those of them held for a reason that will not go away by itself (a full queue, no node that
// fits: waiting; stuck Terminating) — apart, never instead of their state (issue 34: waiting
// jobs were counted as failed, and the Overview said "0 pending" beside three Pending jobs).
struct WorkloadCounts
{
    int running = 0;
    int waiting = 0;
    int failed = 0;
    int finished = 0;
    int stuck = 0;
    int total() const { return running + waiting + failed + finished; }
};

// A job with its pods, or a pod on its own: what the Workloads page lists.
struct WorkloadInfo
{
    QString key;  // the job's uid (or owner's uid), or the bare pod's uid
    QString kind; // Job (Volcano), PyTorchJob, MPIJob, ReplicaSet…, or Pod
    QString ns;
    QString name;
    QString vc;
    QString status;  // the job's own word, or what its pods and pod group say when it lags
    QString message; // why it waits or failed
    qint64 created = 0;
    // Waiting for a reason that will not go away by itself (a full queue, no node that fits,
    // stuck Terminating): counted and filtered with the failed ones.
    bool stuck = false;
    // Where the job's own word is not what its pods do (WorkloadResolver::stateLie): "" when
    // it is.
    QString stateLie;
    const JobInfo *job = nullptr;           // when the job object itself is known
    const PodGroupInfo *podGroup = nullptr; // its Volcano pod group, when there is one
};

// Objects of a kind the store keeps without indexes of its own, by key (see GPUDESK_KINDS).
class ObjectTableBase
{
public:
    virtual ~ObjectTableBase() = default;
    // Applies the delta; returns the keys it added, changed or removed.
    virtual QSet<QString> apply(const Delta &delta) = 0;
    virtual void clear() = 0;
    virtual qsizetype size() const = 0;
};

template <class T> class ObjectTable : public ObjectTableBase
{
public:
    explicit ObjectTable(bool byName) : m_byName(byName) {}
    QSet<QString> apply(const Delta &d) override
    {
        QSet<QString> changed;
        if (d.relist) {
            for (const auto &[key, o] : m_objects)
                changed.insert(key);
            m_objects.clear();
        }
        for (const T &o : d.items<T>()) {
            const QString key = m_byName ? o.name : o.uid;
            m_objects[key] = o;
            changed.insert(key);
        }
        for (const QString &key : d.removed) {
            m_objects.erase(key);
            changed.insert(key);
        }
        return changed;
    }
    void clear() override { m_objects.clear(); }
    qsizetype size() const override { return qsizetype(m_objects.size()); }
    const std::map<QString, T> &objects() const { return m_objects; }
    const T *find(const QString &key) const
    {
        const auto it = m_objects.find(key);
        return it == m_objects.end() ? nullptr : &it->second;
    }

private:
    bool m_byName;
    std::map<QString, T> m_objects;
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
    explicit ClusterStore(QObject *parent = nullptr, Clock now = &systemNow);
    void setClock(Clock now) { m_now = std::move(now); }
    qint64 now() const { return m_now(); }

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

    // The objects of a kind kept in a plain table (all but pods, events and jobs), by key.
    template <class T> const std::map<QString, T> &objects(Resource r) const
    {
        return static_cast<const ObjectTable<T> &>(*m_tables[size_t(r)]).objects();
    }
    // The namespace a kind's list was confined to ("" cluster-wide), as its informer last said:
    // an account that may not list pods everywhere sees only its own namespace's.
    QString scope(Resource r) const { return m_scope[size_t(r)]; }
    // Whether every pod of the cluster is visible, so that allocation is known exactly.
    bool podsComplete() const { return m_scope[size_t(Resource::Pods)].isEmpty(); }

    QList<NodeInfo> nodes() const; // sorted by name
    const NodeInfo *node(const QString &name) const;
    const PodInfo *pod(const QString &uid) const;
    const QHash<QString, PodInfo> &pods() const { return m_pods; }
    // The dev environments among the pods, and the pod each runs in now.
    const DevEnvIndex &devEnvs() const { return m_devEnvs; }
    QList<const PodInfo *> podsOnNode(const QString &node) const;
    // Those of them that hold GPUs (bound, not finished): a few of a node's many pods.
    QList<const PodInfo *> gpuPodsOnNode(const QString &node) const;
    const QHash<QString, EventInfo> &events() const { return m_events; }
    QList<const EventInfo *> eventsFor(const QString &objectUid) const;
    // "namespace/name" of a pod that is gone, from the events that still name its uid; "" when
    // none does.
    QString podNamedByEvents(const QString &podUid) const;
    const JobInfo *job(const QString &uid) const;
    QStringList jobKeys() const { return m_jobs.keys(); }
    QList<QueueInfo> queues() const;
    const QueueInfo *queue(const QString &name) const;
    // The Volcano pod group of a job (by the job's uid), if any.
    const PodGroupInfo *podGroupOf(const QString &jobUid) const;
    QList<NamespaceInfo> users() const; // namespaces that belong to a user, sorted by user
    const NamespaceInfo *namespaceInfo(const QString &ns) const;
    // What one namespace holds: its pods, its workloads (jobs, and the keys of its other pods)
    // and its ResourceQuotas.
    QList<const PodInfo *> podsIn(const QString &ns) const;
    QStringList workloadKeysIn(const QString &ns) const;
    QList<const ResourceQuotaInfo *> quotasIn(const QString &ns) const;

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
    // Why a pod is where it is when kubectl's word alone would mislead: stuck Terminating past its
    // grace period, or "Running" on a node that is NotReady. "" when its status says it all.
    QString podCaveat(const PodInfo &pod) const;
    // A Terminating pod this long past its grace period is stuck, not slow.
    static constexpr qint64 StuckTerminatingMarginMs = 5 * 60 * 1000;
    // A job unschedulable this long is stuck, not queued.
    static constexpr qint64 StuckPendingMs = 10 * 60 * 1000;

    GpuTotals totals() const;
    GpuCount nodeGpus(const QString &node) const;
    // MIG instances by profile that (visible) pods bound to the node request.
    MigCounts migAllocated(const QString &node) const;
    NodeUse nodeUse(const QString &node) const;
    int vcAllocated(const QString &vc) const; // pods with no VC count as "default"
    // GPUs wanted in a VC and not held: its pods not bound to a node, and the minResources of its
    // pod groups still waiting for admission (their jobs have no pods yet).
    int vcPendingDemand(const QString &vc) const;
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
    void applyTable(const Delta &delta);
    void indexPodGroups(const QSet<QString> &changed);
    void upsertJob(const JobInfo &job);
    void removeJob(const QString &uid);
    void upsertEvent(const EventInfo &event);
    void removeEvent(const QString &uid);
    void schedule();

    Clock m_now;
    // Kinds without indexes of their own (nodes, namespaces, queues, pod groups, …), by kind.
    std::array<std::unique_ptr<ObjectTableBase>, kResourceCount> m_tables;
    std::array<QString, kResourceCount> m_scope;
    QHash<QString, PodInfo> m_pods;            // by uid
    QHash<QString, JobInfo> m_jobs;            // by uid
    QHash<QString, EventInfo> m_events;        // by uid
    QHash<QString, QString> m_podGroupByOwner; // job uid → pod group uid
    // Indexes.
    QHash<QString, UidSet> m_podsByNode;
    QHash<QString, UidSet> m_podsByWorkload;
    QHash<QString, UidSet> m_podsByNamespace;
    QHash<QString, QSet<QString>> m_jobsByNamespace;
    QHash<QString, UidSet> m_eventsByObject;
    DevEnvIndex m_devEnvs{&m_pods};
    // Derived, kept up to date pod by pod.
    QHash<QString, int> m_allocatedByNode;
    QHash<QString, UidSet> m_gpuPodsByNode;          // pod uids
    QHash<QString, QHash<QString, int>> m_migByNode; // node → profile → instances
    QHash<QString, int> m_allocatedByVc;
    QHash<QString, int> m_allocatedByNamespace;
    // By user: derived from the two above when asked after a change (the Users page asks for
    // every row after each update; summing namespaces per row was quadratic).
    mutable QHash<QString, int> m_allocatedByUser;
    mutable bool m_allocatedByUserStale = true;
    QHash<QString, NodeUse> m_useByNode;
    int m_pendingDemand = 0;
    QHash<QString, int> m_pendingByVc;
    int m_pendingMig = 0;

    StoreChanges m_pending;
    QTimer m_tick;
    std::deque<QueuedDelta> m_backlog;
    QTimer m_drain;
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::StoreChanges)
