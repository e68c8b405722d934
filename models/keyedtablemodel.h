// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "roles.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <QStringList>

#include <functional>

namespace gpudesk {

// A table whose rows are keys of the store, updated in place: rows are appended, removed and
// changed one range at a time, never reset except on a context switch. Subclasses answer data()
// from the store for keyAt(row).
class KeyedTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const override;
    QString keyAt(int row) const { return m_keys.value(row); }
    int rowOf(const QString &key) const { return m_rows.value(key, -1); }
    const QStringList &keys() const { return m_keys; }

protected:
    // Brings the rows in line for the keys that changed: those that `exists` no longer are
    // removed, new ones appended, the others announced as changed.
    void sync(const QSet<QString> &dirty, const std::function<bool(const QString &)> &exists);
    void resetTo(QStringList keys);
    // For small tables whose every row depends on many store objects (per-VC, per-user sums):
    // every row is dirty; `now` is the full set of keys that should be there.
    void syncAll(const QStringList &now);

private:
    void removeRows(QList<int> rows);

    QStringList m_keys;
    QHash<QString, int> m_rows;
};

} // namespace gpudesk
