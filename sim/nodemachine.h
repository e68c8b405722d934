// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sim {

struct GpuProcess
{
    int pid = 0;
    int card = 0;
    int memoryMiB = 0;
    std::string name;    // process_name as nvidia-smi prints it
    std::string cgroup;  // the text of /proc/<pid>/cgroup
    std::string podUid;  // "" when the process belongs to no pod
    std::string podName; // as the pod was named (may no longer exist)
    std::string podNamespace;
    bool orphan = false; // outlived its pod: kept until killed
};

struct GpuCard
{
    int index = 0;
    std::string uuid;
    std::string busId;
    int utilization = 0;       // %
    int memoryUtilization = 0; // %
    int memoryUsedMiB = 0;
    int phantomMiB = 0; // memory held with no process (driver / leaked context)
    int temperature = 30;
    double powerDraw = 0;
    int clockSm = 210;
    std::string ownerPodUid; // allocated to, per the device plugin ("" = free)
};

// A running pod's cgroup as the kubelet made it: what its cpu and memory files say.
struct PodCgroup
{
    std::string qosClass;   // Guaranteed, Burstable, BestEffort: picks the cgroup's parent
    double cpuCores = 0;    // the rate now, as /sim/truth reports it
    quint64 cpuUsageNs = 0; // since the pod started
    qint64 workingSetBytes = 0;
    qint64 inactiveFileBytes = 0; // page cache the kernel reclaims first: not in the working set
    qint64 activeFileBytes = 0;
};

struct DiskMount
{
    std::string filesystem;
    std::string mount;
    qint64 blocks1k = 0;
    qint64 used1k = 0;
};

// One node's hardware as its tools would report it. Written by the simulation on the UI thread,
// read by SSH sessions on their threads: always copied out under the registry's lock.
struct NodeMachine
{
    std::string name;
    std::string hostname;
    std::string gpuProduct; // "" for CPU nodes
    int memoryTotalMiB = 0;
    double powerLimit = 0;
    double idlePower = 0;
    bool eccSupported = false;
    std::string driverVersion;
    std::string cudaVersion;
    std::string kernel;
    int cpus = 0;
    qint64 memTotalKb = 0;
    qint64 memAvailableKb = 0;
    quint64 cpuTicks[8] = {}; // user nice system idle iowait irq softirq steal (all cpus)
    double load[3] = {0, 0, 0};
    int runningProcs = 1;
    int totalProcs = 900;
    int lastPid = 40000;
    std::string
        cgroupStyle; // "v2-systemd-containerd", "v1-cgroupfs-docker", "v1-systemd-containerd"
    std::vector<GpuCard> cards;
    std::vector<GpuProcess> processes;
    std::map<std::string, PodCgroup> pods; // running pods, by uid
    double uptimeSecs = 0;                 // /proc/uptime: the node's own clock
    std::vector<DiskMount> disks;
    // What nvidia-smi meets: "ok", "failed" (the driver cannot be reached, exit 9),
    // "nodevices" ("No devices were found", exit 6), "missing" (nvidia-smi not installed).
    std::string driverState = "ok";
};

// A dev environment's in-pod services, reachable through direct-tcpip on its node.
struct PodService
{
    std::string pod;
    std::string ns;
    std::string node;
    std::map<int, std::string> ports; // port → service name (jupyter, vscode, ssh, tensorboard)
};

class MachineRegistry
{
public:
    void put(const NodeMachine &m);
    std::optional<NodeMachine> snapshot(const std::string &node) const;
    std::vector<std::string> names() const;
    // Removes a process; returns false if there is none with that pid.
    bool kill(const std::string &node, int pid);
    template <class F> void edit(const std::string &node, F &&f)
    {
        std::lock_guard lock(m_mutex);
        auto it = m_machines.find(node);
        if (it != m_machines.end())
            f(it->second);
    }
    void setServices(std::map<std::string, PodService> byIp);
    std::optional<PodService> service(const std::string &ip) const;

private:
    mutable std::mutex m_mutex;
    std::map<std::string, NodeMachine> m_machines;
    std::map<std::string, PodService> m_services;
};

// A pod's cgroup directory below the hierarchy's root, as the kubelet names it for the node's
// cgroup driver: "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_>.slice"
// (systemd) or "/kubepods/burstable/pod<uid>" (cgroupfs).
std::string podCgroupDir(const std::string &style, const std::string &podUid,
                         const std::string &qosClass);
// The text of /proc/<pid>/cgroup for a process of that pod's container (or of no pod).
std::string cgroupText(const std::string &style, const std::string &podUid,
                       const std::string &containerId, const std::string &qosClass);

} // namespace sim
