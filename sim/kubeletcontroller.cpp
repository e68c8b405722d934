// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubeletcontroller.h"

#include "machinescontroller.h"
#include "nodemachine.h"
#include "objectfactory.h"
#include "registrypush.h"
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
    m_stopping.erase(uid);
}

void KubeletController::terminate(const PodWork &w, const json &pod)
{
    const Behavior &b = w.behavior;
    const json &meta = pod["metadata"];
    const qint64 grace = meta.value("deletionGracePeriodSeconds", qint64(30));
    const qint64 requested = parseMs(meta["deletionTimestamp"]) - grace * 1000;
    bool running = false;
    for (const auto &cs : sub(sub(pod, "status"), "containerStatuses"))
        running |= sub(cs, "state").contains("running");
    if (running && m_stopping.insert(w.uid).second) {
        json involved = m_state.objectRef(m_state.pods, w.ns, w.name);
        const std::string container = pod["spec"]["containers"][0].value("name", "");
        involved["fieldPath"] = "spec.containers{" + container + "}";
        m_state.recordEvent(involved, w.ns, "Normal", "Killing", "Stopping container " + container,
                            "kubelet", w.node);
    }
    // A runtime that cannot kill, a process in D state, a kubelet that lost track: the pod
    // stays Terminating until someone force-deletes it.
    if (running && b.stuck())
        return;
    // The container exits on TERM in a moment; one that ignores TERM is killed at the end of
    // the grace period.
    const qint64 exitAfter =
        running && b.termination == Termination::IgnoresTerm ? grace : std::min<qint64>(grace, 2);
    if (m_state.clock->nowMs() < requested + exitAfter * 1000)
        return;
    DeleteOptions done;
    done.gracePeriodSeconds = 0;
    done.preconditionUid = QString::fromStdString(w.uid);
    m_state.store->requestDelete(m_state.pods, QString::fromStdString(w.ns),
                                 QString::fromStdString(w.name), done);
}

void KubeletController::handleContainerExits()
{
    std::vector<ContainerExit> exits = std::move(m_unrecorded);
    m_unrecorded.clear();
    for (ContainerExit &e : m_state.machines->takeExits())
        exits.push_back(std::move(e));
    for (const ContainerExit &e : exits) {
        if (!m_state.nodeReady(e.node) && m_state.podInfo.count(e.podUid)) {
            m_unrecorded.push_back(e);
            continue;
        }
        const auto info = m_state.podInfo.find(e.podUid);
        auto forget = [&] {
            m_state.machines->edit(e.node,
                                   [&](NodeMachine &m) { m.exitedContainers.erase(e.podUid); });
        };
        if (info == m_state.podInfo.end()) {
            forget();
            continue;
        }
        const auto cur = m_state.store->get(m_state.pods, QString::fromStdString(info->second.ns),
                                            QString::fromStdString(info->second.name));
        if (!cur.ok()) {
            forget();
            continue;
        }
        json pod = *cur.object.object;
        recordExit(pod, e);
        m_state.store->update(m_state.pods, pod, QStringLiteral("kubelet"));
        forget();
    }
}

void KubeletController::recordExit(json &pod, const ContainerExit &e)
{
    const std::string now = m_state.clock->nowRfc3339();
    const std::string ns = pod["metadata"].value("namespace", "");
    const std::string name = pod["metadata"].value("name", "");
    const std::string policy = pod["spec"].value("restartPolicy", "Always");
    const bool restart = !pod["metadata"].contains("deletionTimestamp") &&
                         (policy == "Always" || (policy == "OnFailure" && e.exitCode != 0));
    json &status = pod["status"];
    bool allTerminated = true;
    for (auto &cs : status["containerStatuses"]) {
        if (cs.value("name", "") != e.container || !sub(cs, "state").contains("running")) {
            allTerminated &= sub(cs, "state").contains("terminated");
            continue;
        }
        const json terminated{{"exitCode", e.exitCode},
                              {"reason", "Error"},
                              {"startedAt", cs["state"]["running"].value("startedAt", now)},
                              {"finishedAt", now},
                              {"containerID", cs.value("containerID", "")}};
        if (!restart) {
            cs["state"] = {{"terminated", terminated}};
            cs["ready"] = false;
            cs["started"] = false;
            continue;
        }
        // The kubelet starts the container again at once (back-off begins with the next
        // failure), with a new container id and new processes.
        allTerminated = false;
        const int restarts = cs.value("restartCount", 0) + 1;
        cs["lastState"] = {{"terminated", terminated}};
        cs["restartCount"] = restarts;
        cs["state"] = {{"running", {{"startedAt", now}}}};
        cs["containerID"] = "containerd://" + containerId(e.podUid, e.container, restarts);
        json involved = m_state.objectRef(m_state.pods, ns, name);
        involved["fieldPath"] = "spec.containers{" + e.container + "}";
        const std::string image = cs.value("image", "");
        m_state.recordEvent(involved, ns, "Normal", "Pulled",
                            "Container image \"" + image + "\" already present on machine",
                            "kubelet", e.node);
        m_state.recordEvent(involved, ns, "Normal", "Created", "Created container " + e.container,
                            "kubelet", e.node);
        m_state.recordEvent(involved, ns, "Normal", "Started", "Started container " + e.container,
                            "kubelet", e.node);
    }
    if (!restart && allTerminated) {
        status["phase"] = "Failed";
        setCondition(status, condition("Ready", "False", now, "PodFailed"));
        setCondition(status, condition("ContainersReady", "False", now, "PodFailed"));
    }
}

void KubeletController::runKubelets()
{
    ObjectStore *store = m_state.store;
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
            terminate(w, cur);
            continue;
        }
        if (phase == "Succeeded" || phase == "Failed")
            continue;
        if (deadlinePassed(cur)) {
            json pod = cur;
            w.involved = m_state.objectRef(m_state.pods, w.ns, w.name);
            exceedDeadline(w, pod);
            continue;
        }
        const bool started = sub(cur, "status").contains("containerStatuses");
        if (started && b.profile != Profile::ImagePull && b.profile != Profile::CrashSymlink &&
            (b.runSeconds < 0 || phase != "Running"))
            continue; // nothing will change for this pod now
        // Most running pods have nothing to do at a step: they are not copied for it.
        if (started && b.profile != Profile::ImagePull && b.profile != Profile::CrashSymlink &&
            !finishDue(b, cur))
            continue;
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
    // The image without its tag: the repository an imageID names (a registry's port is not a tag).
    const size_t slash = image.find('/');
    const size_t tagColon = image.rfind(':');
    const bool tagged = tagColon != std::string::npos &&
                        (slash == std::string::npos || tagColon > slash) &&
                        image.find('@') == std::string::npos;
    const std::string repository =
        tagged ? image.substr(0, tagColon) : image.substr(0, image.find('@'));
    // A registry the nodes trust (their certs.d) is asked first, as containerd's pull does: the
    // digest its tag names now is what the container runs; a tag it does not have fails.
    std::string pulledDigest, pullError;
    const std::string host = slash == std::string::npos ? std::string() : image.substr(0, slash);
    if (b.profile != Profile::ImagePull && m_state.options.nodeRegistries.count(host) &&
        image.find('@') == std::string::npos)
        pullError =
            RegistryPush::resolve(RegistryPush::nodeTarget(m_state.options.nodeCertsDir, host),
                                  repository.substr(slash + 1),
                                  tagged ? image.substr(tagColon + 1) : "latest", &pulledDigest);
    const bool pullFails = b.profile == Profile::ImagePull || !pullError.empty();
    if (!pullError.empty())
        m_state.behaviors[w.uid].profile = Profile::ImagePull; // backs off as any failed pull
    json statuses = json::array();
    for (const auto &c : containers) {
        json cs{{"name", c.value("name", "")},
                {"image", c.value("image", "")},
                {"imageID", ""},
                {"restartCount", 0},
                {"started", false},
                {"ready", false}};
        if (pullFails) {
            cs["state"] = {{"waiting",
                            {{"reason", "ErrImagePull"},
                             {"message", "failed to pull and unpack image \"" + image + "\""}}}};
        } else {
            cs["state"] = {{"running", {{"startedAt", now}}}};
            cs["started"] = true;
            cs["ready"] = true;
            cs["containerID"] = "containerd://" + containerId(w.uid, c.value("name", ""), 0);
            cs["imageID"] =
                repository + "@" +
                (pulledDigest.empty() ? "sha256:" + containerId(image, "img", 0) : pulledDigest);
        }
        statuses.push_back(cs);
    }
    status["containerStatuses"] = statuses;
    const std::string container = containers[0].value("name", "");
    if (pullFails) {
        m_state.recordEvent(w.involved, w.ns, "Normal", "Pulling",
                            "Pulling image \"" + image + "\"", "kubelet", w.node);
        if (!pullError.empty())
            m_state.recordEvent(w.involved, w.ns, "Warning", "Failed",
                                "Failed to pull image \"" + image +
                                    "\": rpc error: code = NotFound desc = failed to pull and "
                                    "unpack image \"" +
                                    image + "\": failed to resolve reference \"" + image +
                                    "\": " + image + ": " + pullError,
                                "kubelet", w.node);
        else
            m_state.recordEvent(
                w.involved, w.ns, "Warning", "Failed",
                "Failed to pull image \"" + image +
                    "\": rpc error: code = Unknown desc = failed to pull and unpack image \"" +
                    image + "\": failed to resolve reference \"" + image +
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

bool KubeletController::deadlinePassed(const json &pod) const
{
    const auto deadline = pod["spec"].find("activeDeadlineSeconds");
    if (deadline == pod["spec"].end() || !deadline->is_number_integer())
        return false;
    const json &status = sub(pod, "status");
    const auto start = status.find("startTime");
    if (start == status.end() || !start->is_string())
        return false;
    return m_state.clock->nowMs() >= parseMs(*start) + deadline->get<qint64>() * 1000;
}

void KubeletController::exceedDeadline(const PodWork &w, json &pod)
{
    // The kubelet's activeDeadlineHandler: the pod fails with the reason and message below.
    static const char *const kMessage = "Pod was active on the node longer than the specified "
                                        "deadline";
    failPod(pod["status"], "DeadlineExceeded", kMessage, m_state.clock->nowRfc3339());
    m_state.recordEvent(w.involved, w.ns, "Normal", "DeadlineExceeded", kMessage, "kubelet",
                        w.node);
    m_state.store->update(m_state.pods, pod, QStringLiteral("kubelet"));
}

bool KubeletController::finishDue(const Behavior &b, const json &pod) const
{
    const json &statuses = sub(sub(pod, "status"), "containerStatuses");
    if (b.runSeconds < 0 || !statuses.is_array() || statuses.empty())
        return false;
    const json &running = sub(sub(statuses[0], "state"), "running");
    if (!running.contains("startedAt"))
        return false;
    const qint64 runMs =
        (b.profile == Profile::ShmError ? std::min<qint64>(b.runSeconds, 1200) : b.runSeconds) *
        1000;
    return m_state.clock->nowMs() >= parseMs(running["startedAt"]) + runMs;
}

void KubeletController::finish(const PodWork &w, json &pod)
{
    const Behavior &b = w.behavior;
    if (!finishDue(b, pod))
        return;
    json &status = pod["status"];
    const qint64 started = parseMs(status["containerStatuses"][0]["state"]["running"]["startedAt"]);
    const std::string now = m_state.clock->nowRfc3339();
    const bool fail = b.fails || b.profile == Profile::ShmError || b.failure != Failure::None;
    const bool oomKilled = b.failure == Failure::OutOfMemory;
    for (auto &c : status["containerStatuses"]) {
        c["state"] = {{"terminated",
                       {{"exitCode", oomKilled ? 137 : (fail ? 1 : 0)},
                        {"reason", oomKilled ? "OOMKilled" : (fail ? "Error" : "Completed")},
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
