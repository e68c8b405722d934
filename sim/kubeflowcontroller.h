// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gangadmission.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sim {

struct ResourceType;
struct SimState;

// The Kubeflow training operator for PyTorchJobs and MPIJobs, gang-scheduled by Volcano: a
// PodGroup named after the job, pods with the operator's labels and (PyTorch) rendezvous
// environment once the queue admits the gang, and the job's conditions from its pods.
class KubeflowController
{
public:
    explicit KubeflowController(SimState &state);

    void reconcileJobs(const ResourceType *type); // pytorchjobs or mpijobs

private:
    std::vector<nlohmann::json> podsOf(const ResourceType *type, const nlohmann::json &job,
                                       const std::string &queue) const;

    SimState &m_state;
    GangAdmission m_admission;
};

} // namespace sim
