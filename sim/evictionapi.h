// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apihelpers.h"

namespace sim {

class Simulation;

// POST …/pods/NAME/eviction (policy/v1 Eviction; a policy/v1beta1 body is accepted too), as
// pkg/registry/core/pod/storage/eviction.go answers it: a pod that has finished, is pending or
// is already being deleted goes without a budget check; otherwise the one PodDisruptionBudget
// that selects it must allow a disruption (429 TooManyRequests with a DisruptionBudget cause
// when it does not), which the eviction takes, then the pod is deleted with the eviction's
// DeleteOptions. dryRun=All (or in deleteOptions) checks everything and changes nothing.
class EvictionApi
{
public:
    EvictionApi(ObjectStore *store, Simulation *simulation) : m_store(store), m_sim(simulation) {}

    void evict(HttpConnection *c, const HttpRequest &r, const ApiRoute &route);
    // The eviction itself, apart from HTTP: the Status to answer (201 Success or a failure).
    struct Answer
    {
        int code = 201;
        nlohmann::json status;
    };
    Answer evict(const QString &ns, const QString &pod, const nlohmann::json &eviction,
                 bool dryRun);

private:
    // Checks the budget and takes one disruption from it (unless dry run).
    std::optional<ApiError> checkAndDecrement(const nlohmann::json &pdb, const QString &pod,
                                              bool dryRun);

    ObjectStore *m_store;
    Simulation *m_sim;
};

} // namespace sim
