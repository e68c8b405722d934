// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;

namespace gpudesk {

class ClusterStore;
class GpuMapView;
class TelemetryStore;

// The GPU map with its legend and a sentence on fragmentation: where the free cards are.
class GpuMapPage : public QWidget
{
    Q_OBJECT
public:
    explicit GpuMapPage(ClusterStore *store, QWidget *parent = nullptr);
    // "8 free on a800-01; 1 free on each of 7 nodes": what a job of a given size can get.
    static QString fragmentation(const ClusterStore &store);
    void setTelemetry(TelemetryStore *telemetry);
    GpuMapView *view() const { return m_map; }

signals:
    void nodeActivated(const QString &node);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void refresh();

    ClusterStore *m_store;
    GpuMapView *m_map;
    QLabel *m_summary;
    bool m_stale = false; // changed while hidden: redrawn when shown
};

} // namespace gpudesk
