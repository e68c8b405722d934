// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
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
    bool orphan = false;      // outlived its pod: kept until killed
    std::string container;    // the container it runs in
    qint64 startMs = 0;       // when it started (simulated time): /proc/PID/stat's starttime
    qint64 orphanSinceMs = 0; // when its pod went
    char state = 'S';         // R, S, or D (uninterruptible sleep: no signal ends it)
    qint64 stateSinceMs = 0;  // for D: since when
    bool ignoresTerm = false; // TERM is ignored (SigIgn): only KILL ends it
    int gpuInstance = -1;     // MIG: the GPU instance it runs in (-1: the whole card)
    int computeInstance = -1;
    int utilization = 0; // what it keeps its card (or instance) busy with, %
};

// A MIG device: one GPU instance with its compute instance, as nvidia-smi lists it.
struct MigDevice
{
    int index = 0;       // device index within the card (nvidia-smi -L)
    std::string profile; // "3g.40gb"
    int gpuInstance = 0;
    int computeInstance = 0;
    int memoryMiB = 0;
    int memoryUsedMiB = 0;
    int bar1MiB = 0;
    int multiprocessors = 0;
    int copyEngines = 0;
    int decoders = 0;
    int utilization = 0; // not reported by nvidia-smi; the truth and DCGM's history use it
    std::string uuid;    // MIG-…
    std::string ownerPodUid;
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
    qint64 phantomSinceMs = 0;
    int temperature = 30;
    double powerDraw = 0;
    int clockSm = 210;
    std::string ownerPodUid; // allocated to, per the device plugin ("" = free)
    bool migEnabled = false;
    std::vector<MigDevice> mig; // in MIG mode: its instances
    // Uncorrectable ECC errors since the driver loaded (nvidia-smi's volatile count); only a
    // card with ECC (a data-centre board) counts them.
    int eccUncorrected = 0;
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
    // What the node's container runtime knows of the pod: `nerdctl ps` lists its container.
    std::string name, ns, container, image;
    int restartCount = 0;
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
    std::string gpuProduct; // as nvidia-smi names it; "" for CPU nodes
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
    // Its network interfaces, as /proc/net/dev lists them: lo, eth0, the container bridge, and
    // on the data-centre nodes an InfiniBand port per pair of cards (ib0…ib3).
    std::vector<std::string> interfaces;
    // What nvidia-smi meets: "ok", "failed" (the driver cannot be reached, exit 9),
    // "nodevices" ("No devices were found", exit 6), "missing" (nvidia-smi not installed).
    std::string driverState = "ok";
    // The kernel's ring buffer, oldest first: each message with its time in simulated ms (what
    // dmesg prints, in its ISO format or as seconds since boot).
    std::vector<std::pair<qint64, std::string>> kernelLog;
    // Pods whose container a signal ended, until their kubelet has recorded it (and restarted
    // the container where the pod's restartPolicy says so): their processes are not there.
    std::set<std::string> exitedContainers;

    // The node's boot time in simulated ms, fixed when the machine is made: process start times
    // in /proc/PID/stat count from it, and must not move between two reads of the same process
    // (a client compares them to tell a reused PID). /proc/uptime advances with the steps.
    qint64 bootedAtMs = 0;
};

// A container ended by a signal from a node's shell, for its kubelet to record.
struct ContainerExit
{
    std::string node;
    std::string podUid;
    std::string container;
    int exitCode = 0; // 128 + signal: 143 (TERM), 137 (KILL)
    qint64 atMs = 0;
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
    enum class Signal
    {
        Term = 15,
        Kill = 9,
    };
    // kill(2) on a node: false when there is no such process. A process of no pod ends at
    // once (its card's memory freed) unless it ignores the signal; one of a live pod's
    // container ends that container, which the kubelet records (takeExits) and restarts as
    // the pod's restartPolicy says.
    bool signal(const std::string &node, int pid, Signal signal, qint64 nowMs);
    bool exists(const std::string &node, int pid) const;
    std::vector<ContainerExit> takeExits();
    // Called (on the SSH thread that killed) when a container ended, so that the kubelet can
    // be run at once, whatever the simulation's speed.
    void setExitListener(std::function<void()> listener);
    template <class F> void edit(const std::string &node, F &&f)
    {
        std::lock_guard lock(m_mutex);
        auto it = m_machines.find(node);
        if (it != m_machines.end())
            f(it->second);
    }
    void setServices(std::map<std::string, PodService> byIp);
    std::optional<PodService> service(const std::string &ip) const;
    // A node frozen as a hung kernel or a black-holed link leaves it: its SSH port still takes
    // connections, and nothing on them (old or new) is answered until it thaws. False for a
    // node that does not exist.
    bool setSshFrozen(const std::string &node, bool frozen);
    bool sshFrozen(const std::string &node) const;

private:
    mutable std::mutex m_mutex;
    std::map<std::string, NodeMachine> m_machines;
    std::map<std::string, PodService> m_services;
    std::set<std::string> m_sshFrozen;
    std::vector<ContainerExit> m_exits;
    std::function<void()> m_exitListener;
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
