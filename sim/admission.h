// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectstore.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace sim {

// What the API server does to an object before it stores a create: the pod defaulting of
// its registry, and the validation of pods, core/v1 Events (the legacy rules: the involved
// object's namespace, and for events with an eventTime the fields events.k8s.io requires) and
// PodDisruptionBudgets. Errors are the 422 Invalid Status the real one answers.
class Admission
{
public:
    static std::optional<ApiError> admit(const ResourceType *type, nlohmann::json &object);

private:
    static std::optional<ApiError> pod(nlohmann::json &pod);
    static std::optional<ApiError> event(nlohmann::json &event);
    static std::optional<ApiError> disruptionBudget(nlohmann::json &pdb);
};

} // namespace sim
