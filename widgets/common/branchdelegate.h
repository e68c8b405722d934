// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStyledItemDelegate>

namespace gpudesk {

// The first column of a flattened tree (FlatTreeView): the row indented by its DepthRole, with
// the style's expand / collapse arrow where ExpandableRole says it has children.
class BranchDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    // Width of one level of indentation, and of the arrow's box.
    static int indentation(const QWidget *widget);
    // Where the arrow of this row is drawn (and where a click toggles it).
    static QRect arrowRect(const QRect &cell, int depth, const QWidget *widget);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace gpudesk
