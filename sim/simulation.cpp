// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulation.h"

#include "nodemachine.h"
#include "objectfactory.h"
#include "simclock.h"

#include <QDateTime>
#include <QLoggingCategory>

#include <algorithm>
#include <cmath>

Q_LOGGING_CATEGORY(lcSim, "gpudesk.sim")

namespace sim {

using nlohmann::json;

namespace {

quint64 hashOf(const std::string &s)
{
    quint64 h = 1469598103934665603ULL;
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ULL;
    return h;
}

qint64 parseMs(const json &v)
{
    if (!v.is_string())
        return 0;
    return QDateTime::fromString(QString::fromStdString(v.get<std::string>()), Qt::ISODate)
        .toMSecsSinceEpoch();
}

std::string userOfNamespace(const std::string &ns)
{
    return ns.rfind("user-", 0) == 0 ? ns.substr(5) : ns;
}

json condition(const std::string &type, const std::string &status, const std::string &time,
               const std::string &reason = {}, const std::string &message = {})
{
    json c{{"type", type},
           {"status", status},
           {"lastTransitionTime", time},
           {"lastProbeTime", nullptr}};
    if (!reason.empty())
        c["reason"] = reason;
    if (!message.empty())
        c["message"] = message;
    return c;
}

void setCondition(json &status, const json &cond)
{
    json &conds = status["conditions"];
    if (!conds.is_array())
        conds = json::array();
    for (auto &c : conds) {
        if (c.value("type", "") == cond["type"]) {
            if (c.value("status", "") == cond["status"] &&
                c.value("message", "") == cond.value("message", ""))
                return;
            c = cond;
            return;
        }
    }
    conds.push_back(cond);
}

std::string containerId(const std::string &uid, const std::string &container, int restart)
{
    char buf[80];
    const quint64 a = hashOf(uid + container + std::to_string(restart));
    const quint64 b = hashOf(container + uid + "x" + std::to_string(restart));
    const quint64 c = hashOf(uid + "c" + container);
    const quint64 d = hashOf("d" + uid + container + std::to_string(restart));
    std::snprintf(buf, sizeof buf, "%016llx%016llx%016llx%016llx",
                  static_cast<unsigned long long>(a), static_cast<unsigned long long>(b),
                  static_cast<unsigned long long>(c), static_cast<unsigned long long>(d));
    return buf;
}

} // namespace

Simulation::Simulation(ObjectStore *store, SimClock *clock, MachineRegistry *machines,
                       SimOptions options, QObject *parent)
    : QObject(parent), m_store(store), m_clock(clock), m_machines(machines),
      m_options(std::move(options)), m_rng(m_options.seed)
{
    const ResourceTypes *t = store->types();
    const QString v1 = QStringLiteral("v1");
    m_pods = t->find({}, v1, QStringLiteral("pods"));
    m_nodes = t->find({}, v1, QStringLiteral("nodes"));
    m_events = t->find({}, v1, QStringLiteral("events"));
    m_namespaces = t->find({}, v1, QStringLiteral("namespaces"));
    m_queues = t->find(QStringLiteral("scheduling.volcano.sh"), QStringLiteral("v1beta1"),
                       QStringLiteral("queues"));
    m_podgroups = t->find(QStringLiteral("scheduling.volcano.sh"), QStringLiteral("v1beta1"),
                          QStringLiteral("podgroups"));
    m_vcjobs = t->find(QStringLiteral("batch.volcano.sh"), QStringLiteral("v1alpha1"),
                       QStringLiteral("jobs"));
    m_pytorchjobs = t->find(QStringLiteral("kubeflow.org"), v1, QStringLiteral("pytorchjobs"));
    m_mpijobs = t->served(QStringLiteral("kubeflow.org"), QStringLiteral("mpijobs"));
    connect(store, &ObjectStore::changed, this, &Simulation::onChanged);
    connect(&m_timer, &QTimer::timeout, this, [this] { step(1000); });
    // Churn in small real-time slices, so 10,000 events a second arrive as a stream, not bursts.
    m_churnTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_churnTimer, &QTimer::timeout, this, [this] { churn(m_churnClock.restart()); });
}

void Simulation::setChurn(double perSecond)
{
    m_options.churn = std::max(0.0, perSecond);
    m_churnCarry = 0;
    if (m_options.churn > 0 && m_static) {
        m_churnClock.start();
        m_churnTimer.start(20);
    } else {
        m_churnTimer.stop();
    }
}

void Simulation::start()
{
    setChurn(m_options.churn);
    if (m_options.speed <= 0)
        return;
    // One simulated second per step; fast speeds step more often.
    m_timer.start(std::max(20, int(1000.0 / m_options.speed)));
}

Behavior Simulation::behaviorOf(const std::string &uid) const
{
    const auto it = m_behaviors.find(uid);
    if (it != m_behaviors.end())
        return it->second;
    Behavior b;
    b.seed = hashOf(uid);
    return b;
}

Behavior Simulation::behaviorForNewPod(const json &pod) const
{
    // A job's pods behave as the job was planned; a pod from a client trains for a while.
    for (const auto &ref : sub(pod["metadata"], "ownerReferences")) {
        const auto it = m_jobBehaviors.find(ref.value("uid", ""));
        if (it != m_jobBehaviors.end()) {
            Behavior b = it->second;
            b.seed = hashOf(pod["metadata"].value("name", "")) ^ b.seed;
            if (sub(pod["metadata"], "labels").value("training.kubeflow.org/replica-type", "") ==
                "launcher")
                b.profile = Profile::Cpu;
            return b;
        }
    }
    Behavior b;
    b.seed = hashOf(pod["metadata"].value("uid", ""));
    b.runSeconds = 1800 + qint64(b.seed % 3600);
    if (sub(pod["metadata"], "labels").contains("gpudesk.io/devenv")) {
        b.profile = Profile::DevEnv;
        b.runSeconds = -1;
    }
    return b;
}

QString Simulation::admit(const ResourceType *type, json &o)
{
    // The defaulting a real API server's admission does for pods.
    if (type != m_pods)
        return {};
    json &spec = o["spec"];
    if (!spec.is_object() || !spec.contains("containers") || !spec["containers"].is_array() ||
        spec["containers"].empty())
        return QStringLiteral("Pod \"%1\" is invalid: spec.containers: Required value")
            .arg(QString::fromStdString(o["metadata"].value("name", "")));
    for (auto &c : spec["containers"]) {
        if (!c.contains("name") || !c.contains("image"))
            return QStringLiteral("Pod \"%1\" is invalid: spec.containers[0].image: Required "
                                  "value")
                .arg(QString::fromStdString(o["metadata"].value("name", "")));
        if (!c.contains("terminationMessagePath"))
            c["terminationMessagePath"] = "/dev/termination-log";
        if (!c.contains("imagePullPolicy"))
            c["imagePullPolicy"] = "IfNotPresent";
        if (!c.contains("resources"))
            c["resources"] = json::object();
    }
    if (!spec.contains("restartPolicy"))
        spec["restartPolicy"] = "Always";
    if (!spec.contains("schedulerName"))
        spec["schedulerName"] = "default-scheduler";
    if (!spec.contains("terminationGracePeriodSeconds"))
        spec["terminationGracePeriodSeconds"] = 30;
    if (!spec.contains("serviceAccountName"))
        spec["serviceAccountName"] = "default";
    if (!spec.contains("dnsPolicy"))
        spec["dnsPolicy"] = "ClusterFirst";
    if (!spec.contains("tolerations"))
        spec["tolerations"] = json::array({json{{"key", "node.kubernetes.io/not-ready"},
                                                {"operator", "Exists"},
                                                {"effect", "NoExecute"},
                                                {"tolerationSeconds", 300}},
                                           json{{"key", "node.kubernetes.io/unreachable"},
                                                {"operator", "Exists"},
                                                {"effect", "NoExecute"},
                                                {"tolerationSeconds", 300}}});
    o["status"] = json{{"phase", "Pending"}, {"qosClass", qosClassOf(spec)}};
    return {};
}

void Simulation::onChanged(const ResourceType *type, const WatchEvent &ev)
{
    if (type != m_pods)
        return;
    const json &p = *ev.object.object;
    const std::string uid = p["metadata"].value("uid", "");
    if (ev.type == "DELETED") {
        auto it = m_podInfo.find(uid);
        if (it != m_podInfo.end()) {
            const Behavior b = behaviorOf(uid);
            if (b.hung && it->second.running && !it->second.node.empty()) {
                // Its containers never died: their GPU processes outlive the pod.
                m_machines->edit(it->second.node, [&](NodeMachine &m) {
                    for (auto &proc : m.processes) {
                        if (proc.podUid == uid)
                            proc.orphan = true;
                    }
                });
            }
            m_podsOnNode[it->second.node].erase(uid);
            m_podInfo.erase(it);
        }
        m_behaviors.erase(uid);
        m_nextRestart.erase(uid);
        m_lastSchedulingEvent.erase(uid);
        return;
    }
    if (!m_behaviors.count(uid))
        m_behaviors[uid] = behaviorForNewPod(p);
    PodInfo &info = m_podInfo[uid];
    const std::string node = p["spec"].value("nodeName", "");
    if (info.node != node) {
        m_podsOnNode[info.node].erase(uid);
        m_podsOnNode[node].insert(uid);
    }
    info.ns = p["metadata"].value("namespace", "");
    info.name = p["metadata"].value("name", "");
    info.node = node;
    info.phase = sub(p, "status").value("phase", "Pending");
    info.deleting = p["metadata"].contains("deletionTimestamp");
    info.queue = sub(p["metadata"], "labels").value("volcano.sh/queue-name", "");
    info.devEnv = sub(p["metadata"], "labels").contains("gpudesk.io/devenv");
    info.podIp = sub(p, "status").value("podIP", "");
    info.qosClass = sub(p, "status").value("qosClass", "BestEffort");
    const Resources r = podRequests(p);
    info.gpus = int(r.gpus);
    info.cpuMilli = r.cpuMilli;
    info.memoryBytes = r.memoryBytes;
    info.running = false;
    for (const auto &cs : sub(sub(p, "status"), "containerStatuses"))
        info.running |= sub(cs, "state").contains("running");
    const bool terminated = info.phase == "Succeeded" || info.phase == "Failed";
    if (terminated)
        info.cards.clear();
    else if (!node.empty() && info.cards.empty() && info.gpus > 0)
        assignCards(uid, info);
}

void Simulation::assignCards(const std::string &uid, PodInfo &info)
{
    // The device plugin hands out the lowest free card indexes.
    std::set<int> taken;
    for (const auto &other : m_podsOnNode[info.node]) {
        if (other == uid)
            continue;
        const auto it = m_podInfo.find(other);
        if (it != m_podInfo.end())
            taken.insert(it->second.cards.begin(), it->second.cards.end());
    }
    const auto machine = m_machines->snapshot(info.node);
    const int total = machine ? int(machine->cards.size()) : 0;
    for (int i = 0; i < total && int(info.cards.size()) < info.gpus; ++i) {
        if (!taken.count(i))
            info.cards.push_back(i);
    }
}

json Simulation::objectRef(const ResourceType *type, const std::string &ns,
                           const std::string &name) const
{
    const auto res = m_store->get(type, QString::fromStdString(ns), QString::fromStdString(name));
    json ref{{"kind", type->kind.toStdString()}, {"name", name}};
    if (!ns.empty())
        ref["namespace"] = ns;
    if (res.ok())
        ref["uid"] = (*res.object.object)["metadata"].value("uid", "");
    return ref;
}

void Simulation::recordEvent(const json &involved, const std::string &ns, const std::string &type,
                             const std::string &reason, const std::string &message,
                             const std::string &component, const std::string &host)
{
    const std::string eventNs = ns.empty() ? "default" : ns;
    // Repeats are aggregated into one Event with a count, as the kubelet and scheduler do.
    const std::string key =
        involved.value("uid", involved.value("name", "")) + '\x1f' + reason + '\x1f' + message;
    const auto known = m_eventNames.find(key);
    if (known != m_eventNames.end()) {
        const auto cur = m_store->get(m_events, QString::fromStdString(eventNs),
                                      QString::fromStdString(known->second));
        if (cur.ok()) {
            json ev = *cur.object.object;
            ev["count"] = ev.value("count", 1) + 1;
            ev["lastTimestamp"] = m_clock->nowRfc3339();
            m_store->update(m_events, std::move(ev), QString::fromStdString(component));
            return;
        }
    }
    char suffix[20];
    std::snprintf(suffix, sizeof suffix, "%016llx",
                  static_cast<unsigned long long>(hashOf(std::to_string(++m_eventCounter)) >> 4));
    json ev = ObjectFactory::event(eventNs, involved, type, reason, message, component, host,
                                   m_clock->nowRfc3339());
    const std::string name = involved.value("name", "object") + "." + suffix;
    ev["metadata"]["name"] = name;
    if (m_store->create(m_events, std::move(ev), QString::fromStdString(component)).ok())
        m_eventNames[key] = name;
}

void Simulation::addUser(const std::string &user, const std::string &queue, int gpuQuota)
{
    const std::string ns = "user-" + user;
    m_store->create(m_namespaces, ObjectFactory::namespaceFor(ns, json{{"gpudesk.io/user", user},
                                                                       {"gpudesk.io/vc", queue}}));
    const ResourceTypes *t = m_store->types();
    const QString rbac = QStringLiteral("rbac.authorization.k8s.io");
    m_store->create(t->find({}, QStringLiteral("v1"), QStringLiteral("serviceaccounts")),
                    json{{"metadata", {{"name", "default"}, {"namespace", ns}}}});
    m_store->create(
        t->find({}, QStringLiteral("v1"), QStringLiteral("serviceaccounts")),
        json{{"metadata",
              {{"name", user}, {"namespace", ns}, {"labels", {{"gpudesk.io/user", user}}}}}});
    m_store->create(t->find(rbac, QStringLiteral("v1"), QStringLiteral("rolebindings")),
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
    m_store->create(t->find({}, QStringLiteral("v1"), QStringLiteral("resourcequotas")),
                    json{{"metadata", {{"name", "gpudesk-quota"}, {"namespace", ns}}},
                         {"spec",
                          {{"hard",
                            {{"requests.nvidia.com/gpu", std::to_string(gpuQuota)},
                             {"requests.cpu", std::to_string(gpuQuota * 12 + 16)},
                             {"requests.memory", std::to_string(gpuQuota * 120 + 64) + "Gi"},
                             {"pods", "50"}}}}}});
}

void Simulation::addNodeMachine(const json &node, const std::string &cgroupStyle)
{
    NodeMachine m;
    m.name = node["metadata"].value("name", "");
    m.hostname = m.name;
    m.gpuProduct = node["metadata"]["labels"].value("nvidia.com/gpu.product", "");
    const bool a800 = m.gpuProduct.find("A800") != std::string::npos;
    const int gpus = int(nodeAllocatable(node).gpus);
    m.memoryTotalMiB = a800 ? 81920 : 24564;
    m.powerLimit = a800 ? 400.0 : 450.0;
    m.idlePower = a800 ? 62.0 : 28.0;
    m.eccSupported = a800;
    m.driverVersion = a800 ? "535.129.03" : "550.54.15";
    m.cudaVersion = a800 ? "12.2" : "12.4";
    m.kernel = "5.15.0-91-generic";
    m.cpus = int(parseQuantityMilli(node["status"]["capacity"]["cpu"]) / 1000);
    m.memTotalKb = parseQuantityBytes(node["status"]["capacity"]["memory"]) / 1024;
    m.memAvailableKb = m.memTotalKb * 9 / 10;
    m.cgroupStyle = cgroupStyle;
    const quint64 h = hashOf(m.name);
    for (int i = 0; i < gpus; ++i) {
        GpuCard c;
        c.index = i;
        char uuid[64];
        const quint64 a = hashOf(m.name + "#" + std::to_string(i));
        std::snprintf(uuid, sizeof uuid, "GPU-%08x-%04x-%04x-%04x-%012llx", unsigned(a >> 32),
                      unsigned((a >> 16) & 0xffff), unsigned(a & 0xffff),
                      unsigned((h >> 8) & 0xffff),
                      static_cast<unsigned long long>((a ^ h) & 0xffffffffffffULL));
        c.uuid = uuid;
        static const char *buses[] = {"18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"};
        c.busId = std::string("00000000:") + buses[i % 8] + ":00.0";
        c.temperature = 31 + int((a >> 5) % 6);
        c.powerDraw = m.idlePower + double((a >> 9) % 900) / 100.0;
        m.cards.push_back(c);
    }
    const bool docker = cgroupStyle.find("docker") != std::string::npos;
    m.disks = {{"/dev/nvme0n1p2", "/", 959786032, 393512273},
               {"/dev/nvme1n1", docker ? "/var/lib/docker" : "/var/lib/containerd", 1875382960,
                1031460628},
               {"nas.lab.internal:/export", "/mnt/nas", 107374182400, 61203283968}};
    m.cpuTicks[3] = quint64(m.cpus) * 100 * 86400 * 12; // up twelve days, mostly idle
    m.cpuTicks[0] = quint64(m.cpus) * 100 * 86400 * 3;
    m.cpuTicks[2] = quint64(m.cpus) * 100 * 86400 / 2;
    m.lastPid = 40000 + int(h % 20000);
    m.uptimeSecs = 15.5 * 86400 + double(h % 86400);
    m_machines->put(m);
    m_nodeIndex[m.name] = int(m_nodeIndex.size()) + 1;
}

std::string Simulation::podIpFor(const std::string &node)
{
    const int n = ++m_podIpCounter[node];
    return "10.244." + std::to_string(m_nodeIndex[node] % 256) + "." +
           std::to_string(2 + (n - 1) % 250);
}

json Simulation::podTemplate(const JobInput &in, const TaskInput &task, const std::string &role,
                             int gpus) const
{
    PodSpecInput p;
    p.ns = "user-" + in.user;
    p.user = in.user;
    p.name = in.name;
    p.shmSize = in.shmSize;
    p.nodeName = in.nodeName;
    ContainerSpec c;
    c.name = role == "launcher" ? "launcher" : "pytorch";
    if (in.devEnv)
        c.name = "devenv";
    c.image = in.image;
    c.gpus = gpus;
    c.cpu = task.cpu;
    c.memory = task.memory;
    if (in.devEnv) {
        c.ports = {{"jupyter", 8888}, {"ssh", 22}, {"vscode", 8080}};
        // Interactive work may burst above its CPU request: the pod is Burstable.
        c.cpuLimit = std::to_string(parseQuantityMilli(task.cpu) * 2) + "m";
        c.command = {"/usr/local/bin/devenv-entrypoint.sh"};
        p.restartPolicy = "Always";
    } else if (role == "launcher") {
        c.command = {"mpirun", "--allow-run-as-root", "-np", "4", "python", "/workspace/train.py"};
        c.gpus = 0;
    } else {
        c.command = {"/bin/bash", "-c", "cd /workspace && ./start.sh"};
        c.env = {{"NCCL_DEBUG", "INFO"}, {"PYTHONUNBUFFERED", "1"}};
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
    return ObjectFactory::pod(p);
}

json Simulation::submitVolcanoJob(const JobInput &in)
{
    json tasks = json::array();
    int total = 0;
    for (const auto &t : in.tasks) {
        json tmpl = podTemplate(in, t, t.name, t.gpus);
        tasks.push_back(
            json{{"name", t.name},
                 {"replicas", t.replicas},
                 {"template",
                  {{"metadata", {{"labels", {{"app", in.name}}}}}, {"spec", tmpl["spec"]}}}});
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
    return createJob(m_vcjobs, std::move(job), in.behavior, QStringLiteral("vcctl"));
}

json Simulation::createJob(const ResourceType *type, json job, const Behavior &behavior,
                           const QString &manager)
{
    const auto res = m_store->create(type, std::move(job), manager);
    if (!res.ok())
        return {};
    // The job's pods will behave as planned here (see behaviorForNewPod).
    m_jobBehaviors[(*res.object.object)["metadata"].value("uid", "")] = behavior;
    return *res.object.object;
}

json Simulation::submitPyTorchJob(const JobInput &in)
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
                {condition("Created", "True", m_clock->nowRfc3339(), "PyTorchJobCreated",
                           "PyTorchJob " + in.name + " is created.")}}}}};
    return createJob(m_pytorchjobs, std::move(job), in.behavior, QStringLiteral("kubectl"));
}

json Simulation::submitMpiJob(const JobInput &in)
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
                {condition("Created", "True", m_clock->nowRfc3339(), "MPIJobCreated",
                           "MPIJob " + in.name + " is created.")}}}}};
    return createJob(m_mpijobs, std::move(job), in.behavior, QStringLiteral("kubectl"));
}

json Simulation::submitPod(const JobInput &in)
{
    json pod = podTemplate(in, in.tasks.at(0), "pod", in.tasks.at(0).gpus);
    pod["metadata"]["labels"]["volcano.sh/queue-name"] = in.queue;
    pod["metadata"]["annotations"]["scheduling.volcano.sh/queue-name"] = in.queue;
    if (in.devEnv) {
        pod["metadata"]["labels"]["gpudesk.io/devenv"] = in.name;
        pod["spec"]["restartPolicy"] = "Always";
    }
    auto res = m_store->create(m_pods, std::move(pod), QStringLiteral("kubectl"));
    if (!res.ok())
        return {};
    const std::string uid = (*res.object.object)["metadata"].value("uid", "");
    Behavior b = in.behavior;
    b.seed = hashOf(uid);
    m_behaviors[uid] = b;
    return *res.object.object;
}

int Simulation::queueAllocated(const std::string &queue) const
{
    int n = 0;
    for (const auto &[uid, info] : m_podInfo) {
        if (info.queue == queue && !info.node.empty() && info.phase != "Succeeded" &&
            info.phase != "Failed")
            n += info.gpus;
    }
    return n;
}

bool Simulation::enqueue(const json &pg, int demand, std::string *why)
{
    const std::string queue = pg["spec"].value("queue", "default");
    const auto q = m_store->get(m_queues, {}, QString::fromStdString(queue));
    if (!q.ok()) {
        *why = "queue " + queue + " does not exist";
        return false;
    }
    const json cap = sub((*q.object.object)["spec"], "capability");
    if (!cap.contains("nvidia.com/gpu"))
        return true;
    const qint64 capacity = parseQuantityMilli(cap["nvidia.com/gpu"]) / 1000;
    // Admitted but not yet bound gangs count against the queue too.
    int admitted = 0;
    for (const auto &other : m_store->list(m_podgroups)) {
        const json &o = *other.object;
        if (o["spec"].value("queue", "") == queue &&
            sub(o, "status").value("phase", "") == "Inqueue")
            admitted += int(parseQuantityMilli(
                                sub(o["spec"], "minResources").value("nvidia.com/gpu", json("0"))) /
                            1000);
    }
    const int allocated = queueAllocated(queue);
    if (allocated + admitted + demand <= capacity)
        return true;
    *why = "queue resource quota insufficient: queue " + queue + " capability nvidia.com/gpu " +
           std::to_string(capacity) + ", allocated " + std::to_string(allocated + admitted) +
           ", requested " + std::to_string(demand);
    return false;
}

void Simulation::ensurePodGroup(const json &job, const std::string &pgName,
                                const std::string &queue, int minMember, int gpus)
{
    const std::string ns = job["metadata"].value("namespace", "");
    if (m_store->get(m_podgroups, QString::fromStdString(ns), QString::fromStdString(pgName)).ok())
        return;
    json pg{{"metadata",
             {{"name", pgName},
              {"namespace", ns},
              {"ownerReferences",
               {ObjectFactory::ownerRef(job.value("apiVersion", ""), job.value("kind", ""),
                                        job["metadata"].value("name", ""),
                                        job["metadata"].value("uid", ""))}}}},
            {"spec",
             {{"minMember", minMember},
              {"queue", queue},
              {"minResources", {{"nvidia.com/gpu", std::to_string(gpus)}}}}},
            {"status", {{"phase", "Pending"}}}};
    m_store->create(m_podgroups, std::move(pg), QStringLiteral("vc-controller-manager"));
}

void Simulation::createJobPods(const json &job, const std::vector<json> &pods)
{
    for (const auto &p : pods) {
        const auto exists =
            m_store->get(m_pods, QString::fromStdString(p["metadata"].value("namespace", "")),
                         QString::fromStdString(p["metadata"].value("name", "")));
        if (exists.ok())
            continue;
        const auto res = m_store->create(m_pods, p, QStringLiteral("vc-controller-manager"));
        if (res.ok())
            recordEvent(
                objectRef(
                    m_store->types()->byKind(QString::fromStdString(job.value("apiVersion", "")),
                                             QString::fromStdString(job.value("kind", ""))),
                    job["metadata"].value("namespace", ""), job["metadata"].value("name", "")),
                job["metadata"].value("namespace", ""), "Normal", "SuccessfulCreate",
                "Created pod: " + p["metadata"].value("name", ""), "vc-controller-manager", "");
    }
}

void Simulation::reconcileVolcanoJobs()
{
    for (const auto &stored : m_store->list(m_vcjobs)) {
        const json &job = *stored.object;
        const std::string ns = job["metadata"].value("namespace", "");
        const std::string name = job["metadata"].value("name", "");
        const std::string uid = job["metadata"].value("uid", "");
        const std::string phase = sub(sub(job, "status"), "state").value("phase", "Pending");
        if (phase == "Completed" || phase == "Failed" || phase == "Aborted")
            continue;
        const std::string queue = job["spec"].value("queue", "default");
        const std::string pgName = name + "-" + uid;
        int gpus = 0;
        int total = 0;
        std::vector<std::string> podNames;
        for (const auto &t : sub(job["spec"], "tasks")) {
            const int replicas = t.value("replicas", 1);
            const Resources r = specRequests(sub(sub(t, "template"), "spec"));
            for (int i = 0; i < replicas; ++i) {
                podNames.push_back(name + "-" + t.value("name", "task") + "-" + std::to_string(i));
                gpus += int(r.gpus);
                ++total;
            }
        }
        // The pods themselves are built only when some are missing.
        auto makePods = [&] {
            std::vector<json> pods;
            for (const auto &t : sub(job["spec"], "tasks")) {
                const int replicas = t.value("replicas", 1);
                for (int i = 0; i < replicas; ++i) {
                    json pod{{"apiVersion", "v1"}, {"kind", "Pod"}};
                    const std::string podName =
                        name + "-" + t.value("name", "task") + "-" + std::to_string(i);
                    pod["metadata"] = {
                        {"name", podName},
                        {"namespace", ns},
                        {"labels",
                         {{"volcano.sh/job-name", name},
                          {"volcano.sh/job-namespace", ns},
                          {"volcano.sh/queue-name", queue},
                          {"volcano.sh/task-spec", t.value("name", "task")},
                          {"volcano.sh/job-retry-count", "0"}}},
                        {"annotations",
                         {{"scheduling.k8s.io/group-name", pgName},
                          {"volcano.sh/job-name", name},
                          {"volcano.sh/job-version", "0"},
                          {"volcano.sh/queue-name", queue},
                          {"volcano.sh/task-spec", t.value("name", "task")},
                          {"volcano.sh/task-index", std::to_string(i)}}},
                        {"ownerReferences",
                         {ObjectFactory::ownerRef("batch.volcano.sh/v1alpha1", "Job", name, uid)}}};
                    const json tmplLabels = sub(sub(sub(t, "template"), "metadata"), "labels");
                    for (const auto &[k, v] : tmplLabels.items())
                        pod["metadata"]["labels"][k] = v;
                    pod["spec"] = t["template"]["spec"];
                    pod["spec"]["hostname"] = podName;
                    pod["spec"]["subdomain"] = name;
                    pod["status"] = {{"phase", "Pending"}, {"qosClass", qosClassOf(pod["spec"])}};
                    pods.push_back(std::move(pod));
                }
            }
            return pods;
        };
        ensurePodGroup(job, pgName, queue, job["spec"].value("minAvailable", total), gpus);
        const auto pgRes =
            m_store->get(m_podgroups, QString::fromStdString(ns), QString::fromStdString(pgName));
        if (!pgRes.ok())
            continue;
        json pg = *pgRes.object.object;
        std::string pgPhase = sub(pg, "status").value("phase", "Pending");
        if (pgPhase == "Pending") {
            std::string why;
            if (enqueue(pg, gpus, &why)) {
                pg["status"]["phase"] = "Inqueue";
                pg["status"]["conditions"] = json::array();
                m_store->update(m_podgroups, pg);
                pgPhase = "Inqueue";
            } else {
                json status = pg["status"];
                const size_t before = status.dump().size();
                setCondition(status, condition("Unschedulable", "True", m_clock->nowRfc3339(),
                                               "NotEnoughResources", why));
                if (status.dump().size() != before || pg["status"] != status) {
                    pg["status"] = status;
                    m_store->update(m_podgroups, pg);
                    recordEvent(objectRef(m_podgroups, ns, pgName), ns, "Warning", "Unschedulable",
                                why, "volcano", "");
                }
            }
        }
        if (pgPhase == "Inqueue" || pgPhase == "Running") {
            bool missing = false;
            for (const auto &podName : podNames)
                missing |=
                    !m_store
                         ->get(m_pods, QString::fromStdString(ns), QString::fromStdString(podName))
                         .ok();
            if (missing)
                createJobPods(job, makePods());
        }
        // Status from the pods.
        int pending = 0, running = 0, succeeded = 0, failed = 0;
        for (const auto &podName : podNames) {
            const auto live =
                m_store->get(m_pods, QString::fromStdString(ns), QString::fromStdString(podName));
            if (!live.ok())
                continue;
            const std::string ph = sub((*live.object.object), "status").value("phase", "");
            pending += ph == "Pending";
            running += ph == "Running";
            succeeded += ph == "Succeeded";
            failed += ph == "Failed";
        }
        std::string newPhase = "Pending";
        if (failed > 0)
            newPhase = "Failed";
        else if (succeeded == total && total > 0)
            newPhase = "Completed";
        else if (running + succeeded >= job["spec"].value("minAvailable", total) && running > 0)
            newPhase = "Running";
        json updated = job;
        updated["status"]["pending"] = pending;
        updated["status"]["running"] = running;
        updated["status"]["succeeded"] = succeeded;
        updated["status"]["failed"] = failed;
        updated["status"]["minAvailable"] = job["spec"].value("minAvailable", total);
        if (updated["status"]["state"].value("phase", "") != newPhase) {
            updated["status"]["state"] = {{"phase", newPhase},
                                          {"lastTransitionTime", m_clock->nowRfc3339()}};
            if (newPhase == "Running" && !updated["status"].contains("runningDuration"))
                updated["status"]["runningDuration"] = "0s";
        }
        if (updated != job)
            m_store->update(m_vcjobs, updated);
        if ((newPhase == "Running" && pgPhase == "Inqueue") ||
            ((newPhase == "Completed" || newPhase == "Failed") && pgPhase != "Completed")) {
            pg = *m_store
                      ->get(m_podgroups, QString::fromStdString(ns), QString::fromStdString(pgName))
                      .object.object;
            pg["status"]["phase"] = newPhase == "Running" ? "Running" : "Completed";
            pg["status"]["running"] = running;
            pg["status"]["succeeded"] = succeeded;
            pg["status"]["failed"] = failed;
            m_store->update(m_podgroups, pg);
        }
    }
}

void Simulation::reconcileKubeflowJobs(const ResourceType *type)
{
    const bool mpi = type == m_mpijobs;
    for (const auto &stored : m_store->list(type)) {
        const json &job = *stored.object;
        const json conds = sub(sub(job, "status"), "conditions");
        bool done = false;
        for (const auto &c : conds)
            done |= (c.value("type", "") == "Succeeded" || c.value("type", "") == "Failed") &&
                    c.value("status", "") == "True";
        if (done)
            continue;
        const std::string ns = job["metadata"].value("namespace", "");
        const std::string name = job["metadata"].value("name", "");
        const std::string uid = job["metadata"].value("uid", "");
        const json runPolicy = sub(job["spec"], "runPolicy");
        const std::string queue = sub(runPolicy, "schedulingPolicy").value("queue", "default");
        const json specs =
            job["spec"].value(mpi ? "mpiReplicaSpecs" : "pytorchReplicaSpecs", json::object());
        std::vector<json> pods;
        int gpus = 0;
        int worldSize = 0;
        for (const auto &[role, rs] : specs.items())
            worldSize += role == "Launcher" ? 0 : rs.value("replicas", 1);
        int rank = 0;
        for (const char *role : {"Master", "Launcher", "Worker"}) {
            if (!specs.contains(role))
                continue;
            const json &rs = specs[role];
            std::string lower = role;
            std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
            for (int i = 0; i < rs.value("replicas", 1); ++i) {
                const std::string podName = mpi && lower == "launcher"
                                                ? name + "-launcher"
                                                : name + "-" + lower + "-" + std::to_string(i);
                json pod{{"apiVersion", "v1"}, {"kind", "Pod"}};
                pod["metadata"] = {
                    {"name", podName},
                    {"namespace", ns},
                    {"labels",
                     {{"training.kubeflow.org/job-name", name},
                      {"training.kubeflow.org/operator-name",
                       mpi ? "mpijob-controller" : "pytorchjob-controller"},
                      {"training.kubeflow.org/replica-type", lower},
                      {"training.kubeflow.org/replica-index", std::to_string(i)},
                      {"volcano.sh/queue-name", queue}}},
                    {"annotations",
                     {{"scheduling.k8s.io/group-name", name},
                      {"scheduling.volcano.sh/queue-name", queue}}},
                    {"ownerReferences",
                     {ObjectFactory::ownerRef(type->apiVersion().toStdString(),
                                              type->kind.toStdString(), name, uid)}}};
                if (lower == "master")
                    pod["metadata"]["labels"]["training.kubeflow.org/job-role"] = "master";
                pod["spec"] = rs["template"]["spec"];
                pod["spec"]["restartPolicy"] =
                    rs.value("restartPolicy", "OnFailure") == "Always" ? "Always" : "OnFailure";
                if (!mpi) {
                    for (auto &c : pod["spec"]["containers"]) {
                        c["env"].push_back(
                            {{"name", "MASTER_ADDR"}, {"value", name + "-master-0"}});
                        c["env"].push_back({{"name", "MASTER_PORT"}, {"value", "23456"}});
                        c["env"].push_back(
                            {{"name", "WORLD_SIZE"}, {"value", std::to_string(worldSize)}});
                        c["env"].push_back({{"name", "RANK"}, {"value", std::to_string(rank)}});
                    }
                }
                ++rank;
                pod["status"] = {{"phase", "Pending"}, {"qosClass", qosClassOf(pod["spec"])}};
                gpus += int(podRequests(pod).gpus);
                pods.push_back(std::move(pod));
            }
        }
        ensurePodGroup(job, name, queue, int(pods.size()), gpus);
        const auto pgRes =
            m_store->get(m_podgroups, QString::fromStdString(ns), QString::fromStdString(name));
        if (!pgRes.ok())
            continue;
        json pg = *pgRes.object.object;
        std::string pgPhase = sub(pg, "status").value("phase", "Pending");
        if (pgPhase == "Pending") {
            std::string why;
            if (enqueue(pg, gpus, &why)) {
                pg["status"]["phase"] = "Inqueue";
                m_store->update(m_podgroups, pg);
                pgPhase = "Inqueue";
            }
        }
        if (pgPhase == "Inqueue" || pgPhase == "Running")
            createJobPods(job, pods);
        int running = 0, succeeded = 0, failed = 0;
        bool masterSucceeded = false;
        json replicaStatuses = json::object();
        for (const auto &p : pods) {
            const auto live = m_store->get(m_pods, QString::fromStdString(ns),
                                           QString::fromStdString(p["metadata"].value("name", "")));
            if (!live.ok())
                continue;
            const std::string ph = sub((*live.object.object), "status").value("phase", "");
            std::string role =
                p["metadata"]["labels"].value("training.kubeflow.org/replica-type", "");
            if (!role.empty())
                role[0] = char(std::toupper(static_cast<unsigned char>(role[0])));
            json &rs = replicaStatuses[role];
            if (rs.is_null())
                rs = json::object();
            if (ph == "Running") {
                ++running;
                rs["active"] = rs.value("active", 0) + 1;
            } else if (ph == "Succeeded") {
                ++succeeded;
                rs["succeeded"] = rs.value("succeeded", 0) + 1;
                if (role == "Master" || role == "Launcher")
                    masterSucceeded = true;
            } else if (ph == "Failed") {
                ++failed;
                rs["failed"] = rs.value("failed", 0) + 1;
            }
        }
        json updated = job;
        json &status = updated["status"];
        status["replicaStatuses"] = replicaStatuses;
        const std::string kind = type->kind.toStdString();
        const std::string now = m_clock->nowRfc3339();
        if (failed > 0) {
            setCondition(status, condition("Running", "False", now, kind + "Failed", ""));
            setCondition(status, condition("Failed", "True", now, kind + "Failed",
                                           kind + " " + ns + "/" + name + " has failed because " +
                                               std::to_string(failed) + " replica(s) failed."));
            status["completionTime"] = now;
        } else if (masterSucceeded && (mpi || succeeded == int(pods.size()) || succeeded > 0)) {
            setCondition(status, condition("Running", "False", now, kind + "Succeeded", ""));
            setCondition(status,
                         condition("Succeeded", "True", now, kind + "Succeeded",
                                   kind + " " + ns + "/" + name + " successfully completed."));
            status["completionTime"] = now;
        } else if (running == int(pods.size()) && running > 0) {
            setCondition(status, condition("Running", "True", now, kind + "Running",
                                           kind + " " + ns + "/" + name + " is running."));
            if (!status.contains("startTime"))
                status["startTime"] = now;
        }
        if (updated != job)
            m_store->update(type, updated);
        if (running == int(pods.size()) && running > 0 && pgPhase == "Inqueue") {
            pg["status"]["phase"] = "Running";
            pg["status"]["running"] = running;
            m_store->update(m_podgroups, pg);
        } else if ((failed > 0 || masterSucceeded) && pgPhase != "Completed") {
            pg =
                *m_store->get(m_podgroups, QString::fromStdString(ns), QString::fromStdString(name))
                     .object.object;
            pg["status"]["phase"] = "Completed";
            m_store->update(m_podgroups, pg);
        }
    }
}

void Simulation::schedulePods()
{
    std::vector<StoredObject> nodeObjs = m_store->list(m_nodes);
    std::vector<StoredObject> podObjs = m_store->list(m_pods);
    std::vector<const json *> nodes, pods;
    for (const auto &n : nodeObjs)
        nodes.push_back(n.object.get());
    for (const auto &p : podObjs)
        pods.push_back(p.object.get());
    Scheduler scheduler;
    scheduler.load(nodes, pods);
    // Pending pods, oldest first, gathered into gangs by PodGroup.
    std::vector<const json *> pending;
    for (const json *p : pods) {
        if (!(*p)["spec"].contains("nodeName") && !Scheduler::isTerminated(*p) &&
            !(*p)["metadata"].contains("deletionTimestamp"))
            pending.push_back(p);
    }
    std::stable_sort(pending.begin(), pending.end(), [](const json *a, const json *b) {
        return (*a)["metadata"].value("creationTimestamp", "") <
               (*b)["metadata"].value("creationTimestamp", "");
    });
    std::set<std::string> doneGroups;
    const std::string now = m_clock->nowRfc3339();
    for (const json *p : pending) {
        const std::string ns = (*p)["metadata"].value("namespace", "");
        const std::string group =
            sub((*p)["metadata"], "annotations").value("scheduling.k8s.io/group-name", "");
        std::vector<const json *> gang{p};
        if (!group.empty()) {
            if (doneGroups.count(ns + "/" + group))
                continue;
            doneGroups.insert(ns + "/" + group);
            gang.clear();
            for (const json *q : pending) {
                if ((*q)["metadata"].value("namespace", "") == ns &&
                    sub((*q)["metadata"], "annotations")
                            .value("scheduling.k8s.io/group-name", "") == group)
                    gang.push_back(q);
            }
            const auto pg = m_store->get(m_podgroups, QString::fromStdString(ns),
                                         QString::fromStdString(group));
            if (pg.ok()) {
                const std::string ph = sub((*pg.object.object), "status").value("phase", "");
                if (ph != "Inqueue" && ph != "Running")
                    continue;
            }
        }
        std::string message;
        const auto chosen = scheduler.place(gang, &message);
        for (size_t i = 0; i < gang.size(); ++i) {
            json pod = *gang[i];
            const std::string name = pod["metadata"].value("name", "");
            const std::string uid = pod["metadata"].value("uid", "");
            if (!chosen.empty()) {
                pod["spec"]["nodeName"] = chosen[i];
                setCondition(pod["status"], condition("PodScheduled", "True", now));
                m_store->update(m_pods, pod, QStringLiteral("default-scheduler"));
                recordEvent(objectRef(m_pods, ns, name), ns, "Normal", "Scheduled",
                            "Successfully assigned " + ns + "/" + name + " to " + chosen[i],
                            "default-scheduler", "");
                m_lastSchedulingEvent.erase(uid);
            } else {
                setCondition(pod["status"],
                             condition("PodScheduled", "False", now, "Unschedulable", message));
                m_store->update(m_pods, pod, QStringLiteral("default-scheduler"));
                // One event per message, repeated at most once a minute (as aggregation does).
                auto &last = m_lastSchedulingEvent[uid];
                if (last.first != message || m_clock->nowMs() - last.second >= 60000) {
                    recordEvent(objectRef(m_pods, ns, name), ns, "Warning", "FailedScheduling",
                                message, "default-scheduler", "");
                    last = {message, m_clock->nowMs()};
                }
            }
        }
    }
}

void Simulation::runKubelets()
{
    const qint64 nowMs = m_clock->nowMs();
    const std::string now = m_clock->nowRfc3339();
    std::map<std::string, bool> nodeReady;
    for (const auto &n : m_store->list(m_nodes)) {
        bool ready = false;
        for (const auto &c : sub((*n.object)["status"], "conditions"))
            ready |= c.value("type", "") == "Ready" && c.value("status", "") == "True";
        nodeReady[(*n.object)["metadata"].value("name", "")] = ready;
    }
    for (const auto &stored : m_store->list(m_pods)) {
        const json &cur = *stored.object;
        const std::string node = cur["spec"].value("nodeName", "");
        if (node.empty() || !nodeReady[node])
            continue;
        const std::string ns = cur["metadata"].value("namespace", "");
        const std::string name = cur["metadata"].value("name", "");
        const std::string uid = cur["metadata"].value("uid", "");
        const Behavior b = behaviorOf(uid);
        const std::string phase = sub(cur, "status").value("phase", "Pending");
        if (cur["metadata"].contains("deletionTimestamp")) {
            if (b.hung)
                continue;
            const qint64 grace = cur["metadata"].value("deletionGracePeriodSeconds", 30);
            const qint64 requested = parseMs(cur["metadata"]["deletionTimestamp"]) - grace * 1000;
            if (nowMs >= requested + std::min<qint64>(grace, 2) * 1000)
                m_store->remove(m_pods, QString::fromStdString(ns), QString::fromStdString(name));
            continue;
        }
        if (phase == "Succeeded" || phase == "Failed")
            continue;
        if (sub(cur, "status").contains("containerStatuses") && b.profile != Profile::ImagePull &&
            b.profile != Profile::CrashSymlink && (b.runSeconds < 0 || phase != "Running"))
            continue; // nothing will change for this pod now
        json pod = cur;
        json &status = pod["status"];
        qint64 scheduledAt = 0;
        for (const auto &c : sub(status, "conditions")) {
            if (c.value("type", "") == "PodScheduled")
                scheduledAt = parseMs(c["lastTransitionTime"]);
        }
        const json &containers = pod["spec"]["containers"];
        const std::string image = containers[0].value("image", "");
        const json involved = [&] {
            json r = objectRef(m_pods, ns, name);
            r["fieldPath"] = "spec.containers{" + containers[0].value("name", "") + "}";
            return r;
        }();
        if (!status.contains("containerStatuses")) {
            if (nowMs < scheduledAt + 3000)
                continue;
            status["hostIP"] = [&] {
                const auto n = m_store->get(m_nodes, {}, QString::fromStdString(node));
                for (const auto &a : (*n.object.object)["status"]["addresses"])
                    if (a.value("type", "") == "InternalIP")
                        return a.value("address", "");
                return std::string();
            }();
            status["podIP"] = podIpFor(node);
            status["podIPs"] = json::array({json{{"ip", status["podIP"]}}});
            status["startTime"] = now;
            setCondition(status, condition("Initialized", "True", now));
            json statuses = json::array();
            for (const auto &c : containers) {
                json cs{{"name", c.value("name", "")},
                        {"image", c.value("image", "")},
                        {"imageID", ""},
                        {"restartCount", 0},
                        {"started", false},
                        {"ready", false}};
                if (b.profile == Profile::ImagePull) {
                    cs["state"] = {
                        {"waiting",
                         {{"reason", "ErrImagePull"},
                          {"message", "failed to pull and unpack image \"" + image + "\""}}}};
                } else {
                    cs["state"] = {{"running", {{"startedAt", now}}}};
                    cs["started"] = true;
                    cs["ready"] = true;
                    cs["containerID"] = "containerd://" + containerId(uid, c.value("name", ""), 0);
                    cs["imageID"] = image.substr(0, image.find(':')) +
                                    "@sha256:" + containerId(image, "img", 0);
                }
                statuses.push_back(cs);
            }
            status["containerStatuses"] = statuses;
            if (b.profile == Profile::ImagePull) {
                const std::string host = image.substr(0, image.find('/'));
                recordEvent(involved, ns, "Normal", "Pulling", "Pulling image \"" + image + "\"",
                            "kubelet", node);
                recordEvent(
                    involved, ns, "Warning", "Failed",
                    "Failed to pull image \"" + image +
                        "\": rpc error: code = Unknown desc = failed to pull and unpack image \"" +
                        image + "\": failed to resolve reference \"" + image +
                        "\": failed to do request: Head \"https://" + host + "/v2/" +
                        image.substr(image.find('/') + 1, image.rfind(':') - image.find('/') - 1) +
                        "/manifests/" + image.substr(image.rfind(':') + 1) +
                        "\": dial tcp: lookup " + host.substr(0, host.find(':')) +
                        " on 10.96.0.10:53: no such host",
                    "kubelet", node);
                recordEvent(involved, ns, "Warning", "Failed", "Error: ErrImagePull", "kubelet",
                            node);
            } else {
                status["phase"] = "Running";
                setCondition(status, condition("ContainersReady", "True", now));
                setCondition(status, condition("Ready", "True", now));
                recordEvent(involved, ns, "Normal", "Pulled",
                            "Container image \"" + image + "\" already present on machine",
                            "kubelet", node);
                recordEvent(involved, ns, "Normal", "Created",
                            "Created container " + containers[0].value("name", ""), "kubelet",
                            node);
                recordEvent(involved, ns, "Normal", "Started",
                            "Started container " + containers[0].value("name", ""), "kubelet",
                            node);
                if (b.profile == Profile::CrashSymlink)
                    m_nextRestart[uid] = nowMs + 1000;
            }
            m_store->update(m_pods, pod, QStringLiteral("kubelet"));
            continue;
        }
        json &cs = status["containerStatuses"][0];
        if (b.profile == Profile::ImagePull) {
            if (cs["state"]["waiting"].value("reason", "") == "ErrImagePull") {
                cs["state"]["waiting"] = {{"reason", "ImagePullBackOff"},
                                          {"message", "Back-off pulling image \"" + image + "\""}};
                m_store->update(m_pods, pod, QStringLiteral("kubelet"));
                recordEvent(involved, ns, "Normal", "BackOff",
                            "Back-off pulling image \"" + image + "\"", "kubelet", node);
            }
            continue;
        }
        if (b.profile == Profile::CrashSymlink) {
            auto it = m_nextRestart.find(uid);
            if (it == m_nextRestart.end() || nowMs < it->second)
                continue;
            // The container ran a second and exited 127; back off, then try again.
            const int restarts =
                cs.value("restartCount", 0) + (cs["state"].contains("running") ? 0 : 1);
            const qint64 started = cs["state"].contains("running")
                                       ? parseMs(cs["state"]["running"]["startedAt"])
                                       : nowMs - 1000;
            cs["lastState"] = {
                {"terminated",
                 {{"exitCode", 127},
                  {"reason", "Error"},
                  {"startedAt", SimClock::rfc3339(started)},
                  {"finishedAt", SimClock::rfc3339(std::max(started + 1000, nowMs - 1000))},
                  {"containerID", "containerd://" + containerId(uid, "c", restarts)}}}};
            const qint64 backoff = std::min<qint64>(300, 10LL << std::min(restarts, 5));
            cs["state"] = {
                {"waiting",
                 {{"reason", "CrashLoopBackOff"},
                  {"message", "back-off " + std::to_string(backoff / 60) + "m" +
                                  std::to_string(backoff % 60) +
                                  "s restarting failed container=" + cs.value("name", "") +
                                  " pod=" + name + "_" + ns + "(" + uid + ")"}}}};
            cs["restartCount"] = restarts;
            cs["ready"] = false;
            cs["started"] = false;
            setCondition(status, condition("ContainersReady", "False", now, "ContainersNotReady",
                                           "containers with unready status: [" +
                                               cs.value("name", "") + "]"));
            setCondition(status, condition("Ready", "False", now, "ContainersNotReady",
                                           "containers with unready status: [" +
                                               cs.value("name", "") + "]"));
            it->second = nowMs + backoff * 1000;
            m_store->update(m_pods, pod, QStringLiteral("kubelet"));
            recordEvent(involved, ns, "Warning", "BackOff",
                        "Back-off restarting failed container " + cs.value("name", "") +
                            " in pod " + name + "_" + ns + "(" + uid + ")",
                        "kubelet", node);
            continue;
        }
        if (!cs["state"].contains("running") || b.runSeconds < 0)
            continue;
        const qint64 started = parseMs(cs["state"]["running"]["startedAt"]);
        const qint64 runMs =
            (b.profile == Profile::ShmError ? std::min<qint64>(b.runSeconds, 1200) : b.runSeconds) *
            1000;
        if (nowMs < started + runMs)
            continue;
        const bool fail = b.fails || b.profile == Profile::ShmError;
        for (auto &c : status["containerStatuses"]) {
            c["state"] = {{"terminated",
                           {{"exitCode", fail ? 1 : 0},
                            {"reason", fail ? "Error" : "Completed"},
                            {"startedAt", SimClock::rfc3339(started)},
                            {"finishedAt", now},
                            {"containerID", c.value("containerID", "")}}}};
            c["ready"] = false;
            c["started"] = false;
        }
        status["phase"] = fail ? "Failed" : "Succeeded";
        setCondition(status, condition("Ready", "False", now, "PodCompleted"));
        setCondition(status, condition("ContainersReady", "False", now, "PodCompleted"));
        m_store->update(m_pods, pod, QStringLiteral("kubelet"));
    }
}

void Simulation::updateQueues()
{
    for (const auto &q : m_store->list(m_queues)) {
        json queue = *q.object;
        const std::string name = queue["metadata"].value("name", "");
        int running = 0, pending = 0, inqueue = 0;
        for (const auto &pg : m_store->list(m_podgroups)) {
            if ((*pg.object)["spec"].value("queue", "") != name)
                continue;
            const std::string ph = sub((*pg.object), "status").value("phase", "");
            running += ph == "Running";
            pending += ph == "Pending";
            inqueue += ph == "Inqueue";
        }
        json status{{"state", "Open"},
                    {"running", running},
                    {"pending", pending},
                    {"inqueue", inqueue},
                    {"allocated", {{"nvidia.com/gpu", std::to_string(queueAllocated(name))}}},
                    {"reservation", json::object()}};
        if (sub(queue, "status") != status) {
            queue["status"] = status;
            m_store->update(m_queues, queue, QStringLiteral("volcano-controllers"));
        }
    }
}

void Simulation::updateMachines(qint64 stepMs)
{
    std::map<std::string, PodService> services;
    for (const auto &name : m_machines->names()) {
        const auto &uids = m_podsOnNode[name];
        m_machines->edit(name, [&](NodeMachine &m) {
            // Orphans and hand-started processes persist; pod processes follow the pods.
            std::vector<GpuProcess> kept;
            for (const auto &p : m.processes) {
                if (p.orphan)
                    kept.push_back(p);
            }
            m.processes = kept;
            for (auto &c : m.cards) {
                c.utilization = 0;
                c.memoryUsedMiB = c.phantomMiB;
                c.ownerPodUid.clear();
            }
            for (const auto &p : m.processes) {
                if (p.card < int(m.cards.size()))
                    m.cards[size_t(p.card)].memoryUsedMiB += p.memoryMiB;
            }
            double cpuBusy = 0.3;
            qint64 memUsedKb = 6LL * 1024 * 1024;
            int procs = 1;
            std::map<std::string, PodCgroup> podCgroups;
            for (const auto &uid : uids) {
                const auto it = m_podInfo.find(uid);
                if (it == m_podInfo.end())
                    continue;
                const PodInfo &info = it->second;
                const bool terminated = info.phase == "Succeeded" || info.phase == "Failed";
                if (terminated)
                    continue;
                for (int card : info.cards) {
                    if (card < int(m.cards.size()))
                        m.cards[size_t(card)].ownerPodUid = uid;
                }
                if (!info.running)
                    continue;
                const Behavior b = behaviorOf(uid);
                const quint64 noise =
                    (b.seed ^ quint64(m_clock->nowSecs() / 2)) * 2862933555777941757ULL;
                double podCpu = double(info.cpuMilli) / 1000.0 * 0.6;
                if (b.profile == Profile::Starved)
                    podCpu = double(info.cpuMilli) / 1000.0 * 0.98;
                if (b.profile == Profile::Idle || b.profile == Profile::DevEnv)
                    podCpu = 0.2;
                cpuBusy += podCpu;
                memUsedKb += info.memoryBytes / 1024 * 7 / 10;
                // The pod's cgroup: CPU time goes on from where it was; memory is steady.
                PodCgroup cg = m.pods.count(uid) ? m.pods.at(uid) : PodCgroup{};
                cg.qosClass = info.qosClass;
                cg.cpuCores = podCpu;
                cg.cpuUsageNs += quint64(std::llround(podCpu * double(stepMs) * 1e6));
                cg.workingSetBytes = info.memoryBytes > 0
                                         ? info.memoryBytes / 10 * 7
                                         : (256LL << 20) + qint64(b.seed % 512) * (1LL << 20);
                cg.inactiveFileBytes = cg.workingSetBytes / 20 + (64LL << 20);
                cg.activeFileBytes = cg.workingSetBytes / 33;
                podCgroups[uid] = cg;
                ++procs;
                if (info.devEnv && !info.podIp.empty()) {
                    PodService s{
                        info.name,
                        info.ns,
                        name,
                        {{8888, "jupyter"}, {8080, "vscode"}, {22, "ssh"}, {6006, "tensorboard"}}};
                    services[info.podIp] = s;
                }
                int cardNo = 0;
                for (int card : info.cards) {
                    if (card >= int(m.cards.size()))
                        continue;
                    GpuCard &c = m.cards[size_t(card)];
                    const int jitter = int((noise >> (cardNo * 5)) % 9);
                    int util = 0;
                    int mem = 0;
                    switch (b.profile) {
                    case Profile::Train:
                    case Profile::ShmError:
                    case Profile::Chatty:
                        util = std::min(100, 88 + jitter + (b.utilization - 90));
                        mem = m.memoryTotalMiB * 86 / 100 - jitter * 37;
                        break;
                    case Profile::Starved:
                        util = 18 + int((noise >> (cardNo * 7)) % 25);
                        mem = m.memoryTotalMiB * 60 / 100;
                        break;
                    case Profile::Idle:
                        util = 0;
                        mem = m.memoryTotalMiB * 24 / 100;
                        break;
                    case Profile::DevEnv:
                        util = (noise % 10) < 7 ? 0 : int(noise % 12);
                        mem = 2300 + int(noise % 1800);
                        break;
                    default:
                        util = 50;
                        mem = m.memoryTotalMiB / 2;
                    }
                    // A card already holding another process's memory leaves this one less.
                    mem = std::max(0, std::min(mem, m.memoryTotalMiB - c.memoryUsedMiB));
                    c.utilization = std::max(c.utilization, util);
                    c.memoryUsedMiB += mem;
                    GpuProcess p;
                    p.pid = 100000 + int((hashOf(uid) + quint64(card) * 7) % 800000);
                    p.card = card;
                    p.memoryMiB = mem;
                    p.name = b.profile == Profile::DevEnv ? "/opt/conda/bin/python3.10" : "python";
                    p.podUid = uid;
                    p.podName = info.name;
                    p.podNamespace = info.ns;
                    p.cgroup = cgroupText(m.cgroupStyle, uid, containerId(uid, "pytorch", 0),
                                          info.qosClass);
                    m.processes.push_back(p);
                    ++cardNo;
                }
            }
            for (auto &c : m.cards) {
                c.memoryUsedMiB = std::min(c.memoryUsedMiB, m.memoryTotalMiB);
                c.memoryUtilization = c.utilization * 6 / 10;
                c.temperature = 32 + c.utilization * 45 / 100 + int(hashOf(c.uuid) % 4);
                c.powerDraw = m.idlePower +
                              (m.powerLimit - m.idlePower) * c.utilization / 100.0 * 0.92 +
                              double(hashOf(c.uuid) % 300) / 100.0;
                c.clockSm = c.utilization > 0 ? (m.eccSupported ? 1410 : 2520) : 210;
            }
            m.pods = std::move(podCgroups);
            m.uptimeSecs += double(stepMs) / 1000.0;
            cpuBusy = std::min(cpuBusy, double(m.cpus));
            const quint64 ticks = quint64(m.cpus) * 100 * quint64(stepMs) / 1000;
            const quint64 busy = quint64(double(ticks) * cpuBusy / std::max(1, m.cpus));
            m.cpuTicks[0] += busy * 85 / 100;
            m.cpuTicks[2] += busy * 12 / 100;
            m.cpuTicks[4] += busy * 3 / 100;
            m.cpuTicks[3] += ticks - busy;
            const double a1 = std::exp(-double(stepMs) / 60000.0);
            const double a5 = std::exp(-double(stepMs) / 300000.0);
            const double a15 = std::exp(-double(stepMs) / 900000.0);
            m.load[0] = m.load[0] * a1 + cpuBusy * (1 - a1);
            m.load[1] = m.load[1] * a5 + cpuBusy * (1 - a5);
            m.load[2] = m.load[2] * a15 + cpuBusy * (1 - a15);
            m.runningProcs = 1 + int(cpuBusy);
            m.totalProcs = 900 + procs * 40;
            m.memAvailableKb = std::max<qint64>(m.memTotalKb / 50, m.memTotalKb - memUsedKb);
        });
    }
    m_machines->setServices(std::move(services));
}

void Simulation::generateWorkload()
{
    // About one new job every two simulated minutes.
    if (m_rng() % 120 == 0)
        submitRandomJob();
}

void Simulation::submitRandomJob()
{
    // A small job from a mix of users, queues and kinds.
    static const char *users[] = {"alice",    "bob",  "carol", "dave",    "zhangwei", "liuyang",
                                  "wangfang", "lina", "erin",  "chenjie", "frank",    "sunmin"};
    static const char *queues[] = {"nlp", "nlp", "cv",     "cv",     "nlp",     "nlp",
                                   "cv",  "cv",  "speech", "speech", "default", "default"};
    static const char *prefixes[] = {"exp", "sweep", "ablation", "finetune", "eval", "pretrain"};
    static const char *models[] = {"bert",    "llama", "vit",  "resnet",
                                   "whisper", "t5",    "clip", "yolo"};
    const size_t u = m_rng() % 12;
    JobInput in;
    in.user = users[u];
    in.queue = queues[u];
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    std::string suffix;
    for (int i = 0; i < 5; ++i)
        suffix += alphabet[m_rng() % (sizeof alphabet - 1)];
    in.name = std::string(prefixes[m_rng() % 6]) + "-" + models[m_rng() % 8] + "-" + suffix;
    in.behavior.runSeconds = 600 + qint64(m_rng() % 2400);
    in.behavior.fails = m_rng() % 10 == 0;
    in.behavior.profile = m_rng() % 6 == 0 ? Profile::Starved : Profile::Train;
    TaskInput t;
    t.gpus = 1 + int(m_rng() % 2);
    t.cpu = std::to_string(6 * t.gpus);
    t.memory = std::to_string(60 * t.gpus) + "Gi";
    const int kind = int(m_rng() % 10);
    if (kind < 6) {
        t.replicas = 1 + int(m_rng() % 2);
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

void Simulation::step(qint64 ms)
{
    m_clock->advanceMs(ms);
    runScript();
    if (m_static) {
        updateMachines(ms);
        return;
    }
    runControllers(ms);
    for (qint64 s = 0; s < ms; s += 1000)
        generateWorkload();
}

void Simulation::runScript()
{
    while (!m_script.empty() && m_script.begin()->first <= m_clock->nowMs()) {
        auto action = std::move(m_script.begin()->second);
        m_script.erase(m_script.begin());
        action();
    }
}

void Simulation::runControllers(qint64 ms)
{
    reconcileVolcanoJobs();
    reconcileKubeflowJobs(m_pytorchjobs);
    reconcileKubeflowJobs(m_mpijobs);
    schedulePods();
    runKubelets();
    updateQueues();
    updateMachines(ms);
}

void Simulation::setNodeReady(const std::string &node, bool ready, const std::string &message)
{
    const auto res = m_store->get(m_nodes, {}, QString::fromStdString(node));
    if (!res.ok())
        return;
    json n = *res.object.object;
    const std::string now = m_clock->nowRfc3339();
    for (auto &c : n["status"]["conditions"]) {
        if (ready) {
            if (c["type"] == "Ready") {
                c["status"] = "True";
                c["reason"] = "KubeletReady";
                c["message"] = "kubelet is posting ready status";
            }
        } else {
            c["status"] = "Unknown";
            c["reason"] = "NodeStatusUnknown";
            c["message"] = message;
        }
        c["lastTransitionTime"] = now;
    }
    if (!ready)
        n["spec"]["taints"] = json::array({json{{"key", "node.kubernetes.io/unreachable"},
                                                {"effect", "NoSchedule"},
                                                {"timeAdded", now}},
                                           json{{"key", "node.kubernetes.io/unreachable"},
                                                {"effect", "NoExecute"},
                                                {"timeAdded", now}}});
    else
        n["spec"].erase("taints");
    m_store->update(m_nodes, n, QStringLiteral("kube-controller-manager"));
    recordEvent(objectRef(m_nodes, "", node), "default", "Normal",
                ready ? "NodeReady" : "NodeNotReady",
                "Node " + node + " status is now: " + (ready ? "NodeReady" : "NodeNotReady"),
                "node-controller", "");
}

void Simulation::setDiskPressure(const std::string &node, int percentUsed)
{
    m_machines->edit(node, [&](NodeMachine &m) {
        for (auto &d : m.disks) {
            if (d.mount == "/")
                d.used1k = d.blocks1k * percentUsed / 100;
        }
    });
    if (percentUsed < 85)
        return;
    const auto res = m_store->get(m_nodes, {}, QString::fromStdString(node));
    json n = *res.object.object;
    for (auto &c : n["status"]["conditions"]) {
        if (c["type"] == "DiskPressure") {
            c["status"] = "True";
            c["reason"] = "KubeletHasDiskPressure";
            c["message"] = "kubelet has disk pressure";
            c["lastTransitionTime"] = m_clock->nowRfc3339();
        }
    }
    n["spec"]["taints"] = json::array({json{{"key", "node.kubernetes.io/disk-pressure"},
                                            {"effect", "NoSchedule"},
                                            {"timeAdded", m_clock->nowRfc3339()}}});
    m_store->update(m_nodes, n, QStringLiteral("kubelet"));
    recordEvent(objectRef(m_nodes, "", node), "default", "Warning", "EvictionThresholdMet",
                "Attempting to reclaim ephemeral-storage", "kubelet", node);
}

void Simulation::setPhantom(const std::string &node, int card, int memoryMiB)
{
    m_machines->edit(node, [&](NodeMachine &m) {
        if (card < int(m.cards.size()))
            m.cards[size_t(card)].phantomMiB = memoryMiB;
    });
}

bool Simulation::setDriverState(const std::string &node, const std::string &state)
{
    if (state != "ok" && state != "failed" && state != "nodevices" && state != "missing")
        return false;
    bool found = false;
    m_machines->edit(node, [&](NodeMachine &m) {
        m.driverState = state;
        found = true;
    });
    return found;
}

void Simulation::cordon(const std::string &node)
{
    const auto res = m_store->get(m_nodes, {}, QString::fromStdString(node));
    json n = *res.object.object;
    n["spec"]["unschedulable"] = true;
    n["spec"]["taints"] = json::array({json{{"key", "node.kubernetes.io/unschedulable"},
                                            {"effect", "NoSchedule"},
                                            {"timeAdded", m_clock->nowRfc3339()}}});
    m_store->update(m_nodes, n, QStringLiteral("kubectl-cordon"));
}

void Simulation::deletePod(const std::string &ns, const std::string &pod)
{
    m_store->requestDelete(m_pods, QString::fromStdString(ns), QString::fromStdString(pod), {});
}

void Simulation::forceDelete(const std::string &ns, const std::string &pod)
{
    DeleteOptions o;
    o.gracePeriodSeconds = 0;
    m_store->requestDelete(m_pods, QString::fromStdString(ns), QString::fromStdString(pod), o);
}

json Simulation::truth() const
{
    json nodes = json::array();
    qint64 total = 0, allocated = 0, freeGpus = 0, busy = 0, pendingDemand = 0;
    std::map<std::string, qint64> byUser;
    std::map<std::string, qint64> byQueue;
    for (const auto &[uid, info] : m_podInfo) {
        const bool terminated = info.phase == "Succeeded" || info.phase == "Failed";
        if (terminated)
            continue;
        if (info.node.empty()) {
            pendingDemand += info.gpus;
            continue;
        }
        byUser[userOfNamespace(info.ns)] += info.gpus;
        byQueue[info.queue.empty() ? "default" : info.queue] += info.gpus;
    }
    // A gang still waiting for admission has no pods yet (its controller makes them once the
    // queue admits it): what it waits for is its pod group's minResources.
    for (const auto &stored : m_store->list(m_podgroups)) {
        const json &pg = *stored.object;
        if (sub(pg, "status").value("phase", "") == "Pending")
            pendingDemand +=
                parseQuantityMilli(
                    sub(pg["spec"], "minResources").value("nvidia.com/gpu", json("0"))) /
                1000;
    }
    for (const auto &stored : m_store->list(m_nodes)) {
        const json &n = *stored.object;
        const std::string name = n["metadata"].value("name", "");
        bool ready = false;
        for (const auto &c : sub(n["status"], "conditions"))
            ready |= c.value("type", "") == "Ready" && c.value("status", "") == "True";
        const bool schedulable = !sub(n, "spec").value("unschedulable", false);
        const qint64 nodeTotal = nodeAllocatable(n).gpus;
        qint64 nodeAlloc = 0;
        const auto podsIt = m_podsOnNode.find(name);
        if (podsIt != m_podsOnNode.end()) {
            for (const auto &uid : podsIt->second) {
                const auto it = m_podInfo.find(uid);
                if (it != m_podInfo.end() && it->second.phase != "Succeeded" &&
                    it->second.phase != "Failed")
                    nodeAlloc += it->second.gpus;
            }
        }
        const qint64 nodeFree =
            ready && schedulable ? std::max<qint64>(0, nodeTotal - nodeAlloc) : 0;
        json cards = json::array();
        qint64 nodeBusy = 0;
        const auto m = m_machines->snapshot(name);
        if (m) {
            for (const auto &c : m->cards) {
                json procs = json::array();
                for (const auto &p : m->processes) {
                    if (p.card != c.index)
                        continue;
                    const bool live = m_podInfo.count(p.podUid) > 0;
                    procs.push_back(
                        json{{"pid", p.pid},
                             {"memoryMiB", p.memoryMiB},
                             {"podUid", live ? json(p.podUid) : json(nullptr)},
                             {"pod", live ? json(p.podName) : json(nullptr)},
                             {"namespace", live ? json(p.podNamespace) : json(nullptr)},
                             {"user", live ? json(userOfNamespace(p.podNamespace)) : json(nullptr)},
                             {"formerPodUid", p.podUid.empty() ? json(nullptr) : json(p.podUid)},
                             {"orphan", !live}});
                }
                const bool isBusy = c.utilization >= 5;
                nodeBusy += isBusy ? 1 : 0;
                cards.push_back(json{
                    {"index", c.index},
                    {"uuid", c.uuid},
                    {"utilization", c.utilization},
                    {"memoryUsedMiB", c.memoryUsedMiB},
                    {"memoryTotalMiB", m->memoryTotalMiB},
                    {"busy", isBusy},
                    {"phantom", c.phantomMiB > 0 && procs.empty()},
                    {"allocatedTo", c.ownerPodUid.empty() ? json(nullptr) : json(c.ownerPodUid)},
                    {"processes", procs}});
            }
        }
        // What each running pod's cgroup says: CPU now, and the working set as the kubelet
        // counts it (usage less inactive page cache).
        json pods = json::array();
        if (m) {
            for (const auto &[uid, cg] : m->pods) {
                const auto it = m_podInfo.find(uid);
                pods.push_back(
                    json{{"uid", uid},
                         {"pod", it != m_podInfo.end() ? json(it->second.name) : json(nullptr)},
                         {"namespace", it != m_podInfo.end() ? json(it->second.ns) : json(nullptr)},
                         {"qosClass", cg.qosClass},
                         {"gpus", it != m_podInfo.end() ? it->second.gpus : 0},
                         {"cpuCores", cg.cpuCores},
                         {"memoryWorkingSetMiB", cg.workingSetBytes >> 20}});
            }
        }
        total += nodeTotal;
        allocated += nodeAlloc;
        freeGpus += nodeFree;
        busy += nodeBusy;
        const auto labels = sub(n["metadata"], "labels");
        nodes.push_back(json{{"name", name},
                             {"ready", ready},
                             {"schedulable", schedulable},
                             {"gpuModel", labels.contains("nvidia.com/gpu.product")
                                              ? labels["nvidia.com/gpu.product"]
                                              : json(nullptr)},
                             {"gpus",
                              {{"total", nodeTotal},
                               {"allocated", nodeAlloc},
                               {"free", nodeFree},
                               {"busy", nodeBusy}}},
                             {"cards", cards},
                             {"gpuState", !m || m->gpuProduct.empty() || m->driverState == "missing"
                                              ? json("noNvidiaSmi")
                                          : m->driverState == "failed"    ? json("driverFailed")
                                          : m->driverState == "nodevices" ? json("noDevices")
                                                                          : json("ok")},
                             {"pods", pods}});
    }
    json queues = json::array();
    for (const auto &q : m_store->list(m_queues)) {
        const std::string name = (*q.object)["metadata"].value("name", "");
        const json cap = sub((*q.object)["spec"], "capability");
        queues.push_back(
            json{{"name", name},
                 {"gpus",
                  {{"capability", cap.contains("nvidia.com/gpu")
                                      ? json(parseQuantityMilli(cap["nvidia.com/gpu"]) / 1000)
                                      : json(nullptr)},
                   {"allocated", byQueue.count(name) ? byQueue.at(name) : 0}}}});
    }
    json users = json::array();
    for (const auto &ns : m_store->list(m_namespaces)) {
        const json labels = sub((*ns.object)["metadata"], "labels");
        if (!labels.contains("gpudesk.io/user"))
            continue;
        const std::string user = labels["gpudesk.io/user"];
        users.push_back(json{{"name", user},
                             {"namespace", (*ns.object)["metadata"].value("name", "")},
                             {"vc", labels.value("gpudesk.io/vc", "")},
                             {"gpus", {{"allocated", byUser.count(user) ? byUser.at(user) : 0}}}});
    }
    json planted = json::array();
    for (const auto &p : m_planted)
        planted.push_back(json{{"id", p.id},
                               {"description", p.description},
                               {"node", p.node.empty() ? json(nullptr) : json(p.node)},
                               {"objects", p.objects}});
    return json{
        {"time", m_clock->nowRfc3339()},
        {"resourceVersion", std::to_string(m_store->resourceVersion())},
        {"definitions",
         {{"allocated", "nvidia.com/gpu requested by pods bound to a node whose phase is not "
                        "Succeeded or Failed"},
          {"free",
           "allocatable minus allocated, on nodes that are Ready and not cordoned; 0 elsewhere"},
          {"busy", "cards at 5 % utilization or more"},
          {"pendingDemand",
           "nvidia.com/gpu requested by pods not bound to a node and not finished, plus the "
           "minResources of pod groups not yet admitted (Pending: their jobs have no pods yet)"},
          {"queueOfPod", "label volcano.sh/queue-name, else default"},
          {"userOfPod", "label gpudesk.io/user of the pod's namespace"}}},
        {"gpus",
         {{"total", total},
          {"allocated", allocated},
          {"free", freeGpus},
          {"busy", busy},
          {"pendingDemand", pendingDemand}}},
        {"nodes", nodes},
        {"queues", queues},
        {"users", users},
        {"planted", planted}};
}

void Simulation::churn(qint64 ms)
{
    if (m_options.churn <= 0 || m_scalePodKeys.empty())
        return;
    m_churnCarry += m_options.churn * double(ms) / 1000.0;
    while (m_churnCarry >= 1.0) {
        m_churnCarry -= 1.0;
        const size_t i = m_rng() % m_scalePodKeys.size();
        const std::string key = m_scalePodKeys[i];
        const auto slash = key.find('/');
        const QString ns = QString::fromStdString(key.substr(0, slash));
        const QString name = QString::fromStdString(key.substr(slash + 1));
        const auto cur = m_store->get(m_pods, ns, name);
        if (!cur.ok())
            continue;
        const int action = int(m_rng() % 3);
        if (action == 0) {
            // Replace: delete and create again, as a job controller would.
            json fresh = *cur.object.object;
            m_store->remove(m_pods, ns, name);
            fresh["metadata"].erase("uid");
            fresh["metadata"].erase("creationTimestamp");
            fresh["metadata"]["creationTimestamp"] = m_clock->nowRfc3339();
            m_store->create(m_pods, std::move(fresh), QStringLiteral("churn"));
        } else {
            json changed = *cur.object.object;
            changed["metadata"]["annotations"]["gpudesk-sim/heartbeat"] =
                std::to_string(m_clock->nowMs());
            if (action == 2 && changed["status"].contains("containerStatuses"))
                changed["status"]["containerStatuses"][0]["restartCount"] =
                    changed["status"]["containerStatuses"][0].value("restartCount", 0) + 1;
            m_store->update(m_pods, std::move(changed), QStringLiteral("churn"));
        }
    }
}

} // namespace sim
