// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodemachine.h"

#include <algorithm>

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

bool MachineRegistry::kill(const std::string &node, int pid)
{
    std::lock_guard lock(m_mutex);
    auto it = m_machines.find(node);
    if (it == m_machines.end())
        return false;
    auto &procs = it->second.processes;
    const auto p = std::find_if(procs.begin(), procs.end(),
                                [pid](const GpuProcess &g) { return g.pid == pid; });
    if (p == procs.end())
        return false;
    // The card's memory goes with the process.
    for (auto &card : it->second.cards) {
        if (card.index == p->card)
            card.memoryUsedMiB = std::max(card.phantomMiB, card.memoryUsedMiB - p->memoryMiB);
    }
    procs.erase(p);
    return true;
}

void MachineRegistry::setServices(std::map<std::string, PodService> byIp)
{
    std::lock_guard lock(m_mutex);
    m_services = std::move(byIp);
}

std::optional<PodService> MachineRegistry::service(const std::string &ip) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_services.find(ip);
    if (it == m_services.end())
        return std::nullopt;
    return it->second;
}

std::string cgroupText(const std::string &style, const std::string &podUid,
                       const std::string &containerId, const std::string &qos)
{
    if (podUid.empty()) // a process started by hand on the host
        return style.rfind("v2", 0) == 0
                   ? "0::/user.slice/user-0.slice/session-4.scope\n"
                   : "12:memory:/user.slice\n11:devices:/user.slice\n1:name=systemd:/user.slice/"
                     "user-0.slice/session-4.scope\n0::/user.slice/user-0.slice/session-4.scope\n";
    std::string uidUnderscore = podUid;
    std::replace(uidUnderscore.begin(), uidUnderscore.end(), '-', '_');
    const std::string qosSlice = qos == "Guaranteed" ? "" : "kubepods-" + qos + ".slice/";
    const std::string systemdPath = "/kubepods.slice/" + qosSlice + "kubepods-" +
                                    (qos == "Guaranteed" ? "" : qos + "-") + "pod" + uidUnderscore +
                                    ".slice/cri-containerd-" + containerId + ".scope";
    if (style == "v2-systemd-containerd")
        return "0::" + systemdPath + "\n";
    if (style == "v1-systemd-containerd") {
        std::string out;
        int n = 12;
        for (const char *ctl : {"pids", "memory", "devices", "cpu,cpuacct", "blkio", "freezer",
                                "net_cls,net_prio", "perf_event", "hugetlb", "cpuset", "rdma"})
            out += std::to_string(n--) + ":" + ctl + ":" + systemdPath + "\n";
        out += "1:name=systemd:" + systemdPath + "\n0::/\n";
        return out;
    }
    // cgroupfs driver with docker: /kubepods/<qos>/pod<uid>/<container id>
    const std::string path = "/kubepods/" + (qos == "Guaranteed" ? std::string() : qos + "/") +
                             "pod" + podUid + "/" + containerId;
    std::string out;
    int n = 12;
    for (const char *ctl : {"pids", "memory", "devices", "cpu,cpuacct", "blkio", "freezer",
                            "net_cls,net_prio", "perf_event", "hugetlb", "cpuset", "rdma"})
        out += std::to_string(n--) + ":" + ctl + ":" + path + "\n";
    out += "1:name=systemd:" + path + "\n";
    return out;
}

} // namespace sim
