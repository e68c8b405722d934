// SPDX-License-Identifier: GPL-3.0-or-later
// The demo scenario, second part: what a cleanup finds (a process hung in D state on NFS, a
// finished job whose sidecar still holds a GPU, a disruption budget that blocks a drain) and a
// MIG node. Run from Simulation::build() before its script plays.
#include "objectfactory.h"
#include "simclock.h"
#include "simulation.h"

namespace sim {

using nlohmann::json;

namespace {

constexpr qint64 kHour = 3600 * 1000;

Simulation::TaskInput gpuTask(const char *name, int gpus)
{
    Simulation::TaskInput t;
    t.name = name;
    t.gpus = gpus;
    t.cpu = std::to_string(std::max(2, gpus * 6));
    t.memory = std::to_string(std::max(16, gpus * 48)) + "Gi";
    return t;
}

Simulation::TaskInput migTask(const char *name, const char *profile)
{
    Simulation::TaskInput t = gpuTask(name, 0);
    t.migProfile = profile;
    t.migCount = 1;
    t.cpu = "4";
    t.memory = "32Gi";
    return t;
}

Simulation::JobInput input(const char *user, const char *queue, const char *name)
{
    Simulation::JobInput in;
    in.user = user;
    in.queue = queue;
    in.name = name;
    return in;
}

} // namespace

void Simulation::plantCleanupFindings(qint64 endMs)
{
    auto hoursAgo = [endMs](double h) { return endMs - qint64(h * double(kHour)); };
    auto ref = [this](const ResourceType *type, const char *user, const char *name) {
        return objectRef(type, std::string("user-") + user, name);
    };
    // A feature extractor on g4090-09 whose reads from the NAS stopped answering: its process
    // sleeps uninterruptibly (D) in the NFS client. Deleted, it could not end; force-deleted,
    // it stays, holding its card, while the node was cordoned for a reboot that has not come.
    at(hoursAgo(30), [=, this] {
        JobInput in = input("sunmin", "default", "feature-cache-0");
        in.nodeName = "g4090-09";
        in.behavior.profile = Profile::Starved;
        in.behavior.runSeconds = -1;
        in.behavior.termination = Termination::Uninterruptible;
        in.tasks = {gpuTask("main", 1)};
        submitPod(in);
    });
    // Started before the cordon and guarded by a budget: draining g4090-09 cannot evict it.
    at(hoursAgo(20), [=, this] {
        JobInput in = input("sunmin", "default", "embed-serve");
        in.nodeName = "g4090-09";
        in.behavior.runSeconds = -1;
        in.behavior.utilization = 35;
        in.labels = json{{"app", "embed-serve"}};
        in.tasks = {gpuTask("server", 1)};
        submitPod(in);
        m_state.store->create(
            m_state.pdbs,
            json{{"metadata", {{"name", "embed-serve"}, {"namespace", "user-sunmin"}}},
                 {"spec",
                  {{"minAvailable", 1}, {"selector", {{"matchLabels", {{"app", "embed-serve"}}}}}}},
                 {"status",
                  {{"disruptionsAllowed", 0},
                   {"currentHealthy", 0},
                   {"desiredHealthy", 0},
                   {"expectedPods", 0}}}},
            QStringLiteral("kubectl-create"));
        addPlanted({"pdb-blocks-drain",
                    "PodDisruptionBudget embed-serve (minAvailable 1) guards the only replica of "
                    "an inference pod on the cordoned g4090-09: a drain cannot evict it",
                    "g4090-09",
                    json::array({ref(m_state.pdbs, "sunmin", "embed-serve"),
                                 ref(m_state.pods, "sunmin", "embed-serve")})});
    });
    at(hoursAgo(9.2), [=, this] { deletePod("user-sunmin", "feature-cache-0"); });
    at(hoursAgo(9), [=, this] {
        const json r = ref(m_state.pods, "sunmin", "feature-cache-0");
        forceDelete("user-sunmin", "feature-cache-0");
        addPlanted({"uninterruptible-process",
                    "pod force-deleted 9 h ago on the cordoned g4090-09; its GPU process hangs in "
                    "D state on an NFS read and holds one card: no signal ends it, only a reboot",
                    "g4090-09", json::array({r})});
    });
    // A distillation job whose trainer's completion completes the job (TaskCompleted →
    // CompleteJob), while its evaluator task's pod goes on holding a GPU.
    at(hoursAgo(9), [=, this] {
        JobInput in = input("carol", "cv", "distill-vit");
        in.nodeName = "g4090-08";
        in.behavior.runSeconds = 5 * 3600;
        TaskInput trainer = gpuTask("trainer", 2);
        trainer.policies =
            json::array({json{{"event", "TaskCompleted"}, {"action", "CompleteJob"}}});
        TaskInput evaluator = gpuTask("evaluator", 1);
        Behavior watch;
        watch.profile = Profile::DevEnv; // wakes now and then to evaluate a checkpoint
        watch.runSeconds = -1;
        evaluator.behavior = watch;
        in.tasks = {trainer, evaluator};
        submitVolcanoJob(in);
    });
    at(hoursAgo(3.5), [=, this] {
        addPlanted({"finished-holding-gpus",
                    "Volcano job distill-vit completed when its trainer task did (TaskCompleted → "
                    "CompleteJob), but its evaluator task's pod still runs and holds a GPU",
                    "",
                    json::array({ref(m_state.vcjobs, "carol", "distill-vit"),
                                 ref(m_state.pods, "carol", "distill-vit-evaluator-0")})});
    });
}

void Simulation::plantMigNode(qint64 endMs)
{
    auto hoursAgo = [endMs](double h) { return endMs - qint64(h * double(kHour)); };
    // An 8-card A100 node under the mixed strategy: cards 0–3 in MIG mode (all-balanced),
    // cards 4–7 whole. Reserved, as the A800s are: only pods placed there on purpose run on it.
    const std::string built = SimClock::rfc3339(m_state.clock->nowMs() - 90LL * 24 * kHour);
    json n =
        ObjectFactory::node("a100-01", "NVIDIA-A100-SXM4-80GB", 4, 128, 1024, "10.10.1.21", built);
    json &labels = n["metadata"]["labels"];
    labels["nvidia.com/gpu.memory"] = "81920";
    labels["nvidia.com/cuda.driver.major"] = "535";
    labels["nvidia.com/mig.capable"] = "true";
    labels["nvidia.com/mig.strategy"] = "mixed";
    labels["nvidia.com/mig.config"] = "all-balanced";
    const std::pair<const char *, int> profiles[] = {
        {"3g.40gb", 4}, {"2g.20gb", 4}, {"1g.10gb", 8}};
    const std::map<std::string, std::string> memory{
        {"3g.40gb", "40192"}, {"2g.20gb", "19968"}, {"1g.10gb", "9728"}};
    for (const auto &[profile, count] : profiles) {
        const std::string p = profile;
        const std::string resource = kMigResourcePrefix + p;
        n["status"]["capacity"][resource] = std::to_string(count);
        n["status"]["allocatable"][resource] = std::to_string(count);
        labels["nvidia.com/mig-" + p + ".count"] = std::to_string(count);
        labels["nvidia.com/mig-" + p + ".memory"] = memory.at(p);
        labels["nvidia.com/mig-" + p + ".product"] = "NVIDIA-A100-SXM4-80GB-MIG-" + p;
    }
    n["spec"]["taints"] = json::array(
        {json{{"key", "gpudesk.io/reserved"}, {"value", "a100"}, {"effect", "NoSchedule"}}});
    m_state.store->create(m_state.nodes, n, QStringLiteral("kubelet"));
    addNodeMachine(n, "v2-systemd-containerd", 4);
    addPlanted({"mig-node",
                "a100-01: cards 0–3 in MIG mode (3g.40gb, 2g.20gb, 2 × 1g.10gb each), cards 4–7 "
                "whole; pods asking nvidia.com/mig-* run in their instances",
                "a100-01", json::array({objectRef(m_state.nodes, "", "a100-01")})});

    at(hoursAgo(22), [=, this] {
        JobInput in = input("alice", "nlp", "notebook-mig");
        in.devEnv = true;
        in.nodeName = "a100-01";
        in.image = "registry.lab.internal/devenv/pytorch-jupyter:2.1-cuda12.1";
        in.behavior.profile = Profile::DevEnv;
        in.behavior.runSeconds = -1;
        in.tasks = {migTask("devenv", "1g.10gb")};
        submitPod(in);
    });
    at(hoursAgo(21), [=, this] {
        JobInput in = input("dave", "cv", "detr-eval-mig");
        in.nodeName = "a100-01";
        in.behavior.runSeconds = 3 * 24 * 3600;
        in.behavior.utilization = 80;
        in.tasks = {migTask("eval", "3g.40gb")};
        submitPod(in);
    });
    at(hoursAgo(18), [=, this] {
        JobInput in = input("carol", "cv", "ocr-serve-mig");
        in.nodeName = "a100-01";
        in.behavior.runSeconds = -1;
        in.behavior.utilization = 40;
        in.tasks = {migTask("server", "2g.20gb")};
        submitPod(in);
    });
    at(hoursAgo(16), [=, this] {
        JobInput in = input("wangfang", "cv", "sd-finetune");
        in.nodeName = "a100-01";
        in.behavior.runSeconds = 2 * 24 * 3600;
        in.tasks = {gpuTask("trainer", 2)};
        submitPod(in);
    });
}

} // namespace sim
