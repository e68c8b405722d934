// SPDX-License-Identifier: GPL-3.0-or-later
#include "machinescontroller.h"

#include "behavior.h"
#include "cardload.h"
#include "nodemachine.h"
#include "objectfactory.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sim {

using nlohmann::json;

namespace {

// What a GPU instance of an empty MIG device holds: the driver's context.
constexpr int kMigBaseMiB = 12;

struct MigProfile
{
    const char *name;
    int gpuInstance;
    int memoryMiB;
    int multiprocessors;
    int copyEngines;
    int decoders;
    int bar1MiB;
};
// An 80 GB A100 split all-balanced, as nvidia-smi mig -cgi 9,14,19,19 -C makes it.
constexpr MigProfile kAllBalanced[] = {{"3g.40gb", 1, 40192, 42, 3, 1, 65535},
                                       {"2g.20gb", 5, 19968, 28, 2, 1, 32767},
                                       {"1g.10gb", 13, 9728, 14, 1, 0, 16383},
                                       {"1g.10gb", 14, 9728, 14, 1, 0, 16383}};

std::string uuidFrom(const char *prefix, quint64 a, quint64 h)
{
    char uuid[64];
    std::snprintf(uuid, sizeof uuid, "%s-%08x-%04x-%04x-%04x-%012llx", prefix, unsigned(a >> 32),
                  unsigned((a >> 16) & 0xffff), unsigned(a & 0xffff), unsigned((h >> 8) & 0xffff),
                  static_cast<unsigned long long>((a ^ h) & 0xffffffffffffULL));
    return uuid;
}

// A container's process: the same PID for the same container instance, another after a
// restart.
int pidFor(const std::string &uid, int restart, int card, int gpuInstance)
{
    const quint64 h = restart == 0 ? hashOf(uid) : hashOf(uid + "#" + std::to_string(restart));
    return 100000 + int((h + quint64(card) * 7 + quint64(gpuInstance + 1) * 3) % 800000);
}

} // namespace

MachinesController::MachinesController(SimState &state) : m_state(state) {}

void MachinesController::addNodeMachine(const json &node, const std::string &cgroupStyle,
                                        int migCards)
{
    NodeMachine m;
    m.name = node["metadata"].value("name", "");
    m.hostname = m.name;
    const json &labels = node["metadata"]["labels"];
    m.gpuProduct = labels.value("nvidia.com/gpu.product", "");
    // GPU feature discovery writes the product with dashes for spaces; nvidia-smi does not.
    if (m.gpuProduct.rfind("NVIDIA-", 0) == 0)
        m.gpuProduct[6] = ' ';
    const bool datacentre = m.gpuProduct.find("A800") != std::string::npos ||
                            m.gpuProduct.find("A100") != std::string::npos;
    // Under the mixed strategy nvidia.com/gpu counts only the cards not in MIG mode.
    const int gpus = int(nodeAllocatable(node).gpus) + migCards;
    m.memoryTotalMiB = datacentre ? 81920 : 24564;
    m.powerLimit = datacentre ? 400.0 : 450.0;
    m.idlePower = m.gpuProduct.find("A100") != std::string::npos ? 58.0 : datacentre ? 62.0 : 28.0;
    m.eccSupported = datacentre;
    m.driverVersion = datacentre ? "535.129.03" : "550.54.15";
    m.cudaVersion = datacentre ? "12.2" : "12.4";
    m.kernel = "5.15.0-91-generic";
    m.cpus = int(parseQuantityMilli(node["status"]["capacity"]["cpu"]) / 1000);
    m.memTotalKb = parseQuantityBytes(node["status"]["capacity"]["memory"]) / 1024;
    m.memAvailableKb = m.memTotalKb * 9 / 10;
    m.cgroupStyle = cgroupStyle;
    m.interfaces = {"lo", "eth0", "cni0"};
    if (datacentre)
        for (int i = 0; i < std::max(1, int(nodeAllocatable(node).gpus) / 2); ++i)
            m.interfaces.push_back("ib" + std::to_string(i));
    const quint64 h = hashOf(m.name);
    for (int i = 0; i < gpus; ++i) {
        GpuCard c;
        c.index = i;
        const quint64 a = hashOf(m.name + "#" + std::to_string(i));
        c.uuid = uuidFrom("GPU", a, h);
        static const char *buses[] = {"18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"};
        c.busId = std::string("00000000:") + buses[i % 8] + ":00.0";
        c.temperature = 31 + int((a >> 5) % 6);
        c.powerDraw = m.idlePower + double((a >> 9) % 900) / 100.0;
        if (i < migCards) {
            c.migEnabled = true;
            int index = 0;
            for (const auto &p : kAllBalanced) {
                MigDevice d;
                d.index = index++;
                d.profile = p.name;
                d.gpuInstance = p.gpuInstance;
                d.memoryMiB = p.memoryMiB;
                d.memoryUsedMiB = kMigBaseMiB;
                d.multiprocessors = p.multiprocessors;
                d.copyEngines = p.copyEngines;
                d.decoders = p.decoders;
                d.bar1MiB = p.bar1MiB;
                d.uuid = uuidFrom("MIG", hashOf(c.uuid + "/" + std::to_string(p.gpuInstance)), a);
                c.mig.push_back(d);
            }
        }
        m.cards.push_back(c);
    }
    const bool docker = cgroupStyle.find("docker") != std::string::npos;
    m.disks = {{"/dev/nvme0n1p2", "/", 959786032, 393512273},
               {"/dev/nvme1n1", docker ? "/var/lib/docker" : "/var/lib/containerd", 1875382960,
                1031460628},
               // The lab's NAS (NasTree): 200 TiB of home folders, 81 % used, and 100 TiB of
               // shared datasets at 93 %, past the 90 % at which gpudesk warns.
               {"nas.lab.internal:/export/user", "/mnt/user", 214748364800, 173946175488},
               {"nas.lab.internal:/export/share", "/mnt/share", 107374182400, 99857989632}};
    m.cpuTicks[3] = quint64(m.cpus) * 100 * 86400 * 12; // up twelve days, mostly idle
    m.cpuTicks[0] = quint64(m.cpus) * 100 * 86400 * 3;
    m.cpuTicks[2] = quint64(m.cpus) * 100 * 86400 / 2;
    m.lastPid = 40000 + int(h % 20000);
    m.uptimeSecs = 15.5 * 86400 + double(h % 86400);
    m.bootedAtMs = m_state.clock->nowMs() - qint64(m.uptimeSecs * 1000.0);
    m_state.machines->put(m);
    m_nodeIndex[m.name] = int(m_nodeIndex.size()) + 1;
}

std::string MachinesController::podIpFor(const std::string &node)
{
    const int n = ++m_podIpCounter[node];
    return "10.244." + std::to_string(m_nodeIndex[node] % 256) + "." +
           std::to_string(2 + (n - 1) % 250);
}

void MachinesController::podRemoved(const std::string &uid, bool nodeReady)
{
    m_cgroupOf.erase(uid);
    const auto it = m_state.podInfo.find(uid);
    if (it == m_state.podInfo.end() || it->second.node.empty())
        return;
    const PodInfo &info = it->second;
    const Behavior b = m_state.behaviorOf(uid);
    // Nothing can stop them: a runtime that hangs, a process in D state, a dead kubelet.
    const bool lost = b.termination == Termination::Lost && info.deleting;
    const bool leftBehind = info.running && !lost &&
                            (b.termination == Termination::Hung ||
                             b.termination == Termination::Uninterruptible || !nodeReady);
    const qint64 now = m_state.clock->nowMs();
    m_state.machines->edit(info.node, [&](NodeMachine &m) {
        m.pods.erase(uid);
        m.exitedContainers.erase(uid);
        for (auto p = m.processes.begin(); p != m.processes.end();) {
            if (p->podUid != uid || p->orphan) {
                ++p;
                continue;
            }
            if (leftBehind) {
                // Its peers and its launcher are gone: it waits, on the card's memory.
                p->orphan = true;
                p->orphanSinceMs = now;
                p->utilization = 0;
                if (p->state != 'D')
                    p->state = 'S';
                ++p;
                continue;
            }
            // The kubelet kills them: the card's memory goes with them at once.
            for (auto &c : m.cards) {
                if (c.index != p->card)
                    continue;
                c.memoryUsedMiB = std::max(c.phantomMiB, c.memoryUsedMiB - p->memoryMiB);
                for (auto &d : c.mig)
                    if (d.gpuInstance == p->gpuInstance)
                        d.memoryUsedMiB = std::max(kMigBaseMiB, d.memoryUsedMiB - p->memoryMiB);
            }
            p = m.processes.erase(p);
        }
    });
}

void MachinesController::placePod(NodeMachine &m, const std::string &uid, const PodInfo &info,
                                  qint64 nowMs)
{
    const Behavior b = m_state.behaviorOf(uid);
    const bool dState = b.termination == Termination::Uninterruptible && info.deleting;
    CgroupOf &cgroup = m_cgroupOf[uid];
    if (cgroup.restartCount != info.restartCount)
        cgroup = {info.restartCount,
                  cgroupText(m.cgroupStyle, uid, containerId(uid, "pytorch", info.restartCount),
                             info.qosClass)};
    auto process = [&](int card, int cardNo, int memory, int util, int gi, int ci) {
        GpuProcess p;
        p.pid = pidFor(uid, info.restartCount, card, gi);
        p.card = card;
        p.memoryMiB = memory;
        p.name = b.profile == Profile::DevEnv ? "/opt/conda/bin/python3.10" : "python";
        p.podUid = uid;
        p.podName = info.name;
        p.podNamespace = info.ns;
        p.container = info.container;
        p.cgroup = cgroup.text;
        p.startMs = info.startedMs > 0 ? info.startedMs : nowMs;
        p.state = dState ? 'D' : util >= 50 ? 'R' : 'S';
        p.stateSinceMs = dState ? info.deletionRequestedMs : p.startMs;
        p.ignoresTerm = (b.ignoreTermMask >> cardNo) & 1U;
        p.gpuInstance = gi;
        p.computeInstance = ci;
        p.utilization = util;
        m.processes.push_back(p);
    };
    const qint64 secs = nowMs / 1000;
    int cardNo = 0;
    for (int card : info.cards) {
        if (card >= int(m.cards.size()))
            continue;
        GpuCard &c = m.cards[size_t(card)];
        const CardLoad load = podCardLoad(b, cardNo, secs, m.memoryTotalMiB);
        // A card already holding another process's memory leaves this one less.
        const int mem = std::max(0, std::min(load.memoryMiB, m.memoryTotalMiB - c.memoryUsedMiB));
        c.utilization = std::max(c.utilization, load.utilization);
        c.memoryUsedMiB += mem;
        process(card, cardNo, mem, load.utilization, -1, -1);
        ++cardNo;
    }
    for (const auto &slot : info.migDevices) {
        if (slot.card >= int(m.cards.size()))
            continue;
        for (auto &d : m.cards[size_t(slot.card)].mig) {
            if (d.gpuInstance != slot.gpuInstance)
                continue;
            const CardLoad load = podCardLoad(b, cardNo, secs, d.memoryMiB);
            const int mem = std::max(0, std::min(load.memoryMiB, d.memoryMiB - d.memoryUsedMiB));
            d.memoryUsedMiB += mem;
            d.utilization = std::max(d.utilization, load.utilization);
            process(slot.card, cardNo, mem, load.utilization, d.gpuInstance, d.computeInstance);
        }
        ++cardNo;
    }
}

void MachinesController::recordTimeline(const NodeMachine &m, qint64 nowMs)
{
    CardTimeline &timeline = m_state.timeline;
    auto podSegment = [&](const std::string &uid, int card, int gi) {
        CardSegment s;
        s.kind = CardSegment::Kind::Pod;
        s.podUid = uid;
        const auto it = m_state.podInfo.find(uid);
        if (it == m_state.podInfo.end())
            return s;
        const PodInfo &info = it->second;
        s.pod = info.name;
        s.ns = info.ns;
        s.container = info.container;
        s.behavior = m_state.behaviorOf(uid);
        s.fromMs = info.startedMs > 0 ? info.startedMs : nowMs;
        s.id = "pod:" + uid + "#" + std::to_string(info.restartCount);
        s.memoryTotalMiB = m.memoryTotalMiB;
        int cardNo = 0;
        for (int c : info.cards) {
            if (c == card && gi < 0)
                s.cardNo = cardNo;
            ++cardNo;
        }
        for (const auto &slot : info.migDevices) {
            if (slot.card == card && slot.gpuInstance == gi)
                s.cardNo = cardNo;
            ++cardNo;
        }
        return s;
    };
    for (const auto &c : m.cards) {
        auto occupants = [&](int gi, int memoryTotal, const std::string &owner) {
            const CardKey key{m.name, c.index, gi};
            bool ownerSeen = false;
            for (const auto &p : m.processes) {
                if (p.card != c.index || p.gpuInstance != gi)
                    continue;
                if (p.orphan) {
                    CardSegment s;
                    s.kind = CardSegment::Kind::Orphan;
                    s.id = "orphan:" + std::to_string(p.pid);
                    s.fromMs = p.startMs;
                    s.memoryMiB = p.memoryMiB;
                    timeline.observe(key, s, nowMs);
                    continue;
                }
                CardSegment s = podSegment(p.podUid, c.index, gi);
                s.memoryTotalMiB = memoryTotal;
                s.allocated = p.podUid == owner;
                ownerSeen |= s.allocated;
                timeline.observe(key, s, nowMs);
            }
            // An allocated card whose pod runs nothing on it still carries the pod's labels.
            if (!owner.empty() && !ownerSeen) {
                CardSegment s = podSegment(owner, c.index, gi);
                s.id = "allocated:" + owner;
                s.behavior.profile = Profile::Idle;
                s.behavior.seed = 0;
                s.memoryTotalMiB = 0;
                s.fromMs = nowMs;
                s.allocated = true;
                timeline.observe(key, s, nowMs);
            }
        };
        if (c.migEnabled) {
            for (const auto &d : c.mig)
                occupants(d.gpuInstance, d.memoryMiB, d.ownerPodUid);
            continue;
        }
        occupants(-1, m.memoryTotalMiB, c.ownerPodUid);
        if (c.phantomMiB > 0) {
            CardSegment s;
            s.kind = CardSegment::Kind::Phantom;
            s.id = "phantom";
            s.fromMs = nowMs;
            s.memoryMiB = c.phantomMiB;
            timeline.observe({m.name, c.index, -1}, s, nowMs);
        }
    }
}

void MachinesController::update(qint64 stepMs)
{
    const qint64 nowMs = m_state.clock->nowMs();
    std::map<std::string, PodService> services;
    for (const auto &name : m_state.machines->names()) {
        const auto &uids = m_state.podsOnNode[name];
        m_state.machines->edit(name, [&](NodeMachine &m) {
            // Orphans persist; pod processes follow the pods.
            std::vector<GpuProcess> kept;
            for (const auto &p : m.processes) {
                if (p.orphan)
                    kept.push_back(p);
            }
            m.processes = kept;
            for (auto &c : m.cards) {
                c.utilization = 0;
                c.memoryUsedMiB = c.phantomMiB;
                c.ownerPodUid.clear();
                for (auto &d : c.mig) {
                    d.memoryUsedMiB = kMigBaseMiB;
                    d.utilization = 0;
                    d.ownerPodUid.clear();
                }
            }
            for (const auto &p : m.processes) {
                if (p.card >= int(m.cards.size()))
                    continue;
                GpuCard &c = m.cards[size_t(p.card)];
                c.memoryUsedMiB += p.memoryMiB;
                c.utilization = std::max(c.utilization, p.utilization);
                for (auto &d : c.mig)
                    if (d.gpuInstance == p.gpuInstance)
                        d.memoryUsedMiB += p.memoryMiB;
            }
            double cpuBusy = 0.3;
            qint64 memUsedKb = 6LL * 1024 * 1024;
            int procs = 1;
            std::map<std::string, PodCgroup> podCgroups;
            for (const auto &uid : uids) {
                const auto it = m_state.podInfo.find(uid);
                if (it == m_state.podInfo.end())
                    continue;
                const PodInfo &info = it->second;
                if (info.terminated())
                    continue;
                for (int card : info.cards) {
                    if (card < int(m.cards.size()))
                        m.cards[size_t(card)].ownerPodUid = uid;
                }
                for (const auto &slot : info.migDevices) {
                    if (slot.card < int(m.cards.size()))
                        for (auto &d : m.cards[size_t(slot.card)].mig)
                            if (d.gpuInstance == slot.gpuInstance)
                                d.ownerPodUid = uid;
                }
                const Behavior b = m_state.behaviorOf(uid);
                // The kubelet lost track of a deleted pod: nothing of it runs any more; a
                // container a signal ended waits for its kubelet.
                if (!info.running || m.exitedContainers.count(uid) ||
                    (info.deleting && b.termination == Termination::Lost))
                    continue;
                double podCpu = double(info.cpuMilli) / 1000.0 * 0.6;
                if (b.profile == Profile::Starved)
                    podCpu = double(info.cpuMilli) / 1000.0 * 0.98;
                if (b.profile == Profile::Idle || b.profile == Profile::DevEnv)
                    podCpu = 0.2;
                cpuBusy += podCpu;
                memUsedKb += info.memoryBytes / 1024 * 7 / 10;
                // The pod's cgroup: CPU time goes on from where it was; memory is steady.
                PodCgroup cg = m.pods.count(uid) ? m.pods.at(uid) : PodCgroup{};
                cg.qosClass = info.qosClass;
                cg.name = info.name;
                cg.ns = info.ns;
                cg.container = info.container;
                cg.image = info.image;
                cg.restartCount = info.restartCount;
                cg.cpuCores = podCpu;
                cg.cpuUsageNs += quint64(std::llround(podCpu * double(stepMs) * 1e6));
                cg.workingSetBytes = info.memoryBytes > 0
                                         ? info.memoryBytes / 10 * 7
                                         : (256LL << 20) + qint64(b.seed % 512) * (1LL << 20);
                cg.inactiveFileBytes = cg.workingSetBytes / 20 + (64LL << 20);
                cg.activeFileBytes = cg.workingSetBytes / 33;
                podCgroups[uid] = cg;
                ++procs;
                if (info.devEnv && !info.podIp.empty()) {
                    PodService s{
                        info.name,
                        info.ns,
                        name,
                        {{8888, "jupyter"}, {8080, "vscode"}, {22, "ssh"}, {6006, "tensorboard"}}};
                    services[info.podIp] = s;
                }
                placePod(m, uid, info, nowMs);
            }
            // A container a signal ended whose pod is gone needs its kubelet no more.
            for (auto e = m.exitedContainers.begin(); e != m.exitedContainers.end();)
                e = m_state.podInfo.count(*e) ? std::next(e) : m.exitedContainers.erase(e);
            for (auto &c : m.cards) {
                if (c.migEnabled) {
                    // The card holds what its instances hold; busy while any instance works.
                    c.memoryUsedMiB = c.phantomMiB + 11;
                    for (const auto &d : c.mig) {
                        c.memoryUsedMiB += d.memoryUsedMiB;
                        c.utilization = std::max(c.utilization, d.utilization);
                    }
                }
                c.memoryUsedMiB = std::min(c.memoryUsedMiB, m.memoryTotalMiB);
                c.memoryUtilization = c.utilization * 6 / 10;
                c.temperature = 32 + c.utilization * 45 / 100 + int(hashOf(c.uuid) % 4);
                c.powerDraw = m.idlePower +
                              (m.powerLimit - m.idlePower) * c.utilization / 100.0 * 0.92 +
                              double(hashOf(c.uuid) % 300) / 100.0;
                c.clockSm = c.utilization > 0 ? (m.eccSupported ? 1410 : 2520) : 210;
            }
            m.pods = std::move(podCgroups);
            m.uptimeSecs += double(stepMs) / 1000.0;
            cpuBusy = std::min(cpuBusy, double(m.cpus));
            const quint64 ticks = quint64(m.cpus) * 100 * quint64(stepMs) / 1000;
            const quint64 busy = quint64(double(ticks) * cpuBusy / std::max(1, m.cpus));
            m.cpuTicks[0] += busy * 85 / 100;
            m.cpuTicks[2] += busy * 12 / 100;
            m.cpuTicks[4] += busy * 3 / 100;
            m.cpuTicks[3] += ticks - busy;
            const double a1 = std::exp(-double(stepMs) / 60000.0);
            const double a5 = std::exp(-double(stepMs) / 300000.0);
            const double a15 = std::exp(-double(stepMs) / 900000.0);
            m.load[0] = m.load[0] * a1 + cpuBusy * (1 - a1);
            m.load[1] = m.load[1] * a5 + cpuBusy * (1 - a5);
            m.load[2] = m.load[2] * a15 + cpuBusy * (1 - a15);
            m.runningProcs = 1 + int(cpuBusy);
            m.totalProcs = 900 + procs * 40;
            m.memAvailableKb = std::max<qint64>(m.memTotalKb / 50, m.memTotalKb - memUsedKb);
            recordTimeline(m, nowMs);
        });
    }
    m_state.timeline.sweep();
    m_state.machines->setServices(std::move(services));
}

} // namespace sim
