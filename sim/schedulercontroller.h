// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace sim {

struct PodInfo;
struct SimState;

// kube-scheduler as a controller: binds pending pods, gang by gang (a PodGroup waits until its
// queue admits it), with the placement of Scheduler, and writes PodScheduled conditions and
// Scheduled / FailedScheduling events. Also the device plugin's part of binding: which cards
// of its node a bound pod gets.
class SchedulerController
{
public:
    explicit SchedulerController(SimState &state);

    void schedulePods();
    // Hands a bound GPU pod the lowest free card indexes of its node.
    void assignCards(const std::string &podUid, PodInfo &info);

private:
    SimState &m_state;
};

} // namespace sim
