// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodesmodel.h"

#include "clusterstore.h"
#include "format.h"

namespace gpudesk {

NodesModel::NodesModel(const ClusterStore *store, QObject *parent, Clock now)
    : KeyedTableModel(parent), m_store(store), m_now(std::move(now))
{
    QStringList names;
    for (const auto &n : store->nodes())
        names.append(n.name);
    resetTo(names);
    connect(store, &ClusterStore::updated, this, &NodesModel::onUpdated);
}

void NodesModel::onUpdated(const StoreChanges &changes)
{
    if (changes.reset) {
        QStringList names;
        for (const auto &n : m_store->nodes())
            names.append(n.name);
        resetTo(names);
        return;
    }
    if (!changes.nodes.isEmpty())
        sync(changes.nodes, [this](const QString &name) { return m_store->node(name) != nullptr; });
}

int NodesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString NodesModel::statusText(const NodeInfo &n)
{
    QStringList parts{n.ready ? QStringLiteral("Ready") : QStringLiteral("NotReady")};
    if (n.unschedulable)
        parts.append(QStringLiteral("SchedulingDisabled"));
    for (const auto &c : n.conditions) {
        if (c.type != QLatin1String("Ready") && c.status == QLatin1String("True"))
            parts.append(c.type);
    }
    return parts.join(u',');
}

QVariant NodesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const NodeInfo *n = m_store->node(keyAt(index.row()));
    if (!n)
        return {};
    if (role == KeyRole)
        return n->name;
    if (role == SeverityRole) {
        if (!n->ready)
            return 2;
        return n->unschedulable || statusText(*n).contains(u',') ? 1 : 0;
    }
    if (role == FilterRole)
        return QStringList{n->name, statusText(*n), n->gpuModel, n->internalIP,
                           n->taints.join(u' ')}
            .join(u' ');
    const int column = index.column();
    const GpuCount gpus = m_store->nodeGpus(n->name);
    const NodeUse use = m_store->nodeUse(n->name);
    if (column == Gpus && (role == UsedRole || role == TotalRole))
        return role == UsedRole ? gpus.allocated : gpus.total;
    if (role == SortRole) {
        switch (column) {
        case Gpus:
            return gpus.allocated * 1000 + gpus.total;
        case Cpu:
            return use.cpuMilli;
        case Memory:
            return use.memoryBytes;
        case Pods:
            return use.pods;
        case Age:
            return -n->created;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole && column == Status) {
        QStringList lines;
        for (const auto &c : n->conditions)
            lines.append(c.type + QStringLiteral(": ") + c.status +
                         (c.message.isEmpty() ? QString() : QStringLiteral(" — ") + c.message));
        return lines.join(u'\n');
    }
    if (role == Qt::TextAlignmentRole && column >= Gpus && column <= Pods)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Name:
        return n->name;
    case Status:
        return statusText(*n);
    case GpuModel:
        return n->gpuModel.isEmpty() ? QStringLiteral("—") : n->gpuModel;
    case Gpus:
        return gpus.total == 0 ? QStringLiteral("—")
                               : QStringLiteral("%1 / %2").arg(gpus.allocated).arg(gpus.total);
    case Cpu:
        return QString(format::cores(use.cpuMilli) + QStringLiteral(" / ") +
                       format::cores(n->cpuAllocatableMilli));
    case Memory:
        return QString(format::bytes(use.memoryBytes) + QStringLiteral(" / ") +
                       format::bytes(n->memoryAllocatableBytes));
    case Pods:
        return use.pods;
    case Taints:
        return n->taints.join(QStringLiteral(", "));
    case Age:
        return format::age(n->created, m_now());
    default:
        return {};
    }
}

QVariant NodesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Status:
        return tr("Status");
    case GpuModel:
        return tr("GPU model");
    case Gpus:
        return tr("GPUs used");
    case Cpu:
        return tr("CPU requested");
    case Memory:
        return tr("Memory requested");
    case Pods:
        return tr("Pods");
    case Taints:
        return tr("Taints");
    case Age:
        return tr("Age");
    default:
        return {};
    }
}

} // namespace gpudesk
