// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "simstate.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace sim {

// Volcano's admission webhooks, as the API server calls them: the queue mutating webhook's
// defaults (weight 1, reclaimable), the queue validating webhook (weight, state, the `default`
// queue that cannot be deleted) and the job validating webhook's queue check (a job goes only
// to a queue that exists and is Open). A denial is the API server's rendering of a webhook's
// refusal: 400, "admission webhook "NAME" denied the request: …".
class VolcanoWebhooks
{
public:
    explicit VolcanoWebhooks(const SimState &state) : m_state(state) {}

    std::optional<ApiError> admitQueue(nlohmann::json &queue) const; // create and update
    std::optional<ApiError> admitQueueDelete(const QString &name) const;
    std::optional<ApiError> admitJob(nlohmann::json &job) const;

private:
    static ApiError denied(const char *webhook, const QString &why);
    const SimState &m_state;
};

} // namespace sim
