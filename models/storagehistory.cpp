// SPDX-License-Identifier: GPL-3.0-or-later
#include "storagehistory.h"

#include <QJsonArray>

namespace gpudesk {

void StorageHistory::record(const StorageRootMeasure &m)
{
    if (!m.complete || !m.error.isEmpty())
        return;
    auto add = [this, &m](const QString &path, qint64 bytes, qint64 files) {
        QList<Point> &list = m_points[path];
        list.append({m.measuredAt, bytes, files});
        // Old points go; so do points that came too close together (an admin measuring again
        // and again): one an hour is all growth needs.
        while (!list.isEmpty() && list.constFirst().at < m.measuredAt - KeepMs)
            list.removeFirst();
        if (list.size() >= 2 && list[list.size() - 2].at > m.measuredAt - 3600 * 1000 &&
            list.size() >= 3 && list[list.size() - 3].at > m.measuredAt - 3600 * 1000)
            list.removeAt(list.size() - 2);
    };
    qint64 bytes = 0, files = 0;
    for (const StorageFolder &f : m.folders) {
        add(f.path, f.bytes, f.files);
        bytes += f.bytes;
        files += f.files;
    }
    add(m.root, bytes, files);
}

std::optional<qint64> StorageHistory::growth(const QString &path, qint64 bytesNow, qint64 nowMs,
                                             qint64 windowMs) const
{
    const auto it = m_points.constFind(path);
    if (it == m_points.cend())
        return std::nullopt;
    const qint64 before = nowMs - windowMs + windowMs / 10;
    for (auto p = it->crbegin(); p != it->crend(); ++p)
        if (p->at <= before)
            return bytesNow - p->bytes;
    return std::nullopt;
}

void StorageHistory::absorb(const StorageHistory &other)
{
    for (auto it = other.m_points.cbegin(); it != other.m_points.cend(); ++it) {
        QList<Point> &list = m_points[it.key()];
        for (const Point &p : *it)
            if (std::none_of(list.cbegin(), list.cend(),
                             [&p](const Point &q) { return q.at == p.at; }))
                list.append(p);
        std::sort(list.begin(), list.end(),
                  [](const Point &a, const Point &b) { return a.at < b.at; });
    }
}

QJsonObject StorageHistory::toJson() const
{
    QJsonObject out;
    for (auto it = m_points.cbegin(); it != m_points.cend(); ++it) {
        QJsonArray list;
        for (const Point &p : *it)
            list.append(QJsonArray{double(p.at), double(p.bytes), double(p.files)});
        out.insert(it.key(), list);
    }
    return out;
}

StorageHistory StorageHistory::fromJson(const QJsonObject &json)
{
    StorageHistory h;
    for (auto it = json.begin(); it != json.end(); ++it) {
        QList<Point> list;
        for (const QJsonValue &v : it->toArray()) {
            const QJsonArray a = v.toArray();
            if (a.size() == 3 && a[0].isDouble() && a[1].isDouble() && a[2].isDouble())
                list.append(
                    {qint64(a[0].toDouble()), qint64(a[1].toDouble()), qint64(a[2].toDouble())});
        }
        std::sort(list.begin(), list.end(),
                  [](const Point &a, const Point &b) { return a.at < b.at; });
        if (!list.isEmpty())
            h.m_points.insert(it.key(), list);
    }
    return h;
}

} // namespace gpudesk
