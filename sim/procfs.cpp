// SPDX-License-Identifier: GPL-3.0-or-later
#include "procfs.h"

#include "nodemachine.h"

#include <algorithm>
#include <cstdio>

namespace sim {

namespace {

std::string kb(qint64 v, const char *label)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%-16s%8lld kB\n", label, static_cast<long long>(v));
    return buf;
}

// The command name in /proc/PID/stat: the executable's base name, cut to TASK_COMM_LEN - 1.
std::string comm(const std::string &processName)
{
    const auto slash = processName.rfind('/');
    return processName.substr(slash == std::string::npos ? 0 : slash + 1).substr(0, 15);
}

} // namespace

std::string ProcFs::stat(const NodeMachine &m, qint64 nowMs)
{
    auto line = [](const std::string &label, const quint64 *t, int div) {
        std::string s = label;
        for (int i = 0; i < 8; ++i)
            s += " " + std::to_string(t[i] / quint64(div));
        return s + " 0 0\n";
    };
    std::string out = line("cpu ", m.cpuTicks, 1);
    for (int i = 0; i < m.cpus; ++i)
        out += line("cpu" + std::to_string(i), m.cpuTicks, m.cpus);
    const quint64 uptime = m.cpuTicks[3] / quint64(std::max(1, m.cpus)) / 100;
    out += "intr " + std::to_string(m.cpuTicks[0] * 13) + " 0 9 0 0 0 0 0 0 0 0\n";
    out += "ctxt " + std::to_string(m.cpuTicks[0] * 31 + m.cpuTicks[2] * 7) + "\n";
    out += "btime " + std::to_string(nowMs / 1000 - qint64(uptime)) + "\n";
    out += "processes " + std::to_string(m.lastPid) + "\n";
    out += "procs_running " + std::to_string(m.runningProcs) + "\n";
    out += "procs_blocked 0\n";
    out += "softirq " + std::to_string(m.cpuTicks[6] * 40) + " 0 0 0 0 0 0 0 0 0 0\n";
    return out;
}

// The cgroup files gpudesk reads for a pod's own CPU and memory, laid out as the node's cgroup
// version and driver put them: v2 has one tree (cpu.stat, memory.current, memory.stat); v1 has
// one per controller (cpu,cpuacct/…/cpuacct.usage, memory/…/memory.usage_in_bytes).
std::optional<std::string> ProcFs::cgroupFile(const NodeMachine &m, const std::string &path)
{
    const bool v2 = m.cgroupStyle.rfind("v2", 0) == 0;
    const bool systemd = m.cgroupStyle.find("systemd") != std::string::npos;
    const std::string root = systemd ? "/kubepods.slice" : "/kubepods";
    if (v2 && path == "/sys/fs/cgroup" + root + "/cgroup.controllers")
        return std::string("cpuset cpu io memory hugetlb pids rdma misc\n");
    if (!v2 && path == "/sys/fs/cgroup/cpu,cpuacct" + root + "/cpuacct.usage") {
        quint64 total = 0;
        for (const auto &[uid, cg] : m.pods)
            total += cg.cpuUsageNs;
        return std::to_string(total) + "\n";
    }
    for (const auto &[uid, cg] : m.pods) {
        const std::string dir = podCgroupDir(m.cgroupStyle, uid, cg.qosClass);
        const qint64 ws = cg.workingSetBytes;
        const qint64 current = ws + cg.inactiveFileBytes; // active page cache is in the working set
        const qint64 anon = ws - cg.activeFileBytes;
        auto kv = [](const char *k, qint64 v) {
            return std::string(k) + " " + std::to_string(v) + "\n";
        };
        if (v2) {
            if (path == "/sys/fs/cgroup" + dir + "/cpu.stat") {
                const quint64 us = cg.cpuUsageNs / 1000;
                return kv("usage_usec", qint64(us)) + kv("user_usec", qint64(us * 9 / 10)) +
                       kv("system_usec", qint64(us - us * 9 / 10)) + kv("nr_periods", 0) +
                       kv("nr_throttled", 0) + kv("throttled_usec", 0) + kv("nr_bursts", 0) +
                       kv("burst_usec", 0);
            }
            if (path == "/sys/fs/cgroup" + dir + "/memory.current")
                return std::to_string(current) + "\n";
            if (path == "/sys/fs/cgroup" + dir + "/memory.stat")
                return kv("anon", anon) + kv("file", cg.inactiveFileBytes + cg.activeFileBytes) +
                       kv("kernel", 8 << 20) + kv("kernel_stack", 1 << 20) +
                       kv("pagetables", 2 << 20) + kv("sec_pagetables", 0) + kv("percpu", 4096) +
                       kv("sock", 0) + kv("vmalloc", 0) + kv("shmem", 0) + kv("zswap", 0) +
                       kv("zswapped", 0) + kv("file_mapped", 32 << 20) + kv("file_dirty", 0) +
                       kv("file_writeback", 0) + kv("swapcached", 0) + kv("anon_thp", 0) +
                       kv("file_thp", 0) + kv("shmem_thp", 0) + kv("inactive_anon", anon) +
                       kv("active_anon", 0) + kv("inactive_file", cg.inactiveFileBytes) +
                       kv("active_file", cg.activeFileBytes) + kv("unevictable", 0) +
                       kv("slab_reclaimable", 3 << 20) + kv("slab_unreclaimable", 1 << 20) +
                       kv("slab", 4 << 20) + kv("workingset_refault_anon", 0) +
                       kv("workingset_refault_file", 12) + kv("pgfault", 812344) +
                       kv("pgmajfault", 31);
            continue;
        }
        if (path == "/sys/fs/cgroup/cpu,cpuacct" + dir + "/cpuacct.usage")
            return std::to_string(cg.cpuUsageNs) + "\n";
        if (path == "/sys/fs/cgroup/memory" + dir + "/memory.usage_in_bytes")
            return std::to_string(current) + "\n";
        if (path == "/sys/fs/cgroup/memory" + dir + "/memory.stat") {
            // The pod's own counters are near zero: its processes live in child cgroups, which
            // only the total_ lines include.
            const qint64 cache = cg.inactiveFileBytes + cg.activeFileBytes;
            return kv("cache", 0) + kv("rss", 0) + kv("rss_huge", 0) + kv("shmem", 0) +
                   kv("mapped_file", 0) + kv("dirty", 0) + kv("writeback", 0) + kv("pgpgin", 0) +
                   kv("pgpgout", 0) + kv("pgfault", 0) + kv("pgmajfault", 0) +
                   kv("inactive_anon", 0) + kv("active_anon", 0) + kv("inactive_file", 0) +
                   kv("active_file", 0) + kv("unevictable", 0) +
                   kv("hierarchical_memory_limit", 9223372036854771712LL) +
                   kv("total_cache", cache) + kv("total_rss", anon) + kv("total_rss_huge", 0) +
                   kv("total_shmem", 0) + kv("total_mapped_file", 32 << 20) + kv("total_dirty", 0) +
                   kv("total_writeback", 0) + kv("total_pgpgin", 1203311) +
                   kv("total_pgpgout", 981002) + kv("total_pgfault", 812344) +
                   kv("total_pgmajfault", 31) + kv("total_inactive_anon", anon) +
                   kv("total_active_anon", 0) + kv("total_inactive_file", cg.inactiveFileBytes) +
                   kv("total_active_file", cg.activeFileBytes) + kv("total_unevictable", 0);
        }
    }
    return std::nullopt;
}

std::string ProcFs::netDev(const NodeMachine &m)
{
    std::string out = "Inter-|   Receive                                                |  "
                      "Transmit\n"
                      " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
                      "packets errs drop fifo colls carrier compressed\n";
    const auto up = quint64(std::max(0.0, m.uptimeSecs));
    for (size_t i = 0; i < m.interfaces.size(); ++i) {
        const std::string &name = m.interfaces[i];
        // Traffic by kind: InfiniBand carries the collectives, eth0 the rest, lo little.
        const quint64 rate = name.rfind("ib", 0) == 0 ? 900000000ULL
                             : name == "eth0"         ? 12000000ULL
                                                      : 40000ULL;
        const quint64 rx = up * rate, tx = up * rate * 9 / 10;
        char line[256];
        std::snprintf(
            line, sizeof line, "%6s: %llu %llu 0 0 0 0 0 0 %llu %llu 0 0 0 0 0 0\n", name.c_str(),
            static_cast<unsigned long long>(rx), static_cast<unsigned long long>(rx / 1400),
            static_cast<unsigned long long>(tx), static_cast<unsigned long long>(tx / 1400));
        out += line;
    }
    return out;
}

std::string ProcFs::meminfo(const NodeMachine &m)
{
    const qint64 total = m.memTotalKb;
    const qint64 avail = m.memAvailableKb;
    const qint64 cached = avail / 2;
    const qint64 freeKb = avail - cached;
    std::string out;
    out += kb(total, "MemTotal:");
    out += kb(freeKb, "MemFree:");
    out += kb(avail, "MemAvailable:");
    out += kb(total / 200, "Buffers:");
    out += kb(cached, "Cached:");
    out += kb(0, "SwapCached:");
    out += kb((total - avail) * 3 / 4, "Active:");
    out += kb(cached / 2, "Inactive:");
    out += kb(0, "SwapTotal:");
    out += kb(0, "SwapFree:");
    out += kb(1024, "Dirty:");
    out += kb(0, "Writeback:");
    out += kb((total - avail) / 2, "AnonPages:");
    out += kb(total / 300, "Mapped:");
    out += kb(total / 100, "Shmem:");
    out += kb(total / 50, "Slab:");
    out += kb(total / 2 + 0, "CommitLimit:");
    out += kb(total - avail, "Committed_AS:");
    out += "HugePages_Total:       0\nHugePages_Free:        0\nHugepagesize:       2048 kB\n";
    return out;
}

std::string ProcFs::df(const std::vector<DiskMount> &disks, const std::vector<std::string> &paths,
                       std::string *error)
{
    std::vector<const DiskMount *> rows;
    if (paths.empty()) {
        for (const auto &d : disks)
            rows.push_back(&d);
    }
    for (const auto &p : paths) {
        if (p.empty() || p[0] != '/') {
            *error += "df: " + p + ": No such file or directory\n";
            continue;
        }
        const DiskMount *best = nullptr;
        for (const auto &d : disks) {
            const bool prefix = p == d.mount || (p.compare(0, d.mount.size(), d.mount) == 0 &&
                                                 (d.mount == "/" || p[d.mount.size()] == '/'));
            if (prefix && (!best || d.mount.size() > best->mount.size()))
                best = &d;
        }
        if (best)
            rows.push_back(best);
    }
    std::vector<std::vector<std::string>> table{
        {"Filesystem", "1024-blocks", "Used", "Available", "Capacity", "Mounted on"}};
    for (const auto *d : rows) {
        const qint64 avail = d->blocks1k - d->used1k;
        const qint64 cap = d->used1k + avail > 0
                               ? (d->used1k * 100 + (d->used1k + avail) - 1) / (d->used1k + avail)
                               : 0;
        table.push_back({d->filesystem, std::to_string(d->blocks1k), std::to_string(d->used1k),
                         std::to_string(avail), std::to_string(cap) + "%", d->mount});
    }
    size_t w[5] = {};
    for (const auto &r : table)
        for (int i = 0; i < 5; ++i)
            w[i] = std::max(w[i], r[size_t(i)].size());
    std::string out;
    for (const auto &r : table) {
        char buf[512];
        std::snprintf(buf, sizeof buf, "%-*s %*s %*s %*s %*s %s\n", int(w[0]), r[0].c_str(),
                      int(w[1]), r[1].c_str(), int(w[2]), r[2].c_str(), int(w[3]), r[3].c_str(),
                      int(w[4]), r[4].c_str(), r[5].c_str());
        out += buf;
    }
    return out;
}

std::string ProcFs::pidStat(const NodeMachine &m, const GpuProcess &p, qint64 nowMs)
{
    const qint64 bootMs = m.bootedAtMs;
    const qint64 startTicks = std::max<qint64>(1, (p.startMs - bootMs) / 10);
    const qint64 ageTicks = std::max<qint64>(0, (nowMs - p.startMs) / 10);
    // A GPU process keeps about a core busy feeding its card; D state waits on I/O instead.
    const qint64 utime = ageTicks * (30 + p.utilization / 2) / 100;
    const qint64 stime = utime / 9;
    const long long pid = p.pid;
    // The process group and session are the container's shell's; an orphan's parent is init.
    const long long shell = p.pid > 8 ? p.pid - 7 : 1;
    const long long ppid = p.orphan ? 1 : shell;
    const int threads = 40 + p.pid % 48;
    const unsigned long long vsize = 36ULL * 1024 * 1024 * 1024 + quint64(p.pid % 997) * 4096;
    const long long rss = (2LL << 30) / 4096 + p.memoryMiB / 16;
    // Python ignores SIGPIPE and SIGXFSZ and catches SIGINT; the training script catches TERM
    // to save a checkpoint, unless it ignores TERM altogether.
    const unsigned long long sigignore = 0x1001000ULL | (p.ignoresTerm ? 0x4000ULL : 0);
    const unsigned long long sigcatch = 0x2ULL | (p.ignoresTerm ? 0 : 0x4000ULL);
    const unsigned long long code = 0x55d4a1200000ULL + quint64(p.pid % 4093) * 0x1000;
    const unsigned long long stack = 0x7ffc4a000000ULL + quint64(p.pid % 8191) * 0x100;
    const long long blkio = p.state == 'D' ? ageTicks : 0;
    char buf[768];
    std::snprintf(buf, sizeof buf,
                  "%lld (%s) %c %lld %lld %lld 0 -1 4194560 %lld 0 %lld 0 %lld %lld 0 0 20 0 %d 0 "
                  "%lld %llu %lld 18446744073709551615 %llu %llu %llu 0 0 0 0 %llu %llu 0 0 0 17 "
                  "%d 0 0 %lld 0 0 %llu %llu %llu %llu %llu %llu %llu 0\n",
                  pid, comm(p.name).c_str(), p.state, ppid, shell, shell, ageTicks * 3 + 104857,
                  3 + ageTicks / 100000, utime, stime, threads, startTicks, vsize, rss, code,
                  code + 0x2acde5, stack, sigignore, sigcatch, int(p.pid % std::max(1, m.cpus)),
                  blkio, code + 0x2d1a90, code + 0x2d4180, code + 0x4000000, stack + 0x1400,
                  stack + 0x1437, stack + 0x1437, stack + 0x1fe2);
    return buf;
}

std::optional<std::string> ProcFs::read(const NodeMachine &m, const std::string &f, qint64 nowMs)
{
    if (f == "/proc/stat")
        return stat(m, nowMs);
    if (f == "/proc/meminfo")
        return meminfo(m);
    if (f == "/proc/loadavg") {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%.2f %.2f %.2f %d/%d %d\n", m.load[0], m.load[1], m.load[2],
                      m.runningProcs, m.totalProcs, m.lastPid);
        return std::string(buf);
    }
    if (f == "/proc/uptime") {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.2f %.2f\n", m.uptimeSecs,
                      m.uptimeSecs * std::max(1, m.cpus) * 0.8);
        return std::string(buf);
    }
    if (f == "/etc/hostname")
        return m.hostname + "\n";
    if (f == "/proc/net/dev")
        return netDev(m);
    if (f.rfind("/sys/fs/cgroup/", 0) == 0)
        return cgroupFile(m, f);
    // /proc/PID/cgroup and /proc/PID/stat of the node's GPU processes.
    if (f.rfind("/proc/", 0) != 0)
        return std::nullopt;
    const auto slash = f.find('/', 6);
    if (slash == std::string::npos)
        return std::nullopt;
    const std::string pidText = f.substr(6, slash - 6);
    const std::string leaf = f.substr(slash + 1);
    for (const auto &p : m.processes) {
        if (std::to_string(p.pid) != pidText)
            continue;
        if (leaf == "cgroup")
            return p.cgroup;
        if (leaf == "stat")
            return pidStat(m, p, nowMs);
    }
    return std::nullopt;
}

} // namespace sim
