// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablefilter.h"

#include "roles.h"

namespace gpudesk {

TableFilter::TableFilter(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void TableFilter::setText(const QString &text)
{
    m_text = text.trimmed();
    invalidateRowsFilter();
}

void TableFilter::setOnlyProblems(bool only)
{
    m_onlyProblems = only;
    invalidateRowsFilter();
}

void TableFilter::setMatch(int role, const QVariant &value)
{
    m_matchRole = role;
    m_matchValue = value;
    invalidateRowsFilter();
}

bool TableFilter::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    // Rows that tie on the sort column (events of the same second, nodes of the same model) keep
    // one order: by key. Without it a live update reshuffles them and the list seems to jump.
    const QVariant a = left.data(SortRole);
    const QVariant b = right.data(SortRole);
    int c = 0;
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString) {
        c = a.toString().compare(b.toString(), Qt::CaseInsensitive);
    } else {
        const QPartialOrdering order = QVariant::compare(a, b);
        c = order == QPartialOrdering::Less ? -1 : order == QPartialOrdering::Greater ? 1 : 0;
    }
    if (c != 0)
        return c < 0;
    return left.siblingAtColumn(0).data(KeyRole).toString() <
           right.siblingAtColumn(0).data(KeyRole).toString();
}

bool TableFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_onlyProblems && i.data(SeverityRole).toInt() == 0)
        return false;
    if (m_matchValue.isValid() && i.data(m_matchRole) != m_matchValue)
        return false;
    return m_text.isEmpty() || i.data(FilterRole).toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace gpudesk
