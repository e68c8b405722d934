// SPDX-License-Identifier: GPL-3.0-or-later
#include "schedulercontroller.h"

#include "nodemachine.h"
#include "priorityadmission.h"
#include "scheduler.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
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
    // Higher priority first (Volcano's priority plugin, kube-scheduler's queue), then oldest.
    std::stable_sort(pending.begin(), pending.end(), [](const json *a, const json *b) {
        const int pa = PriorityAdmission::priorityOf(*a), pb = PriorityAdmission::priorityOf(*b);
        if (pa != pb)
            return pa > pb;
        return (*a)["metadata"].value("creationTimestamp", "") <
               (*b)["metadata"].value("creationTimestamp", "");
    });
    m_actions = volcanoActions();
    // One preemption a pass: the next pass sees its victims going and its room held (a second
    // gang in this one would still count them as running, and might take the same).
    m_preempted = false;
    // The victims of earlier passes that are gone are forgotten.
    {
        std::set<std::string> alive;
        for (const json *p : pods)
            if (m_victims.count((*p)["metadata"].value("uid", "")))
                alive.insert((*p)["metadata"].value("uid", ""));
        m_victims.swap(alive);
    }
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
        if (chosen.empty() && preempt(scheduler, gang, pods))
            continue;
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
                // A nomination no preemption holds any more is dropped, with the room it held.
                if (auto &st = pod["status"]; st.contains("nominatedNodeName"))
                    st.erase("nominatedNodeName");
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

bool SchedulerController::preempt(const Scheduler &scheduler, const std::vector<const json *> &gang,
                                  const std::vector<const json *> &pods)
{
    const json &first = *gang.front();
    // Victims already going for it — evicted pods still ending on its node —: it waits for
    // them, and takes no more.
    const std::string nominated = sub(first, "status").value("nominatedNodeName", "");
    if (!nominated.empty())
        for (const json *p : pods)
            if (sub(*p, "spec").value("nodeName", "") == nominated &&
                (*p)["metadata"].contains("deletionTimestamp") &&
                m_victims.count((*p)["metadata"].value("uid", "")))
                return true;
    if (m_preempted)
        return false;
    const bool volcano = sub(first, "spec").value("schedulerName", "") == "volcano";
    const std::string queue = sub(first["metadata"], "labels").value("volcano.sh/queue-name", "");
    const int priority = PriorityAdmission::priorityOf(first);
    if (priority > 0 && sub(first["spec"], "preemptionPolicy") != "Never" &&
        (!volcano || m_actions.count("preempt"))) {
        // Volcano's preempt action takes pods of lower priority within the preemptor's queue;
        // kube-scheduler's, pods of lower priority wherever they are.
        const auto plan = scheduler.preempt(gang, [&](const json &v) {
            return PriorityAdmission::priorityOf(v) < priority && !Scheduler::isTerminated(v) &&
                   (!volcano ||
                    sub(v["metadata"], "labels").value("volcano.sh/queue-name", "") == queue);
        });
        if (plan) {
            evict(gang, *plan, volcano ? "preempt" : "");
            return true;
        }
    }
    return volcano && m_actions.count("reclaim") && reclaim(scheduler, gang, pods, queue);
}

std::set<std::string> SchedulerController::volcanoActions() const
{
    // Volcano's scheduler reads its actions from its ConfigMap; without one, its defaults.
    std::set<std::string> actions{"enqueue", "allocate", "backfill"};
    const auto cm = m_state.store->get(
        m_state.store->types()->find({}, QStringLiteral("v1"), QStringLiteral("configmaps")),
        QStringLiteral("volcano-system"), QStringLiteral("volcano-scheduler-configmap"));
    if (!cm.ok())
        return actions;
    const std::string conf =
        sub(*cm.object.object, "data").value("volcano-scheduler.conf", std::string());
    const size_t at = conf.find("actions:");
    if (at == std::string::npos)
        return actions;
    actions.clear();
    std::string list = conf.substr(at + 8, conf.find('\n', at) - at - 8);
    std::string word;
    for (char c : list + ",") {
        if (c == ',') {
            if (!word.empty())
                actions.insert(word);
            word.clear();
        } else if (std::isalpha(static_cast<unsigned char>(c))) {
            word += c;
        }
    }
    return actions;
}

bool SchedulerController::reclaim(const Scheduler &scheduler, const std::vector<const json *> &gang,
                                  const std::vector<const json *> &pods, const std::string &queue)
{
    // Volcano's reclaim action (with its proportion plugin): a queue below its deserved share
    // takes GPUs back from the queues above theirs, whatever the victims' priority, never so
    // many that a victim's queue falls below its own deserved share.
    auto deservedOf = [this](const std::string &q) -> std::optional<qint64> {
        const auto obj = m_state.store->get(m_state.queues, {}, QString::fromStdString(q));
        if (!obj.ok())
            return std::nullopt;
        const json &d = sub(sub(*obj.object.object, "spec"), "deserved");
        if (!d.contains("nvidia.com/gpu"))
            return std::nullopt;
        return parseQuantityMilli(d["nvidia.com/gpu"]) / 1000;
    };
    // What a queue holds: its pods bound and not going (a victim ending holds nothing it
    // keeps), and, for the queue that takes, its pods nominated by earlier passes.
    auto holds = [this](const std::string &q) {
        qint64 n = 0;
        for (const auto &[uid, info] : m_state.podInfo)
            if (info.queue == q && !info.node.empty() && !info.terminated() && !info.deleting)
                n += info.gpus;
        return n;
    };
    const auto mine = deservedOf(queue);
    qint64 asked = 0;
    for (const json *p : gang)
        asked += podRequests(*p).gpus;
    qint64 nominated = 0;
    for (const json *p : pods)
        if (!sub(*p, "spec").contains("nodeName") &&
            !sub(*p, "status").value("nominatedNodeName", "").empty() &&
            sub((*p)["metadata"], "labels").value("volcano.sh/queue-name", "") == queue &&
            std::find(gang.begin(), gang.end(), p) == gang.end())
            nominated += podRequests(*p).gpus;
    if (!mine || asked == 0 || holds(queue) + nominated + asked > *mine)
        return false;
    std::map<std::string, qint64> spare; // GPUs each other queue holds above its deserved share
    const auto plan = scheduler.preempt(gang, [&](const json &v) {
        const std::string q = sub(v["metadata"], "labels").value("volcano.sh/queue-name", "");
        if (q == queue || q.empty() || Scheduler::isTerminated(v))
            return false;
        if (!spare.count(q)) {
            const auto deserved = deservedOf(q);
            const auto obj = m_state.store->get(m_state.queues, {}, QString::fromStdString(q));
            const bool reclaimable =
                obj.ok() && sub((*obj.object.object), "spec").value("reclaimable", true);
            spare[q] = deserved && reclaimable ? holds(q) - *deserved : 0;
        }
        return podRequests(v).gpus > 0 && podRequests(v).gpus <= spare[q];
    });
    if (!plan)
        return false;
    // The victims taken together must leave each queue its share too.
    std::map<std::string, qint64> taken;
    for (const json *v : plan->victims)
        taken[sub((*v)["metadata"], "labels").value("volcano.sh/queue-name", "")] +=
            podRequests(*v).gpus;
    for (const auto &[q, gpus] : taken)
        if (gpus > spare[q])
            return false;
    evict(gang, *plan, "reclaim");
    return true;
}

void SchedulerController::evict(const std::vector<const json *> &gang,
                                const Scheduler::Preemption &plan, const std::string &action)
{
    // `action`: Volcano's ("preempt", "reclaim"), or "" for kube-scheduler's preemption.
    ObjectStore *store = m_state.store;
    const bool volcano = !action.empty();
    const std::string now = m_state.clock->nowRfc3339();
    for (const json *v : plan.victims) {
        const std::string ns = (*v)["metadata"].value("namespace", "");
        const std::string name = (*v)["metadata"].value("name", "");
        const std::string node = (*v)["spec"].value("nodeName", "");
        // The gang's pod that takes the victim's node: kube-scheduler names it.
        const json *by = gang.front();
        for (size_t i = 0; i < gang.size(); ++i)
            if (plan.nodes[i] == node)
                by = gang[i];
        // The evictor's three writes: the event, the condition, the deletion.
        const std::string why =
            volcano ? "Pod is evicted, because of " + action
                    : "Preempted by pod " + (*by)["metadata"].value("uid", "") + " on node " + node;
        m_state.recordEvent(m_state.objectRef(m_state.pods, ns, name), ns,
                            volcano ? "Warning" : "Normal", volcano ? "Evict" : "Preempted", why,
                            volcano ? "volcano" : "default-scheduler", "");
        // Volcano's evictor marks the pod not Ready for the eviction; kube-scheduler adds the
        // DisruptionTarget condition.
        json victim = *v;
        if (volcano)
            setCondition(victim["status"], condition("Ready", "False", now, "Evict", why));
        else
            setCondition(victim["status"],
                         condition("DisruptionTarget", "True", now, "PreemptionByScheduler",
                                   "default-scheduler: preempting to accommodate a higher "
                                   "priority pod"));
        store->update(m_state.pods, victim,
                      volcano ? QStringLiteral("volcano") : QStringLiteral("default-scheduler"));
        store->requestDelete(m_state.pods, QString::fromStdString(ns), QString::fromStdString(name),
                             DeleteOptions{});
        m_victims.insert((*v)["metadata"].value("uid", ""));
    }
    for (size_t i = 0; i < gang.size(); ++i) {
        json pod = *gang[i];
        pod["status"]["nominatedNodeName"] = plan.nodes[i];
        store->update(m_state.pods, pod,
                      volcano ? QStringLiteral("volcano") : QStringLiteral("default-scheduler"));
    }
    m_preempted = true;
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
