// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadstable.h"

#include "roles.h"
#include "workloadsmodel.h"

#include <algorithm>

namespace gpudesk {

namespace {

// Three-way comparison of SortRole values as QSortFilterProxyModel would make it: text without
// regard to case, numbers as numbers.
int compareSortValues(const QVariant &a, const QVariant &b)
{
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString)
        return QString::compare(a.toString(), b.toString(), Qt::CaseInsensitive);
    const QPartialOrdering o = QVariant::compare(a, b);
    if (o == QPartialOrdering::Less)
        return -1;
    return o == QPartialOrdering::Greater ? 1 : 0;
}

} // namespace

WorkloadsTable::WorkloadsTable(WorkloadsModel *source, QObject *parent)
    : QAbstractTableModel(parent), m_source(source), m_sortColumn(WorkloadsModel::Age)
{
    connectSource();
    rebuild();
}

void WorkloadsTable::connectSource()
{
    // Changes are noted as they come and applied together once WorkloadsModel has applied a
    // set of them: a workload's refresh arrives as several signals (its pods, then its cells).
    connect(m_source, &QAbstractItemModel::modelReset, this, [this] {
        m_children.clear();
        m_childRows = 0;
        rebuild();
    });
    connect(m_source, &QAbstractItemModel::layoutChanged, this, &WorkloadsTable::rebuild);
    connect(m_source, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &parent, int first, int last) {
                if (parent.isValid()) {
                    markDirty(parent.row(), parent.row());
                    return;
                }
                m_order.growSlots(m_source->rowCount());
                m_keys.resize(size_t(m_source->rowCount()));
                markDirty(first, last);
            });
    connect(m_source, &QAbstractItemModel::rowsRemoved, this, [this](const QModelIndex &parent) {
        if (parent.isValid())
            markDirty(parent.row(), parent.row());
        else
            rebuild(); // WorkloadsModel never removes a slot; follow if it ever does
    });
    connect(m_source, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                if (topLeft.parent().isValid())
                    markDirty(topLeft.parent().row(), topLeft.parent().row());
                else
                    markDirty(topLeft.row(), bottomRight.row());
            });
    connect(m_source, &WorkloadsModel::applied, this, &WorkloadsTable::applyDirty);
}

void WorkloadsTable::markDirty(int first, int last)
{
    for (int s = first; s <= last; ++s)
        m_dirty.push_back(s);
}

void WorkloadsTable::setUser(const QString &user)
{
    if (user != m_user) {
        m_user = user;
        rebuild();
    }
}

void WorkloadsTable::setVc(const QString &vc)
{
    if (vc != m_vc) {
        m_vc = vc;
        rebuild();
    }
}

void WorkloadsTable::setKind(const QString &kind)
{
    if (kind != m_kind) {
        m_kind = kind;
        rebuild();
    }
}

void WorkloadsTable::setStatusClass(StatusClass statusClass)
{
    if (statusClass != m_status) {
        m_status = statusClass;
        rebuild();
    }
}

void WorkloadsTable::setText(const QString &text)
{
    if (text.trimmed() != m_text) {
        m_text = text.trimmed();
        rebuild();
    }
}

void WorkloadsTable::setCause(const QString &diagnosisClass)
{
    if (diagnosisClass != m_cause) {
        m_cause = diagnosisClass;
        rebuild();
    }
}

bool WorkloadsTable::filtering() const
{
    return !m_user.isEmpty() || !m_vc.isEmpty() || !m_kind.isEmpty() ||
           m_status != workloadstatus::AnyStatus || !m_text.isEmpty() || !m_cause.isEmpty();
}

bool WorkloadsTable::accepts(const QModelIndex &i, const QModelIndex &job) const
{
    if (!m_user.isEmpty() && i.data(UserNameRole).toString() != m_user)
        return false;
    if (!m_vc.isEmpty() && i.data(VcRole).toString() != m_vc)
        return false;
    // Kind is the workload's: a pod has the kind of the job it belongs to.
    if (!m_kind.isEmpty() && job.data(KindRole).toString() != m_kind)
        return false;
    if (m_status != workloadstatus::AnyStatus && i.data(StatusClassRole).toInt() != m_status)
        return false;
    if (!m_cause.isEmpty() && i.data(DiagnosisClassRole).toString() != m_cause)
        return false;
    return m_text.isEmpty() || i.data(FilterRole).toString().contains(m_text, Qt::CaseInsensitive);
}

bool WorkloadsTable::visible(int slot) const
{
    if (slot >= m_source->rowCount() || m_source->isEmptySlot(slot))
        return false;
    if (!filtering())
        return true;
    // A job that matches shows with all its pods; a pod that matches brings its job.
    const QModelIndex job = m_source->index(slot, 0);
    if (accepts(job, job))
        return true;
    const int pods = m_source->rowCount(job);
    for (int c = 0; c < pods; ++c) {
        if (accepts(m_source->index(c, 0, job), job))
            return true;
    }
    return false;
}

std::vector<int> WorkloadsTable::visibleChildren(int slot) const
{
    const QModelIndex job = m_source->index(slot, 0);
    const int pods = m_source->rowCount(job);
    const bool all = !filtering() || accepts(job, job);
    std::vector<int> out;
    out.reserve(size_t(pods));
    for (int c = 0; c < pods; ++c) {
        if (all || accepts(m_source->index(c, 0, job), job))
            out.push_back(c);
    }
    std::sort(out.begin(), out.end(), [this, slot](int a, int b) { return childLess(slot, a, b); });
    return out;
}

bool WorkloadsTable::less(int a, int b) const
{
    // A total order (ties by slot), so a changed job's place is found by binary search.
    const bool ascending = m_sortOrder == Qt::AscendingOrder;
    if (m_source->lessThan(ascending ? a : b, ascending ? b : a, m_sortColumn))
        return true;
    if (m_source->lessThan(ascending ? b : a, ascending ? a : b, m_sortColumn))
        return false;
    return a < b;
}

bool WorkloadsTable::childLess(int slot, int a, int b) const
{
    const QModelIndex job = m_source->index(slot, 0);
    const int c = compareSortValues(m_source->index(a, m_sortColumn, job).data(SortRole),
                                    m_source->index(b, m_sortColumn, job).data(SortRole));
    if (c == 0)
        return a < b;
    return m_sortOrder == Qt::AscendingOrder ? c < 0 : c > 0;
}

void WorkloadsTable::rebuild()
{
    beginResetModel();
    m_dirty.clear();
    const int slotCount = m_source->rowCount();
    m_keys.assign(size_t(slotCount), QString());
    std::vector<int> order;
    for (int s = 0; s < slotCount; ++s) {
        if (visible(s)) {
            order.push_back(s);
            m_keys[size_t(s)] = m_source->keyOfSlot(s);
        }
    }
    std::sort(order.begin(), order.end(), [this](int a, int b) { return less(a, b); });
    m_order.assign(std::move(order), slotCount);
    // Jobs the user expanded stay expanded while they are shown.
    QHash<int, std::vector<int>> kept;
    m_childRows = 0;
    for (auto it = m_children.cbegin(); it != m_children.cend(); ++it) {
        if (!m_order.contains(it.key()))
            continue;
        std::vector<int> pods = visibleChildren(it.key());
        if (pods.empty())
            continue;
        m_childRows += int(pods.size());
        kept.insert(it.key(), std::move(pods));
    }
    m_children = std::move(kept);
    m_expansionsValid = false;
    endResetModel();
}

void WorkloadsTable::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= WorkloadsModel::ColumnCount)
        return;
    if (column == m_sortColumn && order == m_sortOrder)
        return;
    emit layoutAboutToBeChanged({}, VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<Place> places;
    places.reserve(size_t(before.size()));
    for (const QModelIndex &i : before)
        places.push_back(placeOf(i.row()));
    m_sortColumn = column;
    m_sortOrder = order;
    std::vector<int> sorted = m_order.toVector();
    std::sort(sorted.begin(), sorted.end(), [this](int a, int b) { return less(a, b); });
    m_order.assign(std::move(sorted), int(m_keys.size()));
    for (auto it = m_children.begin(); it != m_children.end(); ++it) {
        const int slot = it.key();
        std::sort(it->begin(), it->end(),
                  [this, slot](int a, int b) { return childLess(slot, a, b); });
    }
    m_expansionsValid = false;
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i) {
        const Place &p = places[size_t(i)];
        int row = flatRow(m_order.position(p.slot));
        if (p.child >= 0) {
            const std::vector<int> &pods = m_children[p.slot];
            row += 1 + int(std::find(pods.begin(), pods.end(), p.child) - pods.begin());
        }
        after.append(index(row, before[i].column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, VerticalSortHint);
}

const std::vector<WorkloadsTable::Expansion> &WorkloadsTable::expansions() const
{
    if (!m_expansionsValid) {
        m_expansions.clear();
        for (auto it = m_children.cbegin(); it != m_children.cend(); ++it)
            m_expansions.push_back({m_order.position(it.key()), it.key(), 0, int(it->size())});
        std::sort(m_expansions.begin(), m_expansions.end(),
                  [](const Expansion &a, const Expansion &b) { return a.pos < b.pos; });
        int before = 0;
        for (Expansion &e : m_expansions) {
            e.rowsBefore = before;
            before += e.rows;
        }
        m_expansionsValid = true;
    }
    return m_expansions;
}

int WorkloadsTable::flatRow(int pos) const
{
    const auto &e = expansions();
    auto it = std::lower_bound(e.begin(), e.end(), pos,
                               [](const Expansion &x, int p) { return x.pos < p; });
    if (it == e.begin())
        return pos;
    --it;
    return pos + it->rowsBefore + it->rows;
}

WorkloadsTable::Place WorkloadsTable::placeOf(int row) const
{
    const auto &e = expansions();
    // The last expanded job whose row is above this one.
    auto it = std::upper_bound(e.begin(), e.end(), row,
                               [](int r, const Expansion &x) { return r <= x.pos + x.rowsBefore; });
    if (it == e.begin())
        return {m_order.at(row), -1};
    const Expansion &x = *(it - 1);
    const int jobRow = x.pos + x.rowsBefore;
    if (row <= jobRow + x.rows)
        return {x.slot, m_children.constFind(x.slot)->at(size_t(row - jobRow - 1))};
    return {m_order.at(row - x.rowsBefore - x.rows), -1};
}

int WorkloadsTable::childRows(int slot) const
{
    const auto it = m_children.constFind(slot);
    return it == m_children.cend() ? 0 : int(it->size());
}

int WorkloadsTable::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_order.size()) + m_childRows;
}

int WorkloadsTable::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : WorkloadsModel::ColumnCount;
}

QModelIndex WorkloadsTable::mapToSource(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Place p = placeOf(index.row());
    const QModelIndex job = m_source->index(p.slot, p.child < 0 ? index.column() : 0);
    return p.child < 0 ? job : m_source->index(p.child, index.column(), job);
}

QVariant WorkloadsTable::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    switch (role) {
    case DepthRole:
        return placeOf(index.row()).child < 0 ? 0 : 1;
    case ExpandableRole:
        return isExpandable(index.row());
    case ExpandedRole:
        return isExpanded(index.row());
    default:
        return mapToSource(index).data(role);
    }
}

bool WorkloadsTable::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != ExpandedRole || !checkIndex(index, CheckIndexOption::IndexIsValid) ||
        !isExpandable(index.row()))
        return false;
    setExpanded(index.row(), value.toBool());
    return true;
}

QVariant WorkloadsTable::headerData(int section, Qt::Orientation orientation, int role) const
{
    return m_source->headerData(section, orientation, role);
}

int WorkloadsTable::rowOfWorkload(const QString &key) const
{
    const QModelIndex slot = m_source->indexOfWorkload(key);
    if (!slot.isValid() || !m_order.contains(slot.row()))
        return -1;
    return flatRow(m_order.position(slot.row()));
}

bool WorkloadsTable::isExpandable(int row) const
{
    if (row < 0 || row >= rowCount())
        return false;
    const Place p = placeOf(row);
    return p.child < 0 && m_source->rowCount(m_source->index(p.slot, 0)) > 0;
}

bool WorkloadsTable::isExpanded(int row) const
{
    if (row < 0 || row >= rowCount())
        return false;
    const Place p = placeOf(row);
    return p.child < 0 && m_children.contains(p.slot);
}

void WorkloadsTable::setExpanded(int row, bool expanded)
{
    if (!isExpandable(row) || isExpanded(row) == expanded)
        return;
    const int slot = placeOf(row).slot;
    if (expanded) {
        std::vector<int> pods = visibleChildren(slot);
        if (pods.empty())
            return;
        beginInsertRows({}, row + 1, row + int(pods.size()));
        m_childRows += int(pods.size());
        m_children.insert(slot, std::move(pods));
        m_expansionsValid = false;
        endInsertRows();
    } else {
        const int n = childRows(slot);
        beginRemoveRows({}, row + 1, row + n);
        m_childRows -= n;
        m_children.remove(slot);
        m_expansionsValid = false;
        endRemoveRows();
    }
    emit dataChanged(index(row, 0), index(row, 0), {ExpandedRole});
}

void WorkloadsTable::insertAt(int pos, int slot)
{
    const int row = flatRow(pos);
    beginInsertRows({}, row, row);
    m_order.insert(pos, slot);
    m_keys[size_t(slot)] = m_source->keyOfSlot(slot);
    m_expansionsValid = false;
    endInsertRows();
}

void WorkloadsTable::removeAt(int pos)
{
    const int slot = m_order.at(pos);
    const int row = flatRow(pos);
    const int pods = childRows(slot);
    beginRemoveRows({}, row, row + pods);
    m_childRows -= pods;
    m_children.remove(slot);
    m_order.erase(pos);
    m_keys[size_t(slot)].clear();
    m_expansionsValid = false;
    endRemoveRows();
}

void WorkloadsTable::moveTo(int from, int to)
{
    // `to` as beginMoveRows counts it: the position the job goes before, numbered before the
    // move. A job moves with its pod rows.
    const int slot = m_order.at(from);
    const int first = flatRow(from);
    const int last = first + childRows(slot);
    if (!beginMoveRows({}, first, last, {}, flatRow(to)))
        return;
    m_order.erase(from);
    m_order.insert(to > from ? to - 1 : to, slot);
    m_expansionsValid = false;
    endMoveRows();
}

void WorkloadsTable::refreshChildren(int slot)
{
    std::vector<int> fresh = visibleChildren(slot);
    const int jobRow = flatRow(m_order.position(slot));
    const int had = childRows(slot);
    const auto current = m_children.constFind(slot);
    if (current != m_children.cend() && fresh == *current) {
        if (had > 0)
            emit dataChanged(index(jobRow + 1, 0),
                             index(jobRow + had, WorkloadsModel::ColumnCount - 1));
        return;
    }
    if (had > 0) {
        beginRemoveRows({}, jobRow + 1, jobRow + had);
        m_childRows -= had;
        m_children[slot].clear();
        m_expansionsValid = false;
        endRemoveRows();
    }
    if (fresh.empty()) {
        m_children.remove(slot);
        m_expansionsValid = false;
        return;
    }
    beginInsertRows({}, jobRow + 1, jobRow + int(fresh.size()));
    m_childRows += int(fresh.size());
    m_children[slot] = std::move(fresh);
    m_expansionsValid = false;
    endInsertRows();
}

int WorkloadsTable::predecessorAmongClean(int slot, const std::vector<char> &dirty) const
{
    // Binary search over the unchanged jobs only (they are still in order); changed ones still
    // at their old places are stepped over.
    int lo = 0;
    int hi = m_order.size();
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        int m = mid;
        while (m < hi && dirty[size_t(m_order.at(m))])
            ++m;
        if (m < hi && less(m_order.at(m), slot))
            lo = m + 1;
        else
            hi = mid;
    }
    for (int i = lo - 1; i >= 0; --i) {
        if (!dirty[size_t(m_order.at(i))])
            return m_order.at(i);
    }
    return -1;
}

void WorkloadsTable::applyDirty()
{
    if (m_dirty.empty())
        return;
    std::vector<int> dirty = std::exchange(m_dirty, {});
    std::sort(dirty.begin(), dirty.end());
    dirty.erase(std::unique(dirty.begin(), dirty.end()), dirty.end());
    m_order.growSlots(m_source->rowCount());
    m_keys.resize(size_t(m_source->rowCount()));

    // Jobs no longer shown go (and a slot that now holds another workload: the old one's row
    // goes, so a selection never jumps to a different workload); expanded ones that stay get their
    // pod rows refreshed in place.
    std::vector<int> shown;
    for (const int slot : dirty) {
        if (size_t(slot) >= m_keys.size())
            continue;
        const bool show = visible(slot);
        if (m_order.contains(slot) &&
            (!show || m_keys[size_t(slot)] != m_source->keyOfSlot(slot))) {
            removeAt(m_order.position(slot));
            if (show)
                shown.push_back(slot);
            continue;
        }
        if (!show)
            continue;
        if (m_order.contains(slot) && m_children.contains(slot))
            refreshChildren(slot);
        shown.push_back(slot);
    }
    if (shown.empty())
        return;

    // Each changed job goes right after its predecessor in the final order: the last unchanged
    // job before it, or the changed job before it when no unchanged one lies between. Placed in
    // order, every step is a single move or insert, and the result is sorted.
    std::vector<char> isDirty(m_keys.size(), 0);
    for (const int slot : shown)
        isDirty[size_t(slot)] = 1;
    std::sort(shown.begin(), shown.end(), [this](int a, int b) { return less(a, b); });
    std::vector<int> pred(shown.size());
    int previousClean = -2;
    for (size_t k = 0; k < shown.size(); ++k) {
        const int clean = predecessorAmongClean(shown[k], isDirty);
        pred[k] = k > 0 && clean == previousClean ? shown[k - 1] : clean;
        previousClean = clean;
    }
    for (size_t k = 0; k < shown.size(); ++k) {
        const int slot = shown[k];
        const int target = pred[k] < 0 ? 0 : m_order.position(pred[k]) + 1;
        const int at = m_order.position(slot);
        if (at < 0) {
            insertAt(target, slot);
            continue;
        }
        if (at != target)
            moveTo(at, target);
        const int row = flatRow(m_order.position(slot));
        emit dataChanged(index(row, 0), index(row, WorkloadsModel::ColumnCount - 1));
    }
}

} // namespace gpudesk
