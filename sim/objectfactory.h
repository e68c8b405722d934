// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <map>
#include <string>
#include <vector>

namespace sim {

// Resource amounts of a pod or node, in the units the scheduler compares.
struct Resources
{
    qint64 gpus = 0;
    qint64 cpuMilli = 0;
    qint64 memoryBytes = 0;
    std::map<std::string, qint64> mig; // MIG profile ("1g.10gb") → nvidia.com/mig-<profile>
};
inline constexpr const char *kMigResourcePrefix = "nvidia.com/mig-";

qint64 parseQuantityMilli(const nlohmann::json &q); // "500m" → 500, "8" → 8000
qint64 parseQuantityBytes(const nlohmann::json &q); // "32Gi" → 34359738368
Resources podRequests(const nlohmann::json &pod);
Resources specRequests(const nlohmann::json &podSpec);
Resources nodeAllocatable(const nlohmann::json &node);
// status.qosClass as the API server sets it: Guaranteed, Burstable or BestEffort.
std::string qosClassOf(const nlohmann::json &podSpec);

struct ContainerSpec
{
    std::string name = "main";
    std::string image;
    int gpus = 0;
    std::string cpu = "4";
    std::string memory = "32Gi";
    std::string cpuLimit;   // "" = the request (Guaranteed); more makes the pod Burstable
    std::string migProfile; // nvidia.com/mig-<profile> × migCount (the mixed strategy)
    int migCount = 0;
    std::vector<std::string> command;
    std::vector<std::pair<std::string, int>> ports; // name, containerPort
    std::vector<std::pair<std::string, std::string>> env;
};

struct PodSpecInput
{
    std::string ns;
    std::string name;
    std::vector<ContainerSpec> containers;
    nlohmann::json labels = nlohmann::json::object();
    nlohmann::json annotations = nlohmann::json::object();
    nlohmann::json ownerReferences = nlohmann::json::array();
    std::string schedulerName = "volcano";
    std::string restartPolicy = "Never";
    std::string nodeName; // preset placement
    nlohmann::json tolerations = nlohmann::json::array();
    nlohmann::json nodeSelector = nlohmann::json::object();
    std::string shmSize; // "" = no /dev/shm volume (64 MiB default)
    std::string user;    // for NAS mounts
    // A node's folder (hostPath) mounted at /workspace in place of the NAS's user and share
    // folders ("": those), as a lab's submit tool mounts a job's code.
    std::string workspace;
};

class ObjectFactory
{
public:
    static nlohmann::json node(const std::string &name, const std::string &gpuProduct, int gpus,
                               int cpus, int memoryGi, const std::string &internalIp,
                               const std::string &created);
    static nlohmann::json pod(const PodSpecInput &in);
    static nlohmann::json namespaceFor(const std::string &name, const nlohmann::json &labels);
    static nlohmann::json queue(const std::string &name, int gpuCapability, int weight);
    static nlohmann::json ownerRef(const std::string &apiVersion, const std::string &kind,
                                   const std::string &name, const std::string &uid);
    static nlohmann::json event(const std::string &ns, const nlohmann::json &involved,
                                const std::string &type, const std::string &reason,
                                const std::string &message, const std::string &component,
                                const std::string &host, const std::string &time);
};

} // namespace sim

namespace sim {
// The member `key` of `o`, or an empty object: a reference, never a copy of the subtree
// (json::value(key, default) copies, which dominated the simulation's time).
inline const nlohmann::json &sub(const nlohmann::json &o, const char *key)
{
    static const nlohmann::json empty = nlohmann::json::object();
    if (!o.is_object())
        return empty;
    const auto it = o.find(key);
    return it == o.end() ? empty : *it;
}
// The string member `key` of `o`, or `fallback` when it is missing or not a string: for fields a
// client wrote (json::value throws when the type differs from the fallback's).
inline std::string str(const nlohmann::json &o, const char *key, const std::string &fallback = {})
{
    const nlohmann::json &v = sub(o, key);
    return v.is_string() ? v.get<std::string>() : fallback;
}
} // namespace sim
