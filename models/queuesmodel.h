// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clusterstore.h"
#include "keyedtablemodel.h"

#include <QHash>

#include <optional>

namespace gpudesk {

class ClusterStore;
struct QueueInfo;
struct StoreChanges;

// Virtual clusters (Volcano queues): their weight, state, the GPUs, CPU and memory they hold
// against capability, deserved and guarantee, what waits in them and who is bound to them.
// Feeds the Overview's bar chart (the first column's used / total) and the VCs page.
class QueuesModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        State,
        Allocated, // GPUs, against capability
        Deserved,
        Guarantee,
        Cpu,
        Memory,
        Pending, // GPUs wanted and not held
        Jobs,    // running / waiting, as the Workloads page and the Overview count them
        Users,
        Weight,
        Reclaimable,
        Parent,
        Capability,
        ColumnCount
    };

    explicit QueuesModel(const ClusterStore *store, QObject *parent = nullptr);
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // GPUs the VC holds: counted from the pods where every pod is visible; else Volcano's own
    // count in the VC's status, which says more than one namespace's pods can.
    static int allocatedGpus(const ClusterStore &store, const QueueInfo &queue);
    // The users (namespaces labelled gpudesk.io/vc=NAME) bound to it, by user name.
    static QStringList usersOf(const ClusterStore &store, const QString &vc);

private:
    void onUpdated(const StoreChanges &changes);
    QStringList currentKeys() const;
    const WorkloadCounts &jobsOf(const QString &vc) const;

    const ClusterStore *m_store;
    // WorkloadResolver::countsByVc, made when the Jobs column is first read after a change (the
    // Overview's bars never read it).
    mutable std::optional<QHash<QString, WorkloadCounts>> m_jobs;
};

} // namespace gpudesk
