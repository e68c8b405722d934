// SPDX-License-Identifier: GPL-3.0-or-later
#include "podusagehistory.h"

#include <cmath>

namespace gpudesk {

namespace {
constexpr int NoCpu = 0xFFFF;
constexpr int NoMem = 0xFFFFFF;
} // namespace

PodUsageHistory::Rec PodUsageHistory::pack(std::optional<double> cpuCores,
                                           std::optional<qint64> memMiB)
{
    Rec r;
    if (cpuCores && *cpuCores >= 0) {
        const auto c = uint16_t(qMin<long>(std::lround(*cpuCores * 100), NoCpu - 1));
        r.cpuLo = uint8_t(c & 0xFF);
        r.cpuHi = uint8_t(c >> 8);
    }
    if (memMiB && *memMiB >= 0) {
        const auto m = uint32_t(qMin<qint64>(*memMiB, NoMem - 1));
        r.mem0 = uint8_t(m & 0xFF);
        r.mem1 = uint8_t((m >> 8) & 0xFF);
        r.mem2 = uint8_t(m >> 16);
    }
    return r;
}

void PodUsageHistory::add(qint64 timeMs, std::optional<double> cpuCores, qint64 workingSetBytes)
{
    const qint64 mib = (workingSetBytes + (1 << 19)) >> 20;
    m_fine.put(timeMs / TelemetryHistory::FineStepMs, pack(cpuCores, mib));
    const qint64 slot = timeMs / TelemetryHistory::CoarseStepMs;
    if (m_acc.slot != slot)
        m_acc = Acc{slot};
    if (cpuCores) {
        m_acc.cpu += *cpuCores;
        ++m_acc.nCpu;
    }
    m_acc.mem += double(mib);
    ++m_acc.nMem;
    // The minute in progress shows in the coarse ring at once, as its average so far.
    m_coarse.put(slot,
                 pack(m_acc.nCpu ? std::optional<double>(m_acc.cpu / m_acc.nCpu) : std::nullopt,
                      std::llround(m_acc.mem / m_acc.nMem)));
}

template <typename V>
QList<QPointF> PodUsageHistory::series(qint64 fromMs, qint64 toMs, V value) const
{
    return m_fine.covers(fromMs, TelemetryHistory::FineStepMs)
               ? m_fine.series(TelemetryHistory::FineStepMs, fromMs, toMs, value)
               : m_coarse.series(TelemetryHistory::CoarseStepMs, fromMs, toMs, value);
}

QList<QPointF> PodUsageHistory::cpuSeries(qint64 fromMs, qint64 toMs) const
{
    return series(fromMs, toMs,
                  [](const Rec &r) { return r.cpu() == NoCpu ? -1.0 : r.cpu() / 100.0; });
}

QList<QPointF> PodUsageHistory::memorySeries(qint64 fromMs, qint64 toMs) const
{
    return series(fromMs, toMs,
                  [](const Rec &r) { return r.mem() == NoMem ? -1.0 : double(r.mem()); });
}

std::optional<double> PodUsageHistory::averageCpu(qint64 fromMs, qint64 toMs) const
{
    double sum = 0;
    int n = 0;
    for (qint64 slot = fromMs / TelemetryHistory::FineStepMs;
         slot <= toMs / TelemetryHistory::FineStepMs; ++slot)
        if (const Rec *r = m_fine.at(slot); r && r->cpu() != NoCpu) {
            sum += r->cpu() / 100.0;
            ++n;
        }
    return n ? std::optional<double>(sum / n) : std::nullopt;
}

qint64 PodUsageHistory::lastSampleMs() const
{
    return m_fine.last < 0 ? -1 : m_fine.last * TelemetryHistory::FineStepMs;
}

} // namespace gpudesk
