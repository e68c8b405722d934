// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

namespace gpudesk {

// Filters the Workloads tree by user, VC, kind, status class and free text; a job stays when
// one of its pods matches. Sorts on SortRole.
class WorkloadsFilter : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    enum StatusClass
    {
        AnyStatus,
        Running,
        Waiting,
        Problem,
        Finished
    };

    explicit WorkloadsFilter(QObject *parent = nullptr);

    void setUser(const QString &user);
    void setVc(const QString &vc);
    void setKind(const QString &kind);
    void setStatusClass(StatusClass statusClass);
    void setText(const QString &text);

    static StatusClass classOf(const QString &status);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    bool accepts(const QModelIndex &sourceIndex) const;

    QString m_user;
    QString m_vc;
    QString m_kind;
    StatusClass m_status = AnyStatus;
    QString m_text;
};

} // namespace gpudesk
