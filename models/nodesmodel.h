// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clock.h"
#include "keyedtablemodel.h"

namespace gpudesk {

class ClusterStore;
class TelemetryStore;
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
    // What the nodes themselves say (nvidia-smi, disks): GPU figures of partial views, and
    // problems only telemetry sees, in the severity and the tooltip.
    void setTelemetry(const TelemetryStore *telemetry);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // kubectl's STATUS: Ready, NotReady, Ready,SchedulingDisabled, plus pressure conditions.
    static QString statusText(const NodeInfo &node);
    // What the node's own telemetry flags: nvidia-smi failing, phantom memory, processes of no
    // pod, a disk over 80 %. Each with its severity (1 warning, 2 error).
    struct Problem
    {
        int severity = 1;
        QString text;
    };
    static QList<Problem> telemetryProblems(const TelemetryStore &telemetry, const NodeInfo &node);

private:
    void onUpdated(const StoreChanges &changes);

    const ClusterStore *m_store;
    const TelemetryStore *m_telemetry = nullptr;
    Clock m_now;
};

} // namespace gpudesk
