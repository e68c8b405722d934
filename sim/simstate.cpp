// SPDX-License-Identifier: GPL-3.0-or-later
#include "simstate.h"

#include "objectfactory.h"
#include "simclock.h"
#include "simhelpers.h"

#include <cstdio>
#include <set>

namespace sim {

using nlohmann::json;

namespace {

Behavior behaviorForNewPod(const json &pod,
                           const std::unordered_map<std::string, Behavior> &jobBehaviors,
                           const std::unordered_map<std::string, Behavior> &taskBehaviors,
                           const std::set<std::string> &nodeRegistries)
{
    // A job's pods behave as the job (or their task) was planned; a pod from a client trains
    // for a while.
    for (const auto &ref : sub(pod["metadata"], "ownerReferences")) {
        const std::string task = sub(pod["metadata"], "labels").value("volcano.sh/task-spec", "");
        if (const auto t = taskBehaviors.find(ref.value("uid", "") + "/" + task);
            !task.empty() && t != taskBehaviors.end()) {
            Behavior b = t->second;
            b.seed = hashOf(pod["metadata"].value("name", "")) ^ b.seed;
            return b;
        }
        const auto it = jobBehaviors.find(ref.value("uid", ""));
        if (it != jobBehaviors.end()) {
            Behavior b = it->second;
            b.seed = hashOf(pod["metadata"].value("name", "")) ^ b.seed;
            if (sub(pod["metadata"], "labels").value("training.kubeflow.org/replica-type", "") ==
                "launcher") {
                b.profile = Profile::Cpu;
            } else if (b.failure == Failure::MpiSsh) {
                // The launcher fails; its workers wait for mpirun's daemons that never come.
                b.failure = Failure::None;
                b.fails = false;
                b.runSeconds = -1;
            }
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
    // The nodes resolve the lab's registry and the public ones; an image on any other host
    // cannot be pulled (the kubelet's error names the lookup that failed).
    const std::string image =
        pod["spec"].contains("containers") && !pod["spec"]["containers"].empty()
            ? pod["spec"]["containers"][0].value("image", "")
            : std::string();
    const std::string host =
        image.find('/') == std::string::npos ? "" : image.substr(0, image.find('/'));
    static const std::set<std::string> resolvable{
        "registry.lab.internal", "docker.io", "nvcr.io", "ghcr.io", "quay.io", "registry.k8s.io"};
    const bool isHost = host.find('.') != std::string::npos ||
                        host.find(':') != std::string::npos || host == "localhost";
    if (isHost && !resolvable.count(host) && !nodeRegistries.count(host))
        b.profile = Profile::ImagePull;
    return b;
}

} // namespace

SimState::SimState(ObjectStore *store, SimClock *clock, MachineRegistry *machines,
                   SimOptions options)
    : store(store), clock(clock), machines(machines), options(std::move(options)),
      rng(this->options.seed)
{
    const ResourceTypes *t = store->types();
    const QString v1 = QStringLiteral("v1");
    pods = t->find({}, v1, QStringLiteral("pods"));
    nodes = t->find({}, v1, QStringLiteral("nodes"));
    events = t->find({}, v1, QStringLiteral("events"));
    namespaces = t->find({}, v1, QStringLiteral("namespaces"));
    queues = t->find(QStringLiteral("scheduling.volcano.sh"), QStringLiteral("v1beta1"),
                     QStringLiteral("queues"));
    podgroups = t->find(QStringLiteral("scheduling.volcano.sh"), QStringLiteral("v1beta1"),
                        QStringLiteral("podgroups"));
    vcjobs = t->find(QStringLiteral("batch.volcano.sh"), QStringLiteral("v1alpha1"),
                     QStringLiteral("jobs"));
    pytorchjobs = t->find(QStringLiteral("kubeflow.org"), v1, QStringLiteral("pytorchjobs"));
    mpijobs = t->served(QStringLiteral("kubeflow.org"), QStringLiteral("mpijobs"));
    pdbs = t->find(QStringLiteral("policy"), v1, QStringLiteral("poddisruptionbudgets"));
    commands = t->find(QStringLiteral("bus.volcano.sh"), QStringLiteral("v1alpha1"),
                       QStringLiteral("commands"));
}

Behavior SimState::behaviorOf(const std::string &uid) const
{
    const auto it = behaviors.find(uid);
    if (it != behaviors.end())
        return it->second;
    Behavior b;
    b.seed = hashOf(uid);
    return b;
}

PodInfo &SimState::indexPod(const json &p)
{
    const std::string uid = p["metadata"].value("uid", "");
    if (!behaviors.count(uid))
        behaviors[uid] = behaviorForNewPod(p, jobBehaviors, taskBehaviors, options.nodeRegistries);
    PodInfo &info = podInfo[uid];
    const std::string node = p["spec"].value("nodeName", "");
    if (info.node != node) {
        podsOnNode[info.node].erase(uid);
        podsOnNode[node].insert(uid);
    }
    info.ns = p["metadata"].value("namespace", "");
    info.name = p["metadata"].value("name", "");
    info.node = node;
    info.phase = sub(p, "status").value("phase", "Pending");
    info.deleting = p["metadata"].contains("deletionTimestamp");
    info.deletionRequestedMs =
        info.deleting ? parseMs(p["metadata"]["deletionTimestamp"]) -
                            p["metadata"].value("deletionGracePeriodSeconds", qint64(0)) * 1000
                      : 0;
    info.queue = sub(p["metadata"], "labels").value("volcano.sh/queue-name", "");
    info.devEnv = sub(p["metadata"], "labels").contains("gpudesk.io/devenv");
    info.podIp = sub(p, "status").value("podIP", "");
    info.qosClass = sub(p, "status").value("qosClass", "BestEffort");
    const Resources r = podRequests(p);
    info.gpus = int(r.gpus);
    info.cpuMilli = r.cpuMilli;
    info.memoryBytes = r.memoryBytes;
    info.migRequests = r.mig;
    info.running = false;
    info.startedMs = 0;
    const json &containers = sub(p["spec"], "containers");
    info.container = containers.empty() ? std::string() : containers[0].value("name", "");
    info.image = containers.empty() ? std::string() : containers[0].value("image", "");
    for (const auto &cs : sub(sub(p, "status"), "containerStatuses")) {
        const json &state = sub(cs, "state");
        info.running |= state.contains("running");
        if (cs.value("name", "") == info.container) {
            info.restartCount = cs.value("restartCount", 0);
            if (state.contains("running"))
                info.startedMs = parseMs(state["running"].value("startedAt", json()));
        }
    }
    // A finished pod's cards go back to the device plugin.
    if (info.terminated()) {
        info.cards.clear();
        info.migDevices.clear();
    }
    return info;
}

void SimState::forgetPod(const std::string &uid)
{
    const auto it = podInfo.find(uid);
    if (it != podInfo.end()) {
        podsOnNode[it->second.node].erase(uid);
        podInfo.erase(it);
    }
    behaviors.erase(uid);
    lastSchedulingEvent.erase(uid);
}

int SimState::queueAllocated(const std::string &queue) const
{
    int n = 0;
    for (const auto &[uid, info] : podInfo) {
        if (info.queue == queue && !info.node.empty() && !info.terminated())
            n += info.gpus;
    }
    return n;
}

bool SimState::nodeReady(const std::string &node) const
{
    const auto n = store->get(nodes, {}, QString::fromStdString(node));
    if (!n.ok())
        return false;
    for (const auto &c : sub((*n.object.object)["status"], "conditions"))
        if (c.value("type", "") == "Ready")
            return c.value("status", "") == "True";
    return false;
}

json SimState::objectRef(const ResourceType *type, const std::string &ns,
                         const std::string &name) const
{
    const auto res = store->get(type, QString::fromStdString(ns), QString::fromStdString(name));
    json ref{{"kind", type->kind.toStdString()}, {"name", name}};
    if (!ns.empty())
        ref["namespace"] = ns;
    if (res.ok())
        ref["uid"] = (*res.object.object)["metadata"].value("uid", "");
    return ref;
}

void SimState::recordEvent(const json &involved, const std::string &ns, const std::string &type,
                           const std::string &reason, const std::string &message,
                           const std::string &component, const std::string &host)
{
    const std::string eventNs = ns.empty() ? "default" : ns;
    // Repeats are aggregated into one Event with a count, as the kubelet and scheduler do.
    const std::string key =
        involved.value("uid", involved.value("name", "")) + '\x1f' + reason + '\x1f' + message;
    const auto known = eventNames.find(key);
    if (known != eventNames.end()) {
        const auto cur = store->get(events, QString::fromStdString(eventNs),
                                    QString::fromStdString(known->second));
        if (cur.ok()) {
            json ev = *cur.object.object;
            ev["count"] = ev.value("count", 1) + 1;
            ev["lastTimestamp"] = clock->nowRfc3339();
            store->update(events, std::move(ev), QString::fromStdString(component));
            return;
        }
    }
    char suffix[20];
    std::snprintf(suffix, sizeof suffix, "%016llx",
                  static_cast<unsigned long long>(hashOf(std::to_string(++eventCounter)) >> 4));
    json ev = ObjectFactory::event(eventNs, involved, type, reason, message, component, host,
                                   clock->nowRfc3339());
    const std::string name = involved.value("name", "object") + "." + suffix;
    ev["metadata"]["name"] = name;
    if (store->create(events, std::move(ev), QString::fromStdString(component)).ok())
        eventNames[key] = name;
}

} // namespace sim
