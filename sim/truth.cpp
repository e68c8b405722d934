// SPDX-License-Identifier: GPL-3.0-or-later
#include "truth.h"

#include "nastree.h"
#include "nodemachine.h"
#include "objectfactory.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"
#include "truthfindings.h"

#include <algorithm>

namespace sim {

using nlohmann::json;

Truth::Truth(const SimState &state) : m_state(state) {}

json Truth::toJson() const
{
    qint64 pendingDemand = 0;
    std::map<std::string, qint64> byUser;
    std::map<std::string, qint64> byQueue;
    // What a namespace's quota counts: every pod not finished, bound or not.
    QuotaCounts counted;
    std::map<std::string, std::vector<std::string>> podsOfImage;
    for (const auto &[uid, info] : m_state.podInfo) {
        if (info.terminated())
            continue;
        if (!info.image.empty())
            podsOfImage[info.image].push_back(info.ns + "/" + info.name);
        counted.pods[info.ns] += 1;
        counted.gpus[info.ns] += info.gpus;
        if (info.node.empty()) {
            pendingDemand += info.gpus;
            continue;
        }
        byUser[userOfNamespace(info.ns)] += info.gpus;
        byQueue[info.queue.empty() ? "default" : info.queue] += info.gpus;
    }
    // A gang still waiting for admission has no pods yet (its controller makes them once the
    // queue admits it): what it waits for is its pod group's minResources.
    for (const auto &stored : m_state.store->list(m_state.podgroups)) {
        const json &pg = *stored.object;
        if (sub(pg, "status").value("phase", "") == "Pending")
            pendingDemand +=
                parseQuantityMilli(
                    sub(pg["spec"], "minResources").value("nvidia.com/gpu", json("0"))) /
                1000;
    }
    Totals totals;
    json nodes = json::array();
    for (const auto &stored : m_state.store->list(m_state.nodes))
        nodes.push_back(node(*stored.object, &totals));
    json out{{"time", m_state.clock->nowRfc3339()},
             {"resourceVersion", std::to_string(m_state.store->resourceVersion())},
             {"definitions", definitions()},
             {"gpus",
              {{"total", totals.total},
               {"allocated", totals.allocated},
               {"free", totals.free},
               {"busy", totals.busy},
               {"pendingDemand", pendingDemand}}},
             {"nodes", nodes},
             {"queues", queues(byQueue)},
             {"users", users(byUser, counted)},
             {"planted", planted()},
             {"images", images(podsOfImage)},
             {"findings", TruthFindings(m_state).toJson()}};
    if (m_state.nas)
        out["nas"] = nas();
    return out;
}

json Truth::node(const json &n, Totals *totals) const
{
    const std::string name = n["metadata"].value("name", "");
    bool ready = false;
    for (const auto &c : sub(n["status"], "conditions"))
        ready |= c.value("type", "") == "Ready" && c.value("status", "") == "True";
    const bool schedulable = !sub(n, "spec").value("unschedulable", false);
    const qint64 nodeTotal = nodeAllocatable(n).gpus;
    qint64 nodeAlloc = 0;
    json migAllocatable = json::object();
    json migAllocated = json::object();
    for (const auto &[profile, count] : nodeAllocatable(n).mig) {
        migAllocatable[profile] = count;
        migAllocated[profile] = 0;
    }
    const auto podsIt = m_state.podsOnNode.find(name);
    if (podsIt != m_state.podsOnNode.end()) {
        for (const auto &uid : podsIt->second) {
            const auto it = m_state.podInfo.find(uid);
            if (it == m_state.podInfo.end() || it->second.terminated())
                continue;
            nodeAlloc += it->second.gpus;
            for (const auto &[profile, count] : it->second.migRequests)
                migAllocated[profile] = migAllocated.value(profile, qint64(0)) + count;
        }
    }
    const qint64 nodeFree = ready && schedulable ? std::max<qint64>(0, nodeTotal - nodeAlloc) : 0;
    qint64 nodeBusy = 0;
    // One snapshot for cards and pods: SSH sessions may kill processes meanwhile.
    const auto m = m_state.machines->snapshot(name);
    const json cardList = m ? cards(*m, &nodeBusy) : json::array();
    const json pods = m ? podCgroups(*m) : json::array();
    totals->total += nodeTotal;
    totals->allocated += nodeAlloc;
    totals->free += nodeFree;
    totals->busy += nodeBusy;
    const auto labels = sub(n["metadata"], "labels");
    return json{
        {"name", name},
        {"ready", ready},
        {"schedulable", schedulable},
        {"gpuModel", labels.contains("nvidia.com/gpu.product") ? labels["nvidia.com/gpu.product"]
                                                               : json(nullptr)},
        {"gpus",
         {{"total", nodeTotal}, {"allocated", nodeAlloc}, {"free", nodeFree}, {"busy", nodeBusy}}},
        {"cards", cardList},
        {"migAllocatable", migAllocatable},
        {"imagesInUse", "per image its first container names: the pods (namespace/name) whose "
                        "phase is not Succeeded or Failed"},
        {"migAllocated", migAllocated},
        {"gpuState", !m || m->gpuProduct.empty() || m->driverState == "missing"
                         ? json("noNvidiaSmi")
                     : m->driverState == "failed"    ? json("driverFailed")
                     : m->driverState == "nodevices" ? json("noDevices")
                                                     : json("ok")},
        {"pods", pods}};
}

json Truth::cards(const NodeMachine &m, qint64 *busy) const
{
    json cards = json::array();
    for (const auto &c : m.cards) {
        json procs = json::array();
        for (const auto &p : m.processes) {
            if (p.card != c.index)
                continue;
            const bool live = m_state.podInfo.count(p.podUid) > 0;
            json proc{{"pid", p.pid},
                      {"memoryMiB", p.memoryMiB},
                      {"podUid", live ? json(p.podUid) : json(nullptr)},
                      {"pod", live ? json(p.podName) : json(nullptr)},
                      {"namespace", live ? json(p.podNamespace) : json(nullptr)},
                      {"user", live ? json(userOfNamespace(p.podNamespace)) : json(nullptr)},
                      {"formerPodUid", p.podUid.empty() ? json(nullptr) : json(p.podUid)},
                      {"orphan", !live},
                      {"state", std::string(1, p.state)},
                      {"ignoresTerm", p.ignoresTerm}};
            if (p.gpuInstance >= 0) {
                proc["gpuInstanceId"] = p.gpuInstance;
                proc["computeInstanceId"] = p.computeInstance;
            }
            procs.push_back(proc);
        }
        json mig = json::array();
        for (const auto &d : c.mig) {
            json pids = json::array();
            for (const auto &p : m.processes)
                if (p.card == c.index && p.gpuInstance == d.gpuInstance)
                    pids.push_back(p.pid);
            mig.push_back(
                json{{"index", d.index},
                     {"profile", d.profile},
                     {"uuid", d.uuid},
                     {"gi", d.gpuInstance},
                     {"ci", d.computeInstance},
                     {"memoryMiB", d.memoryMiB},
                     {"memoryUsedMiB", d.memoryUsedMiB},
                     {"utilization", d.utilization},
                     {"allocatedTo", d.ownerPodUid.empty() ? json(nullptr) : json(d.ownerPodUid)},
                     {"processes", pids}});
        }
        const bool isBusy = c.utilization >= 5;
        *busy += isBusy ? 1 : 0;
        cards.push_back(
            json{{"index", c.index},
                 {"uuid", c.uuid},
                 {"utilization", c.utilization},
                 {"memoryUsedMiB", c.memoryUsedMiB},
                 {"memoryTotalMiB", m.memoryTotalMiB},
                 {"busy", isBusy},
                 {"phantom", c.phantomMiB > 0 && procs.empty()},
                 {"allocatedTo", c.ownerPodUid.empty() ? json(nullptr) : json(c.ownerPodUid)},
                 {"migMode", !m.eccSupported ? json(nullptr)
                             : c.migEnabled  ? json("Enabled")
                                             : json("Disabled")},
                 {"migDevices", mig},
                 {"eccUncorrected", m.eccSupported ? json(c.eccUncorrected) : json(nullptr)},
                 {"processes", procs}});
    }
    return cards;
}

json Truth::podCgroups(const NodeMachine &m) const
{
    // What each running pod's cgroup says: CPU now, and the working set as the kubelet
    // counts it (usage less inactive page cache).
    json pods = json::array();
    for (const auto &[uid, cg] : m.pods) {
        const auto it = m_state.podInfo.find(uid);
        const bool known = it != m_state.podInfo.end();
        pods.push_back(json{{"uid", uid},
                            {"pod", known ? json(it->second.name) : json(nullptr)},
                            {"namespace", known ? json(it->second.ns) : json(nullptr)},
                            {"qosClass", cg.qosClass},
                            {"gpus", known ? it->second.gpus : 0},
                            {"cpuCores", cg.cpuCores},
                            {"memoryWorkingSetMiB", cg.workingSetBytes >> 20}});
    }
    return pods;
}

json Truth::queues(const std::map<std::string, qint64> &byQueue) const
{
    auto gpus = [](const json &list) {
        return list.contains("nvidia.com/gpu")
                   ? json(parseQuantityMilli(list["nvidia.com/gpu"]) / 1000)
                   : json(nullptr);
    };
    json queues = json::array();
    for (const auto &q : m_state.store->list(m_state.queues)) {
        const json &spec = sub(*q.object, "spec");
        const std::string name = (*q.object)["metadata"].value("name", "");
        const std::string parent = spec.value("parent", "");
        queues.push_back(
            json{{"name", name},
                 {"state", sub(*q.object, "status").value("state", "Open")},
                 {"weight", spec.value("weight", 1)},
                 {"parent", parent.empty() || parent == "root" ? json(nullptr) : json(parent)},
                 {"gpus",
                  {{"capability", gpus(sub(spec, "capability"))},
                   {"deserved", gpus(sub(spec, "deserved"))},
                   {"guarantee", gpus(sub(sub(spec, "guarantee"), "resource"))},
                   {"allocated", byQueue.count(name) ? byQueue.at(name) : 0}}}});
    }
    return queues;
}

json Truth::users(const std::map<std::string, qint64> &byUser, const QuotaCounts &counted) const
{
    const ResourceType *quotas =
        m_state.store->types()->find({}, QStringLiteral("v1"), QStringLiteral("resourcequotas"));
    json users = json::array();
    for (const auto &ns : m_state.store->list(m_state.namespaces)) {
        const json labels = sub((*ns.object)["metadata"], "labels");
        if (!labels.contains("gpudesk.io/user"))
            continue;
        const std::string user = labels["gpudesk.io/user"];
        const std::string name = (*ns.object)["metadata"].value("name", "");
        // The limits as stored, and what the pods of the namespace ask for counted here from the
        // pods themselves (not the quota controller's status, which the report reads).
        json hard = json::object();
        for (const auto &q : m_state.store->list(quotas, QString::fromStdString(name)))
            for (const auto &[k, v] : sub(sub(*q.object, "spec"), "hard").items())
                hard[k] = v;
        auto count = [&](const std::map<std::string, qint64> &m) {
            return m.count(name) ? m.at(name) : 0;
        };
        users.push_back(json{
            {"name", user},
            {"namespace", name},
            {"vc", labels.value("gpudesk.io/vc", "")},
            {"quota",
             {{"hard", hard},
              {"requested",
               {{"pods", count(counted.pods)}, {"requests.nvidia.com/gpu", count(counted.gpus)}}}}},
            {"gpus", {{"allocated", byUser.count(user) ? byUser.at(user) : 0}}}});
    }
    return users;
}

json Truth::planted() const
{
    json planted = json::array();
    for (const auto &p : m_state.planted)
        planted.push_back(
            json{{"id", p.id},
                 {"description", p.description},
                 {"node", p.node.empty() ? json(nullptr) : json(p.node)},
                 {"objects", p.objects},
                 {"diagnosis", p.diagnosis.empty() ? json(nullptr) : json(p.diagnosis)}});
    return planted;
}

json Truth::nas() const
{
    // Walked now, not remembered: the tree is real, and whatever changed it since is counted.
    json folders = json::object();
    for (const std::string &folder : m_state.nas->folders()) {
        const NasTree::Usage u = m_state.nas->usage(folder);
        folders[folder] = {
            {"bytes", u.bytes}, {"allocated", u.allocated}, {"files", u.files}, {"dirs", u.dirs}};
    }
    return json{{"root", m_state.nas->root()}, {"mount", "/mnt"}, {"folders", folders}};
}

json Truth::images(std::map<std::string, std::vector<std::string>> podsOfImage)
{
    json out = json::array();
    for (auto &[reference, pods] : podsOfImage) {
        std::sort(pods.begin(), pods.end());
        out.push_back({{"reference", reference}, {"pods", pods}});
    }
    return out;
}

json Truth::definitions()
{
    return json{
        {"allocated", "nvidia.com/gpu requested by pods bound to a node whose phase is not "
                      "Succeeded or Failed"},
        {"free",
         "allocatable minus allocated, on nodes that are Ready and not cordoned; 0 elsewhere"},
        {"busy", "cards at 5 % utilization or more"},
        {"pendingDemand",
         "nvidia.com/gpu requested by pods not bound to a node and not finished, plus the "
         "minResources of pod groups not yet admitted (Pending: their jobs have no pods yet)"},
        {"queueOfPod", "label volcano.sh/queue-name, else default"},
        {"userOfPod", "label gpudesk.io/user of the pod's namespace"},
        {"quotaRequested", "per user namespace: pods whose phase is not Succeeded or Failed, "
                           "bound or not, and the nvidia.com/gpu they request (what a "
                           "ResourceQuota counts as used)"},
        {"migMode", "per card: Enabled or Disabled on boards that support MIG, null elsewhere; a "
                    "card in MIG mode is busy while one of its instances is"},
        {"migAllocated", "per node and profile: nvidia.com/mig-<profile> requested by pods bound "
                         "to it and not finished"},
        {"nas", "the NAS every node mounts at /mnt, a real tree under root; per folder "
                "(/mnt/user/NAME, /mnt/share/GROUP), symbolic links not followed: bytes, the "
                "st_size of the folder and of every entry below it (du -sb); allocated, their "
                "st_blocks * 512; files, entries below that are not directories; dirs, "
                "directories below. A directory without read permission (the nodes' user is not "
                "root) is counted, its contents are not"},
        {"findings", TruthFindings::definitions()}};
}

} // namespace sim
