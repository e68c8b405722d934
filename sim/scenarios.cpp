// SPDX-License-Identifier: GPL-3.0-or-later
// The scenarios of Simulation: the demo lab, built by running its last two days, and the
// large static cluster for benchmarks.
#include "machinescontroller.h"
#include "nodemachine.h"
#include "objectfactory.h"
#include "priorityadmission.h"
#include "simclock.h"
#include "simulation.h"

#include <QElapsedTimer>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcSim)

namespace sim {

using nlohmann::json;

namespace {

constexpr qint64 kHour = 3600 * 1000;
constexpr qint64 kWarmupMs = 48 * kHour;
constexpr qint64 kWarmupStepMs = 60 * 1000;

// The user-facing roles every cluster has (bootstrap policy): admin, edit and view, with the
// rules that matter here; edit is what a user's RoleBinding names by default.
void createDefaultRoles(ObjectStore *store)
{
    const auto *cr = store->types()->find(QStringLiteral("rbac.authorization.k8s.io"),
                                          QStringLiteral("v1"), QStringLiteral("clusterroles"));
    const json read = {"get", "list", "watch"};
    const json write = {"create", "delete", "deletecollection", "patch", "update"};
    json readWrite = read;
    for (const auto &v : write)
        readWrite.push_back(v);
    const json viewRules = {
        {{"apiGroups", {""}},
         {"resources",
          {"configmaps", "endpoints", "persistentvolumeclaims", "persistentvolumeclaims/status",
           "pods", "pods/log", "pods/status", "replicationcontrollers", "services",
           "services/status", "serviceaccounts", "events", "limitranges", "resourcequotas",
           "resourcequotas/status", "namespaces", "namespaces/status"}},
         {"verbs", read}},
        {{"apiGroups", {"batch.volcano.sh"}}, {"resources", {"jobs"}}, {"verbs", read}},
        {{"apiGroups", {"scheduling.volcano.sh"}}, {"resources", {"podgroups"}}, {"verbs", read}},
        {{"apiGroups", {"kubeflow.org"}},
         {"resources", {"pytorchjobs", "mpijobs"}},
         {"verbs", read}},
        {{"apiGroups", {"policy"}}, {"resources", {"poddisruptionbudgets"}}, {"verbs", read}}};
    json editRules = viewRules;
    editRules.push_back(
        {{"apiGroups", {""}},
         {"resources",
          {"pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "configmaps",
           "secrets", "services", "persistentvolumeclaims", "serviceaccounts"}},
         {"verbs", readWrite}});
    editRules.push_back(
        {{"apiGroups", {""}}, {"resources", {"pods/eviction"}}, {"verbs", {"create"}}});
    editRules.push_back(
        {{"apiGroups", {""}}, {"resources", {"events"}}, {"verbs", {"create", "patch"}}});
    editRules.push_back(
        {{"apiGroups", {"batch.volcano.sh"}}, {"resources", {"jobs"}}, {"verbs", readWrite}});
    editRules.push_back({{"apiGroups", {"bus.volcano.sh"}},
                         {"resources", {"commands"}},
                         {"verbs", {"get", "list", "watch", "create", "delete"}}});
    editRules.push_back({{"apiGroups", {"kubeflow.org"}},
                         {"resources", {"pytorchjobs", "mpijobs"}},
                         {"verbs", readWrite}});
    json adminRules = editRules;
    adminRules.push_back({{"apiGroups", {"rbac.authorization.k8s.io"}},
                          {"resources", {"roles", "rolebindings"}},
                          {"verbs", readWrite}});
    adminRules.push_back({{"apiGroups", {"authorization.k8s.io"}},
                          {"resources", {"localsubjectaccessreviews"}},
                          {"verbs", {"create"}}});
    auto role = [&](const char *name, const json &rules) {
        store->create(cr, json{{"metadata",
                                {{"name", name},
                                 {"labels", {{"kubernetes.io/bootstrapping", "rbac-defaults"}}}}},
                               {"rules", rules}});
    };
    role("admin", adminRules);
    role("edit", editRules);
    role("view", viewRules);
}

void createRbac(ObjectStore *store)
{
    const ResourceTypes *t = store->types();
    const QString rbac = QStringLiteral("rbac.authorization.k8s.io");
    const auto *cr = t->find(rbac, QStringLiteral("v1"), QStringLiteral("clusterroles"));
    const auto *crb = t->find(rbac, QStringLiteral("v1"), QStringLiteral("clusterrolebindings"));
    const std::string g = rbac.toStdString();
    store->create(cr, json{{"metadata",
                            {{"name", "cluster-admin"},
                             {"labels", {{"kubernetes.io/bootstrapping", "rbac-defaults"}}}}},
                           {"rules",
                            {{{"apiGroups", {"*"}}, {"resources", {"*"}}, {"verbs", {"*"}}},
                             {{"nonResourceURLs", {"*"}}, {"verbs", {"*"}}}}}});
    store->create(
        crb,
        json{{"metadata", {{"name", "cluster-admin"}}},
             {"roleRef", {{"apiGroup", g}, {"kind", "ClusterRole"}, {"name", "cluster-admin"}}},
             {"subjects", {{{"apiGroup", g}, {"kind", "Group"}, {"name", "system:masters"}}}}});
    const json all = {"get",    "list",  "watch",  "create",
                      "update", "patch", "delete", "deletecollection"};
    const json read = {"get", "list", "watch"};
    store->create(
        cr,
        json{
            {"metadata", {{"name", "gpudesk-researcher"}}},
            {"rules",
             {{{"apiGroups", {""}},
               {"resources", {"pods", "services", "configmaps", "persistentvolumeclaims"}},
               {"verbs", all}},
              {{"apiGroups", {""}},
               {"resources",
                {"pods/log", "pods/status", "resourcequotas", "limitranges", "serviceaccounts"}},
               {"verbs", read}},
              // Events too: gpudesk writes one on each object it acts on.
              {{"apiGroups", {""}},
               {"resources", {"events"}},
               {"verbs", {"get", "list", "watch", "create", "patch"}}},
              {{"apiGroups", {""}}, {"resources", {"pods/eviction"}}, {"verbs", {"create"}}},
              // A shell, Jupyter and VS Code in one's own dev environments.
              {{"apiGroups", {""}},
               {"resources", {"pods/exec", "pods/attach", "pods/portforward"}},
               {"verbs", {"get", "create"}}},
              {{"apiGroups", {"policy"}}, {"resources", {"poddisruptionbudgets"}}, {"verbs", read}},
              // vcctl job suspend/resume: a Command on one's own job.
              {{"apiGroups", {"bus.volcano.sh"}},
               {"resources", {"commands"}},
               {"verbs", {"get", "list", "watch", "create", "delete"}}},
              {{"apiGroups", {"batch.volcano.sh"}}, {"resources", {"jobs"}}, {"verbs", all}},
              {{"apiGroups", {"scheduling.volcano.sh"}},
               {"resources", {"podgroups"}},
               {"verbs", read}},
              {{"apiGroups", {"kubeflow.org"}},
               {"resources", {"pytorchjobs", "mpijobs"}},
               {"verbs", all}}}}});
    createDefaultRoles(store);
    store->create(
        cr, json{{"metadata", {{"name", "gpudesk-viewer"}}},
                 {"rules",
                  {{{"apiGroups", {""}}, {"resources", {"nodes", "namespaces"}}, {"verbs", read}},
                   {{"apiGroups", {"scheduling.volcano.sh"}},
                    {"resources", {"queues"}},
                    {"verbs", read}},
                   {{"apiGroups", {"scheduling.k8s.io"}},
                    {"resources", {"priorityclasses"}},
                    {"verbs", read}}}}});
    store->create(
        crb,
        json{
            {"metadata", {{"name", "gpudesk-researchers-view"}}},
            {"roleRef", {{"apiGroup", g}, {"kind", "ClusterRole"}, {"name", "gpudesk-viewer"}}},
            {"subjects", {{{"apiGroup", g}, {"kind", "Group"}, {"name", "gpudesk:researchers"}}}}});
}

Simulation::TaskInput task(const char *name, int replicas, int gpus)
{
    Simulation::TaskInput t;
    t.name = name;
    t.replicas = replicas;
    t.gpus = gpus;
    t.cpu = std::to_string(std::max(2, gpus * 6));
    t.memory = std::to_string(std::max(16, gpus * 48)) + "Gi";
    return t;
}

} // namespace

void Simulation::build()
{
    if (m_state.options.scenario == QLatin1String("scale")) {
        buildScale();
        return;
    }
    QElapsedTimer timer;
    timer.start();
    // Run the cluster's last two days: start in the past and step to now.
    const qint64 endMs = m_state.clock->nowMs();
    m_state.clock->advanceMs(-kWarmupMs);
    const qint64 t0 = m_state.clock->nowMs();
    auto hoursAgo = [endMs](double h) { return endMs - qint64(h * double(kHour)); };

    for (const char *ns : {"default", "kube-system", "kube-public", "volcano-system", "kubeflow"})
        m_state.store->create(m_state.namespaces, ObjectFactory::namespaceFor(ns, json::object()));
    createRbac(m_state.store);
    PriorityAdmission::seed(m_state.store);
    // The lab's Volcano preempts within a queue for jobs of higher priority; reclaim between
    // queues is off (Volcano's default actions are enqueue, allocate, backfill).
    m_state.store->create(
        m_state.store->types()->find({}, QStringLiteral("v1"), QStringLiteral("configmaps")),
        json{{"metadata",
              {{"name", "volcano-scheduler-configmap"}, {"namespace", "volcano-system"}}},
             {"data",
              {{"volcano-scheduler.conf",
                "actions: \"enqueue, allocate, preempt, backfill\"\ntiers:\n- plugins:\n  - name: "
                "priority\n  - name: gang\n  - name: conformance\n- plugins:\n  - name: drf\n  "
                "- name: predicates\n  - name: proportion\n  - name: nodeorder\n  - name: "
                "binpack\n"}}}});
    m_state.store->create(m_state.queues, ObjectFactory::queue("default", -1, 1));
    m_state.store->create(m_state.queues, ObjectFactory::queue("nlp", 40, 4));
    m_state.store->create(m_state.queues, ObjectFactory::queue("cv", 40, 4));
    m_state.store->create(m_state.queues, ObjectFactory::queue("speech", 8, 1));

    const std::string built = SimClock::rfc3339(t0 - 90LL * 24 * kHour);
    auto addNode = [&](const std::string &name, const std::string &product, int gpus, int cpus,
                       int memGi, const std::string &ip, const std::string &cgroup) {
        json n = ObjectFactory::node(name, product, gpus, cpus, memGi, ip, built);
        if (product.find("A800") != std::string::npos)
            n["spec"]["taints"] = json::array({json{
                {"key", "gpudesk.io/reserved"}, {"value", "a800"}, {"effect", "NoSchedule"}}});
        // The second rack of 4090 servers came with RoCE NICs (Node Feature Discovery says so).
        if (name >= "g4090-06" && name <= "g4090-10")
            n["metadata"]["labels"]["feature.node.kubernetes.io/rdma.available"] = "true";
        m_state.store->create(m_state.nodes, n, QStringLiteral("kubelet"));
        addNodeMachine(n, cgroup);
    };
    addNode("a800-01", "NVIDIA A800-SXM4-80GB", 8, 128, 1024, "10.10.1.11",
            "v2-systemd-containerd");
    addNode("a800-02", "NVIDIA A800-SXM4-80GB", 8, 128, 1024, "10.10.1.12",
            "v2-systemd-containerd");
    for (int i = 1; i <= 10; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "g4090-%02d", i);
        addNode(name, "NVIDIA GeForce RTX 4090", 8, 64, 512, "10.10.2." + std::to_string(10 + i),
                i <= 5 ? "v1-cgroupfs-docker"
                       : (i <= 8 ? "v1-systemd-containerd" : "v2-systemd-containerd"));
    }
    for (int i = 1; i <= 3; ++i)
        addNode("cpu-0" + std::to_string(i), "", 0, 96, 384, "10.10.3." + std::to_string(10 + i),
                "v2-systemd-containerd");

    const std::pair<const char *, const char *> users[] = {
        {"alice", "nlp"},   {"bob", "nlp"},        {"zhangwei", "nlp"},  {"liuyang", "nlp"},
        {"carol", "cv"},    {"dave", "cv"},        {"wangfang", "cv"},   {"lina", "cv"},
        {"erin", "speech"}, {"chenjie", "speech"}, {"frank", "default"}, {"sunmin", "default"}};
    std::map<std::string, std::string> vcOf;
    for (const auto &[u, q] : users) {
        // alice runs the most (her jobs and dev environment ask 25 GPUs): a quota of 32 lets
        // everything below have been admitted; bob's 16 is full, the case an admin resizes.
        const std::string name = u;
        addUser(u, q, name == "alice" ? 32 : (std::string(q) == "default" ? 8 : 16));
        vcOf[u] = q;
    }

    auto job = [&](const std::string &user, const std::string &name) {
        JobInput in;
        in.user = user;
        in.name = name;
        in.queue = vcOf[user];
        return in;
    };
    auto ref = [&](const ResourceType *type, const std::string &user, const std::string &name) {
        return objectRef(type, "user-" + user, name);
    };

    // Dev environments pinned where they were started long ago: they keep every 4090 node from
    // being whole, which is why a single-node 8-GPU job cannot start.
    const std::pair<const char *, const char *> devs[] = {
        {"alice", "g4090-01"}, {"zhangwei", "g4090-02"}, {"liuyang", "g4090-03"},
        {"lina", "g4090-04"},  {"chenjie", "g4090-05"},  {"bob", "g4090-06"},
        {"carol", "g4090-08"}, {"erin", "g4090-10"}};
    at(hoursAgo(47.9), [=, this] {
        for (const auto &[u, node] : devs) {
            JobInput in = job(u, std::string("dev-") + u);
            in.devEnv = true;
            in.nodeName = node;
            in.image = "registry.lab.internal/devenv/pytorch-jupyter:2.1-cuda12.1";
            in.behavior.profile = Profile::DevEnv;
            in.behavior.runSeconds = -1;
            in.tasks = {task("devenv", 1, std::string(u) == "bob" ? 2 : 1)};
            submitPod(in);
        }
    });
    // A failure of each class the job doctor tells beyond the ones planted below, early, while
    // the nodes had room: each ran a few minutes and failed; its pod and log stay for the doctor.
    at(hoursAgo(47.5), [=, this] {
        struct Failing
        {
            const char *user;
            const char *name;
            Failure failure;
            int gpus;
            const char *what;
            const char *diagnosis;
        };
        const Failing failing[] = {
            {"bob", "llama-13b-sft", Failure::GpuOutOfMemory, 1,
             "CUDA out of memory on the first step", "gpu-memory"},
            {"zhangwei", "gpt-moe-pretrain", Failure::NcclTimeout, 1,
             "the NCCL watchdog: an all-reduce timed out after 30 minutes", "nccl"},
            {"liuyang", "bert-ddp", Failure::RankUnset, 1,
             "torch.distributed's env:// without RANK (started as a plain pod)", "distributed-env"},
            {"chenjie", "asr-finetune", Failure::ModuleMissing, 1,
             "ModuleNotFoundError: flash_attn is not in the image", "python-env"},
            {"dave", "convnext-imagenet", Failure::DataPathMissing, 1,
             "the dataset's path is not on the NAS", "data-path"},
            {"lina", "sd-lora", Failure::DriverTooOld, 1,
             "the image's CUDA needs a newer driver than the node's", "cuda-driver"},
            {"sunmin", "tokenize-zh", Failure::OutOfMemory, 0,
             "killed by the kernel for memory (OOMKilled, exit 137)", "memory"},
        };
        for (const Failing &f : failing) {
            JobInput in = job(f.user, f.name);
            in.behavior.profile = f.gpus == 0 ? Profile::Cpu : Profile::Train;
            in.behavior.runSeconds = 300;
            in.behavior.failure = f.failure;
            in.tasks = {task("main", 1, f.gpus)};
            submitPod(in);
            addPlanted({std::string("failed-") + f.diagnosis, f.what, "",
                        json::array({ref(m_state.pods, f.user, f.name)}), f.diagnosis});
        }
    });
    // An MPI job whose launcher cannot start mpirun's daemons on its workers — over SSH (the MPI
    // operator's v2beta1: their image runs no sshd), or with kubectl exec (the training
    // operator's v1, the demo's: a worker's container not there yet) — and fails within a
    // minute; the operator then deletes the workers, still waiting (cleanPodPolicy Running).
    at(hoursAgo(47.3), [=, this] {
        JobInput in = job("liuyang", "bert-mpi");
        in.behavior.runSeconds = 40;
        in.behavior.failure = Failure::MpiSsh;
        in.tasks = {task("worker", 2, 1)};
        submitMpiJob(in);
        addPlanted({"failed-mpi-launch",
                    "an MPIJob whose launcher could not start mpirun's daemons on its workers "
                    "(ORTE's banner after ssh's or kubectl exec's error); the launcher failed",
                    "", json::array({ref(m_state.mpijobs, "liuyang", "bert-mpi")}), "mpi-launch"});
    });
    // A nightly evaluation with a two-hour limit (activeDeadlineSeconds, as the New Job form's
    // time limit writes it) that ran past it: the kubelet failed it, DeadlineExceeded.
    at(hoursAgo(7), [=, this] {
        JobInput in = job("frank", "eval-nightly");
        in.behavior.profile = Profile::Cpu;
        in.behavior.runSeconds = -1;
        in.activeDeadlineSeconds = 2 * 3600;
        in.tasks = {task("main", 1, 0)};
        submitPod(in);
        addPlanted({"failed-deadline",
                    "frank's nightly evaluation ran past its 2-hour limit "
                    "(activeDeadlineSeconds): the kubelet failed it, DeadlineExceeded",
                    "", json::array({ref(m_state.pods, "frank", "eval-nightly")}), "deadline"});
    });
    // An admin ended a job's process through gpudesk (its card idle for days): the pod failed,
    // and gpudesk's Event on it says who and why — as gpudesk's process kill writes it.
    at(hoursAgo(3.2), [=, this] {
        JobInput in = job("dave", "vit-probe");
        in.behavior.runSeconds = 600;
        in.behavior.fails = true;
        in.behavior.utilization = 0;
        in.tasks = {task("main", 1, 1)};
        submitPod(in);
        addPlanted({"failed-stopped-by-admin",
                    "dave's vit-probe, its card idle, ended by the admin through gpudesk: the pod "
                    "failed; gpudesk's Event on it names who and why",
                    "", json::array({ref(m_state.pods, "dave", "vit-probe")}), "stopped-by-admin"});
    });
    at(hoursAgo(3.1), [=, this] {
        const auto pod = m_state.store->get(m_state.pods, QStringLiteral("user-dave"),
                                            QStringLiteral("vit-probe"));
        const std::string node =
            pod.ok() ? sub(*pod.object.object, "spec").value("nodeName", "") : std::string();
        m_state.recordEvent(m_state.objectRef(m_state.pods, "user-dave", "vit-probe"), "user-dave",
                            "Normal", "GpudeskKilledProcess",
                            "End PID 48213 (python train.py) on " + node +
                                " by sim-admin with gpudesk: its GPU was idle for 3 days",
                            "gpudesk", "");
    });
    // A card that falls off the bus under a job: the job dies with a CUDA error (its own log
    // blames its code), and only the node's kernel log says why — the driver's Xid 79.
    at(hoursAgo(47.4), [=, this] {
        JobInput in = job("erin", "clip-finetune");
        in.nodeName = "g4090-09";
        in.behavior.runSeconds = 240;
        in.behavior.fails = true;
        in.tasks = {task("main", 1, 2)};
        submitPod(in);
        addPlanted({"failed-gpu-hardware",
                    "the GPU fell off the bus under the job (Xid 79 in the node's kernel log); "
                    "the job's log shows only a CUDA error",
                    "g4090-09", json::array({ref(m_state.pods, "erin", "clip-finetune")}),
                    "gpu-hardware"});
    });
    at(hoursAgo(47.4) + 236 * 1000, [=, this] {
        // Card 1 (bus 2A), as the PCIe port and the driver log it.
        kernelMessage("g4090-09", "pcieport 0000:00:03.0: AER: Uncorrected (Fatal) error "
                                  "received: 0000:2a:00.0");
        kernelMessage("g4090-09", "NVRM: Xid (PCI:0000:2a:00): 79, pid='<unknown>', "
                                  "name=<unknown>, GPU has fallen off the bus.");
        kernelMessage("g4090-09", "NVRM: GPU 0000:2a:00.0: GPU has fallen off the bus.");
    });
    // A card that loses data under a job: the CUDA runtime says "uncorrectable ECC error" and
    // the card counts two since its driver loaded (nvidia-smi). Its Xid line is long gone from
    // the kernel's ring (a busy node turns it over within hours): the card's own counter is what
    // tells the hardware from the code.
    at(hoursAgo(30), [=, this] {
        JobInput in = job("zhangwei", "qwen-14b-lora");
        in.nodeName = "a800-01";
        in.tolerateA800 = true;
        in.behavior.runSeconds = 420;
        in.behavior.failure = Failure::EccUncorrectable;
        in.tasks = {task("main", 1, 4)};
        submitPod(in);
        addPlanted({"failed-gpu-ecc",
                    "a card of a800-01 counts uncorrectable ECC errors (nvidia-smi); the job died "
                    "of the CUDA runtime's ECC error, no Xid line is left in the kernel log",
                    "a800-01", json::array({ref(m_state.pods, "zhangwei", "qwen-14b-lora")}),
                    "gpu-hardware"});
    });
    at(hoursAgo(30) + 410 * 1000, [=, this] {
        eccErrors("a800-01",
                  ref(m_state.pods, "zhangwei", "qwen-14b-lora").value("uid", std::string()), 2);
    });
    at(hoursAgo(47), [=, this] {
        JobInput in = job("dave", "vit-large");
        in.nodeName = "g4090-07";
        in.behavior.runSeconds = 5 * 24 * 3600;
        in.tasks = {task("trainer", 1, 8)};
        submitVolcanoJob(in);
    });
    at(hoursAgo(46.5), [=, this] {
        JobInput in = job("liuyang", "old-train");
        in.nodeName = "g4090-03";
        in.behavior.runSeconds = -1;
        in.behavior.termination = Termination::Lost;
        in.tasks = {task("main", 1, 2)};
        submitPod(in);
    });
    at(hoursAgo(46), [=, this] {
        deletePod("user-liuyang", "old-train");
        addPlanted({"stuck-terminating",
                    "pod deleted 46 h ago still Terminating: the kubelet lost track of it (no "
                    "container, process or cgroup of it is left on the node) and never confirmed "
                    "the deletion",
                    "g4090-03", json::array({ref(m_state.pods, "liuyang", "old-train")})});
    });
    at(hoursAgo(30), [=, this] {
        JobInput in = job("zhangwei", "bert-pretrain-worker-0");
        in.nodeName = "g4090-04";
        in.behavior.runSeconds = -1;
        in.behavior.termination = Termination::Hung;
        in.behavior.ignoreTermMask = 0b10; // the second rank traps TERM: only KILL ends it
        in.tasks = {task("main", 1, 2)};
        submitPod(in);
    });
    at(hoursAgo(20), [=, this] {
        const json r = ref(m_state.pods, "zhangwei", "bert-pretrain-worker-0");
        forceDelete("user-zhangwei", "bert-pretrain-worker-0");
        addPlanted(
            {"orphan-gpu-processes",
             "pod force-deleted 20 h ago; its GPU processes still hold two cards on the node "
             "(one of them ignores TERM: only KILL ends it)",
             "g4090-04", json::array({r})});
    });
    at(hoursAgo(14), [=, this] {
        JobInput in = job("bob", "tokenize-corpus");
        in.behavior.profile = Profile::Chatty;
        in.behavior.runSeconds = -1;
        in.tasks = {task("worker", 1, 1)};
        submitVolcanoJob(in);
    });
    at(hoursAgo(12), [=, this] {
        JobInput in = job("sunmin", "llm-serve");
        in.nodeName = "g4090-10";
        in.behavior.runSeconds = -1;
        in.behavior.utilization = 70;
        in.tasks = {task("server", 1, 4)};
        submitPod(in);
    });
    at(hoursAgo(10), [=, this] { cordon("g4090-09"); });
    at(hoursAgo(8), [=, this] {
        JobInput llama = job("alice", "llama-sft");
        llama.tolerateA800 = true;
        llama.behavior.runSeconds = 3 * 24 * 3600;
        llama.tasks = {task("master", 1, 4), task("worker", 1, 4)};
        submitPyTorchJob(llama);
        JobInput qwen = job("bob", "qwen-eval");
        qwen.tolerateA800 = true;
        qwen.behavior.runSeconds = 2 * 24 * 3600;
        qwen.tasks = {task("eval", 1, 5)};
        submitVolcanoJob(qwen);
        JobInput detr = job("carol", "detr-train");
        detr.behavior.runSeconds = 30 * 3600;
        detr.tasks = {task("worker", 2, 4)};
        submitVolcanoJob(detr);
        JobInput sam = job("dave", "sam-finetune");
        sam.behavior.profile = Profile::Starved;
        sam.behavior.runSeconds = 20 * 3600;
        sam.shmSize = "8Gi";
        sam.tasks = {task("trainer", 1, 4)};
        submitVolcanoJob(sam);
        JobInput resnet = job("wangfang", "resnet-mpi");
        resnet.behavior.runSeconds = 16 * 3600;
        resnet.tasks = {task("worker", 2, 2)};
        submitMpiJob(resnet);
        // Runs, over TCP sockets: NCCL_IB_DISABLE=1, copied from a test on a workstation, on
        // two servers of the RoCE rack — every all-reduce several times slower.
        JobInput yolo = job("lina", "yolo-ddp");
        yolo.behavior.runSeconds = 12 * 3600;
        yolo.env = {{"NCCL_IB_DISABLE", "1"}};
        yolo.tasks = {task("master", 1, 2), task("worker", 1, 2)};
        submitPyTorchJob(yolo);
        addPlanted({"slow-nccl",
                    "lina's yolo-ddp runs on two RoCE nodes with NCCL_IB_DISABLE=1: NCCL talks "
                    "over TCP sockets (its log says so), every all-reduce several times slower",
                    "", json::array({ref(m_state.pytorchjobs, "lina", "yolo-ddp")}), "nccl-slow"});
        JobInput whisper = job("erin", "whisper-ft");
        whisper.behavior.runSeconds = 40 * 3600;
        whisper.tasks = {task("trainer", 1, 6)};
        submitVolcanoJob(whisper);
        JobInput prep = job("sunmin", "preprocess-corpus");
        prep.behavior.profile = Profile::Cpu;
        prep.behavior.runSeconds = 24 * 3600;
        prep.tasks = {task("shard", 2, 0)};
        submitVolcanoJob(prep);
    });
    at(hoursAgo(7), [=, this] {
        JobInput in = job("frank", "idle-inference");
        in.behavior.profile = Profile::Idle;
        in.behavior.runSeconds = -1;
        in.tasks = {task("server", 1, 4)};
        submitPod(in);
        addPlanted({"idle-gpu-pod", "pod holding 4 GPUs at 0 % for 7 hours", "",
                    json::array({ref(m_state.pods, "frank", "idle-inference")})});
    });
    at(hoursAgo(6), [=, this] {
        JobInput in = job("carol", "clip-pretrain");
        in.behavior.profile = Profile::ShmError;
        in.behavior.runSeconds = 1200;
        in.shmSize.clear(); // no /dev/shm volume: the container's default 64 MiB
        in.tasks = {task("master", 1, 2), task("worker", 1, 2)};
        submitPyTorchJob(in);
        addPlanted({"shm-too-small",
                    "DataLoader workers killed by a bus error: /dev/shm is the default 64 MiB", "",
                    json::array({ref(m_state.pytorchjobs, "carol", "clip-pretrain")}),
                    "shared-memory"});
    });
    at(hoursAgo(5), [=, this] {
        JobInput crash = job("wangfang", "mmdet-train");
        crash.behavior.profile = Profile::CrashSymlink;
        crash.behavior.runSeconds = -1;
        crash.tasks = {task("main", 1, 1)};
        json pod = submitPod(crash);
        addPlanted({"crashloop-dangling-symlink",
                    "CrashLoopBackOff: the launch script /workspace/start.sh is a symlink to a "
                    "file that no longer exists",
                    "", json::array({ref(m_state.pods, "wangfang", "mmdet-train")}),
                    "launch-script"});
        // The AiArts case: start.sh is a link made on the login node by the node's own path;
        // the pod mounts its folder at /workspace, where the link leads nowhere.
        JobInput seg = job("zhangwei", "seg-train");
        seg.behavior.profile = Profile::CrashSymlink;
        seg.behavior.runSeconds = -1;
        seg.workspace = "/mnt/user/zhangwei/code/seg";
        seg.command = {"bash", "/workspace/start.sh"};
        seg.tasks = {task("main", 1, 1)};
        submitPod(seg);
        addPlanted({"crashloop-link-outside",
                    "CrashLoopBackOff: /workspace/start.sh links to the script by the node's "
                    "path, which the pod does not mount",
                    "", json::array({ref(m_state.pods, "zhangwei", "seg-train")}),
                    "launch-script"});
        JobInput pull = job("lina", "detectron-eval");
        pull.behavior.profile = Profile::ImagePull;
        pull.behavior.runSeconds = -1;
        pull.image = "harbor.lab.internal:5000/cv/detectron2:v0.6";
        pull.tasks = {task("main", 1, 1)};
        submitPod(pull);
        addPlanted({"image-pull-unknown-host",
                    "ImagePullBackOff: the node cannot resolve the registry host "
                    "harbor.lab.internal",
                    "", json::array({ref(m_state.pods, "lina", "detectron-eval")}), "image-pull"});
    });
    at(hoursAgo(3), [=, this] {
        setNodeReady("g4090-10", false, "Kubelet stopped posting node status.");
        addPlanted({"node-not-ready", "node NotReady for 3 hours with pods still on it", "g4090-10",
                    json::array({objectRef(m_state.nodes, "", "g4090-10")})});
    });
    at(hoursAgo(2), [=, this] {
        JobInput in = job("chenjie", "asr-conformer");
        in.behavior.runSeconds = 6 * 3600;
        in.tasks = {task("worker", 2, 2)};
        submitVolcanoJob(in);
        addPlanted({"queue-full",
                    "job waits because its queue (speech, 8 GPUs) is full, although the "
                    "cluster has free GPUs",
                    "", json::array({ref(m_state.vcjobs, "chenjie", "asr-conformer")})});
    });
    at(hoursAgo(1.5), [=, this] {
        JobInput in = job("bob", "sft-single-node");
        in.behavior.runSeconds = 8 * 3600;
        in.tasks = {task("main", 1, 8)};
        submitPod(in);
        addPlanted({"no-single-node-fits",
                    "non-distributed pod asks 8 GPUs: no node has 8 free while the cluster has "
                    "enough in total; it should run as distributed training",
                    "", json::array({ref(m_state.pods, "bob", "sft-single-node")})});
    });
    // A feature cache written to the container's own disk on g4090-07: when the node's disk
    // fills, the kubelet evicts it first (it uses the most over its request, none).
    at(hoursAgo(3), [=, this] {
        JobInput in = job("lina", "feature-cache");
        in.nodeName = "g4090-07";
        in.behavior.profile = Profile::Cpu;
        in.behavior.runSeconds = -1;
        in.tasks = {task("main", 1, 0)};
        submitPod(in);
    });
    at(hoursAgo(1), [=, this] {
        setDiskPressure("g4090-07", 92);
        addPlanted({"disk-full", "system disk 92 % full (DiskPressure)", "g4090-07",
                    json::array({objectRef(m_state.nodes, "", "g4090-07")})});
        evictForDiskPressure("user-lina", "feature-cache", "41Gi");
        addPlanted({"failed-evicted",
                    "lina's feature-cache, writing 41Gi to its container's disk, evicted by the "
                    "kubelet when g4090-07's disk filled",
                    "g4090-07", json::array({ref(m_state.pods, "lina", "feature-cache")}),
                    "evicted"});
        JobInput gpt = job("alice", "gpt-pretrain");
        gpt.tolerateA800 = true;
        gpt.behavior.runSeconds = 4 * 24 * 3600;
        gpt.tasks = {task("master", 1, 8), task("worker", 1, 8)};
        submitPyTorchJob(gpt);
        setPhantom("a800-02", 7, 30720);
        addPlanted({"phantom-card-memory",
                    "card 7 of a800-02 shows 30 GiB used with no process on it", "a800-02",
                    json::array({objectRef(m_state.nodes, "", "a800-02")})});
    });
    // A deadline job preempts a running one in its own queue (Volcano's preempt action):
    // wangfang's high-priority segmentation job asks exactly what carol's detr-train worker
    // holds on its node, plus what is free there, so the worker is evicted (Evict event,
    // DisruptionTarget condition, pod deleted) and Volcano makes it again, waiting.
    at(hoursAgo(0.5), [=, this] {
        const auto worker = m_state.store->get(m_state.pods, QStringLiteral("user-carol"),
                                               QStringLiteral("detr-train-worker-0"));
        if (!worker.ok())
            return;
        const std::string node = (*worker.object.object)["spec"].value("nodeName", "");
        int used = 0;
        for (const auto &uid : m_state.podsOnNode[node]) {
            const auto it = m_state.podInfo.find(uid);
            if (it != m_state.podInfo.end() && !it->second.terminated())
                used += it->second.gpus;
        }
        JobInput in = job("wangfang", "seg-deadline");
        in.priorityClass = "high-priority";
        in.nodeSelector = json{{"kubernetes.io/hostname", node}};
        in.behavior.runSeconds = 6 * 3600;
        in.tasks = {task("trainer", 1, 8 - used + 4)};
        submitVolcanoJob(in);
        addPlanted({"preempted",
                    "carol's detr-train lost worker-0 on " + node +
                        " to wangfang's seg-deadline (priority class high-priority, same queue "
                        "cv): Volcano evicted it and made it again, waiting",
                    node,
                    json::array({ref(m_state.vcjobs, "carol", "detr-train"),
                                 ref(m_state.vcjobs, "wangfang", "seg-deadline")})});
    });
    plantCleanupFindings(endMs);
    plantMigNode(endMs);
    // A history of short jobs that finished, failed or ran during the two days.
    for (int i = 0; i < 36; ++i) {
        at(t0 + kHour + qint64(i) * (38 * kHour / 36), [this] { m_workload->submitRandomJob(); });
    }

    while (m_state.clock->nowMs() < endMs) {
        // During the past, new jobs come only from the script above.
        m_state.clock->advanceMs(kWarmupStepMs);
        runScript();
        runControllers(kWarmupStepMs);
    }
    // Earlier history is compacted away, as on a cluster that has run for a while.
    m_state.store->compact();
    qCInfo(lcSim, "demo scenario built in %lld ms: %zu pods, %zu events, resourceVersion %llu",
           static_cast<long long>(timer.elapsed()), m_state.store->count(m_state.pods),
           m_state.store->count(m_state.events),
           static_cast<unsigned long long>(m_state.store->resourceVersion()));
}

void Simulation::buildScale()
{
    QElapsedTimer timer;
    timer.start();
    m_static = true;
    for (const char *ns : {"default", "kube-system"})
        m_state.store->create(m_state.namespaces, ObjectFactory::namespaceFor(ns, json::object()));
    createRbac(m_state.store);
    PriorityAdmission::seed(m_state.store);
    m_state.store->create(m_state.queues, ObjectFactory::queue("default", -1, 1));
    const int users = 200;
    for (int u = 0; u < users; ++u) {
        char name[16];
        std::snprintf(name, sizeof name, "u%04d", u);
        m_state.store->create(m_state.namespaces,
                              ObjectFactory::namespaceFor(
                                  std::string("user-") + name,
                                  json{{"gpudesk.io/user", name}, {"gpudesk.io/vc", "default"}}));
    }
    const std::string built = SimClock::rfc3339(m_state.clock->nowMs() - 30LL * 24 * kHour);
    std::vector<std::string> nodeNames;
    for (int i = 0; i < m_state.options.nodes; ++i) {
        char name[24];
        std::snprintf(name, sizeof name, "node-%05d", i);
        const std::string product =
            i % 4 == 0 ? "NVIDIA A800-SXM4-80GB" : "NVIDIA GeForce RTX 4090";
        json n =
            ObjectFactory::node(name, product, m_state.options.gpusPerNode, 96, 768,
                                "10." + std::to_string(20 + i / 65536) + "." +
                                    std::to_string((i / 256) % 256) + "." + std::to_string(i % 256),
                                built);
        m_state.store->create(m_state.nodes, n, QStringLiteral("kubelet"));
        addNodeMachine(n, i % 2 ? "v2-systemd-containerd" : "v1-cgroupfs-docker");
        nodeNames.push_back(name);
    }
    // Pods spread over the nodes; about one in three holds a GPU, within each node's capacity.
    std::vector<int> gpuLeft(size_t(m_state.options.nodes), m_state.options.gpusPerNode);
    const std::string now = m_state.clock->nowRfc3339();
    for (int i = 0; i < m_state.options.pods; ++i) {
        const size_t node = size_t(i) % nodeNames.size();
        char user[16];
        std::snprintf(user, sizeof user, "u%04d", int(m_state.rng() % users));
        PodSpecInput p;
        p.ns = std::string("user-") + user;
        p.user = user;
        char name[40];
        std::snprintf(name, sizeof name, "job-%06d-worker-0", i);
        p.name = name;
        p.nodeName = nodeNames[node];
        p.labels = {{"volcano.sh/job-name", std::string(name).substr(0, 10)},
                    {"volcano.sh/queue-name", "default"}};
        ContainerSpec c;
        c.name = "pytorch";
        c.image = "registry.lab.internal/ai/pytorch:2.1.2-cuda12.1-cudnn8";
        c.gpus = (i % 3 == 0 && gpuLeft[node] > 0) ? 1 : 0;
        gpuLeft[node] -= c.gpus;
        c.cpu = "2";
        c.memory = "8Gi";
        c.command = {"/bin/bash", "-c", "cd /workspace && ./start.sh"};
        c.env = {{"NCCL_DEBUG", "INFO"}, {"PYTHONUNBUFFERED", "1"}};
        p.containers = {c};
        p.shmSize = "16Gi";
        json pod = ObjectFactory::pod(p);
        pod["metadata"]["creationTimestamp"] = now;
        pod["status"] = {
            {"phase", "Running"},
            {"qosClass", qosClassOf(pod["spec"])},
            {"hostIP", "10.20.0.1"},
            {"podIP", "10.244." + std::to_string(node % 256) + "." + std::to_string(2 + i % 250)},
            {"startTime", now},
            {"conditions",
             {{{"type", "Ready"}, {"status", "True"}, {"lastTransitionTime", now}},
              {{"type", "PodScheduled"}, {"status", "True"}, {"lastTransitionTime", now}}}},
            {"containerStatuses",
             {{{"name", "pytorch"},
               {"ready", true},
               {"started", true},
               {"restartCount", 0},
               {"image", c.image},
               {"imageID", ""},
               {"state", {{"running", {{"startedAt", now}}}}}}}}};
        const auto res =
            m_state.store->create(m_state.pods, std::move(pod), QStringLiteral("kubelet"));
        if (res.ok())
            m_workload->addChurnablePod(p.ns, p.name);
    }
    m_machines->update(2000);
    m_state.store->compact();
    qCInfo(lcSim, "scale scenario built in %lld ms: %d nodes, %zu pods, resourceVersion %llu",
           static_cast<long long>(timer.elapsed()), m_state.options.nodes,
           m_state.store->count(m_state.pods),
           static_cast<unsigned long long>(m_state.store->resourceVersion()));
}

} // namespace sim
