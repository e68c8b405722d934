// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"

#include <QHash>

namespace gpudesk {

class ClusterStore;
struct StoreChanges;

// Users (namespaces labelled gpudesk.io/user) and the GPUs their pods hold, keyed by namespace.
class UsersModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        User,
        Namespace,
        Vc,
        Gpus,
        ColumnCount
    };

    explicit UsersModel(const ClusterStore *store, QObject *parent = nullptr);
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void onUpdated(const StoreChanges &changes);
    QStringList currentKeys() const;
    void rememberShown();

    const ClusterStore *m_store;
    QHash<QString, int> m_shownGpus; // by user, as last announced
};

} // namespace gpudesk
