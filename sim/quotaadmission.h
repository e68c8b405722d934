// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectstore.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace sim {

// Resource amounts by quota name ("requests.cpu", "pods", "requests.nvidia.com/gpu"), in
// thousandths (millicores, milli-bytes): one unit for every resource, as Quantity compares them.
using Usage = std::map<std::string, qint64>;

// The API server's LimitRanger and ResourceQuota admission plugins for pods, in that order:
// containers without requests or limits get their namespace's LimitRange defaults (and the
// annotation kubernetes.io/limit-ranger says which), a LimitRange's max and min are enforced,
// then every ResourceQuota of the namespace must have room for the pod — refusals worded as the
// API server words them.
class QuotaAdmission
{
public:
    explicit QuotaAdmission(const ObjectStore *store);

    std::optional<ApiError> admitPod(nlohmann::json &pod) const;
    // A PersistentVolumeClaim against the quotas of its namespace (requests.storage,
    // persistentvolumeclaims).
    std::optional<ApiError> admitClaim(const nlohmann::json &claim) const;
    // The LimitRange defaulting (SetDefaults_LimitRangeItem): a default limit without a default
    // request gives the request; a max without a default limit gives the limit.
    static void defaultLimitRange(nlohmann::json &limitRange);

    // What the objects of a namespace use, for every resource a quota can name: its pods that
    // have not finished, its claims.
    Usage usage(const QString &ns) const;
    static Usage podUsage(const nlohmann::json &pod);
    // A quantity as the API server prints it: "16", "500m", "128Gi".
    static std::string canonical(const std::string &resource, qint64 milli);

private:
    std::optional<ApiError> limitRanges(nlohmann::json &pod, const QString &name) const;
    std::optional<ApiError> quotas(const nlohmann::json &pod, const QString &kind,
                                   const QString &name, const Usage &request) const;

    static const ResourceType *type(const ObjectStore *store, const char *plural);

    const ObjectStore *m_store;
    const ResourceType *m_pods;
    const ResourceType *m_claims;
    const ResourceType *m_limitRanges;
    const ResourceType *m_quotas;
};

} // namespace sim
