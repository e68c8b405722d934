// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gangadmission.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace sim {

struct ResourceType;
struct SimState;

// The Kubeflow training operator for PyTorchJobs and MPIJobs, gang-scheduled by Volcano: a
// PodGroup named after the job, pods with the operator's labels and (PyTorch) rendezvous
// environment once the queue admits the gang, the job's conditions from its pods, and
// runPolicy.suspend as the operators handle it.
class KubeflowController
{
public:
    explicit KubeflowController(SimState &state);

    void reconcileJobs(const ResourceType *type); // pytorchjobs or mpijobs

private:
    std::vector<nlohmann::json> podsOf(const ResourceType *type, const nlohmann::json &job,
                                       const std::string &queue) const;
    // runPolicy.suspend: a suspended job's pods and PodGroup deleted and its Suspended
    // condition set; a resumed one's condition turned back (true while it stays suspended).
    bool suspendOrResume(const ResourceType *type, const nlohmann::json &job);

    SimState &m_state;
    GangAdmission m_admission;
    // The pods a job's spec makes, by job uid, kept while its resourceVersion stays: they were
    // built again at every step of the simulation otherwise.
    struct JobPods
    {
        quint64 rv = 0;
        std::vector<nlohmann::json> pods;
    };
    std::map<const ResourceType *, std::unordered_map<std::string, JobPods>> m_podsOf;
};

} // namespace sim
