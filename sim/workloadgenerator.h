// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "behavior.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <optional>

#include <string>
#include <vector>

namespace sim {

struct ResourceType;
struct SimState;

// What a user submits, for the scenarios and the random workload.
struct TaskInput
{
    std::string name = "worker";
    int replicas = 1;
    int gpus = 1;
    std::string cpu = "8";
    std::string memory = "64Gi";
    std::string migProfile; // "1g.10gb": the pods ask nvidia.com/mig-<profile> instead of GPUs
    int migCount = 0;
    std::optional<Behavior> behavior; // this task's pods behave apart from the job's
    nlohmann::json policies = nlohmann::json::array(); // Volcano task lifecycle policies
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
    nlohmann::json labels = nlohmann::json::object(); // more labels on a bare pod
    std::string priorityClass;                        // spec.priorityClassName of its pods
    nlohmann::json nodeSelector = nlohmann::json::object();
    qint64 activeDeadlineSeconds = 0; // its pods' time limit (0: none)
    // More variables for its training containers, after NCCL_DEBUG and PYTHONUNBUFFERED.
    std::vector<std::pair<std::string, std::string>> env;
    // Its training containers' command ({}: `cd /workspace && ./start.sh`), and a node's folder
    // mounted at /workspace in place of the NAS's user and share folders ("": those).
    std::vector<std::string> command;
    std::string workspace;
};

// The lab's users and what they submit: the scenarios' jobs, a random job now and then while
// the cluster runs, and (scale scenario) churn of existing pods for client benchmarks. Each
// submission also records how the workload will behave once it runs.
class WorkloadGenerator
{
public:
    explicit WorkloadGenerator(SimState &state);

    void addUser(const std::string &user, const std::string &queue, int gpuQuota);
    nlohmann::json submitVolcanoJob(const JobInput &in);
    nlohmann::json submitPyTorchJob(const JobInput &in); // tasks[0] master, tasks[1] workers
    nlohmann::json submitMpiJob(const JobInput &in);     // tasks[0] workers
    nlohmann::json submitPod(const JobInput &in);        // tasks[0] the pod

    // Called once per simulated second: about one new job every two simulated minutes.
    void generate();
    void submitRandomJob();

    void addChurnablePod(const std::string &ns, const std::string &name);
    void resetChurn() { m_churnCarry = 0; }
    // Pod replacements, changes and restarts for `ms` of real time at options.churn per second.
    void churn(qint64 ms);

private:
    nlohmann::json podTemplate(const JobInput &in, const TaskInput &task, const std::string &role,
                               int gpus) const;
    nlohmann::json createJob(const ResourceType *type, nlohmann::json job, const Behavior &behavior,
                             const QString &manager);

    SimState &m_state;
    std::vector<std::string> m_churnablePods; // ns/name
    double m_churnCarry = 0;
};

} // namespace sim
