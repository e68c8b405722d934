// SPDX-License-Identifier: GPL-3.0-or-later
#include "cardload.h"

#include <algorithm>

namespace sim {

CardLoad podCardLoad(const Behavior &b, int cardNo, qint64 simSecs, int memoryTotalMiB)
{
    // Noise that changes every two simulated seconds, the same for the same pod and time.
    const quint64 noise = (b.seed ^ quint64(simSecs / 2)) * 2862933555777941757ULL;
    const int jitter = int((noise >> (cardNo * 5)) % 9);
    switch (b.profile) {
    case Profile::Train:
    case Profile::ShmError:
    case Profile::Chatty:
        return {std::min(100, 88 + jitter + (b.utilization - 90)),
                memoryTotalMiB * 86 / 100 - jitter * 37};
    case Profile::Starved:
        return {18 + int((noise >> (cardNo * 7)) % 25), memoryTotalMiB * 60 / 100};
    case Profile::Idle:
        return {0, memoryTotalMiB * 24 / 100};
    case Profile::DevEnv: {
        // Someone at a notebook: a cell runs for a couple of minutes now and then, the card
        // barely moves in between. A burst outlasts any scrape interval (DCGM-exporter's is
        // 30 s, the test Prometheus keeps a sample a minute), so what monitoring keeps sees every
        // burst the truth does — single busy seconds would be invisible to both gpudesk and
        // Prometheus, and the truth would then call busy what no one can observe.
        const quint64 window = (b.seed ^ quint64(simSecs / 120)) * 2862933555777941757ULL;
        const bool burst = (window >> 33) % 2 == 0;
        const int light = (noise % 10) < 7 ? 0 : int(noise % kBusyPercent);
        return {burst ? kBusyPercent + int(noise % 12) : light,
                std::min(memoryTotalMiB / 2, 2300 + int(noise % 1800))};
    }
    default:
        return {50, memoryTotalMiB / 2};
    }
}

} // namespace sim
