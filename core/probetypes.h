// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace gpudesk {

// What one node says about its GPUs, processes, CPU, memory and disks, parsed from the text of
// the fixed probe commands (nvidia-smi's CSV queries, /proc files, df -P). Every field nvidia-smi
// may answer with [N/A], [Not Supported] or an error marker is optional; a line that is cut off
// is skipped and counted, never guessed.

struct GpuCardSample
{
    int index = -1;
    QString uuid;
    QString name;
    QString busId;
    std::optional<int> utilization;       // %
    std::optional<int> memoryUtilization; // %
    std::optional<qint64> memoryUsedMiB;
    std::optional<qint64> memoryTotalMiB;
    std::optional<int> temperatureC;
    std::optional<double> powerDrawW;
    std::optional<double> powerLimitW;
    std::optional<qint64> eccUncorrected;
    std::optional<int> smClockMHz;
    // mig.mode.current: true "Enabled", false "Disabled", none where the card cannot do MIG
    // ("[N/A]") or the driver was not asked. A card in MIG mode reports no utilization of its
    // own: its instances carry the work.
    std::optional<bool> migEnabled;
};

// One MIG instance (GPU instance + compute instance) of a card, joined from `nvidia-smi -L`
// (its profile and UUID) and `nvidia-smi -q -x` (its instance ids and memory).
struct MigDeviceSample
{
    int gpuIndex = -1; // the card it is carved from
    int index = -1;    // "Device N" under the card, mig_device/index in the XML
    QString profile;   // "3g.40gb", as the device plugin names its resource (nvidia.com/mig-…)
    QString uuid;      // MIG-…
    int gpuInstanceId = -1;
    int computeInstanceId = -1;
    std::optional<qint64> memoryUsedMiB;
    std::optional<qint64> memoryTotalMiB;
    // The GPU slices of its profile ("3g" → 3 of the card's 7), for drawing it to scale.
    int slices() const;
};

struct GpuProcessSample
{
    QString gpuUuid;
    qint64 pid = 0;
    std::optional<qint64> memoryMiB;
    QString name;
};

// The answer of one nvidia-smi query, whatever state the node is in.
template <typename T> struct NvidiaSmiResult
{
    enum State
    {
        Ok,
        NoNvidiaSmi,  // a CPU node: the command does not exist
        DriverFailed, // "NVIDIA-SMI has failed because it couldn't communicate with the driver"
        NoDevices,    // "No devices were found"
        Failed        // another error; message says which
    };
    State state = Ok;
    QList<T> rows;
    int skippedLines = 0; // cut off or not in the queried shape
    QString message;      // nvidia-smi's own words when it failed
};

struct CpuTimes
{
    quint64 user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    quint64 total() const { return user + nice + system + idle + iowait + irq + softirq + steal; }
    quint64 busy() const { return total() - idle - iowait; }
};

struct MemInfo
{
    qint64 totalKiB = 0;
    qint64 availableKiB = 0;
};

struct LoadAvg
{
    double one = 0, five = 0, fifteen = 0;
};

struct DiskUse
{
    QString filesystem;
    QString mountPoint;
    qint64 totalKiB = 0;
    qint64 usedKiB = 0;
    qint64 availableKiB = 0;
    int percent = 0;
};

// A network interface of the node, from /proc/net/dev: its name and the bytes it moved since
// boot. The submit check reads the names (NCCL_SOCKET_IFNAME must name one of them).
struct NetInterface
{
    QString name;
    qint64 rxBytes = 0;
    qint64 txBytes = 0;
};

// Which pod and container a process belongs to, from its /proc/<pid>/cgroup.
struct CgroupOwner
{
    QString podUid;      // with dashes, as in the pod's metadata.uid
    QString containerId; // 64 hex digits, as in containerStatuses[].containerID after "://"
    QString runtime;     // containerd, docker, cri-o, or "" when the path does not say
    bool isPod() const { return !podUid.isEmpty(); }
};

// Where a node's kubelet keeps pod cgroups: the cgroup version and the kubelet's driver.
enum class CgroupLayout
{
    Unknown,
    V2Systemd,  // /sys/fs/cgroup/kubepods.slice/…/kubepods-<qos>-pod<uid_>.slice
    V2Cgroupfs, // /sys/fs/cgroup/kubepods/<qos>/pod<uid>
    V1Systemd,  // /sys/fs/cgroup/<controller>/kubepods.slice/…
    V1Cgroupfs  // /sys/fs/cgroup/<controller>/kubepods/<qos>/pod<uid>
};

// A pod's own CPU and memory, from its cgroup's files.
struct PodCgroupSample
{
    quint64 cpuUsageNs = 0;     // CPU time since the pod started
    qint64 memoryBytes = 0;     // usage, page cache included
    qint64 workingSetBytes = 0; // usage less inactive page cache, as the kubelet counts it
};

inline int MigDeviceSample::slices() const
{
    // "1g.10gb", "3g.40gb", and compute-instance profiles such as "1c.3g.71gb".
    const qsizetype g = profile.indexOf(QLatin1String("g."));
    qsizetype start = g;
    while (start > 0 && profile.at(start - 1).isDigit())
        --start;
    bool ok = false;
    const int n = g > 0 ? profile.mid(start, g - start).toInt(&ok) : 0;
    return ok && n > 0 ? n : 1;
}

} // namespace gpudesk
