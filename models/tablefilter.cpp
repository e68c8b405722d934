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

bool TableFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_onlyProblems && i.data(SeverityRole).toInt() == 0)
        return false;
    return m_text.isEmpty() || i.data(FilterRole).toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace gpudesk
