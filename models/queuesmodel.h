// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"

namespace gpudesk {

class ClusterStore;
struct StoreChanges;

// Virtual clusters (Volcano queues): GPUs allocated against capability. Feeds the Overview's
// bar chart and table.
class QueuesModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Allocated,
        Capability,
        Weight,
        State,
        ColumnCount
    };

    explicit QueuesModel(const ClusterStore *store, QObject *parent = nullptr);
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void onUpdated(const StoreChanges &changes);
    QStringList currentKeys() const;

    const ClusterStore *m_store;
};

} // namespace gpudesk
