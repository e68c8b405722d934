// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "noderowsmodel.h"
#include "telemetrystore.h"

namespace gpudesk {

// The GPU processes of one node with the pod, user and VC each belongs to — or why none: a pod
// gone, a host process, a pod this account cannot see.
class NodeProcessesModel : public NodeRowsModel<AttributedProcess>
{
    Q_OBJECT
public:
    enum Column
    {
        Pid,
        Card,
        Memory,
        Pod,
        User,
        Vc,
        Command,
        ColumnCount
    };
    explicit NodeProcessesModel(const TelemetryStore *telemetry, QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

protected:
    QStringList headers() const override;
    QList<std::pair<QString, AttributedProcess>> read() const override;

private:
};

} // namespace gpudesk
