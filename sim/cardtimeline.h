// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "behavior.h"
#include "cardload.h"

#include <QtGlobal>

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace sim {

// Who held a card (or a MIG instance) from when to when: a pod's process, a process left
// behind by a pod, or memory held with no process. Replayed through podCardLoad(), it gives
// the card's utilization and memory at any moment of the simulated past.
struct CardSegment
{
    enum class Kind
    {
        Pod,
        Orphan,
        Phantom
    };
    Kind kind = Kind::Pod;
    std::string id; // what makes it the same occupant from one step to the next
    qint64 fromMs = 0;
    qint64 toMs = 0; // the last moment it was seen
    bool open = true;
    std::string podUid;
    std::string pod;
    std::string ns;
    std::string container;
    Behavior behavior;
    int cardNo = 0;    // its place among the pod's cards
    int memoryMiB = 0; // orphan and phantom memory
    int memoryTotalMiB = 0;
    bool allocated = false; // the device plugin has the card allocated to it (DCGM's pod labels)

    CardLoad loadAt(qint64 ms) const;
};

struct CardKey
{
    std::string node;
    int card = 0;
    int gpuInstance = -1; // MIG
    bool operator<(const CardKey &o) const
    {
        return std::tie(node, card, gpuInstance) < std::tie(o.node, o.card, o.gpuInstance);
    }
};

class CardTimeline
{
public:
    // During one machines update: the occupant `seg.id` is on `key` now (a new segment from
    // seg.fromMs, or the open one carried on to nowMs).
    void observe(const CardKey &key, const CardSegment &seg, qint64 nowMs);
    // Ends the update: occupants not observed since the last sweep are closed.
    void sweep();

    const std::map<CardKey, std::vector<CardSegment>> &segments() const { return m_segments; }
    // The last moment, at or before `untilMs`, a pod kept one of its cards busy; 0 if never.
    qint64 lastBusyMs(const std::string &podUid, qint64 untilMs) const;

private:
    std::map<CardKey, std::vector<CardSegment>> m_segments;
    std::map<CardKey, std::vector<std::string>> m_seen; // ids observed in this update
};

} // namespace sim
