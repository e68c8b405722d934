// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodemachine.h"

#include <algorithm>
#include <utility>

namespace sim {

void MachineRegistry::put(const NodeMachine &m)
{
    std::lock_guard lock(m_mutex);
    m_machines[m.name] = m;
}

std::optional<NodeMachine> MachineRegistry::snapshot(const std::string &node) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_machines.find(node);
    if (it == m_machines.end())
        return std::nullopt;
    return it->second;
}

std::vector<std::string> MachineRegistry::names() const
{
    std::lock_guard lock(m_mutex);
    std::vector<std::string> out;
    for (const auto &[k, v] : m_machines)
        out.push_back(k);
    return out;
}

bool MachineRegistry::signal(const std::string &node, int pid, Signal sig, qint64 nowMs)
{
    std::function<void()> listener;
    {
        std::lock_guard lock(m_mutex);
        auto it = m_machines.find(node);
        if (it == m_machines.end())
            return false;
        NodeMachine &m = it->second;
        auto &procs = m.processes;
        const auto p = std::find_if(procs.begin(), procs.end(),
                                    [pid](const GpuProcess &g) { return g.pid == pid; });
        if (p == procs.end())
            return false;
        // Delivered, but without effect: a process in D state takes no signal until its I/O
        // returns; a trapped TERM is ignored.
        if (p->state == 'D' || (sig == Signal::Term && p->ignoresTerm))
            return true;
        auto freeCard = [&m](const GpuProcess &gone) {
            for (auto &card : m.cards) {
                if (card.index != gone.card)
                    continue;
                card.memoryUsedMiB = std::max(card.phantomMiB, card.memoryUsedMiB - gone.memoryMiB);
                if (card.memoryUsedMiB <= card.phantomMiB)
                    card.utilization = 0;
            }
        };
        if (p->orphan || p->podUid.empty()) {
            freeCard(*p);
            procs.erase(p);
            return true;
        }
        // A live pod's process: its container ends (torchrun takes the other ranks with it),
        // and the kubelet sees the exit.
        const GpuProcess victim = *p;
        for (auto q = procs.begin(); q != procs.end();) {
            if (q->podUid == victim.podUid && q->container == victim.container) {
                freeCard(*q);
                q = procs.erase(q);
            } else {
                ++q;
            }
        }
        m.exitedContainers.insert(victim.podUid);
        m_exits.push_back(
            {node, victim.podUid, victim.container, 128 + static_cast<int>(sig), nowMs});
        listener = m_exitListener;
    }
    if (listener)
        listener();
    return true;
}

bool MachineRegistry::exists(const std::string &node, int pid) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_machines.find(node);
    return it != m_machines.end() &&
           std::any_of(it->second.processes.begin(), it->second.processes.end(),
                       [pid](const GpuProcess &g) { return g.pid == pid; });
}

std::vector<ContainerExit> MachineRegistry::takeExits()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_exits, {});
}

void MachineRegistry::setExitListener(std::function<void()> listener)
{
    std::lock_guard lock(m_mutex);
    m_exitListener = std::move(listener);
}

void MachineRegistry::setServices(std::map<std::string, PodService> byIp)
{
    std::lock_guard lock(m_mutex);
    m_services = std::move(byIp);
}

bool MachineRegistry::setSshFrozen(const std::string &node, bool frozen)
{
    std::lock_guard lock(m_mutex);
    if (!m_machines.count(node))
        return false;
    if (frozen)
        m_sshFrozen.insert(node);
    else
        m_sshFrozen.erase(node);
    return true;
}

bool MachineRegistry::sshFrozen(const std::string &node) const
{
    std::lock_guard lock(m_mutex);
    return m_sshFrozen.count(node) > 0;
}

std::optional<PodService> MachineRegistry::service(const std::string &ip) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_services.find(ip);
    if (it == m_services.end())
        return std::nullopt;
    return it->second;
}

std::string podCgroupDir(const std::string &style, const std::string &podUid,
                         const std::string &qosClass)
{
    const bool guaranteed = qosClass == "Guaranteed";
    const std::string qos = qosClass == "BestEffort" ? "besteffort" : "burstable";
    if (style.find("systemd") != std::string::npos) {
        std::string uidUnderscore = podUid;
        std::replace(uidUnderscore.begin(), uidUnderscore.end(), '-', '_');
        return "/kubepods.slice/" + (guaranteed ? std::string() : "kubepods-" + qos + ".slice/") +
               "kubepods-" + (guaranteed ? std::string() : qos + "-") + "pod" + uidUnderscore +
               ".slice";
    }
    return "/kubepods/" + (guaranteed ? std::string() : qos + "/") + "pod" + podUid;
}

std::string cgroupText(const std::string &style, const std::string &podUid,
                       const std::string &containerId, const std::string &qosClass)
{
    if (podUid.empty()) // a process started by hand on the host
        return style.rfind("v2", 0) == 0
                   ? "0::/user.slice/user-0.slice/session-4.scope\n"
                   : "12:memory:/user.slice\n11:devices:/user.slice\n1:name=systemd:/user.slice/"
                     "user-0.slice/session-4.scope\n0::/user.slice/user-0.slice/session-4.scope\n";
    const std::string dir = podCgroupDir(style, podUid, qosClass);
    const bool systemd = style.find("systemd") != std::string::npos;
    // systemd: a scope per container; cgroupfs with docker: the container id itself.
    const std::string path =
        dir + (systemd ? "/cri-containerd-" + containerId + ".scope" : "/" + containerId);
    if (style == "v2-systemd-containerd")
        return "0::" + path + "\n";
    std::string out;
    int n = 12;
    for (const char *ctl : {"pids", "memory", "devices", "cpu,cpuacct", "blkio", "freezer",
                            "net_cls,net_prio", "perf_event", "hugetlb", "cpuset", "rdma"})
        out += std::to_string(n--) + ":" + ctl + ":" + path + "\n";
    out += "1:name=systemd:" + path + "\n";
    if (systemd)
        out += "0::/\n";
    return out;
}

} // namespace sim
