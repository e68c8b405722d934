// SPDX-License-Identifier: GPL-3.0-or-later
#include "keyedtablemodel.h"

#include <algorithm>

namespace gpudesk {

int KeyedTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_keys.size());
}

void KeyedTableModel::resetTo(QStringList keys)
{
    beginResetModel();
    m_keys = std::move(keys);
    m_rows.clear();
    for (int i = 0; i < m_keys.size(); ++i)
        m_rows.insert(m_keys[i], i);
    endResetModel();
}

void KeyedTableModel::removeRows(QList<int> rows)
{
    if (rows.isEmpty())
        return;
    std::sort(rows.begin(), rows.end(), std::greater<>());
    // Contiguous runs from the bottom up, so indices above a run stay valid.
    int i = 0;
    while (i < rows.size()) {
        int last = rows[i];
        int first = last;
        while (i + 1 < rows.size() && rows[i + 1] == first - 1)
            first = rows[++i];
        ++i;
        beginRemoveRows({}, first, last);
        for (int r = first; r <= last; ++r)
            m_rows.remove(m_keys[r]);
        m_keys.remove(first, last - first + 1);
        for (int r = first; r < m_keys.size(); ++r)
            m_rows[m_keys[r]] = r;
        endRemoveRows();
    }
}

void KeyedTableModel::sync(const QSet<QString> &dirty,
                           const std::function<bool(const QString &)> &exists)
{
    QList<int> gone;
    QStringList added;
    QStringList changed;
    for (const QString &key : dirty) {
        const int row = m_rows.value(key, -1);
        const bool present = exists(key);
        if (row >= 0 && !present)
            gone.append(row);
        else if (row < 0 && present)
            added.append(key);
        else if (row >= 0)
            changed.append(key);
    }
    removeRows(gone);
    if (!added.isEmpty()) {
        std::sort(added.begin(), added.end());
        const int first = int(m_keys.size());
        beginInsertRows({}, first, first + int(added.size()) - 1); // last is inclusive
        for (const QString &key : std::as_const(added)) {
            m_rows.insert(key, int(m_keys.size()));
            m_keys.append(key);
        }
        endInsertRows();
    }
    if (changed.isEmpty())
        return;
    // Rows may have moved up when others were removed: look them up again by key.
    QList<int> rows;
    for (const QString &key : std::as_const(changed))
        rows.append(m_rows.value(key));
    std::sort(rows.begin(), rows.end());
    const int lastColumn = columnCount() - 1;
    if (rows.size() > m_keys.size() / 2) {
        // Most rows changed: one signal for the span is cheaper for every view and proxy.
        emit dataChanged(index(rows.first(), 0), index(rows.last(), lastColumn));
        return;
    }
    int i = 0;
    while (i < rows.size()) {
        const int first = rows[i];
        int last = first;
        while (i + 1 < rows.size() && rows[i + 1] == last + 1)
            last = rows[++i];
        ++i;
        emit dataChanged(index(first, 0), index(last, lastColumn));
    }
}

void KeyedTableModel::syncAll(const QStringList &now)
{
    const QSet<QString> present(now.cbegin(), now.cend());
    QSet<QString> dirty(m_keys.cbegin(), m_keys.cend());
    dirty.unite(present);
    sync(dirty, [&present](const QString &key) { return present.contains(key); });
}

} // namespace gpudesk
