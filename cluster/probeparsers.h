// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probetypes.h"

#include <QByteArray>

namespace gpudesk {

namespace probe {

// nvidia-smi --query-gpu=index,uuid,name,pci.bus_id,utilization.gpu,utilization.memory,
// memory.used,memory.total,temperature.gpu,power.draw,power.limit,
// ecc.errors.uncorrected.volatile.total,clocks.sm --format=csv,noheader,nounits
NvidiaSmiResult<GpuCardSample> parseGpus(const QByteArray &output, int exitCode);
// The same with mig.mode.current appended (14 fields); 13 fields (an older query, or a driver
// that was not asked) are read as before, with migEnabled left unset.

// What `nvidia-smi -L` lists under each card in MIG mode: its instances' profiles and UUIDs,
// in the new (R470+: "MIG 3g.40gb     Device  0: (UUID: MIG-…)") and the old form
// ("MIG 1g.5gb Device 0: (UUID: MIG-GPU-…/7/0)").
QList<MigDeviceSample> parseGpuList(const QByteArray &output);

// What `nvidia-smi -q -x` says of MIG: per card (by its minor number) the instances' ids and
// memory, and which instance each process runs in.
struct MigXml
{
    QList<MigDeviceSample> devices; // gpuIndex, index, ids, memory
    struct Process
    {
        int gpuIndex = -1;
        qint64 pid = 0;
        int gpuInstanceId = -1;
        int computeInstanceId = -1;
    };
    QList<Process> processes;
    QString error; // not the XML nvidia-smi writes
};
MigXml parseMigXml(const QByteArray &xml);

// nvidia-smi --query-compute-apps=gpu_uuid,pid,used_memory,process_name
// --format=csv,noheader,nounits
NvidiaSmiResult<GpuProcessSample> parseComputeApps(const QByteArray &output, int exitCode);
std::optional<CpuTimes> parseProcStat(const QByteArray &text);
std::optional<MemInfo> parseMeminfo(const QByteArray &text);
std::optional<LoadAvg> parseLoadavg(const QByteArray &text);
QList<DiskUse> parseDf(const QByteArray &text);
// cgroup v1 and v2; systemd and cgroupfs drivers; containerd, docker and CRI-O.
CgroupOwner parseCgroup(const QByteArray &text);
// /proc/PID/stat of one process: its state letter and start time (field 22, clock ticks since
// boot). The command name (field 2) may hold spaces and parentheses: fields are counted from
// the last ')'. None when the text is not a stat line (the process is gone: cat's complaint).
struct PidStat
{
    qint64 pid = 0;
    char state = 0;
    qint64 startTicks = -1;
};
std::optional<PidStat> parsePidStat(const QByteArray &text);

// /proc/net/dev: one entry per interface line ("  eth0: 1234 …", or "eth0:1234" as old kernels
// write it), the two header lines and anything that is not an interface line skipped.
QList<NetInterface> parseNetDev(const QByteArray &text);

// /proc/uptime: seconds since boot, the node's own clock for rates.
std::optional<double> parseUptime(const QByteArray &text);
// The pod cgroup files as podUsageCommand() cats them: cpu.stat (usage_usec), memory.current
// and memory.stat on v2; cpuacct.usage (ns), memory.usage_in_bytes and memory.stat (total_*
// lines) on v1. None when a file is missing (the pod is not running there) or unreadable.
std::optional<PodCgroupSample> parsePodCgroup(const QByteArray &text, CgroupLayout layout);

} // namespace probe
} // namespace gpudesk
