// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gpuplacement.h"

#include <QWidget>

class QPainter;

namespace gpudesk {

class ClusterStore;
class TelemetryStore;

// Every GPU of every node as a cell, as GpuPlacement places them. State is told by shape, so
// that no user's colour can read as a state (and colour-blind eyes lose nothing): free is an
// empty cell with a solid border; allocated is filled with its user's colour; unavailable (node
// NotReady or cordoned) is grey and hatched; in use by a pod this account cannot see is plain
// grey; unknown (who holds it is not visible) is a dashed outline. With telemetry each cell
// shows the card's live utilization as a bar, a process of no live pod as a corner triangle and
// phantom memory as a dot; a card held on a node that is down is struck through. Cells grow to
// fill the page (from one line of text high to about three) and shrink to scroll when there are
// many nodes. Only the exposed part is painted, so thousands of nodes scroll smoothly. Nodes may
// be grouped by their GPU model or a node label (pool, rack, zone), each group under a heading
// with its free cards; zoom fixes the cell size instead of fitting it (Ctrl+wheel steps it).
class GpuMapView : public QWidget
{
    Q_OBJECT
public:
    // What one cell shows, as the legend draws it too.
    struct Look
    {
        CardCell::State state = CardCell::Free;
        QString user;
        QColor fill; // the user's colour among those shown (colors::forNames); else forName
        int utilization = -1;
        bool unattributed = false;
        bool phantom = false;
        bool down = false;
    };
    static void paintCell(QPainter &p, const QRect &r, const Look &look, const QPalette &pal);

    explicit GpuMapView(const ClusterStore *store, QWidget *parent = nullptr);
    void setTelemetry(const TelemetryStore *telemetry);
    void rebuild();
    // "" none, "gpu.model" the GPU model, else a node label's key.
    void setGroupBy(const QString &key);
    QString groupBy() const { return m_groupBy; }
    // The groups as drawn, in order: heading and node names (for tests).
    QList<std::pair<QString, QStringList>> groups() const;
    // 0 fits the cells to the page; else a percentage of the smallest readable cell.
    static QList<int> zoomLevels() { return {0, 100, 150, 200, 300}; }
    void setZoomPercent(int percent);
    int zoomPercent() const { return m_zoomPercent; }
    // The height the map may fill before it scrolls (the page's viewport): cells are sized to it.
    void setAvailableHeight(int height);
    int cellSize() const { return m_cell; }
    // The users holding cards on the map, most cards first, with their counts (for the legend).
    QList<std::pair<QString, int>> users() const;
    QColor colorOf(const QString &user) const;
    QSize sizeHint() const override;
    int heightForWidth(int width) const override;
    bool hasHeightForWidth() const override { return true; }

signals:
    void nodeActivated(const QString &node);
    // Ctrl+wheel stepped the zoom.
    void zoomChanged(int percent);

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;

private:
    QRect blockRect(int index) const;
    int columns(int width, int cell) const;
    int blockWidth(int cell) const;
    int heightFor(int width, int cell) const;
    // Places the nodes (and the groups' headings) for a width and cell size; the height used.
    int layoutFor(int width, int cell, QList<QRect> *blocks,
                  QList<std::pair<QRect, int>> *headings) const;
    void ensureLayout() const;
    int headingHeight() const;
    // The largest cell with which every node fits in the available height, at least the
    // smallest readable one.
    int cellFor(int width) const;
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
    QString cellTooltip(const NodeCards &n, const Hit &h) const;
    QString goneName(const QString &podUid) const;
    QString stateText(const CardCell &cell) const;
    QString processLines(const CardCell &cell) const;

    const ClusterStore *m_store;
    const TelemetryStore *m_telemetry = nullptr;
    QList<NodeCards> m_nodes;
    QList<QList<Slot>> m_slots;      // per node
    QHash<QString, QColor> m_colors; // of the users on the map, distinct where they can be
    int m_minCell = 18;
    int m_cell = 18;
    int m_labelWidth = 110;
    int m_availableHeight = 0;
    QString m_groupBy;
    QStringList m_groupOf; // per node, its group's name ("" when not grouped)
    struct Group
    {
        QString name;
        int nodes = 0, cards = 0, free = 0;
    };
    QList<Group> m_groups;
    int m_zoomPercent = 0;
    // The layout for m_layoutWidth × m_layoutCell, made when painting or hit-testing needs it.
    mutable QList<QRect> m_blocks;
    mutable QList<std::pair<QRect, int>> m_headings; // rect, index in m_groups
    mutable int m_layoutWidth = -1;
    mutable int m_layoutCell = -1;
};

} // namespace gpudesk
