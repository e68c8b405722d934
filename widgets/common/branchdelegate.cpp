// SPDX-License-Identifier: GPL-3.0-or-later
#include "branchdelegate.h"

#include "roles.h"

#include <QApplication>
#include <QPainter>

namespace gpudesk {

namespace {

QStyle *styleOf(const QWidget *widget)
{
    return widget ? widget->style() : QApplication::style();
}

} // namespace

int BranchDelegate::indentation(const QWidget *widget)
{
    return styleOf(widget)->pixelMetric(QStyle::PM_TreeViewIndentation, nullptr, widget);
}

QRect BranchDelegate::arrowRect(const QRect &cell, int depth, const QWidget *widget)
{
    const int indent = indentation(widget);
    return {cell.left() + depth * indent, cell.top(), indent, cell.height()};
}

void BranchDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                           const QModelIndex &index) const
{
    const int depth = index.data(DepthRole).toInt();
    const QWidget *widget = option.widget;
    QStyle *style = styleOf(widget);
    // The row's background (selection, hover) under the indentation too, as a tree view has it.
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    background.icon = {};
    background.features &= ~QStyleOptionViewItem::HasDisplay;
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &background, painter, widget);

    if (index.data(ExpandableRole).toBool()) {
        QStyleOption arrow;
        arrow.initFrom(widget);
        arrow.rect = arrowRect(option.rect, depth, widget);
        arrow.palette = option.palette;
        arrow.state = QStyle::State_Children | QStyle::State_Enabled;
        if (index.data(ExpandedRole).toBool())
            arrow.state |= QStyle::State_Open;
        if (option.state & QStyle::State_Selected)
            arrow.state |= QStyle::State_Selected;
        style->drawPrimitive(QStyle::PE_IndicatorBranch, &arrow, painter, widget);
    }
    QStyleOptionViewItem content = option;
    content.rect.setLeft(option.rect.left() + (depth + 1) * indentation(widget));
    QStyledItemDelegate::paint(painter, content, index);
}

QSize BranchDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const int depth = index.data(DepthRole).toInt();
    return QStyledItemDelegate::sizeHint(option, index) +
           QSize((depth + 1) * indentation(option.widget), 0);
}

} // namespace gpudesk
