// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "historyring.h"
#include "telemetryhistory.h"

#include <cstdint>
#include <optional>

namespace gpudesk {

// A pod's own CPU (cores) and memory (working set) over the last day, at the same resolutions
// as the cards' history: 2 s for 20 minutes, 1 min averages for 24 hours. 5 bytes a sample
// (CPU in hundredths of a core up to 655 cores, memory in MiB up to 16 TiB): ~10 KB a pod.
class PodUsageHistory
{
public:
    void add(qint64 timeMs, std::optional<double> cpuCores, qint64 workingSetBytes);
    QList<QPointF> cpuSeries(qint64 fromMs, qint64 toMs) const;    // cores
    QList<QPointF> memorySeries(qint64 fromMs, qint64 toMs) const; // MiB
    // Average CPU (cores) over the fine ring's slots since fromMs; none without a sample.
    std::optional<double> averageCpu(qint64 fromMs, qint64 toMs) const;
    qint64 lastSampleMs() const;
    static qint64 bytes() { return qint64(sizeof(PodUsageHistory)); }

private:
    struct Rec
    {
        uint8_t cpuLo = 0xFF, cpuHi = 0xFF;            // 0xFFFF: no CPU figure
        uint8_t mem0 = 0xFF, mem1 = 0xFF, mem2 = 0xFF; // 0xFFFFFF: no memory figure
        int cpu() const { return cpuLo | (cpuHi << 8); }
        int mem() const { return mem0 | (mem1 << 8) | (mem2 << 16); }
    };
    static Rec pack(std::optional<double> cpuCores, std::optional<qint64> memMiB);
    template <typename V> QList<QPointF> series(qint64 fromMs, qint64 toMs, V value) const;

    HistoryRing<Rec, TelemetryHistory::FineSlots> m_fine;
    HistoryRing<Rec, TelemetryHistory::CoarseSlots> m_coarse;
    struct Acc
    {
        qint64 slot = -1;
        double cpu = 0, mem = 0;
        int nCpu = 0, nMem = 0;
    } m_acc;
};

} // namespace gpudesk
