// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

namespace sim {

struct SimState;

// kube-controller-manager's disruption controller: each PodDisruptionBudget's status
// (currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed, disruptedPods,
// observedGeneration and the DisruptionAllowed condition) from the pods its selector matches.
// An integer minAvailable counts the matched pods; a percentage or maxUnavailable needs the
// pods' controllers' scale, which no controller of this cluster has (Volcano and Kubeflow jobs
// have no scale subresource): such a budget fails safe with no disruption allowed, as on a
// real cluster.
class DisruptionController
{
public:
    explicit DisruptionController(SimState &state) : m_state(state) {}

    void syncAll();
    // The budgets of one namespace, before an eviction reads them.
    void syncNamespace(const QString &ns);

private:
    void sync(const nlohmann::json &pdb);
    void record(const nlohmann::json &pdb, const std::string &type, const std::string &reason,
                const std::string &message);

    SimState &m_state;
};

} // namespace sim
