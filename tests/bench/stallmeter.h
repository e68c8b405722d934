// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <vector>

// How late a 5 ms timer fires on the UI thread: the longest stall and the 99th percentile.
class StallMeter : public QObject
{
public:
    static constexpr int intervalMs = 5;
    StallMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last > 0) {
                const double late = double(now - m_last) / 1e6 - intervalMs;
                m_lateMs.push_back(late);
                if (late >= LongMs)
                    m_long.push_back({m_clock.msecsSinceReference() + now / 1000000, late});
            }
            m_last = now;
        });
    }
    // A stall this long is kept with when it ended (CLOCK_MONOTONIC, ms: what `perf record -k
    // CLOCK_MONOTONIC` stamps its samples with), to find what the UI thread did then.
    static constexpr double LongMs = 40;
    struct Stall
    {
        qint64 endedMs;
        double ms;
    };
    const std::vector<Stall> &longStalls() const { return m_long; }
    void start()
    {
        m_long.clear();
        m_lateMs.clear();
        m_last = 0;
        m_clock.start();
        m_timer.start(intervalMs);
    }
    void stop() { m_timer.stop(); }
    double longest() const
    {
        return m_lateMs.empty() ? 0 : *std::max_element(m_lateMs.begin(), m_lateMs.end());
    }
    double percentile(double p)
    {
        if (m_lateMs.empty())
            return 0;
        std::sort(m_lateMs.begin(), m_lateMs.end());
        return m_lateMs[size_t(p * double(m_lateMs.size() - 1))];
    }
    size_t samples() const { return m_lateMs.size(); }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    std::vector<double> m_lateMs;
    std::vector<Stall> m_long;
};
