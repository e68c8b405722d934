// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodesmodel.h"
#include "vipreservation.h"

#include "clusterstore.h"
#include "format.h"
#include "gpuaccounting.h"
#include "telemetrystore.h"

#include <QDateTime>

#include <algorithm>

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

void NodesModel::setTelemetry(const TelemetryStore *telemetry)
{
    m_telemetry = telemetry;
    connect(telemetry, &TelemetryStore::updated, this, [this](const QSet<QString> &nodes) {
        for (const QString &n : nodes)
            if (const int row = rowOf(n); row >= 0)
                emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    });
}

QList<NodesModel::Problem> NodesModel::telemetryProblems(const TelemetryStore &telemetry,
                                                         const NodeInfo &n)
{
    QList<Problem> out;
    const NodeSample *s = telemetry.latest(n.name);
    // A node that answered and then stopped: first, since its figures are the last it gave.
    if (const SshStatus ssh = telemetry.sshStatus(n.name);
        s && ssh.state == SshStatus::Unreachable && ssh.since > 0)
        out.append({2, tr("unreachable over SSH since %1")
                           .arg(QDateTime::fromMSecsSinceEpoch(ssh.since).toString(
                               QStringLiteral("HH:mm:ss")))});
    if (!s || !telemetry.isFresh(n.name))
        return out;
    if (n.gpuAllocatable > 0 && !s->hasGpus())
        out.append(
            {2, tr("The API counts %n GPU(s) but nvidia-smi fails: %1", nullptr, n.gpuAllocatable)
                    .arg(s->gpuMessage.isEmpty() ? tr("no answer") : s->gpuMessage)});
    int phantom = 0, orphans = 0;
    for (const CardState &c : telemetry.cards(n.name)) {
        phantom += c.phantom ? 1 : 0;
        for (const AttributedProcess &p : c.processes)
            orphans += p.orphan() ? 1 : 0;
    }
    if (orphans > 0)
        out.append({2, tr("%n GPU process(es) of no live pod", nullptr, orphans)});
    if (phantom > 0)
        out.append({1, tr("%n card(s) with phantom memory (held, no process)", nullptr, phantom)});
    for (const DiskUse &d : s->disks)
        if (d.percent >= 80)
            out.append({d.percent >= 90 ? 2 : 1,
                        tr("disk %1 %2 % full").arg(d.mountPoint).arg(d.percent)});
    return out;
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
    // Kept for a VIP job: only its pods may land there (vipreservation).
    if (std::any_of(n.taints.cbegin(), n.taints.cend(),
                    [](const QString &t) { return !vipreservation::jobOf(t).isEmpty(); }))
        parts.append(QStringLiteral("Reserved"));
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
    const QList<Problem> problems =
        m_telemetry ? telemetryProblems(*m_telemetry, *n) : QList<Problem>();
    if (role == SeverityRole) {
        int severity = !n->ready ? 2 : (n->unschedulable || statusText(*n).contains(u',') ? 1 : 0);
        for (const Problem &p : problems)
            severity = std::max(severity, p.severity);
        return severity;
    }
    if (role == FilterRole)
        return QStringList{n->name, statusText(*n), n->gpuModel, n->internalIP,
                           n->taints.join(u' ')}
            .join(u' ');
    const int column = index.column();
    const GpuFigures gpus = GpuAccounting(m_store, m_telemetry).node(n->name);
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
        for (const Problem &p : problems)
            lines.append(p.text);
        for (const auto &c : n->conditions)
            lines.append(c.type + QStringLiteral(": ") + c.status +
                         (c.message.isEmpty() ? QString() : QStringLiteral(" — ") + c.message));
        return lines.join(u'\n');
    }
    if (role == Qt::ToolTipRole && (column == Cpu || column == Memory || column == Pods) &&
        !gpus.exact)
        return tr("Your own pods' requests only: other users' pods are not visible to you.");
    if (role == Qt::ToolTipRole && column == Gpus && !gpus.exact)
        return tr("At least %1: your pods hold %2 and %3 card(s) run processes of pods not "
                  "visible to you; other users' allocations are not visible.")
            .arg(gpus.allocated)
            .arg(gpus.visible)
            .arg(gpus.inUseByHiddenPods);
    if (role == Qt::TextAlignmentRole && column >= Gpus && column <= Pods)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    const QString atLeast = gpus.exact ? QString() : QStringLiteral("≥ ");
    switch (column) {
    case Name:
        return n->name;
    case Status:
        // kubectl's words, and what only the node's own telemetry shows after them.
        return problems.isEmpty()
                   ? format::status(statusText(*n))
                   : format::status(statusText(*n)) + QStringLiteral(" · ") + problems.first().text;
    case GpuModel:
        return n->gpuModel.isEmpty() ? QStringLiteral("—") : n->gpuModel;
    case Gpus:
        return gpus.total == 0
                   ? QStringLiteral("—")
                   : QStringLiteral("%1 / %2").arg(gpus.allocatedText()).arg(gpus.total);
    // Requests of pods this account cannot see are not counted: a lower bound, said so.
    case Cpu:
        return QString(atLeast + format::cores(use.cpuMilli) + QStringLiteral(" / ") +
                       format::cores(n->cpuAllocatableMilli));
    case Memory:
        return QString(atLeast + format::bytes(use.memoryBytes) + QStringLiteral(" / ") +
                       format::bytes(n->memoryAllocatableBytes));
    case Pods:
        return gpus.exact ? QVariant(use.pods) : QVariant(atLeast + QString::number(use.pods));
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
