// SPDX-License-Identifier: GPL-3.0-or-later
#include "usersmodel.h"

#include "clusterstore.h"

namespace gpudesk {

UsersModel::UsersModel(const ClusterStore *store, QObject *parent)
    : KeyedTableModel(parent), m_store(store)
{
    resetTo(currentKeys());
    connect(store, &ClusterStore::updated, this, &UsersModel::onUpdated);
}

QStringList UsersModel::currentKeys() const
{
    QStringList keys;
    for (const auto &n : m_store->users())
        keys.append(n.name);
    return keys;
}

void UsersModel::onUpdated(const StoreChanges &changes)
{
    if (changes.reset) {
        resetTo(currentKeys());
        return;
    }
    if (!changes.namespaces && changes.pods.isEmpty())
        return;
    syncAll(currentKeys());
}

int UsersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant UsersModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const NamespaceInfo *n = m_store->namespaceInfo(keyAt(index.row()));
    if (!n)
        return {};
    const int gpus = m_store->userAllocated(n->user);
    switch (role) {
    case KeyRole:
        return n->name;
    case UserNameRole:
        return n->user;
    case UsedRole:
        return gpus;
    case SortRole:
        return index.column() == Gpus ? QVariant(gpus) : data(index, Qt::DisplayRole);
    case Qt::DisplayRole:
        switch (index.column()) {
        case User:
            return n->user;
        case Namespace:
            return n->name;
        case Vc:
            return n->vc;
        case Gpus:
            return gpus;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant UsersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case User:
        return tr("User");
    case Namespace:
        return tr("Namespace");
    case Vc:
        return tr("VC", "virtual cluster, a Volcano queue");
    case Gpus:
        return tr("GPUs allocated");
    default:
        return {};
    }
}

} // namespace gpudesk
