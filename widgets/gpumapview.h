// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

namespace gpudesk {

struct NodeInfo;
class ClusterStore;
class TelemetryStore;

// Every GPU of every node as a cell: free (green), allocated (in its user's colour), or
// unavailable (grey: node NotReady or cordoned). The API says how many cards a pod holds, not
// which: with the node's telemetry a pod takes the cards its processes run on, and each cell
// shows the card's live utilization as a bar and flags phantom memory (amber corner) and
// processes of no live pod (red corner); without it pods take cells in order of creation. Only
// the exposed part is painted, so thousands of nodes scroll smoothly.
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
    struct Cell
    {
        enum State
        {
            Free,
            Allocated,
            Unavailable
        } state = Free;
        QString podUid;
        QString user;
        int utilization = -1; // -1: no fresh telemetry
        qint64 memoryUsedMiB = -1;
        qint64 memoryTotalMiB = -1;
        bool phantom = false;
        bool unattributed = false;
        QStringList processes; // "pid pod" lines for the tooltip
    };
    struct NodeCells
    {
        QString name;
        QString status;
        QList<Cell> cells;
    };
    QRect blockRect(int index) const;
    int columns(int width) const;
    std::pair<int, int> hit(const QPoint &pos) const; // node, card; -1 when none

    void applyTelemetry(const NodeInfo &node, NodeCells *cells) const;

    const ClusterStore *m_store;
    const TelemetryStore *m_telemetry = nullptr;
    QList<NodeCells> m_nodes;
    int m_cell = 18;
    int m_labelWidth = 110;
};

} // namespace gpudesk
