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
// nvidia-smi --query-compute-apps=gpu_uuid,pid,used_memory,process_name
// --format=csv,noheader,nounits
NvidiaSmiResult<GpuProcessSample> parseComputeApps(const QByteArray &output, int exitCode);
std::optional<CpuTimes> parseProcStat(const QByteArray &text);
std::optional<MemInfo> parseMeminfo(const QByteArray &text);
std::optional<LoadAvg> parseLoadavg(const QByteArray &text);
QList<DiskUse> parseDf(const QByteArray &text);
// cgroup v1 and v2; systemd and cgroupfs drivers; containerd, docker and CRI-O.
CgroupOwner parseCgroup(const QByteArray &text);

// /proc/uptime: seconds since boot, the node's own clock for rates.
std::optional<double> parseUptime(const QByteArray &text);
// The pod cgroup files as podUsageCommand() cats them: cpu.stat (usage_usec), memory.current
// and memory.stat on v2; cpuacct.usage (ns), memory.usage_in_bytes and memory.stat (total_*
// lines) on v1. None when a file is missing (the pod is not running there) or unreadable.
std::optional<PodCgroupSample> parsePodCgroup(const QByteArray &text, CgroupLayout layout);

} // namespace probe
} // namespace gpudesk
