// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "slotorder.h"
#include "workloadstatus.h"

#include <QAbstractTableModel>

#include <QHash>

#include <vector>

namespace gpudesk {

class WorkloadsModel;

// What the Workloads page shows: WorkloadsModel's jobs, filtered by user, VC, kind, status class
// and free text (a job stays when one of its pods matches), sorted on a column, as one flat
// table in which an expanded job is followed by its pods.
//
// Why not QSortFilterProxyModel under a QTreeView: with 100,000 workloads and 10,000 watch
// events a second, the proxy's bookkeeping and the tree's relayout of every row after each
// inserted or removed row held the UI thread for 50–130 ms at a time. Here the visible jobs are
// a sorted sequence of WorkloadsModel slots (SlotOrder) that knows each slot's position: a
// changed job is found in O(√n), placed by binary search among the unchanged ones, and reaches the
// view as one moved, inserted or removed row, which a QTableView with fixed row heights takes
// without looking at the other rows.
class WorkloadsTable : public QAbstractTableModel
{
    Q_OBJECT
public:
    using StatusClass = workloadstatus::Class;

    explicit WorkloadsTable(WorkloadsModel *source, QObject *parent = nullptr);

    WorkloadsModel *sourceModel() const { return m_source; }

    void setUser(const QString &user);
    void setVc(const QString &vc);
    void setKind(const QString &kind);
    void setStatusClass(StatusClass statusClass);
    void setText(const QString &text);
    // Only jobs whose cause (or a pod's) is of this class of the job doctor's ("" any).
    void setCause(const QString &diagnosisClass);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    // ExpandedRole expands or collapses a job's row (what FlatTreeView's arrows and keys do).
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    // Jobs shown (pod rows of expanded jobs not counted).
    int workloadCount() const { return m_order.size(); }
    // The row's index in WorkloadsModel (a top-level slot, or a pod under it).
    QModelIndex mapToSource(const QModelIndex &index) const;
    // The row of a workload by store key, or -1 when it is not shown.
    int rowOfWorkload(const QString &key) const;
    bool isExpandable(int row) const;
    bool isExpanded(int row) const;
    void setExpanded(int row, bool expanded);

private:
    struct Place
    {
        int slot = -1;
        int child = -1; // WorkloadsModel row of the pod under the slot; -1 for the job itself
    };
    struct Expansion
    {
        int pos; // the job's position in m_order
        int slot;
        int rowsBefore; // pod rows of expanded jobs above it
        int rows;       // its own pod rows
    };

    void connectSource();
    void markDirty(int first, int last);
    void applyDirty();
    void rebuild();
    bool accepts(const QModelIndex &sourceIndex, const QModelIndex &sourceJob) const;
    bool filtering() const;
    bool visible(int slot) const;
    std::vector<int> visibleChildren(int slot) const;
    bool less(int a, int b) const;
    bool childLess(int slot, int a, int b) const;
    // Flat row of position pos in m_order (pos == size: the end).
    int flatRow(int pos) const;
    Place placeOf(int row) const;
    int childRows(int slot) const;
    const std::vector<Expansion> &expansions() const;
    // Single-row operations, each one announced to views as it is made.
    void insertAt(int pos, int slot);
    void moveTo(int from, int to);
    void removeAt(int pos);
    void refreshChildren(int slot);
    int predecessorAmongClean(int slot, const std::vector<char> &dirty) const;

    WorkloadsModel *m_source;
    QString m_user;
    QString m_vc;
    QString m_kind;
    StatusClass m_status = workloadstatus::AnyStatus;
    QString m_text;
    QString m_cause; // a job doctor's class, "" any
    int m_sortColumn = 0;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;

    SlotOrder m_order;                       // shown slots, sorted
    std::vector<QString> m_keys;             // per slot: the workload it showed (slots are reused)
    QHash<int, std::vector<int>> m_children; // expanded slot → its shown pods, sorted
    int m_childRows = 0;                     // sum of m_children's sizes
    mutable std::vector<Expansion> m_expansions;
    mutable bool m_expansionsValid = false;
    std::vector<int> m_dirty;
};

} // namespace gpudesk
