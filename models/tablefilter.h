// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

namespace gpudesk {

// Free-text filter over FilterRole, an optional "only warnings" (SeverityRole > 0), an optional
// role that must hold a value, sorting on SortRole: the proxy of every flat table.
class TableFilter : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TableFilter(QObject *parent = nullptr);
    void setText(const QString &text);
    void setOnlyProblems(bool only);
    // Only rows whose `role` holds `value` (an invalid value: every row).
    void setMatch(int role, const QVariant &value);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_text;
    bool m_onlyProblems = false;
    int m_matchRole = 0;
    QVariant m_matchValue;
};

} // namespace gpudesk
