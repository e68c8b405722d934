// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QtGlobal>

namespace sim {

struct SimState;

// /sim/truth's findings: what holds GPUs and should not, recomputed on every call from the
// simulation's own state, so that what a cleanup fixed is gone from it. Each pod is listed once,
// under its most telling class (stuck-terminating, on-notready-node, finished-holding-gpus,
// idle-gpus); processes of no pod under orphan-process, or uninterruptible-process when in D
// state; memory with no process under phantom-memory.
class TruthFindings
{
public:
    static constexpr qint64 kStuckMarginMs = 5 * 60 * 1000; // past the grace period
    static constexpr qint64 kIdleForMs = 60 * 60 * 1000;    // under 5 % at least this long

    explicit TruthFindings(const SimState &state) : m_state(state) {}

    nlohmann::json toJson() const;
    static nlohmann::json definitions();

private:
    void processFindings(nlohmann::json &out) const;
    void podFindings(nlohmann::json &out) const;
    // The owning job's finished status ("Completed", "Succeeded", …) and since when; "" when
    // the pod has no job or the job runs.
    std::string finishedOwner(const nlohmann::json &pod, qint64 *since, std::string *job) const;

    const SimState &m_state;
};

} // namespace sim
