// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "behavior.h"

#include <QtGlobal>

namespace sim {

struct CardLoad
{
    int utilization = 0; // %
    int memoryMiB = 0;
};

// What a running pod's process keeps its card (or MIG instance) at, at a simulated second: a
// pure function of the pod's behaviour, its card's place among the pod's cards and the time,
// so that nvidia-smi now, /sim/truth and DCGM's history of the past all agree.
CardLoad podCardLoad(const Behavior &behavior, int cardNo, qint64 simSecs, int memoryTotalMiB);

// A GPU is busy at or above this utilization (the truth's "busy", idle findings).
inline constexpr int kBusyPercent = 5;

} // namespace sim
