// SPDX-License-Identifier: GPL-3.0-or-later
#include "telemetryhistory.h"

#include <QtGlobal>

#include <cmath>

namespace gpudesk {

TelemetryHistory::CardRec TelemetryHistory::pack(const CardValues &v)
{
    CardRec r;
    if (v.utilization >= 0)
        r.util = uint8_t(qMin(v.utilization, 100));
    if (v.temperatureC >= 0)
        r.temp = uint8_t(qMin(v.temperatureC, 254));
    if (v.powerW >= 0)
        r.power = uint8_t(qMin(std::lround(v.powerW / 5.0), 254L));
    if (v.memoryMiB >= 0) {
        const auto m = uint16_t(qMin<qint64>((v.memoryMiB + 2) / 4, 0xFFFE));
        r.memLo = uint8_t(m & 0xFF);
        r.memHi = uint8_t(m >> 8);
    }
    return r;
}

double TelemetryHistory::value(const CardRec &r, Metric m)
{
    switch (m) {
    case Metric::Utilization:
        return r.util == 0xFF ? -1 : r.util;
    case Metric::TemperatureC:
        return r.temp == 0xFF ? -1 : r.temp;
    case Metric::PowerW:
        return r.power == 0xFF ? -1 : r.power * 5.0;
    case Metric::MemoryMiB: {
        const int v = r.memLo | (r.memHi << 8);
        return v == 0xFFFF ? -1 : v * 4.0;
    }
    default:
        return -1;
    }
}

double TelemetryHistory::value(const NodeRec &r, Metric m)
{
    switch (m) {
    case Metric::CpuPercent:
        return r.cpu == 0xFF ? -1 : r.cpu;
    case Metric::MemoryPercent:
        return r.mem == 0xFF ? -1 : r.mem;
    case Metric::Load1:
        return r.load == 0xFFFF ? -1 : r.load / 100.0;
    default:
        return -1;
    }
}

void TelemetryHistory::flush(Card &c)
{
    if (c.acc.slot < 0 || c.acc.n == 0)
        return;
    CardValues v;
    if (c.acc.nUtil)
        v.utilization = int((c.acc.util + c.acc.nUtil / 2) / c.acc.nUtil);
    if (c.acc.nMem)
        v.memoryMiB = qint64(c.acc.mem / c.acc.nMem) * 4;
    if (c.acc.nPower)
        v.powerW = double(c.acc.power) / c.acc.nPower * 5.0;
    if (c.acc.maxTemp != 0xFF)
        v.temperatureC = c.acc.maxTemp;
    c.coarse.put(c.acc.slot, pack(v));
}

void TelemetryHistory::addCards(qint64 timeMs, const QList<CardValues> &cards)
{
    while (m_cards.size() < size_t(cards.size()))
        m_cards.push_back(std::make_unique<Card>());
    const qint64 fineSlot = timeMs / FineStepMs;
    const qint64 coarseSlot = timeMs / CoarseStepMs;
    for (qsizetype i = 0; i < cards.size(); ++i) {
        Card &c = *m_cards[size_t(i)];
        const CardRec r = pack(cards[i]);
        c.fine.put(fineSlot, r);
        if (c.acc.slot != coarseSlot) {
            flush(c);
            c.acc = CardAcc{};
            c.acc.slot = coarseSlot;
        }
        ++c.acc.n;
        if (r.util != 0xFF) {
            c.acc.util += r.util;
            ++c.acc.nUtil;
        }
        const int mem = r.memLo | (r.memHi << 8);
        if (mem != 0xFFFF) {
            c.acc.mem += uint32_t(mem);
            ++c.acc.nMem;
        }
        if (r.power != 0xFF) {
            c.acc.power += r.power;
            ++c.acc.nPower;
        }
        if (r.temp != 0xFF && (c.acc.maxTemp == 0xFF || r.temp > c.acc.maxTemp))
            c.acc.maxTemp = r.temp;
        // The minute in progress is visible in the coarse ring at once.
        flush(c);
    }
}

void TelemetryHistory::addNode(qint64 timeMs, const NodeValues &v)
{
    NodeRec r;
    if (v.cpuPercent >= 0)
        r.cpu = uint8_t(qBound(0L, std::lround(v.cpuPercent), 100L));
    if (v.memoryPercent >= 0)
        r.mem = uint8_t(qBound(0L, std::lround(v.memoryPercent), 100L));
    if (v.load1 >= 0)
        r.load = uint16_t(qMin(std::lround(v.load1 * 100), 0xFFFEL));
    m_nodeFine.put(timeMs / FineStepMs, r);
    const qint64 slot = timeMs / CoarseStepMs;
    if (m_nodeAcc.slot != slot)
        m_nodeAcc = NodeAcc{slot};
    auto add = [](double x, double &sum, int &n) {
        if (x >= 0) {
            sum += x;
            ++n;
        }
    };
    add(v.cpuPercent, m_nodeAcc.cpu, m_nodeAcc.nCpu);
    add(v.memoryPercent, m_nodeAcc.mem, m_nodeAcc.nMem);
    add(v.load1, m_nodeAcc.load, m_nodeAcc.nLoad);
    NodeRec c;
    if (m_nodeAcc.nCpu)
        c.cpu = uint8_t(std::lround(m_nodeAcc.cpu / m_nodeAcc.nCpu));
    if (m_nodeAcc.nMem)
        c.mem = uint8_t(std::lround(m_nodeAcc.mem / m_nodeAcc.nMem));
    if (m_nodeAcc.nLoad)
        c.load = uint16_t(qMin(std::lround(m_nodeAcc.load / m_nodeAcc.nLoad * 100), 0xFFFEL));
    m_nodeCoarse.put(slot, c);
}

QList<QPointF> TelemetryHistory::cardSeries(int card, Metric metric, qint64 fromMs,
                                            qint64 toMs) const
{
    if (card < 0 || size_t(card) >= m_cards.size())
        return {};
    const Card &c = *m_cards[size_t(card)];
    auto v = [metric](const CardRec &r) { return value(r, metric); };
    return c.fine.covers(fromMs, FineStepMs) ? c.fine.series(FineStepMs, fromMs, toMs, v)
                                             : c.coarse.series(CoarseStepMs, fromMs, toMs, v);
}

QList<QPointF> TelemetryHistory::nodeSeries(Metric metric, qint64 fromMs, qint64 toMs) const
{
    auto v = [metric](const NodeRec &r) { return value(r, metric); };
    return m_nodeFine.covers(fromMs, FineStepMs)
               ? m_nodeFine.series(FineStepMs, fromMs, toMs, v)
               : m_nodeCoarse.series(CoarseStepMs, fromMs, toMs, v);
}

int TelemetryHistory::maxUtilization(int card, qint64 fromMs, qint64 toMs) const
{
    // Called for every allocated card of the cluster on each Overview refresh: reads the bytes
    // in place instead of building a series.
    if (card < 0 || size_t(card) >= m_cards.size())
        return -1;
    const Card &c = *m_cards[size_t(card)];
    const bool fine = c.fine.covers(fromMs, FineStepMs);
    const int step = fine ? FineStepMs : CoarseStepMs;
    int best = -1;
    for (qint64 slot = fromMs / step; slot <= toMs / step; ++slot) {
        const CardRec *r = fine ? c.fine.at(slot) : c.coarse.at(slot);
        if (r && r->util != 0xFF)
            best = qMax(best, int(r->util));
    }
    return best;
}

qint64 TelemetryHistory::bytesPerCard()
{
    return qint64(sizeof(Card)) + qint64(sizeof(std::unique_ptr<Card>));
}

qint64 TelemetryHistory::bytesPerNode()
{
    return qint64(sizeof(TelemetryHistory));
}

} // namespace gpudesk
