// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTableView>

namespace gpudesk {

// A table that shows a flattened tree (WorkloadsTable): rows indented by DepthRole, an arrow
// on rows with ExpandableRole that expands or collapses them (click, Right / Left, + / -)
// through setData(ExpandedRole). Rows have one fixed height.
//
// Why not QTreeView: after any inserted or removed top-level row it lays out every row again
// (50–80 ms at 100,000 rows). A QTableView does not, but its vertical header — hidden, yet
// kept in step with the model — walks every section on each removed row (~250 µs at 100,000).
// As all rows are the same height, the header here counts rows on a model of its own that only
// grows or shrinks at its end, at most once per turn of the event loop, and always before a
// paint: the row positions are the same, and 1,000 scattered removals cost one walk, not 1,000.
class FlatTreeView : public QTableView
{
    Q_OBJECT
public:
    explicit FlatTreeView(QWidget *parent = nullptr);
    ~FlatTreeView() override;

    void setModel(QAbstractItemModel *model) override;
    bool isExpanded(const QModelIndex &index) const;
    void setExpanded(const QModelIndex &index, bool expanded);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    class RowCount;
    void syncRowCount();

    RowCount *m_rows;
};

} // namespace gpudesk
