// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clusterstore.h"
#include "workloadresolver.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <map>

namespace gpudesk {

// What each namespace's workloads add up to — a user's jobs by state, the GPUs their pods hold
// on nodes, their dev environments, their newest pod or job —, kept from the store's changes:
// when a workload changes, its share is taken out of its namespace's figures and its new share
// added, so an update costs what it changed, not what its namespaces hold. Summarizing every
// touched namespace again took most of the UI thread under churn on a 100,000-pod cluster
// (issue 39: a namespace's every pod and job resolved, for one pod that moved).
class NamespaceTally
{
public:
    struct Figures
    {
        WorkloadCounts counts;   // workloads as WorkloadResolver counts them
        int gpusInUse = 0;       // GPUs its unfinished pods hold on nodes
        int devEnvs = 0;         // unfinished pods labelled gpudesk.io/devenv
        qint64 lastActivity = 0; // the newest pod or job created in it, ms
    };

    // Every workload of the store taken again (a context switch, a first build).
    void rebuild(const ClusterStore &store);
    // These workloads (StoreChanges::workloads) changed in the store: their shares taken again.
    // Returns the namespaces whose figures changed.
    QSet<QString> apply(const ClusterStore &store, const QSet<QString> &workloadKeys);
    // Time alone makes a waiting workload stuck (WorkloadResolver: a queue full for long): those
    // waiting are taken again. Returns the namespaces whose figures changed.
    QSet<QString> reviewWaiting(const ClusterStore &store);
    Figures figures(const QString &ns) const;

private:
    // One workload's part of its namespace's figures.
    struct Share
    {
        QString ns;
        // As WorkloadResolver::counted says, less its VC; not counted as a workload (a
        // ReplicaSet's pods) when absent.
        bool counts = false;
        workloadstatus::Class cls = workloadstatus::Running;
        bool stuck = false;
        bool ages = false;
        int gpusInUse = 0;
        int devEnvs = 0;
        qint64 newest = 0; // its job's or pods' creation, the newest
        bool operator==(const Share &) const = default;
    };
    struct Sums
    {
        WorkloadCounts counts;
        int gpusInUse = 0;
        int devEnvs = 0;
        // How many workloads have each newest time: the newest of a namespace stays known when
        // its newest workload goes.
        std::map<qint64, int> newest;
    };

    static Share shareOf(const ClusterStore &store, const QString &key);
    void addShare(const Share &s, int sign);
    // Takes `key` again; true when its namespace's figures (or the namespace) changed.
    void retake(const ClusterStore &store, const QString &key, QSet<QString> *touched);

    QHash<QString, Share> m_shares; // by workload key
    QHash<QString, Sums> m_sums;    // by namespace
};

} // namespace gpudesk
