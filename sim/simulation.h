// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "behavior.h"
#include "objectstore.h"
#include "scheduler.h"

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <map>
#include <random>
#include <set>
#include <unordered_map>

namespace sim {

class MachineRegistry;
class SimClock;
struct NodeMachine;

struct SimOptions
{
    QString scenario = QStringLiteral("demo");
    quint64 seed = 1;
    double speed = 1.0;
    int nodes = 500;
    int gpusPerNode = 8;
    int pods = 10000;
    double churn = 0;
};

// A planted failure, as /sim/truth lists it.
struct PlantedCase
{
    std::string id;
    std::string description;
    std::string node;
    nlohmann::json objects = nlohmann::json::array(); // [{kind, namespace, name, uid}]
};

// The cluster's behaviour: controllers for Volcano and Kubeflow jobs, the scheduler, kubelets,
// a workload generator and the nodes' hardware. Acts on the object store the way real
// controllers act on the API server: read, change, write back.
class Simulation : public QObject
{
    Q_OBJECT
public:
    Simulation(ObjectStore *store, SimClock *clock, MachineRegistry *machines, SimOptions options,
               QObject *parent = nullptr);

    void build(); // the scenario, including its simulated past
    void start(); // live steps, unless --speed 0
    // Scale scenario: pod creations, changes and deletions per real second, independent of
    // --speed (so a frozen cluster can still be churned for client benchmarks).
    void setChurn(double perSecond);
    double churnRate() const { return m_options.churn; }
    void step(qint64 ms);

    Behavior behaviorOf(const std::string &podUid) const;
    QString admit(const ResourceType *type, nlohmann::json &object);
    nlohmann::json truth() const;
    const std::vector<PlantedCase> &planted() const { return m_planted; }
    const SimOptions &options() const { return m_options; }

    // Submission helpers, used by the scenarios and the workload generator.
    struct TaskInput
    {
        std::string name = "worker";
        int replicas = 1;
        int gpus = 1;
        std::string cpu = "8";
        std::string memory = "64Gi";
    };
    struct JobInput
    {
        std::string user;
        std::string name;
        std::string queue = "default";
        std::string image = "registry.lab.internal/ai/pytorch:2.1.2-cuda12.1-cudnn8";
        std::vector<TaskInput> tasks;
        Behavior behavior;
        bool tolerateA800 = false;
        std::string nodeName;
        std::string shmSize = "32Gi";
        bool devEnv = false;
    };
    nlohmann::json submitVolcanoJob(const JobInput &in);
    nlohmann::json submitPyTorchJob(const JobInput &in); // tasks[0] master, tasks[1] workers
    nlohmann::json submitMpiJob(const JobInput &in);     // tasks[0] workers
    nlohmann::json submitPod(const JobInput &in);        // tasks[0] the pod
    void addUser(const std::string &user, const std::string &queue, int gpuQuota);
    void addPlanted(PlantedCase c) { m_planted.push_back(std::move(c)); }
    void at(qint64 simMs, std::function<void()> action)
    {
        m_script.emplace(simMs, std::move(action));
    }
    void setNodeReady(const std::string &node, bool ready, const std::string &message);
    void setDiskPressure(const std::string &node, int percentUsed);
    void setPhantom(const std::string &node, int card, int memoryMiB);
    // Breaks (or mends) what nvidia-smi meets on a node: ok, failed, nodevices, missing. False
    // for an unknown node or state.
    bool setDriverState(const std::string &node, const std::string &state);
    void cordon(const std::string &node);
    void forceDelete(const std::string &ns, const std::string &pod);
    void deletePod(const std::string &ns, const std::string &pod);
    void addNodeMachine(const nlohmann::json &node, const std::string &cgroupStyle);
    nlohmann::json objectRef(const ResourceType *type, const std::string &ns,
                             const std::string &name) const;

    const ResourceType *pods() const { return m_pods; }
    const ResourceType *nodes() const { return m_nodes; }
    const ResourceType *vcjobs() const { return m_vcjobs; }
    const ResourceType *pytorchjobs() const { return m_pytorchjobs; }
    const ResourceType *mpijobs() const { return m_mpijobs; }
    ObjectStore *store() const { return m_store; }
    SimClock *clock() const { return m_clock; }
    std::mt19937_64 &rng() { return m_rng; }

private:
    struct PodInfo
    {
        std::string ns;
        std::string name;
        std::string node;
        std::string phase;
        std::string queue;
        bool running = false; // container running
        bool deleting = false;
        int gpus = 0;
        qint64 cpuMilli = 0;
        qint64 memoryBytes = 0;
        std::string qosClass;
        std::string podIp;
        std::vector<int> cards;
        bool devEnv = false;
    };

    void onChanged(const ResourceType *type, const WatchEvent &event);
    void runScript();
    void runControllers(qint64 ms);
    nlohmann::json createJob(const ResourceType *type, nlohmann::json job, const Behavior &behavior,
                             const QString &manager);
    void reconcileVolcanoJobs();
    void reconcileKubeflowJobs(const ResourceType *type);
    bool enqueue(const nlohmann::json &podGroup, int demand, std::string *why);
    void ensurePodGroup(const nlohmann::json &job, const std::string &pgName,
                        const std::string &queue, int minMember, int gpus);
    void createJobPods(const nlohmann::json &job, const std::vector<nlohmann::json> &pods);
    void schedulePods();
    void runKubelets();
    void updateQueues();
    void updateMachines(qint64 stepMs);
    void generateWorkload();
    void submitRandomJob();
    void churn(qint64 ms);
    void recordEvent(const nlohmann::json &involved, const std::string &ns, const std::string &type,
                     const std::string &reason, const std::string &message,
                     const std::string &component, const std::string &host);
    void assignCards(const std::string &uid, PodInfo &info);
    int queueAllocated(const std::string &queue) const;
    std::string podIpFor(const std::string &node);
    void buildScale();
    nlohmann::json podTemplate(const JobInput &in, const TaskInput &task, const std::string &role,
                               int gpus) const;
    Behavior behaviorForNewPod(const nlohmann::json &pod) const;

    ObjectStore *m_store;
    SimClock *m_clock;
    MachineRegistry *m_machines;
    SimOptions m_options;
    const ResourceType *m_pods;
    const ResourceType *m_nodes;
    const ResourceType *m_events;
    const ResourceType *m_queues;
    const ResourceType *m_podgroups;
    const ResourceType *m_vcjobs;
    const ResourceType *m_pytorchjobs;
    const ResourceType *m_mpijobs;
    const ResourceType *m_namespaces;

    std::mt19937_64 m_rng;
    QTimer m_timer;
    bool m_static = false; // scale scenario: no controllers, only churn
    qint64 m_lastSchedule = 0;
    qint64 m_eventCounter = 0;
    std::multimap<qint64, std::function<void()>> m_script;
    std::unordered_map<std::string, Behavior> m_behaviors;    // pod uid → behaviour
    std::unordered_map<std::string, Behavior> m_jobBehaviors; // job uid → behaviour of its pods
    std::unordered_map<std::string, PodInfo> m_podInfo;       // pod uid → what the nodes know
    std::map<std::string, std::set<std::string>> m_podsOnNode;
    std::unordered_map<std::string, qint64> m_nextRestart; // crash-looping pod uid → time
    std::unordered_map<std::string, std::pair<std::string, qint64>> m_lastSchedulingEvent;
    std::unordered_map<std::string, std::string> m_eventNames; // aggregation key → Event name
    std::map<std::string, int> m_podIpCounter;
    std::map<std::string, int> m_nodeIndex;
    std::vector<PlantedCase> m_planted;
    std::vector<std::string> m_scalePodKeys; // ns/name of churnable pods
    double m_churnCarry = 0;
    QTimer m_churnTimer;
    QElapsedTimer m_churnClock;
};

} // namespace sim
