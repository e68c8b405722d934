// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "noderowsmodel.h"
#include "telemetrystore.h"

namespace gpudesk {

// The cards of one node as its last sample shows them: utilization, memory, temperature,
// power, processes, and what gpudesk concludes (phantom memory, a process of no pod, MIG).
class NodeCardsModel : public NodeRowsModel<CardState>
{
    Q_OBJECT
public:
    enum Column
    {
        Card,
        Utilization,
        Memory,
        Temperature,
        Power,
        Processes,
        Flags,
        ColumnCount
    };
    explicit NodeCardsModel(const TelemetryStore *telemetry, QObject *parent = nullptr);
    static QStringList flagsOf(const CardState &c);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

protected:
    QStringList headers() const override;
    QList<std::pair<QString, CardState>> read() const override;

private:
};

} // namespace gpudesk
