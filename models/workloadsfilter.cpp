// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadsfilter.h"

#include "roles.h"
#include "workloadsmodel.h"

namespace gpudesk {

WorkloadsFilter::WorkloadsFilter(QObject *parent) : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setSortRole(SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void WorkloadsFilter::setUser(const QString &user)
{
    m_user = user;
    invalidateRowsFilter();
}

void WorkloadsFilter::setVc(const QString &vc)
{
    m_vc = vc;
    invalidateRowsFilter();
}

void WorkloadsFilter::setKind(const QString &kind)
{
    m_kind = kind;
    invalidateRowsFilter();
}

void WorkloadsFilter::setStatusClass(StatusClass statusClass)
{
    m_status = statusClass;
    invalidateRowsFilter();
}

void WorkloadsFilter::setText(const QString &text)
{
    m_text = text.trimmed();
    invalidateRowsFilter();
}

WorkloadsFilter::StatusClass WorkloadsFilter::classOf(const QString &status)
{
    if (status == QLatin1String("Running"))
        return Running;
    if (status == QLatin1String("Completed") || status == QLatin1String("Succeeded"))
        return Finished;
    switch (WorkloadsModel::severity(status)) {
    case 2:
        return Problem;
    case 1:
        return Waiting;
    default:
        return Running;
    }
}

bool WorkloadsFilter::accepts(const QModelIndex &i) const
{
    if (!m_user.isEmpty() && i.data(UserNameRole).toString() != m_user)
        return false;
    if (!m_vc.isEmpty() && i.data(VcRole).toString() != m_vc)
        return false;
    // Kind is the workload's: a pod has the kind of the job it belongs to.
    const QModelIndex workload = i.parent().isValid() ? i.parent() : i;
    if (!m_kind.isEmpty() && workload.data(KindRole).toString() != m_kind)
        return false;
    if (m_status != AnyStatus && classOf(i.data(StatusRole).toString()) != m_status)
        return false;
    return m_text.isEmpty() || i.data(FilterRole).toString().contains(m_text, Qt::CaseInsensitive);
}

bool WorkloadsFilter::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (const auto *model = qobject_cast<const WorkloadsModel *>(sourceModel())) {
        if (const auto less = model->lessThan(left, right, left.column()))
            return *less;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

bool WorkloadsFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    // A job that matches shows all its pods; a pod that matches brings its job (recursive
    // filtering).
    if (sourceParent.isValid() && accepts(sourceParent))
        return true;
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!sourceParent.isValid() && index.data(KeyRole).toString().isEmpty())
        return false; // an empty slot of WorkloadsModel
    return accepts(index);
}

} // namespace gpudesk
