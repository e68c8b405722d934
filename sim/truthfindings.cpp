// SPDX-License-Identifier: GPL-3.0-or-later
#include "truthfindings.h"

#include "cardload.h"
#include "nodemachine.h"
#include "objectfactory.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

#include <algorithm>
#include <map>
#include <set>

namespace sim {

using nlohmann::json;

namespace {

const char *const kClasses[] = {"stuck-terminating", "on-notready-node", "finished-holding-gpus",
                                "idle-gpus",         "orphan-process",   "uninterruptible-process",
                                "phantom-memory"};

int classRank(const std::string &cls)
{
    for (int i = 0; i < int(std::size(kClasses)); ++i)
        if (cls == kClasses[i])
            return i;
    return int(std::size(kClasses));
}

json finding(const std::string &cls, const std::string &node)
{
    return json{{"class", cls},
                {"node", node.empty() ? json(nullptr) : json(node)},
                {"namespace", nullptr},
                {"pod", nullptr},
                {"podUid", nullptr},
                {"user", nullptr},
                {"gpus", 0},
                {"cards", json::array()},
                {"pids", json::array()},
                {"since", nullptr},
                {"detail", ""}};
}

void setPod(json &f, const std::string &ns, const std::string &pod, const std::string &uid)
{
    if (!ns.empty()) {
        f["namespace"] = ns;
        f["user"] = userOfNamespace(ns);
    }
    if (!pod.empty())
        f["pod"] = pod;
    if (!uid.empty())
        f["podUid"] = uid;
}

std::string hours(qint64 ms)
{
    const qint64 minutes = ms / 60000;
    return minutes >= 120 ? std::to_string(minutes / 60) + " h" : std::to_string(minutes) + " min";
}

std::string joined(const json &values)
{
    std::string out;
    for (const auto &v : values)
        out += (out.empty() ? "" : ", ") + v.dump();
    return out;
}

} // namespace

json TruthFindings::toJson() const
{
    json out = json::array();
    processFindings(out);
    podFindings(out);
    std::sort(out.begin(), out.end(), [](const json &a, const json &b) {
        const auto key = [](const json &f) {
            return std::make_tuple(classRank(f["class"]),
                                   f["node"].is_string() ? f["node"].dump() : std::string(),
                                   f["namespace"].dump(), f["pod"].dump(), f["pids"].dump());
        };
        return key(a) < key(b);
    });
    return out;
}

void TruthFindings::processFindings(json &out) const
{
    const qint64 now = m_state.clock->nowMs();
    for (const auto &name : m_state.machines->names()) {
        const auto m = m_state.machines->snapshot(name);
        if (!m)
            continue;
        // Processes of no live pod, by the pod they were of; those in D state apart.
        std::map<std::pair<bool, std::string>, json> groups;
        for (const auto &p : m->processes) {
            const bool live = !p.podUid.empty() && m_state.podInfo.count(p.podUid) > 0;
            const bool stuck = p.state == 'D';
            if (live && !stuck)
                continue;
            json &f = groups[{stuck, p.podUid}];
            if (f.is_null()) {
                f = finding(stuck ? "uninterruptible-process" : "orphan-process", name);
                setPod(f, p.podNamespace, p.podName, p.podUid);
                f["since"] = stuck ? p.stateSinceMs : p.orphanSinceMs;
            }
            if (std::find(f["cards"].begin(), f["cards"].end(), p.card) == f["cards"].end())
                f["cards"].push_back(p.card);
            f["pids"].push_back(p.pid);
            const qint64 since = stuck ? p.stateSinceMs : p.orphanSinceMs;
            f["since"] = std::min(f["since"].get<qint64>(), since);
        }
        for (auto &[key, f] : groups) {
            std::sort(f["cards"].begin(), f["cards"].end());
            std::sort(f["pids"].begin(), f["pids"].end());
            f["gpus"] = f["cards"].size();
            const std::string pids = joined(f["pids"]);
            const std::string cards = joined(f["cards"]);
            if (key.first)
                f["detail"] = "PID " + pids + " on GPU " + cards +
                              " in uninterruptible sleep (D) for " +
                              hours(now - f["since"].get<qint64>()) + ": no signal ends it";
            else if (key.second.empty())
                f["detail"] = "PID " + pids + " on GPU " + cards + " runs in no container";
            else
                f["detail"] = "PID " + pids + " on GPU " + cards + " of pod " +
                              f["pod"].get<std::string>() + ", deleted " +
                              hours(now - f["since"].get<qint64>()) + " ago";
            f["since"] = SimClock::rfc3339(f["since"].get<qint64>());
            out.push_back(f);
        }
        // Memory held on a card that lists no process.
        json phantom = finding("phantom-memory", name);
        int held = 0;
        qint64 since = 0;
        for (const auto &c : m->cards) {
            if (c.migEnabled || c.phantomMiB <= 0)
                continue;
            const bool hasProcess =
                std::any_of(m->processes.begin(), m->processes.end(),
                            [&](const GpuProcess &p) { return p.card == c.index; });
            if (hasProcess)
                continue;
            phantom["cards"].push_back(c.index);
            held += c.memoryUsedMiB;
            since = since == 0 ? c.phantomSinceMs : std::min(since, c.phantomSinceMs);
        }
        if (!phantom["cards"].empty()) {
            phantom["gpus"] = phantom["cards"].size();
            phantom["since"] = SimClock::rfc3339(since);
            phantom["detail"] = "GPU " + joined(phantom["cards"]) + " hold " +
                                std::to_string(held) + " MiB with no process";
            out.push_back(phantom);
        }
    }
}

std::string TruthFindings::finishedOwner(const json &pod, qint64 *since, std::string *job) const
{
    for (const auto &ref : sub(pod["metadata"], "ownerReferences")) {
        if (!ref.value("controller", false))
            continue;
        const std::string kind = ref.value("kind", "");
        const ResourceType *type = kind == "Job"          ? m_state.vcjobs
                                   : kind == "PyTorchJob" ? m_state.pytorchjobs
                                   : kind == "MPIJob"     ? m_state.mpijobs
                                                          : nullptr;
        if (!type)
            return {};
        const auto owner = m_state.store->get(type, ObjectStore::namespaceOf(pod),
                                              QString::fromStdString(ref.value("name", "")));
        if (!owner.ok())
            return {};
        const json &status = sub(*owner.object.object, "status");
        *job = kind + " " + ref.value("name", "");
        if (type == m_state.vcjobs) {
            const std::string phase = sub(status, "state").value("phase", "");
            *since = parseMs(sub(status, "state").value("lastTransitionTime", json()));
            if (phase == "Completed" || phase == "Failed" || phase == "Aborted" ||
                phase == "Terminated")
                return phase;
            return {};
        }
        for (const auto &c : sub(status, "conditions")) {
            const std::string t = c.value("type", "");
            if ((t == "Succeeded" || t == "Failed" || t == "Suspended") &&
                c.value("status", "") == "True") {
                *since = parseMs(c.value("lastTransitionTime", json()));
                return t;
            }
        }
    }
    return {};
}

void TruthFindings::podFindings(json &out) const
{
    const qint64 now = m_state.clock->nowMs();
    for (const auto &[uid, info] : m_state.podInfo) {
        const qint64 mig = [&] {
            qint64 n = 0;
            for (const auto &[profile, count] : info.migRequests)
                n += count;
            return n;
        }();
        if ((info.gpus <= 0 && mig <= 0) || info.node.empty() || info.terminated())
            continue;
        const auto stored = m_state.store->get(m_state.pods, QString::fromStdString(info.ns),
                                               QString::fromStdString(info.name));
        if (!stored.ok())
            continue;
        const json &pod = *stored.object.object;
        const auto machine = m_state.machines->snapshot(info.node);
        json f = finding("", info.node);
        setPod(f, info.ns, info.name, uid);
        f["gpus"] = info.gpus;
        if (mig > 0)
            f["migDevices"] = mig;
        for (int c : info.cards)
            f["cards"].push_back(c);
        for (const auto &slot : info.migDevices)
            if (std::find(f["cards"].begin(), f["cards"].end(), slot.card) == f["cards"].end())
                f["cards"].push_back(slot.card);
        if (machine)
            for (const auto &p : machine->processes)
                if (p.podUid == uid)
                    f["pids"].push_back(p.pid);
        // The node's Ready condition, and since when it is what it is.
        bool ready = false;
        qint64 readySince = 0;
        const auto node = m_state.store->get(m_state.nodes, {}, QString::fromStdString(info.node));
        if (node.ok())
            for (const auto &c : sub((*node.object.object)["status"], "conditions"))
                if (c.value("type", "") == "Ready") {
                    ready = c.value("status", "") == "True";
                    readySince = parseMs(c.value("lastTransitionTime", json()));
                }
        if (info.deleting) {
            const qint64 deadline = parseMs(pod["metadata"]["deletionTimestamp"]);
            if (now <= deadline + kStuckMarginMs)
                continue; // within its grace period: it is going
            f["class"] = "stuck-terminating";
            f["since"] = SimClock::rfc3339(info.deletionRequestedMs);
            const std::string base =
                "deleted " + hours(now - info.deletionRequestedMs) + " ago, still Terminating";
            f["detail"] = !ready ? base + "; its node is NotReady"
                          : f["pids"].empty() && !(machine && machine->pods.count(uid))
                              ? base + "; the node runs no container of it any more"
                              : base + "; its processes still run";
            out.push_back(f);
            continue;
        }
        // The node lifecycle controller evicts after the pod's NoExecute toleration of
        // not-ready/unreachable (300 s by default, none: never): before that, no finding.
        qint64 notReadySecs = 300;
        qint64 unreachableSecs = 300;
        for (const auto &t : sub(pod["spec"], "tolerations")) {
            const std::string key = t.value("key", "");
            const std::string effect = t.value("effect", "");
            if (!effect.empty() && effect != "NoExecute")
                continue;
            const qint64 secs =
                t.contains("tolerationSeconds") && t["tolerationSeconds"].is_number()
                    ? std::max<qint64>(0, t["tolerationSeconds"].get<qint64>())
                    : -1;
            const bool every = key.empty() && t.value("operator", "") == "Exists";
            if (every || key == "node.kubernetes.io/not-ready")
                notReadySecs = secs;
            if (every || key == "node.kubernetes.io/unreachable")
                unreachableSecs = secs;
        }
        const bool forEver = notReadySecs < 0 || unreachableSecs < 0;
        const qint64 tolerationMs = std::max(notReadySecs, unreachableSecs) * 1000;
        if (!ready && !forEver && readySince > 0 && now - readySince >= tolerationMs) {
            f["class"] = "on-notready-node";
            f["since"] = SimClock::rfc3339(readySince);
            f["detail"] = "holds " + std::to_string(info.gpus) + " GPU(s) on " + info.node +
                          ", NotReady for " + hours(now - readySince);
            out.push_back(f);
            continue;
        }
        qint64 finishedSince = 0;
        std::string job;
        const std::string finished = finishedOwner(pod, &finishedSince, &job);
        if (!finished.empty() && info.phase == "Running") {
            f["class"] = "finished-holding-gpus";
            f["since"] = SimClock::rfc3339(finishedSince);
            f["detail"] = job + " is " + finished + ", but this pod still runs and holds " +
                          std::to_string(info.gpus + int(mig)) + " GPU(s)";
            out.push_back(f);
            continue;
        }
        if (info.phase != "Running")
            continue;
        // Idle since its cards were last busy (never: since it was created).
        const qint64 created = parseMs(pod["metadata"].value("creationTimestamp", json()));
        const qint64 idleSince = std::max(created, m_state.timeline.lastBusyMs(uid, now));
        if (now - idleSince < kIdleForMs)
            continue;
        f["class"] = "idle-gpus";
        f["since"] = SimClock::rfc3339(idleSince);
        f["idleSince"] = f["since"];
        f["detail"] = std::to_string(info.gpus + int(mig)) + " GPU(s) under " +
                      std::to_string(kBusyPercent) + " % for " + hours(now - idleSince);
        out.push_back(f);
    }
}

json TruthFindings::definitions()
{
    return json{
        {"orphan-process", "GPU processes of a pod that no longer exists (or of no pod), not in D "
                           "state; one finding per node and former pod; since: when the pod went"},
        {"uninterruptible-process", "GPU processes in D state (uninterruptible sleep), whose "
                                    "pod may or may not exist: no signal ends them"},
        {"stuck-terminating", "pods still in the API 5 minutes after their deletion's grace "
                              "period; since: when the deletion was asked"},
        {"on-notready-node", "pods holding GPUs, not being deleted, on a node whose Ready "
                             "condition is not True for longer than the pod tolerates it "
                             "(300 s unless its tolerations say otherwise); since: the "
                             "condition's last transition"},
        {"finished-holding-gpus", "Running pods holding GPUs whose controlling job is "
                                  "Completed, Failed, Aborted, Terminated, Succeeded or "
                                  "Suspended"},
        {"idle-gpus", "Running pods whose cards have all been under 5 % utilization for an hour "
                      "or more; idleSince: when they were last at 5 % or more (never: the pod's "
                      "creation)"},
        {"phantom-memory", "cards (not in MIG mode) holding memory while no process is on them; "
                           "one finding per node"}};
}

} // namespace sim
