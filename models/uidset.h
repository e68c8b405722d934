// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

namespace gpudesk {

// A set of keys (pod or event uids) for the store's indexes, which are most often small: a
// workload's pods, an object's events. QSet allocates room for 48 entries with its first one
// (1.2 KiB), which made a 100,000-pod store's index of pods by workload 115 MB when most
// workloads had one pod (issue 39). Here the keys are a list (24 bytes each, references to the
// store's own strings), found by a scan while few and through an index by position once there
// are more than IndexFrom. Order is not kept: a removal moves the last key into the gap.
class UidSet
{
public:
    static constexpr qsizetype IndexFrom = 32;

    void insert(const QString &key)
    {
        if (contains(key))
            return;
        m_keys.append(key);
        if (!m_index.isEmpty())
            m_index.insert(key, m_keys.size() - 1);
        else if (m_keys.size() > IndexFrom)
            reindex();
    }
    bool remove(const QString &key)
    {
        const qsizetype at = indexOf(key);
        if (at < 0)
            return false;
        const qsizetype last = m_keys.size() - 1;
        if (at != last) {
            m_keys.swapItemsAt(at, last);
            if (!m_index.isEmpty())
                m_index.insert(m_keys.at(at), at);
        }
        if (!m_index.isEmpty())
            m_index.remove(key);
        m_keys.removeLast();
        if (m_keys.size() <= IndexFrom / 2)
            m_index = {}; // few again: a scan, and the index's memory back
        return true;
    }
    bool contains(const QString &key) const { return indexOf(key) >= 0; }
    qsizetype size() const { return m_keys.size(); }
    bool isEmpty() const { return m_keys.isEmpty(); }
    QStringList::const_iterator begin() const { return m_keys.cbegin(); }
    QStringList::const_iterator end() const { return m_keys.cend(); }

private:
    qsizetype indexOf(const QString &key) const
    {
        if (!m_index.isEmpty())
            return m_index.value(key, -1);
        return m_keys.indexOf(key);
    }
    void reindex()
    {
        m_index.reserve(m_keys.size());
        for (qsizetype i = 0; i < m_keys.size(); ++i)
            m_index.insert(m_keys.at(i), i);
    }

    QStringList m_keys;
    QHash<QString, qsizetype> m_index; // position by key, past IndexFrom keys
};

} // namespace gpudesk
