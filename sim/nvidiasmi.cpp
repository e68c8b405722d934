// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvidiasmi.h"

#include "nodemachine.h"

#include <QDateTime>
#include <QLocale>
#include <QTimeZone>

#include <functional>
#include <map>
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
          [na](const NodeMachine &, const GpuCard &c) {
              // A card in MIG mode reports no utilization of its own.
              return c.migEnabled ? na("[N/A]", "")
                                  : FieldValue{std::to_string(c.utilization), " %"};
          }}},
        {"utilization.memory",
         {"utilization.memory", " [%]",
          [na](const NodeMachine &, const GpuCard &c) {
              return c.migEnabled ? na("[N/A]", "")
                                  : FieldValue{std::to_string(c.memoryUtilization), " %"};
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
          [na](const NodeMachine &m, const GpuCard &c) {
              return m.eccSupported ? FieldValue{std::to_string(c.eccUncorrected), ""}
                                    : na("[N/A]", "");
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
          [na](const NodeMachine &m, const GpuCard &c) {
              // Data-centre boards (A100, A800, H100…) support MIG; GeForce boards answer
              // [N/A], as real drivers do.
              return m.eccSupported ? FieldValue{c.migEnabled ? "Enabled" : "Disabled", ""}
                                    : na("[N/A]", "");
          }}},
        {"mig.mode.pending",
         {"mig.mode.pending", "",
          [na](const NodeMachine &m, const GpuCard &c) {
              return m.eccSupported ? FieldValue{c.migEnabled ? "Enabled" : "Disabled", ""}
                                    : na("[N/A]", "");
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

} // namespace

std::string NvidiaSmi::queryGpu(const NodeMachine &m, const std::vector<std::string> &fields,
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

std::string NvidiaSmi::queryApps(const NodeMachine &m, const std::vector<std::string> &fields,
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

namespace {

// <mig_mode> and <mig_devices> of one card, in the v12 DTD's order and shape.
std::string migXml(const NodeMachine &m, const GpuCard &c)
{
    const std::string mode = !m.eccSupported ? "N/A" : c.migEnabled ? "Enabled" : "Disabled";
    std::string x = "\t\t<mig_mode>\n\t\t\t<current_mig>" + mode +
                    "</current_mig>\n\t\t\t<pending_mig>" + mode +
                    "</pending_mig>\n\t\t</mig_mode>\n";
    if (c.mig.empty())
        return x + "\t\t<mig_devices>\n\t\t\tNone\n\t\t</mig_devices>\n";
    x += "\t\t<mig_devices>\n";
    for (const auto &d : c.mig) {
        auto n = [](int v) { return std::to_string(v); };
        x += "\t\t\t<mig_device>\n\t\t\t\t<index>" + n(d.index) +
             "</index>\n\t\t\t\t<gpu_instance_id>" + n(d.gpuInstance) +
             "</gpu_instance_id>\n\t\t\t\t<compute_instance_id>" + n(d.computeInstance) +
             "</compute_instance_id>\n\t\t\t\t<device_attributes>\n\t\t\t\t\t<shared>\n"
             "\t\t\t\t\t\t<multiprocessor_count>" +
             n(d.multiprocessors) + "</multiprocessor_count>\n\t\t\t\t\t\t<copy_engine_count>" +
             n(d.copyEngines) +
             "</copy_engine_count>\n\t\t\t\t\t\t<encoder_count>0</encoder_count>\n"
             "\t\t\t\t\t\t<decoder_count>" +
             n(d.decoders) +
             "</decoder_count>\n\t\t\t\t\t\t<ofa_count>0</ofa_count>\n\t\t\t\t\t\t"
             "<jpg_count>0</jpg_count>\n\t\t\t\t\t</shared>\n\t\t\t\t</device_attributes>\n"
             "\t\t\t\t<ecc_error_count>\n\t\t\t\t\t<volatile_count>\n\t\t\t\t\t\t"
             "<sram_uncorrectable>0</sram_uncorrectable>\n\t\t\t\t\t</volatile_count>\n"
             "\t\t\t\t</ecc_error_count>\n\t\t\t\t<fb_memory_usage>\n\t\t\t\t\t<total>" +
             n(d.memoryMiB) +
             " MiB</total>\n\t\t\t\t\t<reserved>0 MiB</reserved>\n"
             "\t\t\t\t\t<used>" +
             n(d.memoryUsedMiB) + " MiB</used>\n\t\t\t\t\t<free>" +
             n(d.memoryMiB - d.memoryUsedMiB) +
             " MiB</free>\n\t\t\t\t</fb_memory_usage>\n\t\t\t\t<bar1_memory_usage>\n"
             "\t\t\t\t\t<total>" +
             n(d.bar1MiB) + " MiB</total>\n\t\t\t\t\t<used>2 MiB</used>\n\t\t\t\t\t<free>" +
             n(d.bar1MiB - 2) + " MiB</free>\n\t\t\t\t</bar1_memory_usage>\n\t\t\t</mig_device>\n";
    }
    return x + "\t\t</mig_devices>\n";
}

} // namespace

std::string NvidiaSmi::xml(const NodeMachine &m, qint64 nowMs)
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
        x += migXml(m, c);
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
        if (c.migEnabled)
            x += "\t\t<utilization>\n\t\t\t<gpu_util>N/A</gpu_util>\n\t\t\t<memory_util>N/A"
                 "</memory_util>\n\t\t</utilization>\n";
        else
            x += "\t\t<utilization>\n\t\t\t<gpu_util>" + std::to_string(c.utilization) +
                 " %</gpu_util>\n\t\t\t<memory_util>" + std::to_string(c.memoryUtilization) +
                 " %</memory_util>\n\t\t\t<encoder_util>0 %</encoder_util>\n\t\t\t"
                 "<decoder_util>0 %</decoder_util>\n\t\t</utilization>\n";
        x += "\t\t<ecc_errors>\n\t\t\t<volatile>\n\t\t\t\t<dram_uncorrectable>" +
             (m.eccSupported ? std::to_string(c.eccUncorrected) : std::string("N/A")) +
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
            const std::string gi = p.gpuInstance < 0 ? "N/A" : std::to_string(p.gpuInstance);
            const std::string ci =
                p.computeInstance < 0 ? "N/A" : std::to_string(p.computeInstance);
            x += "\t\t\t<process_info>\n\t\t\t\t<gpu_instance_id>" + gi +
                 "</gpu_instance_id>\n\t\t\t\t<compute_instance_id>" + ci +
                 "</compute_instance_id>\n\t\t\t\t<pid>" + std::to_string(p.pid) +
                 "</pid>\n\t\t\t\t<type>C</type>\n\t\t\t\t<process_name>" + p.name +
                 "</process_name>\n\t\t\t\t<used_memory>" + std::to_string(p.memoryMiB) +
                 " MiB</used_memory>\n\t\t\t</process_info>\n";
        }
        x += "\t\t</processes>\n\t</gpu>\n";
    }
    x += "</nvidia_smi_log>\n";
    return x;
}

std::string NvidiaSmi::list(const NodeMachine &m)
{
    std::string out;
    for (const auto &c : m.cards) {
        out += "GPU " + std::to_string(c.index) + ": " + m.gpuProduct + " (UUID: " + c.uuid + ")\n";
        // Today's drivers: "  MIG 3g.40gb     Device  0: (UUID: MIG-…)".
        for (const auto &d : c.mig) {
            char line[160];
            std::snprintf(line, sizeof line, "  MIG %-11s Device %2d: (UUID: %s)\n",
                          d.profile.c_str(), d.index, d.uuid.c_str());
            out += line;
        }
    }
    return out;
}

CommandOutput NvidiaSmi::run(const NodeMachine &m, const std::vector<std::string> &argv,
                             qint64 nowMs)
{
    if (m.driverState == "failed")
        return {"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                "driver. Make sure that the latest NVIDIA driver is installed and running.\n\n",
                "", 9};
    if (m.driverState == "nodevices")
        return {"No devices were found\n", "", 6};
    std::string gpuFields;
    std::string appFields;
    std::string format;
    bool xmlFormat = false;
    bool query = false;
    bool listGpus = false;
    for (const auto &a : argv) {
        auto value = [&](const std::string &prefix) { return a.substr(prefix.size()); };
        if (a.rfind("--query-gpu=", 0) == 0)
            gpuFields = value("--query-gpu=");
        else if (a.rfind("--query-compute-apps=", 0) == 0)
            appFields = value("--query-compute-apps=");
        else if (a.rfind("--format=", 0) == 0)
            format = value("--format=");
        else if (a == "-q" || a == "--query")
            query = true;
        else if (a == "-x" || a == "--xml-format")
            xmlFormat = true;
        else if (a == "-L" || a == "--list-gpus")
            listGpus = true;
        else
            return {"Invalid combination of input arguments. Please run 'nvidia-smi -h' for "
                    "help.\n\n",
                    "", 2};
    }
    if (listGpus)
        return {list(m), "", 0};
    if (query && xmlFormat)
        return {xml(m, nowMs), "", 0};
    if (!gpuFields.empty() || !appFields.empty()) {
        bool csv = false;
        bool header = true;
        bool units = true;
        for (const auto &o : splitComma(format)) {
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
        const std::string out = gpuFields.empty()
                                    ? queryApps(m, splitComma(appFields), header, units, &error)
                                    : queryGpu(m, splitComma(gpuFields), header, units, &error);
        if (!error.empty())
            return {error, "", 2};
        return {out, "", 0};
    }
    return {"",
            "nvidia-smi: only the query forms (--query-gpu, --query-compute-apps, -q -x, -L) are "
            "simulated\n",
            2};
}

} // namespace sim
