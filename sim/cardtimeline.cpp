// SPDX-License-Identifier: GPL-3.0-or-later
#include "cardtimeline.h"

#include <algorithm>

namespace sim {

namespace {
// podCardLoad changes every two simulated seconds: scanning at that pace misses nothing.
constexpr qint64 kNoiseStepMs = 2000;
} // namespace

CardLoad CardSegment::loadAt(qint64 ms) const
{
    switch (kind) {
    case Kind::Pod:
        return podCardLoad(behavior, cardNo, ms / 1000, memoryTotalMiB);
    case Kind::Orphan:
    case Kind::Phantom:
        return {0, memoryMiB};
    }
    return {};
}

void CardTimeline::observe(const CardKey &key, const CardSegment &seg, qint64 nowMs)
{
    auto &list = m_segments[key];
    m_seen[key].push_back(seg.id);
    for (auto it = list.rbegin(); it != list.rend(); ++it) {
        if (it->open && it->id == seg.id) {
            it->toMs = nowMs;
            it->memoryMiB = seg.memoryMiB;
            it->allocated = seg.allocated;
            return;
        }
    }
    CardSegment s = seg;
    s.toMs = nowMs;
    s.open = true;
    list.push_back(std::move(s));
}

void CardTimeline::sweep()
{
    for (auto &[key, list] : m_segments) {
        const auto seen = m_seen.find(key);
        for (auto &s : list) {
            if (!s.open)
                continue;
            if (seen == m_seen.end() ||
                std::find(seen->second.begin(), seen->second.end(), s.id) == seen->second.end())
                s.open = false;
        }
    }
    m_seen.clear();
}

qint64 CardTimeline::lastBusyMs(const std::string &podUid, qint64 untilMs) const
{
    qint64 last = 0;
    for (const auto &[key, list] : m_segments) {
        for (const auto &s : list) {
            if (s.kind != CardSegment::Kind::Pod || s.podUid != podUid || s.fromMs > untilMs)
                continue;
            const qint64 end = std::min(s.toMs, untilMs);
            if (end <= last)
                continue;
            // Backwards from the segment's end to the first busy moment.
            for (qint64 t = end; t >= s.fromMs && t > last; t -= kNoiseStepMs) {
                if (s.loadAt(t).utilization >= kBusyPercent) {
                    last = t;
                    break;
                }
            }
        }
    }
    return last;
}

} // namespace sim
