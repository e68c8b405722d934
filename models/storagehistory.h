// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "storageusage.h"

#include <QHash>
#include <QJsonObject>

#include <optional>

namespace gpudesk {

// The NAS's figures over time, per folder and per root: one point per complete walk, kept
// 90 days. Growth is the net change against the newest point at least a day (a week) old —
// deletions lower it, which the walk's "changed within a day" cannot show.
class StorageHistory
{
public:
    struct Point
    {
        qint64 at = 0; // ms since the epoch
        qint64 bytes = 0;
        qint64 files = 0;
    };
    static constexpr qint64 DayMs = 24LL * 3600 * 1000;
    static constexpr qint64 KeepMs = 90 * DayMs;

    // A point for the root and each of its folders (nothing for a walk that did not finish:
    // its figures are short).
    void record(const StorageRootMeasure &measure);
    // Bytes now minus bytes at the newest point at least `windowMs` old (a tenth of the window
    // of slack: walks are not on the minute); none when there is no point that old.
    std::optional<qint64> growth(const QString &path, qint64 bytesNow, qint64 nowMs,
                                 qint64 windowMs) const;
    QList<Point> points(const QString &path) const { return m_points.value(path); }
    // Adds another copy's points (a report's, read back from the cache): the union by time.
    void absorb(const StorageHistory &other);
    bool isEmpty() const { return m_points.isEmpty(); }

    QJsonObject toJson() const;
    static StorageHistory fromJson(const QJsonObject &json);

private:
    QHash<QString, QList<Point>> m_points;
};

} // namespace gpudesk
