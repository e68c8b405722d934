// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gangadmission.h"
#include "volcanojobstates.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sim {

struct SimState;

// Volcano's job controller: a batch.volcano.sh Job gets a PodGroup, its pods once the queue
// admits the gang, and its status from its pods; Commands move it through its state machine
// (VolcanoJobStates). Queues are the QueueController's.
class VolcanoController
{
public:
    explicit VolcanoController(SimState &state);

    void reconcileJobs();

private:
    std::vector<nlohmann::json> podsOf(const nlohmann::json &job, const std::string &pgName) const;

    SimState &m_state;
    GangAdmission m_admission;
    VolcanoJobStates m_states;
};

} // namespace sim
