// SPDX-License-Identifier: GPL-3.0-or-later
#include "harborconfig.h"

#include <nlohmann/json.hpp>

#include <QFile>

namespace sim::harbor {

bool HarborConfig::load(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    const auto j = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
    if (!j.is_object()) {
        *error = QStringLiteral("%1 is not a JSON object").arg(path);
        return false;
    }
    const auto registry = j.value("registry", nlohmann::json::object());
    registryUrl = registry.value("url", "");
    registryCa = registry.value("ca", "");
    registryConfig = registry.value("config", "");
    registryBinary = registry.value("binary", "/usr/bin/docker-registry");
    registryData = registry.value("data", "");
    const auto token = j.value("token", nlohmann::json::object());
    tokenKey = token.value("key", "");
    tokenCert = token.value("cert", "");
    service = token.value("service", "harbor-registry");
    issuer = token.value("issuer", "harbor-token-issuer");
    for (const auto &u : j.value("users", nlohmann::json::array()))
        users.push_back({u.value("name", ""), u.value("password", ""), u.value("admin", false)});
    int id = 1;
    for (const auto &p : j.value("projects", nlohmann::json::array())) {
        HarborProject project;
        project.id = id++;
        project.name = p.value("name", "");
        project.isPublic = p.value("public", false);
        project.quotaBytes = p.value("quotaBytes", -1LL);
        const auto members = p.value("members", nlohmann::json::object()); // items() keeps no copy
        for (const auto &[user, role] : members.items())
            project.members[user] = role.get<std::string>();
        for (const auto &pattern : p.value("immutable", nlohmann::json::array()))
            project.immutable.push_back(pattern.get<std::string>());
        projects.push_back(std::move(project));
    }
    int labelId = 1;
    for (const auto &l : j.value("labels", nlohmann::json::array()))
        labels.push_back({labelId++, l.value("name", ""), l.value("color", "#48960C"),
                          l.value("description", "")});
    if (registryUrl.empty() || tokenKey.empty() || tokenCert.empty()) {
        *error = QStringLiteral("%1 names no registry url or token key and cert").arg(path);
        return false;
    }
    return true;
}

const HarborUser *HarborConfig::user(const std::string &name) const
{
    for (const auto &u : users)
        if (u.name == name)
            return &u;
    return nullptr;
}

const HarborProject *HarborConfig::project(const std::string &name) const
{
    for (const auto &p : projects)
        if (p.name == name)
            return &p;
    return nullptr;
}

const HarborLabel *HarborConfig::label(int id) const
{
    for (const auto &l : labels)
        if (l.id == id)
            return &l;
    return nullptr;
}

std::string HarborConfig::registryHost() const
{
    const auto scheme = registryUrl.find("://");
    return scheme == std::string::npos ? registryUrl : registryUrl.substr(scheme + 3);
}

std::string roleIn(const HarborConfig &config, const HarborProject &project,
                   const std::string &user)
{
    const HarborUser *u = config.user(user);
    if (u && u->admin)
        return "projectAdmin";
    const auto it = project.members.find(user);
    return it == project.members.end() ? std::string() : it->second;
}

bool matchesPattern(const std::string &pattern, const std::string &tag)
{
    // Iterative wildcard match with one backtrack point for the last '*'.
    size_t p = 0, t = 0, star = std::string::npos, mark = 0;
    while (t < tag.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == tag[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

} // namespace sim::harbor
