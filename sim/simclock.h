// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QTimeZone>

#include <atomic>

#include <string>

namespace sim {

// Simulated time: a base instant plus whole simulated seconds stepped by the simulation, so that
// a run is the same for the same seed whatever the wall clock does. --speed 0 never steps it.
class SimClock
{
public:
    explicit SimClock(QDateTime base = QDateTime::currentDateTimeUtc())
        : m_baseMs(base.toMSecsSinceEpoch() / 1000 * 1000)
    {}
    SimClock(const SimClock &) = delete;
    SimClock &operator=(const SimClock &) = delete;

    qint64 nowMs() const { return m_baseMs + m_steppedMs; }
    qint64 nowSecs() const { return nowMs() / 1000; }
    QDateTime now() const { return QDateTime::fromMSecsSinceEpoch(nowMs(), Qt::UTC); }
    void advanceMs(qint64 ms) { m_steppedMs += ms; }

    static std::string rfc3339(qint64 ms)
    {
        return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC)
            .toString(QStringLiteral("yyyy-MM-ddThh:mm:ssZ"))
            .toStdString();
    }
    std::string nowRfc3339() const { return rfc3339(nowMs()); }

private:
    qint64 m_baseMs;
    std::atomic<qint64> m_steppedMs = 0; // read by SSH threads
};

} // namespace sim
