// SPDX-License-Identifier: GPL-3.0-or-later
#include "queuesmodel.h"

#include "clusterstore.h"
#include "format.h"
#include "workloadresolver.h"

#include <limits>

namespace gpudesk {

namespace {

const QString kGpu = QStringLiteral("nvidia.com/gpu");
const QString kCpu = QStringLiteral("cpu");
const QString kMemory = QStringLiteral("memory");

// "12 / 40", "12 / –" (no limit) in the resource's own units.
QString againstLimit(const QString &resource, qint64 used, const ResourceAmounts &limits)
{
    const auto limit = amountOf(limits, resource);
    return quantity::format(resource, used) + QStringLiteral(" / ") +
           (limit ? quantity::format(resource, *limit) : QStringLiteral("–"));
}

QString amountText(const QString &resource, const ResourceAmounts &amounts)
{
    const auto a = amountOf(amounts, resource);
    return a ? quantity::format(resource, *a) : QString();
}

} // namespace

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

const WorkloadCounts &QueuesModel::jobsOf(const QString &vc) const
{
    // Volcano's queue status counts pod groups (a failed PyTorchJob's may still say Running):
    // the column counts jobs in the one vocabulary every page uses (issue 34).
    if (!m_jobs)
        m_jobs = WorkloadResolver::countsByVc(*m_store);
    static const WorkloadCounts none;
    const auto it = m_jobs->constFind(vc);
    return it == m_jobs->cend() ? none : *it;
}

void QueuesModel::onUpdated(const StoreChanges &changes)
{
    m_jobs.reset();
    if (changes.reset) {
        resetTo(currentKeys());
        return;
    }
    // A handful of rows, each a sum over many objects: every row is re-read.
    if (!changes.changed(Resource::Queues) && !changes.changed(Resource::Namespaces) &&
        !changes.changed(Resource::PodGroups) && changes.pods.isEmpty() &&
        !changes.changed(Resource::VolcanoJobs) && !changes.changed(Resource::PyTorchJobs) &&
        !changes.changed(Resource::MPIJobs))
        return;
    syncAll(currentKeys());
}

int QueuesModel::allocatedGpus(const ClusterStore &store, const QueueInfo &q)
{
    return store.podsComplete() ? store.vcAllocated(q.name)
                                : std::max(store.vcAllocated(q.name), q.gpuAllocated.value_or(0));
}

QStringList QueuesModel::usersOf(const ClusterStore &store, const QString &vc)
{
    QStringList out;
    for (const NamespaceInfo &n : store.users())
        if (n.vc == vc)
            out.append(n.user);
    return out;
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
    const int allocated = allocatedGpus(*m_store, q);
    const int column = index.column();
    switch (role) {
    case KeyRole:
        return name;
    case VcRole:
        return name;
    case FilterRole:
        return QString(name + u' ' + q.parent);
    case UsedRole:
        if (column == Cpu)
            return double(amountOf(q.allocated, kCpu).value_or(0)) / 1000.0;
        if (column == Memory)
            return double(amountOf(q.allocated, kMemory).value_or(0)) / 1000.0;
        return allocated;
    case TotalRole: {
        const QString r = column == Cpu ? kCpu : (column == Memory ? kMemory : kGpu);
        const auto cap = amountOf(q.capability, r);
        if (!cap)
            return {};
        return r == kGpu ? QVariant(int(*cap / 1000)) : QVariant(double(*cap) / 1000.0);
    }
    case SeverityRole:
        if (column == State)
            return q.state == QLatin1String("Open") || q.state.isEmpty() ? 0 : 1;
        if (column == Pending)
            return m_store->vcPendingDemand(name) > 0 ? 1 : 0;
        return q.gpuCapability && allocated >= *q.gpuCapability ? 1 : 0;
    case SortRole:
        switch (column) {
        case Capability:
            return q.gpuCapability.value_or(std::numeric_limits<int>::max());
        case Allocated:
            return allocated;
        case Deserved:
            return amountOf(q.deserved, kGpu).value_or(-1);
        case Guarantee:
            return amountOf(q.guarantee, kGpu).value_or(-1);
        case Cpu:
            return amountOf(q.allocated, kCpu).value_or(0);
        case Memory:
            return amountOf(q.allocated, kMemory).value_or(0);
        case Pending:
            return m_store->vcPendingDemand(name);
        case Jobs:
            return jobsOf(name).running * 100000 + jobsOf(name).waiting;
        case Users:
            return int(usersOf(*m_store, name).size());
        case Weight:
            return q.weight;
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::ToolTipRole:
        if (column == Users)
            return usersOf(*m_store, name).join(QStringLiteral(", "));
        if (column == State && q.state == QLatin1String("Closing"))
            return tr("Closed to new jobs; waits for its %n pod group(s) to end", nullptr,
                      q.running + q.pending + q.inqueue);
        return {};
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return name;
        case State:
            return format::status(q.state.isEmpty() ? QStringLiteral("Open") : q.state);
        case Allocated:
            return QStringLiteral("%1 / %2").arg(allocated).arg(
                q.gpuCapability ? QString::number(*q.gpuCapability) : QStringLiteral("–"));
        case Capability:
            return q.gpuCapability ? QString::number(*q.gpuCapability) : tr("unlimited");
        case Deserved:
            return amountText(kGpu, q.deserved);
        case Guarantee:
            return amountText(kGpu, q.guarantee);
        case Cpu:
            return againstLimit(kCpu, amountOf(q.allocated, kCpu).value_or(0), q.capability);
        case Memory:
            return againstLimit(kMemory, amountOf(q.allocated, kMemory).value_or(0), q.capability);
        case Pending:
            return m_store->vcPendingDemand(name);
        case Jobs:
            return tr("%1 running, %2 waiting").arg(jobsOf(name).running).arg(jobsOf(name).waiting);
        case Users:
            return int(usersOf(*m_store, name).size());
        case Weight:
            return q.weight;
        case Reclaimable:
            return q.reclaimable ? tr("yes") : tr("no");
        case Parent:
            return q.parent == QLatin1String("root") ? QString() : q.parent;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant QueuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Allocated:
            return tr("GPUs the VC's pods hold, against its capability (its ceiling)");
        case Deserved:
            return tr("The GPUs it deserves: what reclaim gives back to it when others borrowed");
        case Guarantee:
            return tr("GPUs kept for it whatever other VCs need");
        case Pending:
            return tr("GPUs its waiting pods and jobs ask for");
        case Jobs:
            return tr("Pod groups (jobs) running, and waiting for admission or for nodes");
        case Reclaimable:
            return tr("Whether other VCs may take back what it borrowed beyond its deserved "
                      "share");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("VC", "virtual cluster, a Volcano queue");
    case State:
        return tr("State");
    case Allocated:
        return tr("GPUs allocated");
    case Capability:
        return tr("GPU capability");
    case Deserved:
        return tr("GPUs deserved");
    case Guarantee:
        return tr("GPUs guaranteed");
    case Cpu:
        return tr("CPU");
    case Memory:
        return tr("Memory");
    case Pending:
        return tr("GPUs wanted");
    case Jobs:
        return tr("Jobs");
    case Users:
        return tr("Users");
    case Weight:
        return tr("Weight");
    case Reclaimable:
        return tr("Reclaimable");
    case Parent:
        return tr("Parent");
    default:
        return {};
    }
}

} // namespace gpudesk
