// SPDX-License-Identifier: GPL-3.0-or-later
#include "schedulercontroller.h"

#include "nodemachine.h"
#include "scheduler.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

#include <algorithm>
#include <set>

namespace sim {

using nlohmann::json;

SchedulerController::SchedulerController(SimState &state) : m_state(state) {}

void SchedulerController::schedulePods()
{
    ObjectStore *store = m_state.store;
    std::vector<StoredObject> nodeObjs = store->list(m_state.nodes);
    std::vector<StoredObject> podObjs = store->list(m_state.pods);
    std::vector<const json *> nodes, pods;
    for (const auto &n : nodeObjs)
        nodes.push_back(n.object.get());
    for (const auto &p : podObjs)
        pods.push_back(p.object.get());
    // Pending pods, oldest first, gathered into gangs by PodGroup.
    std::vector<const json *> pending;
    for (const json *p : pods) {
        if (!(*p)["spec"].contains("nodeName") && !Scheduler::isTerminated(*p) &&
            !(*p)["metadata"].contains("deletionTimestamp"))
            pending.push_back(p);
    }
    if (pending.empty())
        return; // the cluster's free resources are counted only when a pod needs them
    Scheduler scheduler;
    scheduler.load(nodes, pods);
    std::stable_sort(pending.begin(), pending.end(), [](const json *a, const json *b) {
        return (*a)["metadata"].value("creationTimestamp", "") <
               (*b)["metadata"].value("creationTimestamp", "");
    });
    std::set<std::string> doneGroups;
    const std::string now = m_state.clock->nowRfc3339();
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
            const auto pg = store->get(m_state.podgroups, QString::fromStdString(ns),
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
                store->update(m_state.pods, pod, QStringLiteral("default-scheduler"));
                m_state.recordEvent(m_state.objectRef(m_state.pods, ns, name), ns, "Normal",
                                    "Scheduled",
                                    "Successfully assigned " + ns + "/" + name + " to " + chosen[i],
                                    "default-scheduler", "");
                m_state.lastSchedulingEvent.erase(uid);
            } else {
                setCondition(pod["status"],
                             condition("PodScheduled", "False", now, "Unschedulable", message));
                store->update(m_state.pods, pod, QStringLiteral("default-scheduler"));
                // One event per message, repeated at most once a minute (as aggregation does).
                auto &last = m_state.lastSchedulingEvent[uid];
                if (last.first != message || m_state.clock->nowMs() - last.second >= 60000) {
                    m_state.recordEvent(m_state.objectRef(m_state.pods, ns, name), ns, "Warning",
                                        "FailedScheduling", message, "default-scheduler", "");
                    last = {message, m_state.clock->nowMs()};
                }
            }
        }
    }
}

void SchedulerController::assignCards(const std::string &uid, PodInfo &info)
{
    std::set<int> taken;
    std::set<std::pair<int, int>> takenMig;
    for (const auto &other : m_state.podsOnNode[info.node]) {
        if (other == uid)
            continue;
        const auto it = m_state.podInfo.find(other);
        if (it == m_state.podInfo.end())
            continue;
        taken.insert(it->second.cards.begin(), it->second.cards.end());
        for (const auto &slot : it->second.migDevices)
            takenMig.insert({slot.card, slot.gpuInstance});
    }
    const auto machine = m_state.machines->snapshot(info.node);
    if (!machine)
        return;
    // Whole GPUs come from the cards not in MIG mode; MIG instances by profile (the mixed
    // strategy's nvidia.com/mig-<profile> resources).
    for (const auto &card : machine->cards) {
        if (int(info.cards.size()) < info.gpus && !card.migEnabled && !taken.count(card.index))
            info.cards.push_back(card.index);
    }
    if (!info.migDevices.empty())
        return;
    for (const auto &[profile, count] : info.migRequests) {
        qint64 got = 0;
        for (const auto &card : machine->cards) {
            for (const auto &d : card.mig) {
                if (got < count && d.profile == profile &&
                    !takenMig.count({card.index, d.gpuInstance})) {
                    info.migDevices.push_back({card.index, d.gpuInstance});
                    takenMig.insert({card.index, d.gpuInstance});
                    ++got;
                }
            }
        }
    }
}

} // namespace sim
