// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

#include <optional>
#include <string>
#include <vector>

namespace sim {

struct DiskMount;
struct GpuProcess;
struct NodeMachine;

// The files of a simulated node that gpudesk's probes read, in the kernel's formats: /proc
// (stat, meminfo, loadavg, uptime, and per process stat and cgroup), the pods' cgroup files
// under /sys/fs/cgroup, and what df -P prints.
class ProcFs
{
public:
    // The text of a file, or none when the node has no such file.
    static std::optional<std::string> read(const NodeMachine &m, const std::string &path,
                                           qint64 nowMs);

    static std::string stat(const NodeMachine &m, qint64 nowMs);
    static std::string meminfo(const NodeMachine &m);
    // /proc/net/dev: its two header lines, then one line per interface (bytes and packets
    // that grow with the uptime).
    static std::string netDev(const NodeMachine &m);
    // /proc/PID/stat as Linux 5.x writes it: 52 fields, starttime (field 22) in clock ticks
    // since boot, consistent with /proc/uptime.
    static std::string pidStat(const NodeMachine &m, const GpuProcess &p, qint64 nowMs);
    static std::optional<std::string> cgroupFile(const NodeMachine &m, const std::string &path);
    static std::string df(const std::vector<DiskMount> &disks,
                          const std::vector<std::string> &paths, std::string *error);
};

} // namespace sim
