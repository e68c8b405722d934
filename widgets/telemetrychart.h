// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "telemetryhistory.h"

#include <QWidget>

class QChartView;
class QComboBox;

namespace gpudesk {

class TelemetryStore;

// A node's history as lines: one per card for the GPU metrics, one for the node's CPU, memory
// or load; over the last 10 minutes, hour or day. All of gpudesk's Qt Charts code is here (Qt
// Charts gives way to Qt Graphs in later Qt; this keeps the move to one file).
class TelemetryChart : public QWidget
{
    Q_OBJECT
public:
    explicit TelemetryChart(const TelemetryStore *telemetry, QWidget *parent = nullptr);
    void setNode(const QString &node);
    // A pod's or a job's own use: the cards its processes run on, and their nodes' CPU, memory
    // and load (node-wide figures, said so in the legend).
    void setPods(const QStringList &podUids);
    void refresh();
    int seriesCount() const;
    int pointCount() const;

private:
    TelemetryHistory::Metric metric() const;

    const TelemetryStore *m_telemetry;
    QString m_node;
    QStringList m_pods;
    QComboBox *m_metric;
    QComboBox *m_range;
    QChartView *m_view;
};

} // namespace gpudesk
