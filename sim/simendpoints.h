// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apihelpers.h"
#include "authorizer.h"

#include <functional>

namespace sim {

class Simulation;

// The simulator's own endpoints beside the Kubernetes API, for the admin token only:
// /sim/truth, /sim/compact, /sim/churn, /sim/driver and DCGM-exporter's metrics
// (/sim/dcgm/metrics, /sim/dcgm/history).
class SimEndpoints
{
public:
    SimEndpoints(ObjectStore *store, Simulation *simulation, std::function<void()> cutWatches)
        : m_store(store), m_sim(simulation), m_cutWatches(std::move(cutWatches))
    {}

    // False when `path` is none of them.
    bool serve(HttpConnection *c, const HttpRequest &r, const QString &path, const UserInfo &user);

private:
    void dcgmHistory(HttpConnection *c, const HttpRequest &r);

    ObjectStore *m_store;
    Simulation *m_sim;
    std::function<void()> m_cutWatches;
};

} // namespace sim
