// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodetools.h"

#include "nodemachine.h"

#include <QDateTime>
#include <QLocale>
#include <QTimeZone>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

namespace sim {

namespace {

std::string fmt2(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

struct FieldValue
{
    std::string value; // without unit
    std::string unit;  // " %", " MiB", " W", " MHz", or "" (also for [N/A])
};

using GpuField = std::function<FieldValue(const NodeMachine &, const GpuCard &)>;

struct GpuFieldSpec
{
    std::string header; // canonical name, with " [unit]" added when the field has one
    std::string unitHeader;
    GpuField get;
};

const std::map<std::string, std::string> &gpuAliases()
{
    static const std::map<std::string, std::string> a{{"gpu_name", "name"},
                                                      {"gpu_uuid", "uuid"},
                                                      {"gpu_bus_id", "pci.bus_id"},
                                                      {"gpu_serial", "serial"},
                                                      {"persistence_mode", "persistence_mode"}};
    return a;
}

const std::map<std::string, GpuFieldSpec> &gpuFields()
{
    auto na = [](const std::string &v, const std::string &u) {
        return FieldValue{v, v.front() == '[' ? std::string() : u};
    };
    static const std::map<std::string, GpuFieldSpec> f{
        {"index",
         {"index", "",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{std::to_string(c.index), ""};
          }}},
        {"count",
         {"count", "",
          [](const NodeMachine &m, const GpuCard &) {
              return FieldValue{std::to_string(m.cards.size()), ""};
          }}},
        {"uuid",
         {"uuid", "",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{c.uuid, ""};
          }}},
        {"name",
         {"name", "",
          [](const NodeMachine &m, const GpuCard &) {
              return FieldValue{m.gpuProduct, ""};
          }}},
        {"serial",
         {"serial", "",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{"13240" + std::to_string(22000000 + c.index * 7919), ""};
          }}},
        {"pci.bus_id",
         {"pci.bus_id", "",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{c.busId, ""};
          }}},
        {"driver_version",
         {"driver_version", "",
          [](const NodeMachine &m, const GpuCard &) {
              return FieldValue{m.driverVersion, ""};
          }}},
        {"persistence_mode",
         {"persistence_mode", "",
          [](const NodeMachine &, const GpuCard &) {
              return FieldValue{"Enabled", ""};
          }}},
        {"pstate",
         {"pstate", "",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{c.utilization > 0 ? "P0" : "P8", ""};
          }}},
        {"utilization.gpu",
         {"utilization.gpu", " [%]",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{std::to_string(c.utilization), " %"};
          }}},
        {"utilization.memory",
         {"utilization.memory", " [%]",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{std::to_string(c.memoryUtilization), " %"};
          }}},
        {"memory.total",
         {"memory.total", " [MiB]",
          [](const NodeMachine &m, const GpuCard &) {
              return FieldValue{std::to_string(m.memoryTotalMiB), " MiB"};
          }}},
        {"memory.used",
         {"memory.used", " [MiB]",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{std::to_string(c.memoryUsedMiB), " MiB"};
          }}},
        {"memory.free",
         {"memory.free", " [MiB]",
          [](const NodeMachine &m, const GpuCard &c) {
              return FieldValue{std::to_string(m.memoryTotalMiB - c.memoryUsedMiB), " MiB"};
          }}},
        {"temperature.gpu",
         {"temperature.gpu", "",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{std::to_string(c.temperature), ""};
          }}},
        {"fan.speed",
         {"fan.speed", " [%]",
          [na](const NodeMachine &m, const GpuCard &c) {
              // Data-centre SXM boards have no fan of their own.
              return m.eccSupported ? na("[N/A]", "")
                                    : FieldValue{std::to_string(30 + c.utilization / 2), " %"};
          }}},
        {"power.draw",
         {"power.draw", " [W]",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{fmt2(c.powerDraw), " W"};
          }}},
        {"power.limit",
         {"power.limit", " [W]",
          [](const NodeMachine &m, const GpuCard &) {
              return FieldValue{fmt2(m.powerLimit), " W"};
          }}},
        {"ecc.errors.uncorrected.volatile.total",
         {"ecc.errors.uncorrected.volatile.total", "",
          [na](const NodeMachine &m, const GpuCard &) {
              return m.eccSupported ? FieldValue{"0", ""} : na("[N/A]", "");
          }}},
        {"clocks.sm",
         {"clocks.current.sm", " [MHz]",
          [](const NodeMachine &, const GpuCard &c) {
              return FieldValue{std::to_string(c.clockSm), " MHz"};
          }}},
        {"clocks.mem",
         {"clocks.current.memory", " [MHz]",
          [](const NodeMachine &m, const GpuCard &) {
              return FieldValue{m.eccSupported ? "1593" : "10501", " MHz"};
          }}},
        {"mig.mode.current",
         {"mig.mode.current", "",
          [na](const NodeMachine &m, const GpuCard &) {
              // Data-centre boards (A100, A800, H100…) support MIG (off here); GeForce
              // boards answer [N/A], as real drivers do.
              return m.eccSupported ? FieldValue{"Disabled", ""} : na("[N/A]", "");
          }}},
        {"encoder.stats.sessionCount",
         {"encoder.stats.sessionCount", "",
          [na](const NodeMachine &m, const GpuCard &) {
              return m.eccSupported ? na("[Not Supported]", "") : FieldValue{"0", ""};
          }}},
    };
    return f;
}

std::string csvJoin(const std::vector<std::string> &cells)
{
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
        if (i)
            line += ", ";
        line += cells[i];
    }
    return line + "\n";
}

std::string trim(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

std::vector<std::string> splitComma(const std::string &s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        out.push_back(trim(item));
    return out;
}

std::string invalidField(const std::string &f)
{
    return "Field \"" + f + "\" is not a valid field to query.\n\n";
}

std::string kb(qint64 v, const char *label)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%-16s%8lld kB\n", label, static_cast<long long>(v));
    return buf;
}

} // namespace

std::string nvidiaSmiQueryGpu(const NodeMachine &m, const std::vector<std::string> &fields,
                              bool header, bool units, std::string *error)
{
    std::vector<const GpuFieldSpec *> specs;
    for (std::string f : fields) {
        if (const auto a = gpuAliases().find(f); a != gpuAliases().end())
            f = a->second;
        const auto it = gpuFields().find(f);
        if (it == gpuFields().end()) {
            *error = invalidField(f);
            return {};
        }
        specs.push_back(&it->second);
    }
    std::string out;
    if (header) {
        std::vector<std::string> h;
        for (const auto *s : specs)
            h.push_back(s->header + s->unitHeader);
        out += csvJoin(h);
    }
    for (const auto &card : m.cards) {
        std::vector<std::string> row;
        for (const auto *s : specs) {
            const FieldValue v = s->get(m, card);
            row.push_back(units ? v.value + v.unit : v.value);
        }
        out += csvJoin(row);
    }
    return out;
}

std::string nvidiaSmiQueryApps(const NodeMachine &m, const std::vector<std::string> &fields,
                               bool header, bool units, std::string *error)
{
    static const std::map<std::string, std::pair<std::string, std::string>> known{
        {"gpu_uuid", {"gpu_uuid", ""}},
        {"pid", {"pid", ""}},
        {"used_memory", {"used_gpu_memory", " [MiB]"}},
        {"used_gpu_memory", {"used_gpu_memory", " [MiB]"}},
        {"process_name", {"process_name", ""}},
        {"name", {"process_name", ""}},
        {"gpu_name", {"gpu_name", ""}},
        {"gpu_bus_id", {"gpu_bus_id", ""}},
        {"gpu_serial", {"gpu_serial", ""}}};
    for (const auto &f : fields) {
        if (!known.count(f)) {
            *error = invalidField(f);
            return {};
        }
    }
    std::string out;
    if (header) {
        std::vector<std::string> h;
        for (const auto &f : fields)
            h.push_back(known.at(f).first + known.at(f).second);
        out += csvJoin(h);
    }
    for (const auto &p : m.processes) {
        const GpuCard *card = nullptr;
        for (const auto &c : m.cards)
            card = c.index == p.card ? &c : card;
        if (!card)
            continue;
        std::vector<std::string> row;
        for (const auto &f : fields) {
            const std::string canon = known.at(f).first;
            if (canon == "gpu_uuid")
                row.push_back(card->uuid);
            else if (canon == "pid")
                row.push_back(std::to_string(p.pid));
            else if (canon == "used_gpu_memory")
                row.push_back(std::to_string(p.memoryMiB) + (units ? " MiB" : ""));
            else if (canon == "process_name")
                row.push_back(p.name);
            else if (canon == "gpu_name")
                row.push_back(m.gpuProduct);
            else if (canon == "gpu_bus_id")
                row.push_back(card->busId);
            else
                row.push_back("13240" + std::to_string(22000000 + card->index * 7919));
        }
        out += csvJoin(row);
    }
    return out;
}

std::string nvidiaSmiXml(const NodeMachine &m, qint64 nowMs)
{
    const QString ts = QLocale::c().toString(QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC),
                                             QStringLiteral("ddd MMM d hh:mm:ss yyyy"));
    std::string x = "<?xml version=\"1.0\" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM "
                    "\"nvsmi_device_v12.dtd\">\n<nvidia_smi_log>\n";
    x += "\t<timestamp>" + ts.toStdString() + "</timestamp>\n";
    x += "\t<driver_version>" + m.driverVersion + "</driver_version>\n";
    x += "\t<cuda_version>" + m.cudaVersion + "</cuda_version>\n";
    x += "\t<attached_gpus>" + std::to_string(m.cards.size()) + "</attached_gpus>\n";
    for (const auto &c : m.cards) {
        x += "\t<gpu id=\"" + c.busId + "\">\n";
        x += "\t\t<product_name>" + m.gpuProduct + "</product_name>\n";
        x += "\t\t<product_brand>" + std::string(m.eccSupported ? "NVIDIA" : "GeForce") +
             "</product_brand>\n";
        x += "\t\t<persistence_mode>Enabled</persistence_mode>\n";
        x += "\t\t<uuid>" + c.uuid + "</uuid>\n";
        x += "\t\t<minor_number>" + std::to_string(c.index) + "</minor_number>\n";
        x += "\t\t<pci>\n\t\t\t<pci_bus_id>" + c.busId + "</pci_bus_id>\n\t\t</pci>\n";
        x += "\t\t<fan_speed>" +
             (m.eccSupported ? std::string("N/A") : std::to_string(30 + c.utilization / 2) + " %") +
             "</fan_speed>\n";
        x += "\t\t<performance_state>" + std::string(c.utilization > 0 ? "P0" : "P8") +
             "</performance_state>\n";
        x += "\t\t<fb_memory_usage>\n\t\t\t<total>" + std::to_string(m.memoryTotalMiB) +
             " MiB</total>\n\t\t\t<reserved>" + std::to_string(m.eccSupported ? 573 : 346) +
             " MiB</reserved>\n\t\t\t<used>" + std::to_string(c.memoryUsedMiB) +
             " MiB</used>\n\t\t\t<free>" + std::to_string(m.memoryTotalMiB - c.memoryUsedMiB) +
             " MiB</free>\n\t\t</fb_memory_usage>\n";
        x += "\t\t<utilization>\n\t\t\t<gpu_util>" + std::to_string(c.utilization) +
             " %</gpu_util>\n\t\t\t<memory_util>" + std::to_string(c.memoryUtilization) +
             " %</memory_util>\n\t\t\t<encoder_util>0 %</encoder_util>\n\t\t\t<decoder_util>0 "
             "%</decoder_util>\n\t\t</utilization>\n";
        x += "\t\t<ecc_errors>\n\t\t\t<volatile>\n\t\t\t\t<dram_uncorrectable>" +
             std::string(m.eccSupported ? "0" : "N/A") +
             "</dram_uncorrectable>\n\t\t\t</volatile>\n\t\t</ecc_errors>\n";
        x += "\t\t<temperature>\n\t\t\t<gpu_temp>" + std::to_string(c.temperature) +
             " C</gpu_temp>\n\t\t</temperature>\n";
        x += "\t\t<gpu_power_readings>\n\t\t\t<power_state>" +
             std::string(c.utilization > 0 ? "P0" : "P8") + "</power_state>\n\t\t\t<power_draw>" +
             fmt2(c.powerDraw) + " W</power_draw>\n\t\t\t<current_power_limit>" +
             fmt2(m.powerLimit) + " W</current_power_limit>\n\t\t</gpu_power_readings>\n";
        x += "\t\t<clocks>\n\t\t\t<graphics_clock>" + std::to_string(c.clockSm) +
             " MHz</graphics_clock>\n\t\t\t<sm_clock>" + std::to_string(c.clockSm) +
             " MHz</sm_clock>\n\t\t</clocks>\n";
        x += "\t\t<processes>\n";
        for (const auto &p : m.processes) {
            if (p.card != c.index)
                continue;
            x += "\t\t\t<process_info>\n\t\t\t\t<gpu_instance_id>N/A</gpu_instance_id>\n"
                 "\t\t\t\t<compute_instance_id>N/A</compute_instance_id>\n\t\t\t\t<pid>" +
                 std::to_string(p.pid) + "</pid>\n\t\t\t\t<type>C</type>\n\t\t\t\t<process_name>" +
                 p.name + "</process_name>\n\t\t\t\t<used_memory>" + std::to_string(p.memoryMiB) +
                 " MiB</used_memory>\n\t\t\t</process_info>\n";
        }
        x += "\t\t</processes>\n\t</gpu>\n";
    }
    x += "</nvidia_smi_log>\n";
    return x;
}

std::string procStat(const NodeMachine &m, qint64 nowMs)
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
std::optional<std::string> cgroupFile(const NodeMachine &m, const std::string &path)
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

std::string procMeminfo(const NodeMachine &m)
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

std::string dfP(const NodeMachine &m, const std::vector<std::string> &paths, std::string *error)
{
    std::vector<const DiskMount *> rows;
    if (paths.empty()) {
        for (const auto &d : m.disks)
            rows.push_back(&d);
    }
    for (const auto &p : paths) {
        if (p.empty() || p[0] != '/') {
            *error += "df: " + p + ": No such file or directory\n";
            continue;
        }
        const DiskMount *best = nullptr;
        for (const auto &d : m.disks) {
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

bool NodeTools::splitWords(const std::string &line, std::vector<std::string> *words,
                           std::string *error)
{
    std::string cur;
    bool inWord = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '\'') {
            const size_t end = line.find('\'', i + 1);
            if (end == std::string::npos) {
                *error = "Syntax error: Unterminated quoted string";
                return false;
            }
            cur += line.substr(i + 1, end - i - 1);
            inWord = true;
            i = end;
        } else if (c == '"') {
            size_t j = i + 1;
            for (; j < line.size() && line[j] != '"'; ++j) {
                if (line[j] == '\\' && j + 1 < line.size() &&
                    std::string("\"\\$`").find(line[j + 1]) != std::string::npos)
                    ++j;
                cur += line[j];
            }
            if (j >= line.size()) {
                *error = "Syntax error: Unterminated quoted string";
                return false;
            }
            inWord = true;
            i = j;
        } else if (c == '\\' && i + 1 < line.size()) {
            cur += line[++i];
            inWord = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (inWord)
                words->push_back(cur);
            cur.clear();
            inWord = false;
        } else {
            cur += c;
            inWord = true;
        }
    }
    if (inWord)
        words->push_back(cur);
    return true;
}

CommandOutput NodeTools::run(const std::string &node, const std::string &line, qint64 nowMs)
{
    // Split on ; && || outside quotes, then run each part with sh's short-circuit rules.
    struct Part
    {
        std::string text;
        std::string op; // operator before this part
    };
    std::vector<Part> parts;
    std::string cur;
    std::string pendingOp;
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            cur += c;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            cur += c;
        } else if (c == ';' || c == '\n') {
            parts.push_back({cur, pendingOp});
            cur.clear();
            pendingOp = ";";
        } else if ((c == '&' || c == '|') && i + 1 < line.size() && line[i + 1] == c) {
            parts.push_back({cur, pendingOp});
            cur.clear();
            pendingOp = std::string(2, c);
            ++i;
        } else if (c == '&' && i > 0 && line[i - 1] == '>') {
            cur += c; // 2>&1
        } else if (c == '|' || c == '&' || c == '`' || c == '$' || c == '<') {
            // Pipes, background jobs and substitutions are not part of any probe template.
            return {"", "sh: 1: Syntax error: \"" + std::string(1, c) + "\" unexpected\n", 2};
        } else {
            cur += c;
        }
    }
    parts.push_back({cur, pendingOp});
    CommandOutput total;
    int status = 0;
    for (const auto &p : parts) {
        if (p.op == "&&" && status != 0)
            continue;
        if (p.op == "||" && status == 0)
            continue;
        std::vector<std::string> words;
        std::string err;
        if (!splitWords(p.text, &words, &err))
            return {total.out, total.err + "sh: 1: " + err + "\n", 2};
        bool errToNull = false;
        bool errToOut = false;
        std::vector<std::string> argv;
        for (const auto &w : words) {
            if (w == "2>/dev/null")
                errToNull = true;
            else if (w == "2>&1")
                errToOut = true;
            else if (w == ">/dev/null" || w == "1>/dev/null")
                continue;
            else
                argv.push_back(w);
        }
        if (argv.empty())
            continue;
        CommandOutput r = runSimple(node, argv, nowMs);
        total.out += r.out;
        if (errToOut)
            total.out += r.err;
        else if (!errToNull)
            total.err += r.err;
        status = r.status;
    }
    total.status = status;
    return total;
}

CommandOutput NodeTools::runSimple(const std::string &node, std::vector<std::string> argv,
                                   qint64 nowMs)
{
    const auto machine = m_machines->snapshot(node);
    if (!machine)
        return {"", "sh: 1: node is gone\n", 255};
    const NodeMachine &m = *machine;
    const std::string &cmd = argv[0];
    auto notFound = [&] { return CommandOutput{"", "sh: 1: " + cmd + ": not found\n", 127}; };
    if (cmd == "true")
        return {};
    if (cmd == "false")
        return {"", "", 1};
    if (cmd == "echo") {
        std::string s;
        for (size_t i = 1; i < argv.size(); ++i)
            s += (i > 1 ? " " : "") + argv[i];
        return {s + "\n", "", 0};
    }
    if (cmd == "nproc")
        return {std::to_string(m.cpus) + "\n", "", 0};
    if (cmd == "hostname")
        return {m.hostname + "\n", "", 0};
    if (cmd == "uname") {
        const std::string release = m.kernel;
        if (argv.size() > 1 && argv[1] == "-r")
            return {release + "\n", "", 0};
        if (argv.size() > 1 && argv[1] == "-n")
            return {m.hostname + "\n", "", 0};
        if (argv.size() > 1 && argv[1] == "-a")
            return {"Linux " + m.hostname + " " + release +
                        " #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023 x86_64 x86_64 x86_64 "
                        "GNU/Linux\n",
                    "", 0};
        return {"Linux\n", "", 0};
    }
    if (cmd == "cat") {
        CommandOutput r;
        for (size_t i = 1; i < argv.size(); ++i) {
            const std::string &f = argv[i];
            if (f == "/proc/stat") {
                r.out += procStat(m, nowMs);
            } else if (f == "/proc/meminfo") {
                r.out += procMeminfo(m);
            } else if (f == "/proc/loadavg") {
                char buf[96];
                std::snprintf(buf, sizeof buf, "%.2f %.2f %.2f %d/%d %d\n", m.load[0], m.load[1],
                              m.load[2], m.runningProcs, m.totalProcs, m.lastPid);
                r.out += buf;
            } else if (f == "/proc/uptime") {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.2f %.2f\n", m.uptimeSecs,
                              m.uptimeSecs * std::max(1, m.cpus) * 0.8);
                r.out += buf;
            } else if (const auto cg =
                           f.rfind("/sys/fs/cgroup/", 0) == 0 ? cgroupFile(m, f) : std::nullopt) {
                r.out += *cg;
            } else if (f == "/etc/hostname") {
                r.out += m.hostname + "\n";
            } else if (f.rfind("/proc/", 0) == 0 && f.size() > 13 &&
                       f.compare(f.size() - 7, 7, "/cgroup") == 0) {
                const std::string pidText = f.substr(6, f.size() - 13);
                bool found = false;
                for (const auto &p : m.processes) {
                    if (std::to_string(p.pid) == pidText) {
                        r.out += p.cgroup;
                        found = true;
                    }
                }
                if (!found) {
                    r.err += "cat: " + f + ": No such file or directory\n";
                    r.status = 1;
                }
            } else {
                r.err += "cat: " + f + ": No such file or directory\n";
                r.status = 1;
            }
        }
        return r;
    }
    if (cmd == "df") {
        std::vector<std::string> paths;
        for (size_t i = 1; i < argv.size(); ++i) {
            if (argv[i] == "-P" || argv[i] == "-k" || argv[i] == "-Pk" || argv[i] == "-kP")
                continue;
            if (argv[i][0] == '-')
                return {"",
                        "df: invalid option -- '" + argv[i].substr(1) +
                            "'\nTry 'df --help' for more information.\n",
                        1};
            paths.push_back(argv[i]);
        }
        std::string err;
        const std::string out = dfP(m, paths, &err);
        return {out, err, err.empty() ? 0 : 1};
    }
    if (cmd == "kill") {
        CommandOutput r;
        size_t i = 1;
        if (i < argv.size() && argv[i] == "-s")
            i += 2;
        else if (i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-')
            ++i;
        if (i >= argv.size())
            return {"",
                    "sh: 1: kill: Usage: kill [-s sigspec | -signum | -sigspec] [pid | job]... "
                    "or\nkill -l [exitstatus]\n",
                    2};
        for (; i < argv.size(); ++i) {
            char *end = nullptr;
            const long pid = std::strtol(argv[i].c_str(), &end, 10);
            if (!end || *end || pid <= 0) {
                r.err += "sh: 1: kill: Illegal number: " + argv[i] + "\n";
                r.status = 2;
                continue;
            }
            if (!m_machines->kill(node, int(pid))) {
                r.err += "sh: 1: kill: No such process\n";
                r.status = 1;
            }
        }
        return r;
    }
    if (cmd == "nvidia-smi") {
        if (m.gpuProduct.empty() || m.driverState == "missing")
            return notFound();
        if (m.driverState == "failed")
            return {"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                    "driver. Make sure that the latest NVIDIA driver is installed and running.\n\n",
                    "", 9};
        if (m.driverState == "nodevices")
            return {"No devices were found\n", "", 6};
        std::string queryGpu;
        std::string queryApps;
        std::string format;
        bool xml = false;
        bool query = false;
        bool list = false;
        for (size_t i = 1; i < argv.size(); ++i) {
            const std::string &a = argv[i];
            auto value = [&](const std::string &prefix) { return a.substr(prefix.size()); };
            if (a.rfind("--query-gpu=", 0) == 0)
                queryGpu = value("--query-gpu=");
            else if (a.rfind("--query-compute-apps=", 0) == 0)
                queryApps = value("--query-compute-apps=");
            else if (a.rfind("--format=", 0) == 0)
                format = value("--format=");
            else if (a == "-q" || a == "--query")
                query = true;
            else if (a == "-x" || a == "--xml-format")
                xml = true;
            else if (a == "-L" || a == "--list-gpus")
                list = true;
            else
                return {"Invalid combination of input arguments. Please run 'nvidia-smi -h' for "
                        "help.\n\n",
                        "", 2};
        }
        if (list) {
            std::string out;
            for (const auto &c : m.cards)
                out += "GPU " + std::to_string(c.index) + ": " + m.gpuProduct +
                       " (UUID: " + c.uuid + ")\n";
            return {out, "", 0};
        }
        if (query && xml)
            return {nvidiaSmiXml(m, nowMs), "", 0};
        if (!queryGpu.empty() || !queryApps.empty()) {
            const auto opts = splitComma(format);
            bool csv = false;
            bool header = true;
            bool units = true;
            for (const auto &o : opts) {
                if (o == "csv")
                    csv = true;
                else if (o == "noheader")
                    header = false;
                else if (o == "nounits")
                    units = false;
            }
            if (!csv)
                return {"Please specify output format (e.g. --format=csv)\n\n", "", 2};
            std::string error;
            const std::string out =
                queryGpu.empty()
                    ? nvidiaSmiQueryApps(m, splitComma(queryApps), header, units, &error)
                    : nvidiaSmiQueryGpu(m, splitComma(queryGpu), header, units, &error);
            if (!error.empty())
                return {error, "", 2};
            return {out, "", 0};
        }
        return {"",
                "nvidia-smi: only the query forms (--query-gpu, --query-compute-apps, -q -x, "
                "-L) are simulated\n",
                2};
    }
    return notFound();
}

} // namespace sim
