// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "telemetryhistory.h"

#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;

namespace gpudesk {

class HistoryService;
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
    // A pod's or a job's own use: the cards its processes run on, and its own CPU and memory
    // (from its cgroups) against what it requested.
    void setPods(const QStringList &podUids);
    // With a Prometheus, a node's history also goes back a day and a week: its cards from
    // DCGM-exporter's series (by their Hostname label), its CPU, memory and load from
    // node-exporter's (by their instance: the node's name or InternalIP). Followed as the
    // Prometheus is set, changed or removed later (the window is made before it is known).
    void setHistory(HistoryService *history);
    void selectRange(int index);
    // The index of the first range read from Prometheus; -1 without one.
    int prometheusRange() const;
    void selectMetric(TelemetryHistory::Metric m);
    int rangeCount() const;
    QString seriesName(int i) const;
    QList<QPointF> seriesPoints(int i) const;
    void refresh();
    int seriesCount() const;
    int pointCount() const;

signals:
    void prometheusAnswered(const QString &error);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyTheme();
    using Lines = QList<std::pair<QString, QList<QPointF>>>;
    TelemetryHistory::Metric metric() const;
    void setMetrics(bool pods);
    // Sampled ranges, then the day and the week from Prometheus where there is one (which
    // replaces the sampled day: that covers only since gpudesk started).
    void setRanges();
    Lines podLines(TelemetryHistory::Metric m, qint64 from, qint64 to, double *requested) const;
    void display(const Lines &lines, qint64 from, qint64 to, double requested = -1);

    const TelemetryStore *m_telemetry;
    QString m_node;
    QStringList m_pods;
    QComboBox *m_metric;
    QComboBox *m_range;
    QChartView *m_view;
    QLabel *m_note;
    HistoryService *m_history = nullptr;
    quint64 m_query = 0; // answers to older queries are dropped
};

} // namespace gpudesk
