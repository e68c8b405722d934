// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "findings.h"
#include "keyedtablemodel.h"

#include <functional>

namespace gpudesk {

// The findings as the Cleanup page lists them: one row per finding, kept in place as each new
// computation arrives (rows come and go by key; a finding that stays keeps its row and
// selection).
class FindingsModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Class,
        Node,
        Target, // the pod, or the processes
        User,
        Vc,
        Gpus,
        Since,
        Evidence,
        Remedy,
        ColumnCount
    };
    enum Role
    {
        ClassRole = StatusClassRole + 1, // FindingClass as int
        RemedyRole,                      // gpudesk::Remedy as int
    };

    explicit FindingsModel(QObject *parent = nullptr);
    void setClock(std::function<qint64()> now) { m_now = std::move(now); }

    void setFindings(const QList<Finding> &findings);
    const Finding *finding(const QString &key) const;
    const Finding *findingAt(int row) const { return finding(keyAt(row)); }
    int gpus() const; // held by all the findings
    static QString remedyText(gpudesk::Remedy r);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QHash<QString, Finding> m_findings;
    std::function<qint64()> m_now;
};

} // namespace gpudesk
