// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"
#include "usersummary.h"

#include <QHash>
#include <QSet>
#include <QTimer>

namespace gpudesk {

class ClusterStore;
struct StoreChanges;

// Users (namespaces labelled gpudesk.io/user), keyed by namespace: their VC, quota against what
// they use, what they run and when they last did. A row's figures are summarized once per
// change of its namespace (its pods, jobs, quota), so a busy cluster re-reads only the users
// whose pods moved, and only rows whose figures changed are announced.
class UsersModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        User,
        Vc,
        State,
        GpusInUse,
        GpuQuota,
        CpuQuota,
        MemoryQuota,
        PodsQuota,
        Running,
        Waiting,
        Problems, // failed, or stuck waiting for a reason that will not go away
        DevEnvs,
        LastActivity,
        Namespace,
        ColumnCount
    };

    UsersModel(const ClusterStore *store, QObject *parent = nullptr);
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    const UserSummary *summary(const QString &ns) const;

    // The quota resource a column shows ("requests.nvidia.com/gpu"), "" for other columns.
    static QString quotaResource(int column);
    // "State" in words: Active, Disabled, Terminating, No quota.
    static QString stateText(const UserSummary &s);

private:
    void onUpdated(const StoreChanges &changes);
    QStringList currentKeys() const;
    // Summarizes `namespaces` again; returns those whose figures changed.
    QSet<QString> resummarize(const QSet<QString> &namespaces);
    // The namespaces whose pods moved since the last summary, summarized and told.
    void summarizePending();

    // A summary reads every pod of its namespace: on a large cluster under churn (100,000 pods,
    // thousands of events a second, a store update every few tens of ms) doing it per update
    // took most of the UI thread. When the last one cost more than this, the namespaces wait
    // and are summarized together, at most every ten times the last cost (250 ms at least): the
    // figures a second late at worst, the UI thread's share about a tenth. A small cluster's
    // summaries stay immediate.
    static constexpr qint64 CoalesceFromMs = 4;

    const ClusterStore *m_store;
    QHash<QString, UserSummary> m_summaries; // by namespace
    QSet<QString> m_pending;
    QTimer m_coalesce;
    qint64 m_lastCostMs = 0;
};

} // namespace gpudesk
