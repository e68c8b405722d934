// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gpuusehistory.h"

#include <QTimer>
#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;

namespace gpudesk {

class GpuUseSampler;
class HistoryService;

// The Overview's chart: the cluster's GPUs allocated against busy over the last hour, 6 or 24
// hours (and 7 days with Prometheus), with the total as a dashed ceiling — the space between the
// two lines is allocated and idle. With a Prometheus the range is drawn whole from DCGM-exporter's
// history, gpudesk's own samples after its last point; without one, from gpudesk's samples.
class GpuUseChart : public QWidget
{
    Q_OBJECT
public:
    GpuUseChart(GpuUseSampler *sampler, QWidget *parent = nullptr);
    // What is drawn (for tests): the allocated and busy lines' last points.
    QList<QPointF> allocatedPoints() const;
    QList<QPointF> busyPoints() const;
    QList<QPointF> totalPoints() const;
    // Prometheus' history, when there is one (the window's, set after construction).
    void setHistory(HistoryService *history);
    // Picks a range by its hours (1, 6, 24, 168); false if it is not offered.
    bool selectHours(int hours);

signals:
    // Prometheus answered for the shown range ("" or why not).
    void prometheusAnswered(const QString &error);

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    void setRanges();
    void askPrometheus();

    GpuUseSampler *m_sampler;
    QComboBox *m_range;
    QLabel *m_note;
    QChartView *m_view;
    QLineSeries *m_total;
    QLineSeries *m_allocated;
    QLineSeries *m_busy;
    HistoryService *m_history = nullptr;
    QList<GpuUseHistory::Point> m_prometheus; // the shown range's, oldest first
    int m_prometheusHours = 0;                // the range they are for
    QString m_prometheusError;
    QTimer m_prometheusTimer; // asked again while shown: the range moves on
};

} // namespace gpudesk
