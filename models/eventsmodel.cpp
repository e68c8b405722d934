// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventsmodel.h"

#include "clusterstore.h"
#include "format.h"

#include <QDateTime>

namespace gpudesk {

EventsModel::EventsModel(const ClusterStore *store, QObject *parent, Clock now)
    : KeyedTableModel(parent), m_store(store), m_now(std::move(now))
{
    resetTo(allKeys());
    connect(store, &ClusterStore::updated, this, &EventsModel::onUpdated);
}

void EventsModel::setObjects(const QSet<QString> &uids)
{
    m_objects = uids;
    resetTo(allKeys());
}

bool EventsModel::wanted(const QString &uid) const
{
    const auto it = m_store->events().constFind(uid);
    return it != m_store->events().cend() &&
           (m_objects.isEmpty() || m_objects.contains(it->objectUid));
}

QStringList EventsModel::allKeys() const
{
    QStringList keys;
    if (m_objects.isEmpty())
        return m_store->events().keys();
    for (const QString &object : m_objects) {
        for (const EventInfo *e : m_store->eventsFor(object))
            keys.append(e->uid);
    }
    return keys;
}

void EventsModel::onUpdated(const StoreChanges &changes)
{
    if (changes.reset) {
        resetTo(allKeys());
        return;
    }
    if (!changes.events.isEmpty())
        sync(changes.events, [this](const QString &uid) { return wanted(uid); });
}

int EventsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto it = m_store->events().constFind(keyAt(index.row()));
    if (it == m_store->events().cend())
        return {};
    const EventInfo &e = *it;
    const bool warning = e.type == QLatin1String("Warning");
    switch (role) {
    case KeyRole:
        return e.uid;
    case SeverityRole:
        return warning ? 1 : 0;
    case FilterRole:
        return QStringList{e.type, e.reason, e.objectKind, e.objectName, e.message, e.ns, e.source}
            .join(u' ');
    case SortRole:
        switch (index.column()) {
        case LastSeen:
            // The column shows ages ("10s", "52s"): sorted up, the youngest first (issue 35:
            // sorted by the time, "10s" came after "52s").
            return -e.lastSeen;
        case Count:
            return e.count;
        case Type:
            return warning ? 0 : 1; // warnings first in ascending order
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::ToolTipRole:
        if (index.column() == Message || index.column() == LastSeen)
            return QString(e.message + u'\n' +
                           tr("First seen %1, last seen %2, %n time(s).", nullptr, e.count)
                               .arg(format::when(e.firstSeen), format::when(e.lastSeen)));
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case LastSeen:
            return format::age(e.lastSeen, m_now());
        case Type:
            return format::status(e.type);
        case Reason:
            return format::status(e.reason);
        case Object:
            return QString(e.objectKind + u'/' + e.objectName);
        case Message:
            return e.message;
        case Count:
            return e.count;
        case Source:
            return e.source;
        case Namespace:
            return e.ns;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant EventsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LastSeen:
        return tr("Last seen");
    case Type:
        return tr("Type");
    case Reason:
        return tr("Reason");
    case Object:
        return tr("Object");
    case Message:
        return tr("Message");
    case Count:
        return tr("Count", "how many times an event happened");
    case Source:
        return tr("Source");
    case Namespace:
        return tr("Namespace");
    default:
        return {};
    }
}

} // namespace gpudesk
