// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "behavior.h"
#include "cardtimeline.h"
#include "objectstore.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sim {

class MachineRegistry;
class NasTree;
class SimClock;

struct SimOptions
{
    QString scenario = QStringLiteral("demo");
    quint64 seed = 1;
    double speed = 1.0;
    int nodes = 500;
    int gpusPerNode = 8;
    int pods = 10000;
    double churn = 0;
    // The nodes' /etc/docker/certs.d: a directory per registry ("host:port/ca.crt") that the
    // nodes resolve and trust besides the lab's and the public ones (--node-certs-dir).
    std::string nodeCertsDir;
    std::set<std::string> nodeRegistries;
    // The ports a dev environment's container declares (jupyter, ssh, vscode): `make demo`
    // declares only those something serves (--dev-ports).
    std::set<std::string> devPorts{"jupyter", "ssh", "vscode"};
};

// A planted failure, as /sim/truth lists it.
struct PlantedCase
{
    std::string id;
    std::string description;
    std::string node;
    nlohmann::json objects = nlohmann::json::array(); // [{kind, namespace, name, uid}]
    // The job doctor's class for a planted failure of a job ("" for the others): what a
    // diagnosis of its pods must say (docs/doctor.md).
    std::string diagnosis;
};

// What the nodes know of a pod, kept up to date from the pods' watch events so that the
// controllers and the truth need not parse every pod on every step.
struct PodInfo
{
    std::string ns;
    std::string name;
    std::string node;
    std::string phase;
    std::string queue;
    bool running = false; // container running
    bool deleting = false;
    qint64 deletionRequestedMs = 0; // deletionTimestamp less the grace period
    int gpus = 0;
    qint64 cpuMilli = 0;
    qint64 memoryBytes = 0;
    std::string qosClass;
    std::string podIp;
    std::vector<int> cards;
    bool devEnv = false;
    std::string container; // the first container, the one that holds the GPUs
    std::string image;     // that container's
    int restartCount = 0;  // of that container
    qint64 startedMs = 0;  // when that container started running (0: not running)
    std::map<std::string, qint64> migRequests; // profile → instances requested
    struct MigSlot
    {
        int card = 0;
        int gpuInstance = 0;
    };
    std::vector<MigSlot> migDevices; // the MIG instances the device plugin gave it

    bool terminated() const { return phase == "Succeeded" || phase == "Failed"; }
};

// What the controllers share: the API objects (through the store), the nodes' hardware, the
// index of pods, the workloads' planned behaviour and the event recorder. Controllers keep
// only what no other one reads.
struct SimState
{
    SimState(ObjectStore *store, SimClock *clock, MachineRegistry *machines, SimOptions options);
    SimState(const SimState &) = delete; // the controllers hold it by reference
    SimState &operator=(const SimState &) = delete;

    ObjectStore *store;
    SimClock *clock;
    MachineRegistry *machines;
    SimOptions options;
    const NasTree *nas = nullptr; // the NAS under /mnt, read by the truth; none in some tests
    std::mt19937_64 rng;          // every random choice, so that a seed gives one cluster

    const ResourceType *pods;
    const ResourceType *nodes;
    const ResourceType *events;
    const ResourceType *namespaces;
    const ResourceType *queues;
    const ResourceType *podgroups;
    const ResourceType *vcjobs;
    const ResourceType *pytorchjobs;
    const ResourceType *mpijobs;
    const ResourceType *pdbs;
    const ResourceType *commands;

    std::unordered_map<std::string, PodInfo> podInfo;        // pod uid → what the nodes know
    std::map<std::string, std::set<std::string>> podsOnNode; // node → pod uids
    std::unordered_map<std::string, Behavior> behaviors;     // pod uid → behaviour
    std::unordered_map<std::string, Behavior> jobBehaviors;  // job uid → behaviour of its pods
    std::unordered_map<std::string, Behavior> taskBehaviors; // "job uid/task" → its pods
    std::unordered_map<std::string, std::string> eventNames; // aggregation key → Event name
    qint64 eventCounter = 0;                                 // names new Events
    std::vector<PlantedCase> planted;
    CardTimeline timeline; // who held which card when: DCGM's history and idle findings
    // Pod uid → the last FailedScheduling message and when it was recorded.
    std::unordered_map<std::string, std::pair<std::string, qint64>> lastSchedulingEvent;

    Behavior behaviorOf(const std::string &podUid) const;
    // Updates the index (and, for a new pod, its behaviour) from a pod as stored.
    PodInfo &indexPod(const nlohmann::json &pod);
    // Forgets a deleted pod.
    void forgetPod(const std::string &podUid);
    // GPUs of the queue's pods bound to a node and not finished.
    int queueAllocated(const std::string &queue) const;
    // The node's Ready condition is True (its kubelet posts status).
    bool nodeReady(const std::string &node) const;

    nlohmann::json objectRef(const ResourceType *type, const std::string &ns,
                             const std::string &name) const;
    void recordEvent(const nlohmann::json &involved, const std::string &ns, const std::string &type,
                     const std::string &reason, const std::string &message,
                     const std::string &component, const std::string &host);
};

} // namespace sim
