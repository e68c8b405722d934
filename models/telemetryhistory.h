// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "historyring.h"

#include <QList>
#include <QPointF>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace gpudesk {

// A day of per-card and per-node history in bounded memory: a fine ring (every 2 s for the last
// 20 minutes) and a coarse ring (per minute for the last 24 hours, averages — maximum for
// temperature). Slots are implicit in the time, so no timestamps are stored, and values are
// packed into bytes: utilization %, memory in 4 MiB units, temperature °C, power in 5 W units;
// 0xFF (0xFFFF) marks a slot with no sample. About 10 KB per card and 8 KB per node, so a day of
// 2,000 nodes × 8 cards fits in ~180 MB (docs/benchmarks.md has the measured figure).
class TelemetryHistory
{
public:
    static constexpr int FineStepMs = 2000;
    static constexpr int FineSlots = 600;
    static constexpr int CoarseStepMs = 60000;
    static constexpr int CoarseSlots = 1440;

    enum class Metric
    {
        Utilization, // %
        MemoryMiB,   // card memory used
        TemperatureC,
        PowerW,
        CpuPercent,    // node
        MemoryPercent, // node: used of total
        Load1,         // node
        PodCpuCores,   // a pod's own (PodUsageHistory)
        PodMemoryMiB   // a pod's own working set
    };

    struct CardValues
    {
        int utilization = -1; // -1: unknown
        qint64 memoryMiB = -1;
        int temperatureC = -1;
        double powerW = -1;
    };
    struct NodeValues
    {
        double cpuPercent = -1;
        double memoryPercent = -1;
        double load1 = -1;
    };

    void addCards(qint64 timeMs, const QList<CardValues> &cards);
    void addNode(qint64 timeMs, const NodeValues &values);
    // Points (ms since the epoch, value) between from and to, from the fine ring when it covers
    // `from`, else from the coarse one. Missing slots are left out.
    QList<QPointF> cardSeries(int card, Metric metric, qint64 fromMs, qint64 toMs) const;
    QList<QPointF> nodeSeries(Metric metric, qint64 fromMs, qint64 toMs) const;
    // Highest utilization a card had since `fromMs` (fine ring), -1 when nothing was sampled.
    int maxUtilization(int card, qint64 fromMs, qint64 toMs) const;
    int cardCount() const { return int(m_cards.size()); }
    static qint64 bytesPerCard();
    static qint64 bytesPerNode();

private:
    struct CardRec
    {
        uint8_t util = 0xFF, temp = 0xFF, power = 0xFF, memLo = 0xFF, memHi = 0xFF;
    };
    struct NodeRec
    {
        uint8_t cpu = 0xFF, mem = 0xFF;
        uint16_t load = 0xFFFF; // ×100
    };
    template <typename Rec, int N> using Ring = HistoryRing<Rec, N>;
    struct CardAcc
    {
        qint64 slot = -1;
        uint32_t util = 0, mem = 0, power = 0, n = 0, nUtil = 0, nMem = 0, nPower = 0;
        uint8_t maxTemp = 0xFF;
    };
    struct NodeAcc
    {
        qint64 slot = -1;
        double cpu = 0, mem = 0, load = 0;
        int nCpu = 0, nMem = 0, nLoad = 0;
    };
    struct Card
    {
        Ring<CardRec, FineSlots> fine;
        Ring<CardRec, CoarseSlots> coarse;
        CardAcc acc;
    };
    static CardRec pack(const CardValues &v);
    static double value(const CardRec &r, Metric m);
    static double value(const NodeRec &r, Metric m);
    static void flush(Card &c);

    std::vector<std::unique_ptr<Card>> m_cards;
    Ring<NodeRec, FineSlots> m_nodeFine;
    Ring<NodeRec, CoarseSlots> m_nodeCoarse;
    NodeAcc m_nodeAcc;
};

} // namespace gpudesk
