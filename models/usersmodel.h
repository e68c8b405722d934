// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"
#include "namespacetally.h"
#include "usersummary.h"

#include <QHash>
#include <QSet>
#include <QTimer>

namespace gpudesk {

class ClusterStore;
struct StoreChanges;

// Users (namespaces labelled gpudesk.io/user), keyed by namespace: their VC, quota against what
// they use, what they run and when they last did. What their workloads add up to is kept from
// the store's changes (NamespaceTally: an update costs the workloads it changed), and only rows
// whose figures changed are announced.
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
    // Summarizes `namespaces` again from the tally and quotas; returns those whose figures
    // changed.
    QSet<QString> resummarize(const QSet<QString> &namespaces);
    void reviewWaiting();

    const ClusterStore *m_store;
    NamespaceTally m_tally;
    QHash<QString, UserSummary> m_summaries; // by namespace
    QTimer m_ageing;                         // a waiting job becomes stuck with time alone
};

} // namespace gpudesk
