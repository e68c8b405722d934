// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadgenerator.h"

#include "objectfactory.h"
#include "priorityadmission.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

namespace sim {

using nlohmann::json;

WorkloadGenerator::WorkloadGenerator(SimState &state) : m_state(state) {}

void WorkloadGenerator::addUser(const std::string &user, const std::string &queue, int gpuQuota)
{
    ObjectStore *store = m_state.store;
    const std::string ns = "user-" + user;
    store->create(
        m_state.namespaces,
        ObjectFactory::namespaceFor(ns, json{{"gpudesk.io/user", user}, {"gpudesk.io/vc", queue}}));
    const ResourceTypes *t = store->types();
    const QString rbac = QStringLiteral("rbac.authorization.k8s.io");
    store->create(t->find({}, QStringLiteral("v1"), QStringLiteral("serviceaccounts")),
                  json{{"metadata", {{"name", "default"}, {"namespace", ns}}}});
    store->create(
        t->find({}, QStringLiteral("v1"), QStringLiteral("serviceaccounts")),
        json{{"metadata",
              {{"name", user}, {"namespace", ns}, {"labels", {{"gpudesk.io/user", user}}}}}});
    store->create(t->find(rbac, QStringLiteral("v1"), QStringLiteral("rolebindings")),
                  json{{"metadata",
                        {{"name", "gpudesk-user"},
                         {"namespace", ns},
                         {"labels", {{"gpudesk.io/user", user}}}}},
                       {"roleRef",
                        {{"apiGroup", rbac.toStdString()},
                         {"kind", "ClusterRole"},
                         {"name", "gpudesk-researcher"}}},
                       {"subjects",
                        {{{"kind", "User"}, {"apiGroup", rbac.toStdString()}, {"name", user}},
                         {{"kind", "ServiceAccount"}, {"name", user}, {"namespace", ns}}}}});
    store->create(t->find({}, QStringLiteral("v1"), QStringLiteral("resourcequotas")),
                  json{{"metadata", {{"name", "gpudesk-quota"}, {"namespace", ns}}},
                       {"spec",
                        {{"hard",
                          {{"requests.nvidia.com/gpu", std::to_string(gpuQuota)},
                           {"requests.cpu", std::to_string(gpuQuota * 12 + 16)},
                           {"requests.memory", std::to_string(gpuQuota * 120 + 64) + "Gi"},
                           {"requests.storage", "1Ti"},
                           {"pods", "50"}}}}}});
    // Default requests, so that a pod that names none is not refused by the quota.
    store->create(t->find({}, QStringLiteral("v1"), QStringLiteral("limitranges")),
                  json{{"metadata", {{"name", "gpudesk-defaults"}, {"namespace", ns}}},
                       {"spec",
                        {{"limits",
                          {{{"type", "Container"},
                            {"defaultRequest", {{"cpu", "1"}, {"memory", "4Gi"}}},
                            {"default", {{"memory", "16Gi"}}}}}}}}});
    // The home volume on the NAS, bound long ago.
    store->create(
        t->find({}, QStringLiteral("v1"), QStringLiteral("persistentvolumeclaims")),
        json{{"metadata",
              {{"name", "home"}, {"namespace", ns}, {"labels", {{"gpudesk.io/user", user}}}}},
             {"spec",
              {{"accessModes", {"ReadWriteMany"}},
               {"storageClassName", "nas"},
               {"volumeName", "pvc-home-" + user},
               {"resources", {{"requests", {{"storage", "200Gi"}}}}}}},
             {"status",
              {{"phase", "Bound"},
               {"accessModes", {"ReadWriteMany"}},
               {"capacity", {{"storage", "200Gi"}}}}}});
}

json WorkloadGenerator::podTemplate(const JobInput &in, const TaskInput &task,
                                    const std::string &role, int gpus) const
{
    PodSpecInput p;
    p.ns = "user-" + in.user;
    p.user = in.user;
    p.name = in.name;
    p.shmSize = in.shmSize;
    p.workspace = in.workspace;
    p.nodeName = in.nodeName;
    ContainerSpec c;
    c.name = role == "launcher" ? "launcher" : "pytorch";
    if (in.devEnv)
        c.name = "devenv";
    c.image = in.image;
    c.gpus = gpus;
    c.migProfile = task.migProfile;
    c.migCount = task.migCount;
    c.cpu = task.cpu;
    c.memory = task.memory;
    if (in.devEnv) {
        for (const auto &[name, port] :
             {std::pair<const char *, int>{"jupyter", 8888}, {"ssh", 22}, {"vscode", 8080}})
            if (m_state.options.devPorts.count(name))
                c.ports.push_back({name, port});
        // Interactive work may burst above its CPU request: the pod is Burstable.
        c.cpuLimit = std::to_string(parseQuantityMilli(task.cpu) * 2) + "m";
        c.command = {"/usr/local/bin/devenv-entrypoint.sh"};
        p.restartPolicy = "Always";
    } else if (role == "launcher") {
        c.command = {"mpirun", "--allow-run-as-root", "-np", "4", "python", "/workspace/train.py"};
        c.gpus = 0;
    } else {
        c.command = in.command.empty()
                        ? std::vector<std::string>{"/bin/bash", "-c", "cd /workspace && ./start.sh"}
                        : in.command;
        c.env = {{"NCCL_DEBUG", "INFO"}, {"PYTHONUNBUFFERED", "1"}};
        c.env.insert(c.env.end(), in.env.begin(), in.env.end());
    }
    p.containers = {c};
    if (in.tolerateA800) {
        // Jobs meant for the A800 nodes select them and tolerate their reservation taint.
        p.tolerations.push_back(json{{"key", "gpudesk.io/reserved"},
                                     {"operator", "Equal"},
                                     {"value", "a800"},
                                     {"effect", "NoSchedule"}});
        p.nodeSelector = json{{"nvidia.com/gpu.product", "NVIDIA A800-SXM4-80GB"}};
    }
    for (const auto &[k, v] : in.nodeSelector.items())
        p.nodeSelector[k] = v;
    json pod = ObjectFactory::pod(p);
    if (in.activeDeadlineSeconds > 0)
        pod["spec"]["activeDeadlineSeconds"] = in.activeDeadlineSeconds;
    // The class, not its number: the API server's admission resolves it.
    if (!in.priorityClass.empty()) {
        pod["spec"].erase("priority");
        pod["spec"].erase("preemptionPolicy");
        pod["spec"]["priorityClassName"] = in.priorityClass;
    }
    return pod;
}

json WorkloadGenerator::createJob(const ResourceType *type, json job, const Behavior &behavior,
                                  const QString &manager)
{
    const auto res = m_state.store->create(type, std::move(job), manager);
    if (!res.ok())
        return {};
    // The job's pods will behave as planned here (see SimState::indexPod).
    m_state.jobBehaviors[(*res.object.object)["metadata"].value("uid", "")] = behavior;
    return *res.object.object;
}

json WorkloadGenerator::submitVolcanoJob(const JobInput &in)
{
    json tasks = json::array();
    int total = 0;
    for (const auto &t : in.tasks) {
        json tmpl = podTemplate(in, t, t.name, t.gpus);
        json task{
            {"name", t.name},
            {"replicas", t.replicas},
            {"template", {{"metadata", {{"labels", {{"app", in.name}}}}}, {"spec", tmpl["spec"]}}}};
        if (!t.policies.empty())
            task["policies"] = t.policies;
        tasks.push_back(task);
        total += t.replicas;
    }
    json job{{"metadata",
              {{"name", in.name},
               {"namespace", "user-" + in.user},
               {"labels", {{"gpudesk.io/user", in.user}}}}},
             {"spec",
              {{"schedulerName", "volcano"},
               {"minAvailable", total},
               {"queue", in.queue},
               {"maxRetry", 3},
               {"policies",
                {{{"event", "PodEvicted"}, {"action", "RestartJob"}},
                 {{"event", "PodFailed"}, {"action", "AbortJob"}}}},
               {"plugins", {{"env", json::array()}, {"svc", json::array()}}},
               {"tasks", tasks}}},
             {"status", {{"state", {{"phase", "Pending"}}}, {"minAvailable", total}}}};
    json created = createJob(m_state.vcjobs, std::move(job), in.behavior, QStringLiteral("vcctl"));
    if (created.is_object())
        for (const auto &t : in.tasks)
            if (t.behavior)
                m_state.taskBehaviors[created["metadata"].value("uid", "") + "/" + t.name] =
                    *t.behavior;
    return created;
}

json WorkloadGenerator::submitPyTorchJob(const JobInput &in)
{
    json specs = json::object();
    const char *roles[] = {"Master", "Worker"};
    for (size_t i = 0; i < in.tasks.size() && i < 2; ++i) {
        json tmpl = podTemplate(in, in.tasks[i], i == 0 ? "master" : "worker", in.tasks[i].gpus);
        specs[roles[i]] = json{{"replicas", in.tasks[i].replicas},
                               {"restartPolicy", "OnFailure"},
                               {"template", {{"spec", tmpl["spec"]}}}};
    }
    int total = 0;
    for (const auto &t : in.tasks)
        total += t.replicas;
    json job{{"metadata",
              {{"name", in.name},
               {"namespace", "user-" + in.user},
               {"labels", {{"gpudesk.io/user", in.user}}}}},
             {"spec",
              {{"runPolicy",
                {{"cleanPodPolicy", "None"},
                 {"schedulingPolicy", {{"queue", in.queue}, {"minAvailable", total}}}}},
               {"pytorchReplicaSpecs", specs}}},
             {"status",
              {{"conditions",
                {condition("Created", "True", m_state.clock->nowRfc3339(), "PyTorchJobCreated",
                           "PyTorchJob " + in.name + " is created.")}}}}};
    return createJob(m_state.pytorchjobs, std::move(job), in.behavior, QStringLiteral("kubectl"));
}

json WorkloadGenerator::submitMpiJob(const JobInput &in)
{
    TaskInput launcher;
    launcher.gpus = 0;
    launcher.cpu = "2";
    launcher.memory = "8Gi";
    json l = podTemplate(in, launcher, "launcher", 0);
    json w = podTemplate(in, in.tasks[0], "worker", in.tasks[0].gpus);
    json job{{"metadata",
              {{"name", in.name},
               {"namespace", "user-" + in.user},
               {"labels", {{"gpudesk.io/user", in.user}}}}},
             {"spec",
              {{"slotsPerWorker", in.tasks[0].gpus},
               {"runPolicy",
                {{"cleanPodPolicy", "Running"}, {"schedulingPolicy", {{"queue", in.queue}}}}},
               {"mpiReplicaSpecs",
                {{"Launcher", {{"replicas", 1}, {"template", {{"spec", l["spec"]}}}}},
                 {"Worker",
                  {{"replicas", in.tasks[0].replicas}, {"template", {{"spec", w["spec"]}}}}}}}}},
             {"status",
              {{"conditions",
                {condition("Created", "True", m_state.clock->nowRfc3339(), "MPIJobCreated",
                           "MPIJob " + in.name + " is created.")}}}}};
    return createJob(m_state.mpijobs, std::move(job), in.behavior, QStringLiteral("kubectl"));
}

json WorkloadGenerator::submitPod(const JobInput &in)
{
    json pod = podTemplate(in, in.tasks.at(0), "pod", in.tasks.at(0).gpus);
    pod["metadata"]["labels"]["volcano.sh/queue-name"] = in.queue;
    for (const auto &[k, v] : in.labels.items())
        pod["metadata"]["labels"][k] = v;
    pod["metadata"]["annotations"]["scheduling.volcano.sh/queue-name"] = in.queue;
    if (in.devEnv) {
        pod["metadata"]["labels"]["gpudesk.io/devenv"] = in.name;
        pod["spec"]["restartPolicy"] = "Always";
    }
    if (PriorityAdmission(m_state.store).admit(pod))
        return {};
    auto res = m_state.store->create(m_state.pods, std::move(pod), QStringLiteral("kubectl"));
    if (!res.ok())
        return {};
    const std::string uid = (*res.object.object)["metadata"].value("uid", "");
    Behavior b = in.behavior;
    b.seed = hashOf(uid);
    m_state.behaviors[uid] = b;
    return *res.object.object;
}

void WorkloadGenerator::generate()
{
    if (m_state.rng() % 120 == 0)
        submitRandomJob();
}

void WorkloadGenerator::submitRandomJob()
{
    // A small job from a mix of users, queues and kinds.
    static const char *users[] = {"alice",    "bob",  "carol", "dave",    "zhangwei", "liuyang",
                                  "wangfang", "lina", "erin",  "chenjie", "frank",    "sunmin"};
    static const char *queues[] = {"nlp", "nlp", "cv",     "cv",     "nlp",     "nlp",
                                   "cv",  "cv",  "speech", "speech", "default", "default"};
    static const char *prefixes[] = {"exp", "sweep", "ablation", "finetune", "eval", "pretrain"};
    static const char *models[] = {"bert",    "llama", "vit",  "resnet",
                                   "whisper", "t5",    "clip", "yolo"};
    std::mt19937_64 &rng = m_state.rng;
    const size_t u = rng() % 12;
    JobInput in;
    in.user = users[u];
    in.queue = queues[u];
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    std::string suffix;
    for (int i = 0; i < 5; ++i)
        suffix += alphabet[rng() % (sizeof alphabet - 1)];
    in.name = std::string(prefixes[rng() % 6]) + "-" + models[rng() % 8] + "-" + suffix;
    in.behavior.runSeconds = 600 + qint64(rng() % 2400);
    in.behavior.fails = rng() % 10 == 0;
    in.behavior.profile = rng() % 6 == 0 ? Profile::Starved : Profile::Train;
    TaskInput t;
    t.gpus = 1 + int(rng() % 2);
    t.cpu = std::to_string(6 * t.gpus);
    t.memory = std::to_string(60 * t.gpus) + "Gi";
    const int kind = int(rng() % 10);
    if (kind < 6) {
        t.replicas = 1 + int(rng() % 2);
        in.tasks = {t};
        submitVolcanoJob(in);
    } else if (kind < 9) {
        TaskInput w = t;
        w.replicas = 1;
        in.tasks = {t, w};
        submitPyTorchJob(in);
    } else {
        in.tasks = {t};
        submitPod(in);
    }
}

void WorkloadGenerator::addChurnablePod(const std::string &ns, const std::string &name)
{
    m_churnablePods.push_back(ns + "/" + name);
}

void WorkloadGenerator::churn(qint64 ms)
{
    if (m_state.options.churn <= 0 || m_churnablePods.empty())
        return;
    ObjectStore *store = m_state.store;
    // What a slice owes is at most a slice's worth (20 ms, 40 at the most): a slice that ran
    // late must not make the next one longer, and that one the next — the debt grew without end,
    // the event loop went to the churn alone, and the watchers' sockets and TLS handshakes
    // starved (the window under churn saw 500 of the 10,000 events a second asked for, while
    // the simulator's memory grew by the events queued for them). A simulator that cannot make
    // the rate makes what it can, and stays an API server.
    const double slice = m_state.options.churn * double(std::min<qint64>(ms, 40)) / 1000.0;
    m_churnCarry = std::min(m_churnCarry + slice, std::max(1.0, slice));
    while (m_churnCarry >= 1.0) {
        m_churnCarry -= 1.0;
        const size_t i = m_state.rng() % m_churnablePods.size();
        const std::string key = m_churnablePods[i];
        const auto slash = key.find('/');
        const QString ns = QString::fromStdString(key.substr(0, slash));
        const QString name = QString::fromStdString(key.substr(slash + 1));
        const auto cur = store->get(m_state.pods, ns, name);
        if (!cur.ok())
            continue;
        const int action = int(m_state.rng() % 3);
        if (action == 0) {
            // Replace: delete and create again, as a job controller would.
            json fresh = *cur.object.object;
            store->remove(m_state.pods, ns, name);
            fresh["metadata"].erase("uid");
            fresh["metadata"].erase("creationTimestamp");
            fresh["metadata"]["creationTimestamp"] = m_state.clock->nowRfc3339();
            store->create(m_state.pods, std::move(fresh), QStringLiteral("churn"));
        } else {
            json changed = *cur.object.object;
            changed["metadata"]["annotations"]["gpudesk-sim/heartbeat"] =
                std::to_string(m_state.clock->nowMs());
            if (action == 2 && changed["status"].contains("containerStatuses"))
                changed["status"]["containerStatuses"][0]["restartCount"] =
                    changed["status"]["containerStatuses"][0].value("restartCount", 0) + 1;
            store->update(m_state.pods, std::move(changed), QStringLiteral("churn"));
        }
    }
}

} // namespace sim
