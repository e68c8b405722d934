// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "httpserver.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace sim::harbor {

class ArtifactStore;
class GarbageCollection;
class RegistryReader;
class TokenIssuer;
struct HarborConfig;
struct HarborProject;

// The part of Harbor's v2.0 REST API gpudesk uses, written from Harbor's published swagger:
// systeminfo, projects (with their summary's quota), repositories, artifacts (tags, push and pull
// times, immutability, platforms) with paging by page/page_size, X-Total-Count and Link, artifact
// deletion (412 for an immutable tag), labels on artifacts, and garbage collection (schedule a
// manual run, its history and log). Also the token service (/service/token) and the registry's
// notification endpoint.
class HarborApi
{
public:
    HarborApi(const HarborConfig *config, ArtifactStore *store, GarbageCollection *gc,
              RegistryReader *reader, const TokenIssuer *issuer);

    void handle(HttpConnection *c, const HttpRequest &r);
    // The registry's event notifications (served on a plain-HTTP port of their own).
    void handleNotifications(HttpConnection *c, const HttpRequest &r);

private:
    struct Caller
    {
        std::string user; // "" anonymous
        bool admin = false;
        bool badCredentials = false;
    };
    void route(HttpConnection *c, const HttpRequest &r);
    void notifications(HttpConnection *c, const HttpRequest &r);
    Caller caller(const HttpRequest &r) const;
    void token(HttpConnection *c, const HttpRequest &r);
    void projects(HttpConnection *c, const HttpRequest &r, const Caller &who);
    void project(HttpConnection *c, const HttpRequest &r, const Caller &who,
                 const std::vector<std::string> &parts);
    void artifacts(HttpConnection *c, const HttpRequest &r, const Caller &who,
                   const HarborProject &project, const std::string &repository,
                   const std::optional<std::string> &reference, const std::string &sub,
                   const std::string &subId);
    void gc(HttpConnection *c, const HttpRequest &r, const Caller &who,
            const std::vector<std::string> &parts);
    // Deletes an artifact in the registry, and the platforms of an index no other index uses.
    void deleteArtifact(const std::string &repository, const std::string &digest,
                        std::function<void(const std::string &error)> done);
    void age(HttpConnection *c, const HttpRequest &r, const Caller &who);
    bool canRead(const Caller &who, const HarborProject &project) const;
    nlohmann::json projectJson(const HarborProject &p, const Caller &who) const;

    const HarborConfig *m_config;
    ArtifactStore *m_store;
    GarbageCollection *m_gc;
    RegistryReader *m_reader;
    const TokenIssuer *m_issuer;
};

} // namespace sim::harbor
