// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probetypes.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <algorithm>
#include <optional>

namespace gpudesk {

// A GPU process as the node sees it, with the pod its cgroup names (none: a host process, or a
// container that is no pod's).
struct NodeProcess
{
    qint64 pid = 0;
    QString gpuUuid;
    int cardIndex = -1; // -1: the uuid is not among the node's cards
    int migDevice = -1; // on a MIG card: the instance it runs in (MigDeviceSample::index)
    std::optional<qint64> memoryMiB;
    QString name;
    CgroupOwner owner;
    // From /proc/PID/stat, read each sample for the node's GPU processes (0 / -1 until read):
    // the state letter (R, S, D — uninterruptible, no signal ends it —, Z, …) and the start
    // time in clock ticks since boot, which tells a PID reused by another process.
    char state = 0;
    qint64 startTicks = -1;
};

// A pod's own CPU and memory on the node, from its cgroup.
struct PodUsage
{
    QString uid;
    std::optional<double> cpuCores; // since the previous sample; none on the first
    qint64 memoryBytes = 0;         // page cache included
    qint64 workingSetBytes = 0;     // what the kubelet and `kubectl top` call memory
};

// One sample of one node, parsed on the worker that took it.
struct NodeSample
{
    QString node;
    qint64 time = 0;       // ms since the epoch, when the answer came
    qint64 durationMs = 0; // the exec's round trip
    NvidiaSmiResult<GpuCardSample>::State gpuState = NvidiaSmiResult<GpuCardSample>::Ok;
    QString gpuMessage; // nvidia-smi's words when it failed
    QList<GpuCardSample> cards;
    QList<MigDeviceSample> migDevices; // of the cards in MIG mode
    QList<NodeProcess> processes;
    int exitedProcesses = 0;          // listed by nvidia-smi, gone before their cgroup was read
    int skippedLines = 0;             // nvidia-smi lines cut off or malformed
    std::optional<double> cpuPercent; // since the previous sample; none on the first
    int cpuCount = 0;
    std::optional<MemInfo> memory;
    std::optional<LoadAvg> load;
    QList<DiskUse> disks; // one per mount point
    std::optional<double> uptimeSecs;
    QList<NetInterface> interfaces; // lo included
    CgroupLayout cgroupLayout = CgroupLayout::Unknown;
    QList<PodUsage> pods; // the running pods asked for whose cgroup the node has
    // The pods whose cgroups this sample read (none while the layout is unknown): one of them
    // absent from `pods` has no container running on the node any more.
    QStringList podsAsked;
    QString error; // the sample failed as a whole (timeout, broken connection)

    bool ok() const { return error.isEmpty(); }
    bool hasGpus() const { return gpuState == NvidiaSmiResult<GpuCardSample>::Ok; }
    bool hasMig() const
    {
        return std::any_of(cards.cbegin(), cards.cend(),
                           [](const GpuCardSample &c) { return c.migEnabled.value_or(false); });
    }
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::NodeSample)
