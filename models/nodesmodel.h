// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clock.h"
#include "keyedtablemodel.h"

namespace gpudesk {

class ClusterStore;
struct NodeInfo;
struct StoreChanges;

// The Nodes page's table: one row per node, keyed by name.
class NodesModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Status,
        GpuModel,
        Gpus,
        Cpu,
        Memory,
        Pods,
        Taints,
        Age,
        ColumnCount
    };

    explicit NodesModel(const ClusterStore *store, QObject *parent = nullptr,
                        Clock now = &systemNow);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // kubectl's STATUS: Ready, NotReady, Ready,SchedulingDisabled, plus pressure conditions.
    static QString statusText(const NodeInfo &node);

private:
    void onUpdated(const StoreChanges &changes);

    const ClusterStore *m_store;
    Clock m_now;
};

} // namespace gpudesk
