// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gpuplacement.h"

#include <QWidget>

namespace gpudesk {

class ClusterStore;
class TelemetryStore;

// Every GPU of every node as a cell, as GpuPlacement places them: free (green), allocated (in
// its user's colour), unavailable (grey: node NotReady or cordoned), in use by a pod this account
// cannot see (dark grey), or unknown (outlined: who holds it is not visible). With telemetry each
// cell shows the card's live utilization as a bar and flags phantom memory (amber corner) and
// processes of no live pod (red corner). Only the exposed part is painted, so thousands of nodes
// scroll smoothly.
class GpuMapView : public QWidget
{
    Q_OBJECT
public:
    explicit GpuMapView(const ClusterStore *store, QWidget *parent = nullptr);
    void setTelemetry(const TelemetryStore *telemetry);
    void rebuild();
    QSize sizeHint() const override;
    int heightForWidth(int width) const override;
    bool hasHeightForWidth() const override { return true; }

signals:
    void nodeActivated(const QString &node);

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QRect blockRect(int index) const;
    int columns(int width) const;
    // A position on the map: one card, or one card in MIG mode split into its instances.
    struct Slot
    {
        int whole = -1; // index in NodeCards::cells
        QList<int> mig; // indices in NodeCards::mig (one card's instances)
    };
    struct Hit
    {
        int node = -1;
        int slot = -1;
        int mig = -1; // the instance under the pointer, in a MIG slot
    };
    Hit hit(const QPoint &pos) const;
    QRect slotRect(const QRect &block, int node, int slot) const;
    static QList<Slot> slotsOf(const NodeCards &node);
    void drawCell(QPainter &p, const QRect &r, CardCell::State state, const QString &user,
                  int utilization, bool unattributed, bool phantom, bool down) const;
    QString cellTooltip(const NodeCards &n, const Hit &h) const;
    QString stateText(const CardCell &cell) const;
    QString processLines(const CardCell &cell) const;

    const ClusterStore *m_store;
    const TelemetryStore *m_telemetry = nullptr;
    QList<NodeCards> m_nodes;
    QList<QList<Slot>> m_slots; // per node
    int m_cell = 18;
    int m_labelWidth = 110;
};

} // namespace gpudesk
