// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubeletcontroller.h"

#include "machinescontroller.h"
#include "objectfactory.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

#include <algorithm>
#include <map>

namespace sim {

using nlohmann::json;

KubeletController::KubeletController(SimState &state, MachinesController &machines)
    : m_state(state), m_machines(machines)
{}

void KubeletController::forgetPod(const std::string &uid)
{
    m_nextRestart.erase(uid);
}

void KubeletController::runKubelets()
{
    ObjectStore *store = m_state.store;
    const qint64 nowMs = m_state.clock->nowMs();
    std::map<std::string, bool> nodeReady;
    for (const auto &n : store->list(m_state.nodes)) {
        bool ready = false;
        for (const auto &c : sub((*n.object)["status"], "conditions"))
            ready |= c.value("type", "") == "Ready" && c.value("status", "") == "True";
        nodeReady[(*n.object)["metadata"].value("name", "")] = ready;
    }
    for (const auto &stored : store->list(m_state.pods)) {
        const json &cur = *stored.object;
        PodWork w;
        w.node = cur["spec"].value("nodeName", "");
        if (w.node.empty() || !nodeReady[w.node])
            continue;
        w.ns = cur["metadata"].value("namespace", "");
        w.name = cur["metadata"].value("name", "");
        w.uid = cur["metadata"].value("uid", "");
        w.behavior = m_state.behaviorOf(w.uid);
        const Behavior &b = w.behavior;
        const std::string phase = sub(cur, "status").value("phase", "Pending");
        if (cur["metadata"].contains("deletionTimestamp")) {
            if (b.hung)
                continue;
            const qint64 grace = cur["metadata"].value("deletionGracePeriodSeconds", 30);
            const qint64 requested = parseMs(cur["metadata"]["deletionTimestamp"]) - grace * 1000;
            if (nowMs >= requested + std::min<qint64>(grace, 2) * 1000)
                store->remove(m_state.pods, QString::fromStdString(w.ns),
                              QString::fromStdString(w.name));
            continue;
        }
        if (phase == "Succeeded" || phase == "Failed")
            continue;
        const bool started = sub(cur, "status").contains("containerStatuses");
        if (started && b.profile != Profile::ImagePull && b.profile != Profile::CrashSymlink &&
            (b.runSeconds < 0 || phase != "Running"))
            continue; // nothing will change for this pod now
        json pod = cur;
        w.involved = m_state.objectRef(m_state.pods, w.ns, w.name);
        w.involved["fieldPath"] =
            "spec.containers{" + pod["spec"]["containers"][0].value("name", "") + "}";
        if (!started)
            start(w, pod);
        else if (b.profile == Profile::ImagePull)
            backOffImagePull(w, pod);
        else if (b.profile == Profile::CrashSymlink)
            crashLoop(w, pod);
        else
            finish(w, pod);
    }
}

void KubeletController::start(const PodWork &w, json &pod)
{
    const qint64 nowMs = m_state.clock->nowMs();
    const std::string now = m_state.clock->nowRfc3339();
    const Behavior &b = w.behavior;
    json &status = pod["status"];
    qint64 scheduledAt = 0;
    for (const auto &c : sub(status, "conditions")) {
        if (c.value("type", "") == "PodScheduled")
            scheduledAt = parseMs(c["lastTransitionTime"]);
    }
    if (nowMs < scheduledAt + 3000)
        return;
    const json &containers = pod["spec"]["containers"];
    const std::string image = containers[0].value("image", "");
    status["hostIP"] = [&] {
        const auto n = m_state.store->get(m_state.nodes, {}, QString::fromStdString(w.node));
        for (const auto &a : (*n.object.object)["status"]["addresses"])
            if (a.value("type", "") == "InternalIP")
                return a.value("address", "");
        return std::string();
    }();
    status["podIP"] = m_machines.podIpFor(w.node);
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
            cs["state"] = {{"waiting",
                            {{"reason", "ErrImagePull"},
                             {"message", "failed to pull and unpack image \"" + image + "\""}}}};
        } else {
            cs["state"] = {{"running", {{"startedAt", now}}}};
            cs["started"] = true;
            cs["ready"] = true;
            cs["containerID"] = "containerd://" + containerId(w.uid, c.value("name", ""), 0);
            cs["imageID"] =
                image.substr(0, image.find(':')) + "@sha256:" + containerId(image, "img", 0);
        }
        statuses.push_back(cs);
    }
    status["containerStatuses"] = statuses;
    const std::string container = containers[0].value("name", "");
    if (b.profile == Profile::ImagePull) {
        const std::string host = image.substr(0, image.find('/'));
        m_state.recordEvent(w.involved, w.ns, "Normal", "Pulling",
                            "Pulling image \"" + image + "\"", "kubelet", w.node);
        m_state.recordEvent(
            w.involved, w.ns, "Warning", "Failed",
            "Failed to pull image \"" + image +
                "\": rpc error: code = Unknown desc = failed to pull and unpack image \"" + image +
                "\": failed to resolve reference \"" + image +
                "\": failed to do request: Head \"https://" + host + "/v2/" +
                image.substr(image.find('/') + 1, image.rfind(':') - image.find('/') - 1) +
                "/manifests/" + image.substr(image.rfind(':') + 1) + "\": dial tcp: lookup " +
                host.substr(0, host.find(':')) + " on 10.96.0.10:53: no such host",
            "kubelet", w.node);
        m_state.recordEvent(w.involved, w.ns, "Warning", "Failed", "Error: ErrImagePull", "kubelet",
                            w.node);
    } else {
        status["phase"] = "Running";
        setCondition(status, condition("ContainersReady", "True", now));
        setCondition(status, condition("Ready", "True", now));
        m_state.recordEvent(w.involved, w.ns, "Normal", "Pulled",
                            "Container image \"" + image + "\" already present on machine",
                            "kubelet", w.node);
        m_state.recordEvent(w.involved, w.ns, "Normal", "Created", "Created container " + container,
                            "kubelet", w.node);
        m_state.recordEvent(w.involved, w.ns, "Normal", "Started", "Started container " + container,
                            "kubelet", w.node);
        if (b.profile == Profile::CrashSymlink)
            m_nextRestart[w.uid] = nowMs + 1000;
    }
    m_state.store->update(m_state.pods, pod, QStringLiteral("kubelet"));
}

void KubeletController::backOffImagePull(const PodWork &w, json &pod)
{
    json &cs = pod["status"]["containerStatuses"][0];
    if (cs["state"]["waiting"].value("reason", "") != "ErrImagePull")
        return;
    const std::string image = pod["spec"]["containers"][0].value("image", "");
    cs["state"]["waiting"] = {{"reason", "ImagePullBackOff"},
                              {"message", "Back-off pulling image \"" + image + "\""}};
    m_state.store->update(m_state.pods, pod, QStringLiteral("kubelet"));
    m_state.recordEvent(w.involved, w.ns, "Normal", "BackOff",
                        "Back-off pulling image \"" + image + "\"", "kubelet", w.node);
}

void KubeletController::crashLoop(const PodWork &w, json &pod)
{
    const qint64 nowMs = m_state.clock->nowMs();
    const std::string now = m_state.clock->nowRfc3339();
    auto it = m_nextRestart.find(w.uid);
    if (it == m_nextRestart.end() || nowMs < it->second)
        return;
    json &status = pod["status"];
    json &cs = status["containerStatuses"][0];
    // The container ran a second and exited 127; back off, then try again.
    const int restarts = cs.value("restartCount", 0) + (cs["state"].contains("running") ? 0 : 1);
    const qint64 started = cs["state"].contains("running")
                               ? parseMs(cs["state"]["running"]["startedAt"])
                               : nowMs - 1000;
    cs["lastState"] = {{"terminated",
                        {{"exitCode", 127},
                         {"reason", "Error"},
                         {"startedAt", SimClock::rfc3339(started)},
                         {"finishedAt", SimClock::rfc3339(std::max(started + 1000, nowMs - 1000))},
                         {"containerID", "containerd://" + containerId(w.uid, "c", restarts)}}}};
    const qint64 backoff = std::min<qint64>(300, 10LL << std::min(restarts, 5));
    const std::string container = cs.value("name", "");
    cs["state"] = {
        {"waiting",
         {{"reason", "CrashLoopBackOff"},
          {"message", "back-off " + std::to_string(backoff / 60) + "m" +
                          std::to_string(backoff % 60) + "s restarting failed container=" +
                          container + " pod=" + w.name + "_" + w.ns + "(" + w.uid + ")"}}}};
    cs["restartCount"] = restarts;
    cs["ready"] = false;
    cs["started"] = false;
    const std::string unready = "containers with unready status: [" + container + "]";
    setCondition(status, condition("ContainersReady", "False", now, "ContainersNotReady", unready));
    setCondition(status, condition("Ready", "False", now, "ContainersNotReady", unready));
    it->second = nowMs + backoff * 1000;
    m_state.store->update(m_state.pods, pod, QStringLiteral("kubelet"));
    m_state.recordEvent(w.involved, w.ns, "Warning", "BackOff",
                        "Back-off restarting failed container " + container + " in pod " + w.name +
                            "_" + w.ns + "(" + w.uid + ")",
                        "kubelet", w.node);
}

void KubeletController::finish(const PodWork &w, json &pod)
{
    const Behavior &b = w.behavior;
    json &status = pod["status"];
    json &cs = status["containerStatuses"][0];
    if (!cs["state"].contains("running") || b.runSeconds < 0)
        return;
    const qint64 started = parseMs(cs["state"]["running"]["startedAt"]);
    const qint64 runMs =
        (b.profile == Profile::ShmError ? std::min<qint64>(b.runSeconds, 1200) : b.runSeconds) *
        1000;
    if (m_state.clock->nowMs() < started + runMs)
        return;
    const std::string now = m_state.clock->nowRfc3339();
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
    m_state.store->update(m_state.pods, pod, QStringLiteral("kubelet"));
}

} // namespace sim
