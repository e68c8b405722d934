// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include "workloadstatus.h"

#include <functional>
#include <optional>

namespace gpudesk {

class ClusterStore;
struct PodInfo;
struct WorkloadCounts;
struct WorkloadInfo;

// What a workload is and why it is where it is, from the store: a job's status as its pods and
// pod group tell it when its own conditions lag (a gang that cannot be placed stays "Created"),
// the reason it waits (the pod group's condition, the scheduler's message, and for a job too big
// for any one node the distributed split that fits), and whether it is stuck rather than queued.
class WorkloadResolver
{
public:
    static std::optional<WorkloadInfo> resolve(const ClusterStore &store, const QString &key);
    // See ClusterStore::podCaveat.
    static QString podCaveat(const ClusterStore &store, const PodInfo &pod);
    // A job whose state is not what its pods do (issue 37, "states that lie"): over (Failed,
    // Completed…) while pods of it still run on Ready nodes and hold GPUs — a PyTorchJob failed
    // by a worker while its master runs on —, or Running while its pods crash-loop and it
    // makes no progress. In words; "" when its state tells the truth.
    static QString stateLie(const ClusterStore &store, const WorkloadInfo &w,
                            const QList<const PodInfo *> &pods);
    static WorkloadCounts counts(const ClusterStore &store);
    // The same for one namespace's workloads (a user's jobs).
    static WorkloadCounts countsIn(const ClusterStore &store, const QString &ns);
    // The same by virtual cluster: each workload under its VC as the Workloads page names it
    // (its job's queue, else its pod's, else its namespace's, else "default").
    static QHash<QString, WorkloadCounts> countsByVc(const ClusterStore &store);

    // How one workload is counted in those figures (and in NamespaceTally's): under which VC, in
    // which class (a state that lies is a problem), stuck or not. nullopt for a key the store no
    // longer holds and for pods of an owner that is not a job the store knows (a ReplicaSet's:
    // not counted as workloads of their own).
    struct Counted
    {
        QString vc;
        workloadstatus::Class cls = workloadstatus::Running;
        bool stuck = false;
        bool ages = false; // waiting or being deleted: time alone can make it stuck
    };
    static std::optional<Counted> counted(const ClusterStore &store, const QString &key);
    // `c` counted into `into` (sign +1), or taken out of it again (-1).
    static void add(WorkloadCounts &into, const Counted &c, int sign = 1);

private:
    static WorkloadCounts tally(const ClusterStore &store, const QStringList &jobKeys,
                                const QList<const PodInfo *> &pods);
    // Each workload counted once, into the counts `bucket` picks for it by its VC.
    static void tallyInto(const ClusterStore &store, const QStringList &jobKeys,
                          const QList<const PodInfo *> &pods,
                          const std::function<WorkloadCounts &(const QString &vc)> &bucket);
    static std::optional<Counted> countedResolved(const ClusterStore &store, const QString &key);
    // A pod no job owns.
    static std::optional<Counted> countedBare(const ClusterStore &store, const PodInfo &pod);
    static QString waitingReason(const QList<const PodInfo *> &pods, qint64 *since);
};

} // namespace gpudesk
