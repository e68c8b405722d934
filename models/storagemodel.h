// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"
#include "storagehistory.h"
#include "storageusage.h"

namespace gpudesk {

// The Storage page's table: a row per user's and group's folder on the NAS, by path, from the
// last measure of each root; growth from the history. Updated in place when a measure comes.
class StorageModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Owner,
        Kind,
        Size,
        OnDisk,
        Files,
        WrittenDay,
        GrowthWeek,
        LastChange,
        Largest,
        Path,
        ColumnCount
    };
    explicit StorageModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    void setMeasures(const QList<StorageRootMeasure> &measures, const StorageHistory &history,
                     qint64 nowMs);
    // The folder of a row (null past the end).
    const StorageFolder *folderAt(int row) const;

private:
    QHash<QString, StorageFolder> m_folders;
    QHash<QString, qint64> m_growthWeek; // by path, where the history is a week old
    qint64 m_now = 0;
};

} // namespace gpudesk
