// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodepodsmodel.h"

#include "clusterstore.h"
#include "format.h"
#include "telemetrystore.h"

namespace gpudesk {

NodePodsModel::NodePodsModel(const ClusterStore *store, const TelemetryStore *telemetry,
                             QObject *parent)
    : NodeRowsModel(telemetry, ColumnCount, parent), m_store(store)
{}

QList<std::pair<QString, PodUsage>> NodePodsModel::read() const
{
    QList<std::pair<QString, PodUsage>> rows;
    if (const NodeSample *s = m_telemetry->latest(node()))
        for (const PodUsage &u : s->pods)
            rows.append({u.uid, u});
    return rows;
}

QVariant NodePodsModel::data(const QModelIndex &index, int role) const
{
    const PodUsage *row = rowAt(index);
    if (!row)
        return {};
    const PodUsage &u = *row;
    const PodInfo *p = m_store->pod(u.uid);
    const int col = index.column();
    const qint64 cpuReq = p ? p->cpuRequestMilli : 0;
    const qint64 memReq = p ? p->memoryRequestBytes : 0;
    switch (role) {
    case KeyRole:
    case PodUidRole:
        return u.uid;
    case SeverityRole:
        // At its request (or above, for a Burstable pod): the pod may be CPU-bound.
        return col == Cpu && u.cpuCores && cpuReq > 0 &&
                       *u.cpuCores >= 0.9 * double(cpuReq) / 1000.0
                   ? 1
                   : 0;
    case Qt::TextAlignmentRole:
        return col >= Cpu ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case SortRole:
        switch (col) {
        case Cpu:
            return u.cpuCores.value_or(-1);
        case CpuRequested:
            return cpuReq;
        case Memory:
            return u.workingSetBytes;
        case MemoryRequested:
            return memReq;
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (col) {
        case Pod:
            return p ? QString(p->ns + u'/' + p->name) : u.uid;
        case User:
            return p ? m_store->userOf(p->ns) : QString();
        case Cpu:
            return u.cpuCores ? QString::number(*u.cpuCores, 'f', 2) : QStringLiteral("—");
        case CpuRequested:
            return cpuReq ? format::cores(cpuReq) : QStringLiteral("—");
        case Memory:
            return format::bytes(u.workingSetBytes);
        case MemoryRequested:
            return memReq ? format::bytes(memReq) : QStringLiteral("—");
        default:
            break;
        }
        break;
    default:
        break;
    }
    return {};
}

QStringList NodePodsModel::headers() const
{
    // In the order of the columns.
    return {tr("Pod"),
            tr("User"),
            tr("CPU (cores)"),
            tr("CPU requested"),
            tr("Memory (working set)"),
            tr("Memory requested")};
}

} // namespace gpudesk
