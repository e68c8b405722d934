// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apihelpers.h"
#include "authorizer.h"

#include <functional>

namespace sim {

class PodStreams;
class Simulation;

// The simulator's own endpoints beside the Kubernetes API, for the admin token only:
// /sim/truth, /sim/compact, /sim/churn, /sim/driver, /sim/ssh and DCGM-exporter's metrics
// (/sim/dcgm/metrics, /sim/dcgm/history), the streams into pods (/sim/streams…) and a dev
// environment's pod made again under a new name (/sim/pods/recreate).
class SimEndpoints
{
public:
    SimEndpoints(ObjectStore *store, Simulation *simulation, PodStreams *streams,
                 std::function<void()> cutWatches)
        : m_store(store), m_sim(simulation), m_streams(streams), m_cutWatches(std::move(cutWatches))
    {}

    // False when `path` is none of them.
    bool serve(HttpConnection *c, const HttpRequest &r, const QString &path, const UserInfo &user);

private:
    void dcgmHistory(HttpConnection *c, const HttpRequest &r);
    bool streams(HttpConnection *c, const HttpRequest &r, const QString &path);

    ObjectStore *m_store;
    Simulation *m_sim;
    PodStreams *m_streams;
    std::function<void()> m_cutWatches;
};

} // namespace sim
