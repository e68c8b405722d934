// SPDX-License-Identifier: GPL-3.0-or-later
#include "usersmodel.h"

#include "clusterstore.h"

namespace gpudesk {

UsersModel::UsersModel(const ClusterStore *store, QObject *parent)
    : KeyedTableModel(parent), m_store(store)
{
    resetTo(currentKeys());
    rememberShown();
    connect(store, &ClusterStore::updated, this, &UsersModel::onUpdated);
}

void UsersModel::rememberShown()
{
    m_shownGpus.clear();
    for (const NamespaceInfo &n : m_store->users())
        m_shownGpus.insert(n.user, m_store->userAllocated(n.user));
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
    if (changes.reset || changes.changed(Resource::Namespaces)) {
        if (changes.reset)
            resetTo(currentKeys());
        else
            syncAll(currentKeys());
        rememberShown();
        return;
    }
    if (changes.pods.isEmpty())
        return;
    // Pods changed: only the rows of users whose GPU figure moved (a pod's churn rarely moves
    // one; telling every row would make the sorting proxy above re-sort them all).
    QSet<QString> dirty;
    for (int row = 0; row < rowCount(); ++row) {
        const NamespaceInfo *n = m_store->namespaceInfo(keyAt(row));
        if (!n)
            continue;
        const int gpus = m_store->userAllocated(n->user);
        const auto shown = m_shownGpus.constFind(n->user);
        if (shown == m_shownGpus.cend() || *shown != gpus)
            dirty.insert(n->name);
    }
    for (const QString &ns : std::as_const(dirty))
        if (const NamespaceInfo *n = m_store->namespaceInfo(ns))
            m_shownGpus.insert(n->user, m_store->userAllocated(n->user));
    if (!dirty.isEmpty())
        sync(dirty, [this](const QString &ns) { return m_store->namespaceInfo(ns) != nullptr; });
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
