// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

#include <deque>

namespace gpudesk {

// The cluster's GPUs over the last hours, sampled: how many were allocated (the scheduler's
// view) against how many were busy (what nvidia-smi saw) — the gap is what the cluster pays
// for and does not use. Bounded: the oldest samples go first.
class GpuUseHistory
{
public:
    struct Point
    {
        qint64 timeMs = 0;
        int total = 0;
        int allocated = 0;
        bool exact = true; // allocated is a lower bound when false (a researcher's view)
        int busy = -1;     // -1: no node telemetry at that moment
    };

    explicit GpuUseHistory(int capacity = 24 * 60 * 2) : m_capacity(capacity) {}

    void append(const Point &p)
    {
        m_points.push_back(p);
        while (int(m_points.size()) > m_capacity)
            m_points.pop_front();
    }
    void clear() { m_points.clear(); }
    bool isEmpty() const { return m_points.empty(); }
    int size() const { return int(m_points.size()); }
    const Point &last() const { return m_points.back(); }
    // The samples at or after `fromMs`, oldest first.
    QList<Point> since(qint64 fromMs) const
    {
        QList<Point> out;
        for (const Point &p : m_points)
            if (p.timeMs >= fromMs)
                out.append(p);
        return out;
    }

private:
    int m_capacity;
    std::deque<Point> m_points;
};

} // namespace gpudesk
