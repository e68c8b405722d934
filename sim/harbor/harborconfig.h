// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace sim::harbor {

struct HarborUser
{
    std::string name;
    std::string password;
    bool admin = false; // Harbor's system administrator
};

// A label of Harbor's (global scope), which artifacts can carry.
struct HarborLabel
{
    int id = 0;
    std::string name, color, description;
};

struct HarborProject
{
    int id = 0;
    std::string name;
    bool isPublic = false;
    long long quotaBytes = -1;                  // -1: no limit
    std::map<std::string, std::string> members; // user -> projectAdmin|maintainer|developer|guest
    std::vector<std::string> immutable;         // tag patterns of immutability rules ('*', '?')
};

// What the simulated Harbor is given: the real registry it fronts (its URL, CA, and the config
// and binary its garbage collection runs with), the token service's names and key, and the
// users and projects its database would hold. One JSON file, written by the test peers.
struct HarborConfig
{
    std::string registryUrl; // https://127.0.0.1:PORT
    std::string registryCa;  // PEM
    std::string registryConfig, registryBinary, registryData;
    std::string tokenKey, tokenCert, service, issuer;
    std::vector<HarborUser> users;
    std::vector<HarborProject> projects;
    std::vector<HarborLabel> labels;

    bool load(const QString &path, QString *error);
    const HarborUser *user(const std::string &name) const;
    const HarborProject *project(const std::string &name) const;
    const HarborLabel *label(int id) const;
    // The registry's host:port, as Harbor's systeminfo names it.
    std::string registryHost() const;
};

// Harbor's role of `user` in `project`: "" when not a member. A system admin is projectAdmin.
std::string roleIn(const HarborConfig &config, const HarborProject &project,
                   const std::string &user);
// A tag pattern of an immutability rule (doublestar without '/': '*' and '?').
bool matchesPattern(const std::string &pattern, const std::string &tag);

} // namespace sim::harbor
