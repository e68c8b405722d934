// SPDX-License-Identifier: GPL-3.0-or-later
#include "dcgmexporter.h"

#include "nodemachine.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

namespace sim {

namespace {

struct Family
{
    const char *name;
    const char *help; // etc/default-counters.csv
};
constexpr Family kFamilies[] = {
    {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %)."},
    {"DCGM_FI_DEV_FB_USED", "Frame buffer memory used (in MB)."},
    {"DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C)."},
    {"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W)."},
};
enum FamilyIndex
{
    Util,
    FbUsed,
    Temp,
    Power
};

std::string podAttributes(const std::string &container, const std::string &ns,
                          const std::string &pod)
{
    return ",container=\"" + container + "\",namespace=\"" + ns + "\",pod=\"" + pod + "\"";
}

// The device labels as the exporter's template writes them, in its order.
std::string deviceLabels(const NodeMachine &m, const GpuCard &c, const MigDevice *d)
{
    std::string l = "gpu=\"" + std::to_string(c.index) + "\",UUID=\"" + c.uuid +
                    "\",device=\"nvidia" + std::to_string(c.index) + "\",modelName=\"" +
                    m.gpuProduct + "\"";
    if (d)
        l += ",GPU_I_PROFILE=\"" + d->profile + "\",GPU_I_ID=\"" + std::to_string(d->gpuInstance) +
             "\"";
    return l + ",Hostname=\"" + m.name + "\",DCGM_FI_DRIVER_VERSION=\"" + m.driverVersion + "\"";
}

std::string powerText(double w)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%f", w); // DCGM doubles are printed with %f
    return buf;
}

int temperatureFor(int util, quint64 uuidHash)
{
    return 32 + util * 45 / 100 + int(uuidHash % 4);
}

double powerFor(int util, const DcgmExporter::Device &d)
{
    return d.idlePower + (d.powerLimit - d.idlePower) * util / 100.0 * 0.92 +
           double(d.uuidHash % 300) / 100.0;
}

// A device at one moment: who holds it (the pod attributes) and what it does.
struct Reading
{
    std::string attributes;
    int utilization = 0;
    int memoryMiB = 0;
};

Reading readingAt(const DcgmExporter::Device &d, qint64 ms)
{
    Reading r;
    const CardSegment *holder = nullptr;
    for (const auto &s : d.segments) {
        if (s.fromMs > ms || (!s.open && s.toMs < ms))
            continue;
        const CardLoad load = s.loadAt(ms);
        r.utilization = std::max(r.utilization, load.utilization);
        r.memoryMiB = std::min(d.memoryTotalMiB, r.memoryMiB + load.memoryMiB);
        if (s.kind == CardSegment::Kind::Pod && s.allocated)
            holder = &s;
    }
    r.attributes = holder ? podAttributes(holder->container, holder->ns, holder->pod)
                          : podAttributes("", "", "");
    return r;
}

// One device's series in one family: each holder's samples together, in time order.
QByteArray deviceHistory(const DcgmExporter::Device &d,
                         const std::vector<DcgmExporter::Device> &all, int family, qint64 startSecs,
                         qint64 endSecs, qint64 stepSecs)
{
    std::map<std::string, std::string> series;
    const Family &f = kFamilies[family];
    for (qint64 t = startSecs; t <= endSecs; t += stepSecs) {
        const Reading r = readingAt(d, t * 1000);
        // A MIG card is as hot and as hungry as its busiest instance makes it.
        int cardUtil = r.utilization;
        for (size_t s : d.siblings)
            cardUtil = std::max(cardUtil, readingAt(all[s], t * 1000).utilization);
        std::string value;
        switch (family) {
        case Util:
            value = std::to_string(r.utilization);
            break;
        case FbUsed:
            value = std::to_string(r.memoryMiB);
            break;
        case Temp:
            value = std::to_string(temperatureFor(cardUtil, d.uuidHash));
            break;
        default:
            value = powerText(powerFor(cardUtil, d));
            break;
        }
        series[r.attributes] += std::string(f.name) + "{" + d.labels + r.attributes + "} " + value +
                                " " + std::to_string(t) + "\n";
    }
    QByteArray out;
    for (const auto &[attrs, text] : series)
        out += QByteArray::fromStdString(text);
    return out;
}

} // namespace

std::string DcgmExporter::metrics() const
{
    // One pass over the machines; the families are written one after the other.
    std::string out[4];
    auto podOf = [&](const std::string &uid) {
        const auto it = m_state.podInfo.find(uid);
        if (uid.empty() || it == m_state.podInfo.end())
            return podAttributes("", "", "");
        return podAttributes(it->second.container, it->second.ns, it->second.name);
    };
    for (const auto &name : m_state.machines->names()) {
        const auto m = m_state.machines->snapshot(name);
        // No GPU, or a driver DCGM cannot reach: that node's exporter has nothing to say.
        if (!m || m->gpuProduct.empty() || m->driverState != "ok")
            continue;
        for (const auto &c : m->cards) {
            const std::string temp = std::to_string(c.temperature);
            const std::string power = powerText(c.powerDraw);
            if (!c.migEnabled) {
                const std::string l =
                    "{" + deviceLabels(*m, c, nullptr) + podOf(c.ownerPodUid) + "}";
                out[Util] += std::string(kFamilies[Util].name) + l + " " +
                             std::to_string(c.utilization) + "\n";
                out[FbUsed] += std::string(kFamilies[FbUsed].name) + l + " " +
                               std::to_string(c.memoryUsedMiB) + "\n";
                out[Temp] += std::string(kFamilies[Temp].name) + l + " " + temp + "\n";
                out[Power] += std::string(kFamilies[Power].name) + l + " " + power + "\n";
                continue;
            }
            for (const auto &d : c.mig) {
                const std::string l = "{" + deviceLabels(*m, c, &d) + podOf(d.ownerPodUid) + "}";
                out[FbUsed] += std::string(kFamilies[FbUsed].name) + l + " " +
                               std::to_string(d.memoryUsedMiB) + "\n";
                out[Temp] += std::string(kFamilies[Temp].name) + l + " " + temp + "\n";
                out[Power] += std::string(kFamilies[Power].name) + l + " " + power + "\n";
            }
        }
    }
    std::string text;
    for (int f = 0; f < 4; ++f)
        text += std::string("# HELP ") + kFamilies[f].name + " " + kFamilies[f].help + "\n# TYPE " +
                kFamilies[f].name + " gauge\n" + out[f];
    return text;
}

std::function<QByteArray()> DcgmExporter::history(qint64 startSecs, qint64 endSecs,
                                                  qint64 stepSecs) const
{
    // A copy of what the history needs: the producer runs while the cluster goes on.
    auto devices = std::make_shared<std::vector<Device>>();
    const auto &timeline = m_state.timeline.segments();
    for (const auto &name : m_state.machines->names()) {
        const auto m = m_state.machines->snapshot(name);
        if (!m || m->gpuProduct.empty())
            continue;
        for (const auto &c : m->cards) {
            auto add = [&](const MigDevice *d) {
                Device dev;
                dev.labels = deviceLabels(*m, c, d);
                dev.card = c.index;
                dev.gpuInstance = d ? d->gpuInstance : -1;
                dev.memoryTotalMiB = d ? d->memoryMiB : m->memoryTotalMiB;
                dev.idlePower = m->idlePower;
                dev.powerLimit = m->powerLimit;
                dev.uuidHash = hashOf(c.uuid);
                const auto it = timeline.find(CardKey{m->name, c.index, dev.gpuInstance});
                if (it != timeline.end())
                    dev.segments = it->second;
                devices->push_back(std::move(dev));
            };
            if (!c.migEnabled) {
                add(nullptr);
                continue;
            }
            const size_t first = devices->size();
            for (const auto &d : c.mig)
                add(&d);
            for (size_t i = first; i < devices->size(); ++i)
                for (size_t j = first; j < devices->size(); ++j)
                    (*devices)[i].siblings.push_back(j);
        }
    }
    auto family = std::make_shared<int>(0);
    auto device = std::make_shared<size_t>(0);
    auto headerDone = std::make_shared<bool>(false);
    auto done = std::make_shared<bool>(false);
    return [=]() -> QByteArray {
        // An empty piece ends the body: go on until there is something to send.
        QByteArray out;
        while (out.isEmpty() && !*done) {
            if (*family >= 4) {
                *done = true;
                return "# EOF\n";
            }
            const Family &f = kFamilies[*family];
            if (!*headerDone) {
                out += QByteArray("# HELP ") + f.name + ' ' + f.help + "\n# TYPE " + f.name +
                       " gauge\n";
                *headerDone = true;
            }
            if (*device < devices->size()) {
                const Device &d = (*devices)[*device];
                // DCGM reports no utilization of a MIG instance.
                if (!(d.gpuInstance >= 0 && *family == Util))
                    out += deviceHistory(d, *devices, *family, startSecs, endSecs, stepSecs);
                ++*device;
            }
            if (*device >= devices->size()) {
                *device = 0;
                ++*family;
                *headerDone = false;
            }
        }
        return out;
    };
}

} // namespace sim
