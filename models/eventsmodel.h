// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clock.h"
#include "keyedtablemodel.h"

namespace gpudesk {

class ClusterStore;
struct StoreChanges;

// Events, cluster-wide or of chosen objects, keyed by uid. Sort by SortRole of LastSeen for
// newest first; SeverityRole puts warnings first.
class EventsModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        LastSeen,
        Type,
        Reason,
        Object,
        Message,
        Count,
        Source,
        Namespace,
        ColumnCount
    };

    explicit EventsModel(const ClusterStore *store, QObject *parent = nullptr,
                         Clock now = &systemNow);

    // Only the events of these objects (uids); empty: all events.
    void setObjects(const QSet<QString> &uids);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void onUpdated(const StoreChanges &changes);
    bool wanted(const QString &uid) const;
    QStringList allKeys() const;

    const ClusterStore *m_store;
    Clock m_now;
    QSet<QString> m_objects;
};

} // namespace gpudesk
