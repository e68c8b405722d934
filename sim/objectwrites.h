// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apihelpers.h"

namespace sim {

class Simulation;

// The API server's write verbs: create, update (PUT), patch (JSON, merge, strategic taken as
// merge), delete with DeleteOptions (grace period, propagation, uid and resourceVersion
// preconditions) and deletecollection — each with dryRun=All answered as the real write would
// answer, and nothing written.
class ObjectWrites
{
public:
    ObjectWrites(ObjectStore *store, Simulation *simulation) : m_store(store), m_sim(simulation) {}

    void create(HttpConnection *c, const HttpRequest &r, const ApiRoute &route);
    void replace(HttpConnection *c, const HttpRequest &r, const ApiRoute &route);
    void patch(HttpConnection *c, const HttpRequest &r, const ApiRoute &route);
    void remove(HttpConnection *c, const HttpRequest &r, const ApiRoute &route);

    // DeleteOptions from a request's body (or, without a body, its query), validated as
    // ValidateDeleteOptions does. Also used by the eviction subresource.
    static std::optional<ApiError> deleteOptions(const nlohmann::json &body, DeleteOptions *out);
    static std::optional<ApiError> deleteOptionsOf(const HttpRequest &r, DeleteOptions *out);

private:
    ObjectStore *m_store;
    Simulation *m_sim;
};

} // namespace sim
