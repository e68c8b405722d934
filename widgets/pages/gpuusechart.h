// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;

namespace gpudesk {

class GpuUseSampler;

// The Overview's chart: the cluster's GPUs allocated against busy over the last hour, 6 or 24
// hours, with the total as a dashed ceiling — the space between the two lines is allocated and
// idle.
class GpuUseChart : public QWidget
{
    Q_OBJECT
public:
    GpuUseChart(GpuUseSampler *sampler, QWidget *parent = nullptr);
    // What is drawn (for tests): the allocated and busy lines' last points.
    QList<QPointF> allocatedPoints() const;
    QList<QPointF> busyPoints() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();

    GpuUseSampler *m_sampler;
    QComboBox *m_range;
    QLabel *m_note;
    QChartView *m_view;
    QLineSeries *m_total;
    QLineSeries *m_allocated;
    QLineSeries *m_busy;
};

} // namespace gpudesk
