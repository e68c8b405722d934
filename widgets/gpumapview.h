// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

namespace gpudesk {

class ClusterStore;

// Every GPU of every node as a cell: free (green), allocated (in its user's colour), or
// unavailable (grey: node NotReady or cordoned). Pods take cells in order of creation: the API
// says how many cards a pod holds, not which (the node's telemetry does). Only the exposed part
// is painted, so thousands of nodes scroll smoothly.
class GpuMapView : public QWidget
{
    Q_OBJECT
public:
    explicit GpuMapView(const ClusterStore *store, QWidget *parent = nullptr);
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

    const ClusterStore *m_store;
    QList<NodeCells> m_nodes;
    int m_cell = 18;
    int m_labelWidth = 110;
};

} // namespace gpudesk
