// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sim {

struct SimState;

// A job's gang as Volcano handles it, for every job controller: one PodGroup per job, admitted
// into its queue (Pending → Inqueue) only while the queue's capability has room for the whole
// gang, and the gang's pods created only once it is admitted.
class GangAdmission
{
public:
    explicit GangAdmission(SimState &state);

    // Creates the job's PodGroup unless it exists.
    void ensurePodGroup(const nlohmann::json &job, const std::string &pgName,
                        const std::string &queue, int minMember, int gpus);
    // Admits a Pending PodGroup that `gpus` more GPUs of its queue can hold. One that cannot
    // be admitted gets an Unschedulable condition saying why, and a Warning event when the
    // reason changes. Writes the group back (pg is changed as stored) and returns its phase.
    std::string admit(nlohmann::json &pg, int gpus);
    // Creates the pods of an admitted gang that do not exist yet, each with its event.
    void createPods(const nlohmann::json &job, const std::vector<nlohmann::json> &pods);

private:
    bool queueHasRoom(const nlohmann::json &pg, int gpus, std::string *why) const;

    SimState &m_state;
};

} // namespace sim
