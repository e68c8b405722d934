// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;

namespace gpudesk {

class ClusterStore;
class ConnectionState;
class GpuMapView;
class TelemetryStore;

// The GPU map with its legend and a sentence on fragmentation: where the free cards are.
class GpuMapPage : public QWidget
{
    Q_OBJECT
public:
    explicit GpuMapPage(ClusterStore *store, QWidget *parent = nullptr);
    void setTelemetry(TelemetryStore *telemetry);
    // Without a live connection the summary says so, not "No GPU is free" (issue 34).
    void setConnection(const ConnectionState *connection);
    // The sentence on where the free cards are, as shown (FreeGpus::sentence).
    QString summary() const;
    GpuMapView *view() const { return m_map; }
    // The line naming who holds the cards, in their colours (rich text).
    QString usersLegend() const;

signals:
    void nodeActivated(const QString &node);

protected:
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();
    void refreshGroupings();

    ClusterStore *m_store;
    TelemetryStore *m_telemetry = nullptr;
    GpuMapView *m_map;
    QLabel *m_summary;
    QLabel *m_users; // who holds the cards, in their colours
    QComboBox *m_groupBy;
    QComboBox *m_zoom;
    QList<QWidget *> m_partialLegend;
    void refreshWhenShown();
    bool m_stale = false; // changed while hidden: redrawn when shown
    const ConnectionState *m_connection = nullptr;
};

} // namespace gpudesk
