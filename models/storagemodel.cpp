// SPDX-License-Identifier: GPL-3.0-or-later
#include "storagemodel.h"

#include "format.h"

#include <QLocale>

#include <limits>

namespace gpudesk {

StorageModel::StorageModel(QObject *parent) : KeyedTableModel(parent) {}

int StorageModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const StorageFolder *StorageModel::folderAt(int row) const
{
    const auto it = m_folders.constFind(keyAt(row));
    return it == m_folders.cend() ? nullptr : &*it;
}

void StorageModel::setMeasures(const QList<StorageRootMeasure> &measures,
                               const StorageHistory &history, qint64 nowMs)
{
    m_now = nowMs;
    m_folders.clear();
    m_growthWeek.clear();
    QStringList keys;
    for (const StorageRootMeasure &m : measures) {
        for (const StorageFolder &f : m.folders) {
            m_folders.insert(f.path, f);
            keys.append(f.path);
            if (const auto g =
                    history.growth(f.path, f.bytes, m.measuredAt, 7 * StorageHistory::DayMs))
                m_growthWeek.insert(f.path, *g);
        }
    }
    syncAll(keys);
}

QVariant StorageModel::data(const QModelIndex &index, int role) const
{
    const StorageFolder *f = folderAt(index.row());
    if (!f || index.column() >= ColumnCount)
        return {};
    const bool user = f->kind == QLatin1String("user");
    const auto growth = m_growthWeek.constFind(f->path);
    const bool hasGrowth = growth != m_growthWeek.cend();
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Owner:
            return f->owner;
        case Kind:
            return user ? tr("User") : tr("Group");
        case Size:
            return format::bytes(f->bytes);
        case OnDisk:
            if (role == Qt::ToolTipRole && f->allocated * 2 < f->bytes)
                return tr("%1 on disk for %2 of files: sparse files (or a filesystem that "
                          "compresses) take less than their size.")
                    .arg(format::bytes(f->allocated), format::bytes(f->bytes));
            return format::bytes(f->allocated);
        case Files:
            return QLocale().toString(f->files);
        case WrittenDay:
            if (role == Qt::ToolTipRole)
                return tr("Bytes of files changed in the 24 hours before the walk: %1; in "
                          "the week: %2")
                    .arg(format::bytes(f->changedDay), format::bytes(f->changedWeek));
            return f->changedDay > 0 ? format::bytes(f->changedDay) : QStringLiteral("—");
        case GrowthWeek:
            if (!hasGrowth)
                return role == Qt::ToolTipRole
                           ? tr("Net growth needs a measure a week old; the history is younger.")
                           : QStringLiteral("—");
            return *growth < 0 ? QString(QStringLiteral("−") + format::bytes(-*growth))
                               : QString(QStringLiteral("+") + format::bytes(*growth));
        case LastChange:
            if (role == Qt::ToolTipRole)
                return format::when(f->lastChange);
            return f->lastChange > 0 ? tr("%1 ago").arg(format::age(f->lastChange, m_now))
                                     : QString();
        case Largest:
            if (f->largest.isEmpty())
                return QString();
            return QStringLiteral("%1 (%2)").arg(f->largest.constFirst().name,
                                                 format::bytes(f->largest.constFirst().bytes));
        case Path:
            return f->path;
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case Size:
            return f->bytes;
        case OnDisk:
            return f->allocated;
        case Files:
            return f->files;
        case WrittenDay:
            return f->changedDay;
        case GrowthWeek:
            return hasGrowth ? *growth : std::numeric_limits<qint64>::min();
        case LastChange:
            return f->lastChange;
        case Largest:
            return f->largest.isEmpty() ? 0 : f->largest.constFirst().bytes;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Size && index.column() <= GrowthWeek)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == KeyRole)
        return f->path;
    if (role == UserNameRole && user)
        return f->owner;
    if (role == FilterRole)
        return QString(f->owner + u' ' + f->path);
    return {};
}

QVariant StorageModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Owner:
        return tr("Owner");
    case Kind:
        return tr("Kind");
    case Size:
        return tr("Size");
    case OnDisk:
        return tr("On disk");
    case Files:
        return tr("File count");
    case WrittenDay:
        return tr("Written 24 h");
    case GrowthWeek:
        return tr("Growth 7 d");
    case LastChange:
        return tr("Last change");
    case Largest:
        return tr("Largest folder");
    case Path:
        return tr("Path");
    }
    return {};
}

} // namespace gpudesk
