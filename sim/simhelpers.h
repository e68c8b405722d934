// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <string>

namespace sim {

// FNV-1a. Seeds, ids and noise all come from it, so the same names give the same cluster.
quint64 hashOf(const std::string &s);

// An RFC 3339 time in ms since the epoch; 0 for anything that is not a string.
qint64 parseMs(const nlohmann::json &v);

// "user-alice" → "alice"; other namespaces are their own user.
std::string userOfNamespace(const std::string &ns);

// A status condition as the controllers write it.
nlohmann::json condition(const std::string &type, const std::string &status,
                         const std::string &time, const std::string &reason = {},
                         const std::string &message = {});

// Adds or replaces the condition of cond's type in status.conditions. An unchanged status and
// message keep the old one, so that lastTransitionTime says when it last changed.
void setCondition(nlohmann::json &status, const nlohmann::json &cond);

// The kubelet failing a running pod (its deadline passed, an eviction): its containers killed
// (a container killed at the end of its grace exits 137), phase Failed with `reason` and
// `message`, not Ready.
void failPod(nlohmann::json &status, const std::string &reason, const std::string &message,
             const std::string &now);

// A containerd-style id (64 hex digits), the same for the same pod, container and restart.
std::string containerId(const std::string &uid, const std::string &container, int restart);

} // namespace sim
