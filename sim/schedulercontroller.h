// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scheduler.h"

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

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
    // Evicts pods of lower priority in the gang's queue where that makes room, else reclaims
    // (the gang is then nominated to their nodes and waits for them); true when the gang waits
    // on victims.
    bool preempt(const Scheduler &scheduler, const std::vector<const nlohmann::json *> &gang,
                 const std::vector<const nlohmann::json *> &pods);
    bool reclaim(const Scheduler &scheduler, const std::vector<const nlohmann::json *> &gang,
                 const std::vector<const nlohmann::json *> &pods, const std::string &queue);
    void evict(const std::vector<const nlohmann::json *> &gang, const Scheduler::Preemption &plan,
               const std::string &action);

    // The actions of volcano-system/volcano-scheduler-configmap (Volcano's default: enqueue,
    // allocate, backfill): preempt and reclaim run only where the lab turned them on.
    std::set<std::string> volcanoActions() const;

    SimState &m_state;
    std::set<std::string> m_actions;
    bool m_preempted = false;        // in this pass
    std::set<std::string> m_victims; // pods evicted for a preemption, until they are gone
};

} // namespace sim
