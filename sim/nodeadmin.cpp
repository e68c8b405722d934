// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodeadmin.h"

#include "nodemachine.h"
#include "objectfactory.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

namespace sim {

using nlohmann::json;

void NodeAdmin::setNodeReady(const std::string &node, bool ready, const std::string &message)
{
    const auto res = m_state.store->get(m_state.nodes, {}, QString::fromStdString(node));
    if (!res.ok())
        return;
    json n = *res.object.object;
    const std::string now = m_state.clock->nowRfc3339();
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
    m_state.store->update(m_state.nodes, n, QStringLiteral("kube-controller-manager"));
    m_state.recordEvent(m_state.objectRef(m_state.nodes, "", node), "default", "Normal",
                        ready ? "NodeReady" : "NodeNotReady",
                        "Node " + node +
                            " status is now: " + (ready ? "NodeReady" : "NodeNotReady"),
                        "node-controller", "");
}

void NodeAdmin::setDiskPressure(const std::string &node, int percentUsed)
{
    m_state.machines->edit(node, [&](NodeMachine &m) {
        for (auto &d : m.disks) {
            if (d.mount == "/")
                d.used1k = d.blocks1k * percentUsed / 100;
        }
    });
    if (percentUsed < 85)
        return;
    const auto res = m_state.store->get(m_state.nodes, {}, QString::fromStdString(node));
    json n = *res.object.object;
    const std::string now = m_state.clock->nowRfc3339();
    for (auto &c : n["status"]["conditions"]) {
        if (c["type"] == "DiskPressure") {
            c["status"] = "True";
            c["reason"] = "KubeletHasDiskPressure";
            c["message"] = "kubelet has disk pressure";
            c["lastTransitionTime"] = now;
        }
    }
    n["spec"]["taints"] = json::array({json{{"key", "node.kubernetes.io/disk-pressure"},
                                            {"effect", "NoSchedule"},
                                            {"timeAdded", now}}});
    m_state.store->update(m_state.nodes, n, QStringLiteral("kubelet"));
    m_state.recordEvent(m_state.objectRef(m_state.nodes, "", node), "default", "Warning",
                        "EvictionThresholdMet", "Attempting to reclaim ephemeral-storage",
                        "kubelet", node);
}

void NodeAdmin::evictForDiskPressure(const std::string &ns, const std::string &name,
                                     const std::string &usage)
{
    const auto res =
        m_state.store->get(m_state.pods, QString::fromStdString(ns), QString::fromStdString(name));
    if (!res.ok())
        return;
    json pod = *res.object.object;
    const std::string node = sub(pod, "spec").value("nodeName", "");
    const std::string container = pod["spec"]["containers"][0].value("name", "");
    const std::string now = m_state.clock->nowRfc3339();
    // The eviction manager's words (pkg/kubelet/eviction/helpers.go: evictionMessage).
    const std::string message =
        "The node was low on resource: ephemeral-storage. Threshold quantity: 10%, available: "
        "8%. Container " +
        container + " was using " + usage +
        ", request is 0, has larger consumption of ephemeral-storage. ";
    failPod(pod["status"], "Evicted", message, now);
    setCondition(pod["status"], condition("DisruptionTarget", "True", now, "TerminationByKubelet",
                                          "The node was low on resource: ephemeral-storage. "));
    m_state.store->update(m_state.pods, pod, QStringLiteral("kubelet"));
    m_state.recordEvent(m_state.objectRef(m_state.pods, ns, name), ns, "Warning", "Evicted",
                        message, "kubelet", node);
}

void NodeAdmin::setPhantom(const std::string &node, int card, int memoryMiB)
{
    m_state.machines->edit(node, [&](NodeMachine &m) {
        if (card < int(m.cards.size())) {
            m.cards[size_t(card)].phantomMiB = memoryMiB;
            m.cards[size_t(card)].phantomSinceMs = m_state.clock->nowMs();
        }
    });
}

int NodeAdmin::eccErrors(const std::string &node, const std::string &podUid, int count)
{
    int index = -1;
    m_state.machines->edit(node, [&](NodeMachine &m) {
        for (GpuCard &c : m.cards)
            if (m.eccSupported && !podUid.empty() && c.ownerPodUid == podUid) {
                c.eccUncorrected += count;
                index = c.index;
                return;
            }
    });
    return index;
}

void NodeAdmin::kernelMessage(const std::string &node, const std::string &message)
{
    const qint64 now = m_state.clock->nowMs();
    m_state.machines->edit(node, [&](NodeMachine &m) { m.kernelLog.emplace_back(now, message); });
}

bool NodeAdmin::setDriverState(const std::string &node, const std::string &state)
{
    if (state != "ok" && state != "failed" && state != "nodevices" && state != "missing")
        return false;
    bool found = false;
    m_state.machines->edit(node, [&](NodeMachine &m) {
        m.driverState = state;
        found = true;
    });
    return found;
}

void NodeAdmin::cordon(const std::string &node)
{
    const auto res = m_state.store->get(m_state.nodes, {}, QString::fromStdString(node));
    if (!res.ok())
        return;
    json n = *res.object.object;
    n["spec"]["unschedulable"] = true;
    m_state.store->update(m_state.nodes, n, QStringLiteral("kubectl-cordon"));
    syncUnschedulableTaints();
}

void NodeAdmin::syncUnschedulableTaints()
{
    // The node lifecycle controller's part of a cordon (kubectl cordon only sets
    // spec.unschedulable): the unschedulable taint follows the flag.
    for (const auto &stored : m_state.store->list(m_state.nodes)) {
        const json &n = *stored.object;
        const bool unschedulable = sub(n, "spec").value("unschedulable", false);
        bool tainted = false;
        for (const auto &t : sub(sub(n, "spec"), "taints"))
            tainted |= t.value("key", "") == "node.kubernetes.io/unschedulable";
        if (unschedulable == tainted)
            continue;
        json updated = n;
        json taints = json::array();
        for (const auto &t : sub(sub(n, "spec"), "taints"))
            if (t.value("key", "") != "node.kubernetes.io/unschedulable")
                taints.push_back(t);
        if (unschedulable)
            taints.push_back(json{{"key", "node.kubernetes.io/unschedulable"},
                                  {"effect", "NoSchedule"},
                                  {"timeAdded", m_state.clock->nowRfc3339()}});
        if (taints.empty())
            updated["spec"].erase("taints");
        else
            updated["spec"]["taints"] = taints;
        m_state.store->update(m_state.nodes, updated, QStringLiteral("kube-controller-manager"));
    }
}

} // namespace sim
