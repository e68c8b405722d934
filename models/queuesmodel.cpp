// SPDX-License-Identifier: GPL-3.0-or-later
#include "queuesmodel.h"

#include "clusterstore.h"

namespace gpudesk {

QueuesModel::QueuesModel(const ClusterStore *store, QObject *parent)
    : KeyedTableModel(parent), m_store(store)
{
    resetTo(currentKeys());
    connect(store, &ClusterStore::updated, this, &QueuesModel::onUpdated);
}

QStringList QueuesModel::currentKeys() const
{
    QStringList keys;
    for (const auto &q : m_store->queues())
        keys.append(q.name);
    return keys;
}

void QueuesModel::onUpdated(const StoreChanges &changes)
{
    if (changes.reset) {
        resetTo(currentKeys());
        return;
    }
    if (!changes.changed(Resource::Queues) && changes.pods.isEmpty())
        return;
    syncAll(currentKeys());
}

int QueuesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant QueuesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const QString name = keyAt(index.row());
    const QueueInfo *found = m_store->queue(name);
    if (!found)
        return {};
    const QueueInfo &q = *found;
    // Counted from the pods where every pod is visible; else Volcano's own count in the VC's
    // status (readable by whoever may read queues) says more than one namespace's pods can.
    const int allocated = m_store->podsComplete()
                              ? m_store->vcAllocated(name)
                              : std::max(m_store->vcAllocated(name), q.gpuAllocated.value_or(0));
    switch (role) {
    case KeyRole:
        return name;
    case UsedRole:
        return allocated;
    case TotalRole:
        return q.gpuCapability ? QVariant(*q.gpuCapability) : QVariant();
    case SeverityRole:
        return q.gpuCapability && allocated >= *q.gpuCapability ? 1 : 0;
    case SortRole:
        if (index.column() == Capability)
            return q.gpuCapability.value_or(std::numeric_limits<int>::max());
        if (index.column() == Allocated)
            return allocated;
        return data(index, Qt::DisplayRole);
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return name;
        case Allocated:
            return allocated;
        case Capability:
            return q.gpuCapability ? QString::number(*q.gpuCapability) : tr("unlimited");
        case Weight:
            return q.weight;
        case State:
            return q.state;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant QueuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("VC", "virtual cluster, a Volcano queue");
    case Allocated:
        return tr("GPUs allocated");
    case Capability:
        return tr("GPU capability");
    case Weight:
        return tr("Weight");
    case State:
        return tr("State");
    default:
        return {};
    }
}

} // namespace gpudesk
