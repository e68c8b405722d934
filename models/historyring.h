// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPointF>
#include <QtGlobal>

#include <array>

namespace gpudesk {

// A fixed ring of packed records whose slots are implicit in time (slot = time / step), so no
// timestamps are stored. A default-constructed Rec marks "no sample"; slots skipped between two
// puts become that.
template <typename Rec, int N> struct HistoryRing
{
    std::array<Rec, N> recs{};
    qint64 last = -1; // slot number of the newest record

    void put(qint64 slot, const Rec &r)
    {
        if (slot < 0 || (last >= 0 && slot < last))
            return; // the clock went back: keep what is there
        if (last >= 0 && slot > last) {
            const qint64 gap = qMin<qint64>(slot - last - 1, N);
            for (qint64 i = 1; i <= gap; ++i)
                recs[size_t((last + i) % N)] = Rec{};
        }
        recs[size_t(slot % N)] = r;
        last = slot;
    }
    const Rec *at(qint64 slot) const
    {
        if (last < 0 || slot > last || slot <= last - N || slot < 0)
            return nullptr;
        return &recs[size_t(slot % N)];
    }
    // Whether the ring still holds the slot of `fromMs`.
    bool covers(qint64 fromMs, int stepMs) const { return last >= 0 && fromMs / stepMs > last - N; }
    // Points (slot time in ms, value) between two times; value(rec) < 0 leaves a slot out.
    template <typename Value>
    QList<QPointF> series(int stepMs, qint64 fromMs, qint64 toMs, Value value) const
    {
        QList<QPointF> out;
        for (qint64 slot = fromMs / stepMs; slot <= toMs / stepMs; ++slot) {
            if (const Rec *r = at(slot)) {
                const double v = value(*r);
                if (v >= 0)
                    out.append(QPointF(double(slot * stepMs), v));
            }
        }
        return out;
    }
};

} // namespace gpudesk
