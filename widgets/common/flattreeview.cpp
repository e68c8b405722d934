// SPDX-License-Identifier: GPL-3.0-or-later
#include "flattreeview.h"

#include "branchdelegate.h"
#include "roles.h"

#include <QAbstractTableModel>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QTimer>

namespace gpudesk {

// The vertical header's model: only a number of rows, changed at its end.
class FlatTreeView::RowCount : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : m_rows;
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : 1;
    }
    QVariant data(const QModelIndex &, int) const override { return {}; }

    void resize(int rows)
    {
        if (rows > m_rows) {
            beginInsertRows({}, m_rows, rows - 1);
            m_rows = rows;
            endInsertRows();
        } else if (rows < m_rows) {
            beginRemoveRows({}, rows, m_rows - 1);
            m_rows = rows;
            endRemoveRows();
        }
    }
    void reset(int rows)
    {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }

    bool shrinkQueued = false;

private:
    int m_rows = 0;
};

FlatTreeView::FlatTreeView(QWidget *parent) : QTableView(parent), m_rows(new RowCount(this))
{
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    setShowGrid(false);
    setWordWrap(false);
    setTabKeyNavigation(false);
    setCornerButtonEnabled(false);
    setHorizontalScrollMode(ScrollPerPixel);
}

FlatTreeView::~FlatTreeView() = default;

void FlatTreeView::setModel(QAbstractItemModel *model)
{
    if (QAbstractItemModel *old = this->model())
        old->disconnect(this);
    QTableView::setModel(model);
    m_rows->reset(model ? model->rowCount() : 0);
    verticalHeader()->setModel(m_rows);
    if (!model)
        return;
    // More rows: at once, so the header always has a section for every row. Fewer: once per
    // turn of the event loop (or before a paint, whichever comes first).
    connect(model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent) {
        if (!parent.isValid() && m_rows->rowCount() < this->model()->rowCount())
            m_rows->resize(this->model()->rowCount());
    });
    connect(model, &QAbstractItemModel::rowsRemoved, this, [this](const QModelIndex &parent) {
        if (parent.isValid() || m_rows->shrinkQueued)
            return;
        m_rows->shrinkQueued = true;
        QTimer::singleShot(0, this, &FlatTreeView::syncRowCount);
    });
    connect(model, &QAbstractItemModel::modelReset, this,
            [this] { m_rows->reset(this->model()->rowCount()); });
    connect(model, &QAbstractItemModel::layoutChanged, this, &FlatTreeView::syncRowCount);
}

void FlatTreeView::syncRowCount()
{
    m_rows->shrinkQueued = false;
    if (model())
        m_rows->resize(model()->rowCount());
}

void FlatTreeView::paintEvent(QPaintEvent *event)
{
    if (m_rows->shrinkQueued)
        syncRowCount();
    QTableView::paintEvent(event);
}

bool FlatTreeView::isExpanded(const QModelIndex &index) const
{
    return index.siblingAtColumn(0).data(ExpandedRole).toBool();
}

void FlatTreeView::setExpanded(const QModelIndex &index, bool expanded)
{
    const QModelIndex first = index.siblingAtColumn(0);
    if (first.data(ExpandableRole).toBool() && isExpanded(first) != expanded)
        model()->setData(first, expanded, ExpandedRole);
}

void FlatTreeView::mousePressEvent(QMouseEvent *event)
{
    const QModelIndex index = indexAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && index.isValid() && index.column() == 0 &&
        index.data(ExpandableRole).toBool()) {
        const QRect arrow =
            BranchDelegate::arrowRect(visualRect(index), index.data(DepthRole).toInt(), this);
        if (arrow.contains(event->position().toPoint())) {
            setExpanded(index, !isExpanded(index));
            event->accept();
            return;
        }
    }
    QTableView::mousePressEvent(event);
}

void FlatTreeView::keyPressEvent(QKeyEvent *event)
{
    // As in a tree: Right / + opens a row (or steps into it), Left / - closes it (or steps out
    // to its parent row).
    const QModelIndex current = currentIndex();
    if (current.isValid() && event->modifiers() == Qt::NoModifier) {
        const bool expandable = current.siblingAtColumn(0).data(ExpandableRole).toBool();
        const bool open = isExpanded(current);
        switch (event->key()) {
        case Qt::Key_Right:
        case Qt::Key_Plus:
            if (expandable && !open)
                setExpanded(current, true);
            else if (open && event->key() == Qt::Key_Right)
                setCurrentIndex(current.sibling(current.row() + 1, current.column()));
            event->accept();
            return;
        case Qt::Key_Left:
        case Qt::Key_Minus:
            if (open) {
                setExpanded(current, false);
            } else if (current.siblingAtColumn(0).data(DepthRole).toInt() > 0 &&
                       event->key() == Qt::Key_Left) {
                int row = current.row();
                while (row > 0 && model()->index(row, 0).data(DepthRole).toInt() > 0)
                    --row;
                setCurrentIndex(model()->index(row, current.column()));
            }
            event->accept();
            return;
        default:
            break;
        }
    }
    QTableView::keyPressEvent(event);
}

} // namespace gpudesk
