// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodecardsmodel.h"

namespace gpudesk {

NodeCardsModel::NodeCardsModel(const TelemetryStore *telemetry, QObject *parent)
    : NodeRowsModel(telemetry, ColumnCount, parent)
{}

QList<std::pair<QString, CardState>> NodeCardsModel::read() const
{
    QList<std::pair<QString, CardState>> rows;
    for (const CardState &c : m_telemetry->cards(node()))
        rows.append({QString::number(c.sample.index), c});
    return rows;
}

QStringList NodeCardsModel::flagsOf(const CardState &c)
{
    QStringList flags;
    if (c.migEnabled) {
        // A card in MIG mode: its instances, and how many run something.
        QStringList profiles;
        int inUse = 0;
        for (const MigState &m : c.mig) {
            profiles << m.sample.profile;
            inUse += m.inUse() ? 1 : 0;
        }
        flags << tr("MIG: %1 (%2 in use)").arg(profiles.join(QStringLiteral(", "))).arg(inUse);
    }
    if (c.phantom)
        flags << tr("phantom memory");
    if (c.unattributed)
        flags << tr("process of no pod");
    if (c.hiddenOwner)
        flags << tr("pod not visible to you");
    if (c.sample.eccUncorrected.value_or(0) > 0)
        flags << tr("%n ECC error(s)", nullptr, int(*c.sample.eccUncorrected));
    return flags;
}

QVariant NodeCardsModel::data(const QModelIndex &index, int role) const
{
    const CardState *row = rowAt(index);
    if (!row)
        return {};
    const CardState &c = *row;
    const GpuCardSample &s = c.sample;
    const int col = index.column();
    switch (role) {
    case KeyRole:
        return keyAt(index.row());
    case SeverityRole:
        return col != Flags                                         ? 0
               : c.unattributed || s.eccUncorrected.value_or(0) > 0 ? 2
               : flagsOf(c).isEmpty() || c.migEnabled               ? 0
                                                                    : 1;
    case Qt::TextAlignmentRole:
        return col == Flags ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case SortRole:
        switch (col) {
        case Card:
            return s.index;
        case Utilization:
            return s.utilization.value_or(-1);
        case Memory:
            return s.memoryUsedMiB.value_or(-1);
        case Temperature:
            return s.temperatureC.value_or(-1);
        case Power:
            return s.powerDrawW.value_or(-1);
        case Processes:
            return int(c.processes.size());
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (col) {
        case Card:
            return QString::number(s.index);
        case Utilization:
            return s.utilization ? QStringLiteral("%1 %").arg(*s.utilization) : QStringLiteral("—");
        case Memory:
            return s.memoryUsedMiB && s.memoryTotalMiB
                       ? tr("%1 / %2 MiB").arg(*s.memoryUsedMiB).arg(*s.memoryTotalMiB)
                       : QStringLiteral("—");
        case Temperature:
            return s.temperatureC ? QStringLiteral("%1 °C").arg(*s.temperatureC)
                                  : QStringLiteral("—");
        case Power:
            return s.powerDrawW ? QStringLiteral("%1 W").arg(qRound(*s.powerDrawW))
                                : QStringLiteral("—");
        case Processes:
            return QString::number(c.processes.size());
        case Flags:
            return flagsOf(c).join(QStringLiteral(", "));
        default:
            break;
        }
        break;
    default:
        break;
    }
    return {};
}

QStringList NodeCardsModel::headers() const
{
    // In the order of the columns.
    return {tr("GPU"),   tr("Utilization"), tr("GPU memory"), tr("Temp."),
            tr("Power"), tr("Processes"),   tr("Flags")};
}

} // namespace gpudesk
