// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectstore.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace sim {

// The Priority admission plugin: a pod's spec.priorityClassName becomes spec.priority (and its
// preemptionPolicy) from the PriorityClass of that name; a pod that names none gets the class
// marked globalDefault, else 0. Runs for clients' pods and for the pods controllers create (the
// API server admits both alike).
class PriorityAdmission
{
public:
    explicit PriorityAdmission(const ObjectStore *store);

    std::optional<ApiError> admit(nlohmann::json &pod) const;

    // The classes every cluster has (system-*) and the lab's own: high-priority, which may
    // preempt normal jobs of its queue, and vip, which nothing preempts.
    static void seed(ObjectStore *store);
    static int priorityOf(const nlohmann::json &pod);

private:
    const ObjectStore *m_store;
    const ResourceType *m_classes;
};

} // namespace sim
