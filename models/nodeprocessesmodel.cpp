// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodeprocessesmodel.h"

namespace gpudesk {

NodeProcessesModel::NodeProcessesModel(const TelemetryStore *telemetry, QObject *parent)
    : NodeRowsModel(telemetry, ColumnCount, parent)
{}

QList<std::pair<QString, AttributedProcess>> NodeProcessesModel::read() const
{
    QList<std::pair<QString, AttributedProcess>> rows;
    for (const AttributedProcess &p : m_telemetry->processes(node()))
        rows.append({QString::number(p.pid), p});
    return rows;
}

QVariant NodeProcessesModel::data(const QModelIndex &index, int role) const
{
    const AttributedProcess *row = rowAt(index);
    if (!row)
        return {};
    const AttributedProcess &p = *row;
    const int col = index.column();
    switch (role) {
    case KeyRole:
        return keyAt(index.row());
    case PodUidRole:
        return p.podUid;
    case UserNameRole:
        return p.user;
    case SeverityRole:
        return col == Pod && p.orphan() ? 2 : 0;
    case Qt::TextAlignmentRole:
        return col == Pid || col == Memory ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                           : QVariant();
    case SortRole:
        if (col == Pid)
            return p.pid;
        if (col == Memory)
            return p.memoryMiB.value_or(-1);
        if (col == Card)
            return p.cardIndex * 100 + p.migDevice;
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (col) {
        case Pid:
            return QString::number(p.pid);
        case Card: {
            QString card = p.cardIndex >= 0 ? QString::number(p.cardIndex) : QStringLiteral("?");
            if (p.migDevice >= 0)
                card += QStringLiteral(" / MIG %1").arg(p.migDevice);
            return card;
        }
        case Memory:
            return p.memoryMiB ? tr("%1 MiB").arg(*p.memoryMiB) : QStringLiteral("—");
        case Pod:
            return p.attributed()       ? QString(p.ns + u'/' + p.pod)
                   : p.podHidden        ? tr("— pod not visible to you")
                   : p.podUid.isEmpty() ? tr("— host process, no pod")
                                        : tr("— pod %1 no longer exists").arg(p.podUid);
        case User:
            return p.user;
        case Vc:
            return p.vc;
        case Command:
            return p.command;
        default:
            break;
        }
        break;
    default:
        break;
    }
    return {};
}

QStringList NodeProcessesModel::headers() const
{
    // In the order of the columns.
    return {tr("PID"), tr("GPU"), tr("GPU memory"), tr("Pod"), tr("User"), tr("VC"), tr("Command")};
}

} // namespace gpudesk
