// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "noderowsmodel.h"
#include "nodesample.h"

namespace gpudesk {

class ClusterStore;
class TelemetryStore;

// The running pods of one node with their own CPU and memory (from their cgroups) against
// what they requested; a pod at its CPU request is marked (it may be CPU-bound).
class NodePodsModel : public NodeRowsModel<PodUsage>
{
    Q_OBJECT
public:
    enum Column
    {
        Pod,
        User,
        Cpu,
        CpuRequested,
        Memory,
        MemoryRequested,
        ColumnCount
    };
    NodePodsModel(const ClusterStore *store, const TelemetryStore *telemetry,
                  QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

protected:
    QStringList headers() const override;
    QList<std::pair<QString, PodUsage>> read() const override;

private:
    const ClusterStore *m_store;
};

} // namespace gpudesk
