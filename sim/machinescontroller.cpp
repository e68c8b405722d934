// SPDX-License-Identifier: GPL-3.0-or-later
#include "machinescontroller.h"

#include "behavior.h"
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

MachinesController::MachinesController(SimState &state) : m_state(state) {}

void MachinesController::addNodeMachine(const json &node, const std::string &cgroupStyle)
{
    NodeMachine m;
    m.name = node["metadata"].value("name", "");
    m.hostname = m.name;
    m.gpuProduct = node["metadata"]["labels"].value("nvidia.com/gpu.product", "");
    const bool a800 = m.gpuProduct.find("A800") != std::string::npos;
    const int gpus = int(nodeAllocatable(node).gpus);
    m.memoryTotalMiB = a800 ? 81920 : 24564;
    m.powerLimit = a800 ? 400.0 : 450.0;
    m.idlePower = a800 ? 62.0 : 28.0;
    m.eccSupported = a800;
    m.driverVersion = a800 ? "535.129.03" : "550.54.15";
    m.cudaVersion = a800 ? "12.2" : "12.4";
    m.kernel = "5.15.0-91-generic";
    m.cpus = int(parseQuantityMilli(node["status"]["capacity"]["cpu"]) / 1000);
    m.memTotalKb = parseQuantityBytes(node["status"]["capacity"]["memory"]) / 1024;
    m.memAvailableKb = m.memTotalKb * 9 / 10;
    m.cgroupStyle = cgroupStyle;
    const quint64 h = hashOf(m.name);
    for (int i = 0; i < gpus; ++i) {
        GpuCard c;
        c.index = i;
        char uuid[64];
        const quint64 a = hashOf(m.name + "#" + std::to_string(i));
        std::snprintf(uuid, sizeof uuid, "GPU-%08x-%04x-%04x-%04x-%012llx", unsigned(a >> 32),
                      unsigned((a >> 16) & 0xffff), unsigned(a & 0xffff),
                      unsigned((h >> 8) & 0xffff),
                      static_cast<unsigned long long>((a ^ h) & 0xffffffffffffULL));
        c.uuid = uuid;
        static const char *buses[] = {"18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"};
        c.busId = std::string("00000000:") + buses[i % 8] + ":00.0";
        c.temperature = 31 + int((a >> 5) % 6);
        c.powerDraw = m.idlePower + double((a >> 9) % 900) / 100.0;
        m.cards.push_back(c);
    }
    const bool docker = cgroupStyle.find("docker") != std::string::npos;
    m.disks = {{"/dev/nvme0n1p2", "/", 959786032, 393512273},
               {"/dev/nvme1n1", docker ? "/var/lib/docker" : "/var/lib/containerd", 1875382960,
                1031460628},
               {"nas.lab.internal:/export", "/mnt/nas", 107374182400, 61203283968}};
    m.cpuTicks[3] = quint64(m.cpus) * 100 * 86400 * 12; // up twelve days, mostly idle
    m.cpuTicks[0] = quint64(m.cpus) * 100 * 86400 * 3;
    m.cpuTicks[2] = quint64(m.cpus) * 100 * 86400 / 2;
    m.lastPid = 40000 + int(h % 20000);
    m.uptimeSecs = 15.5 * 86400 + double(h % 86400);
    m_state.machines->put(m);
    m_nodeIndex[m.name] = int(m_nodeIndex.size()) + 1;
}

std::string MachinesController::podIpFor(const std::string &node)
{
    const int n = ++m_podIpCounter[node];
    return "10.244." + std::to_string(m_nodeIndex[node] % 256) + "." +
           std::to_string(2 + (n - 1) % 250);
}

void MachinesController::orphanProcessesOf(const std::string &uid)
{
    const auto it = m_state.podInfo.find(uid);
    if (it == m_state.podInfo.end() || !m_state.behaviorOf(uid).hung || !it->second.running ||
        it->second.node.empty())
        return;
    m_state.machines->edit(it->second.node, [&](NodeMachine &m) {
        for (auto &proc : m.processes) {
            if (proc.podUid == uid)
                proc.orphan = true;
        }
    });
}

namespace {

// What a running pod's processes do to each of its cards, by profile: (utilization, memory).
std::pair<int, int> cardLoad(const Behavior &b, quint64 noise, int cardNo, int memoryTotalMiB)
{
    const int jitter = int((noise >> (cardNo * 5)) % 9);
    switch (b.profile) {
    case Profile::Train:
    case Profile::ShmError:
    case Profile::Chatty:
        return {std::min(100, 88 + jitter + (b.utilization - 90)),
                memoryTotalMiB * 86 / 100 - jitter * 37};
    case Profile::Starved:
        return {18 + int((noise >> (cardNo * 7)) % 25), memoryTotalMiB * 60 / 100};
    case Profile::Idle:
        return {0, memoryTotalMiB * 24 / 100};
    case Profile::DevEnv:
        return {(noise % 10) < 7 ? 0 : int(noise % 12), 2300 + int(noise % 1800)};
    default:
        return {50, memoryTotalMiB / 2};
    }
}

} // namespace

void MachinesController::update(qint64 stepMs)
{
    std::map<std::string, PodService> services;
    for (const auto &name : m_state.machines->names()) {
        const auto &uids = m_state.podsOnNode[name];
        m_state.machines->edit(name, [&](NodeMachine &m) {
            // Orphans and hand-started processes persist; pod processes follow the pods.
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
            }
            for (const auto &p : m.processes) {
                if (p.card < int(m.cards.size()))
                    m.cards[size_t(p.card)].memoryUsedMiB += p.memoryMiB;
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
                if (!info.running)
                    continue;
                const Behavior b = m_state.behaviorOf(uid);
                const quint64 noise =
                    (b.seed ^ quint64(m_state.clock->nowSecs() / 2)) * 2862933555777941757ULL;
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
                int cardNo = 0;
                for (int card : info.cards) {
                    if (card >= int(m.cards.size()))
                        continue;
                    GpuCard &c = m.cards[size_t(card)];
                    auto [util, mem] = cardLoad(b, noise, cardNo, m.memoryTotalMiB);
                    // A card already holding another process's memory leaves this one less.
                    mem = std::max(0, std::min(mem, m.memoryTotalMiB - c.memoryUsedMiB));
                    c.utilization = std::max(c.utilization, util);
                    c.memoryUsedMiB += mem;
                    GpuProcess p;
                    p.pid = 100000 + int((hashOf(uid) + quint64(card) * 7) % 800000);
                    p.card = card;
                    p.memoryMiB = mem;
                    p.name = b.profile == Profile::DevEnv ? "/opt/conda/bin/python3.10" : "python";
                    p.podUid = uid;
                    p.podName = info.name;
                    p.podNamespace = info.ns;
                    p.cgroup = cgroupText(m.cgroupStyle, uid, containerId(uid, "pytorch", 0),
                                          info.qosClass);
                    m.processes.push_back(p);
                    ++cardNo;
                }
            }
            for (auto &c : m.cards) {
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
        });
    }
    m_state.machines->setServices(std::move(services));
}

void MachinesController::setNodeReady(const std::string &node, bool ready,
                                      const std::string &message)
{
    const auto res = m_state.store->get(m_state.nodes, {}, QString::fromStdString(node));
    if (!res.ok())
        return;
    json n = *res.object.object;
    const std::string now = m_state.clock->nowRfc3339();
    for (auto &c : n["status"]["conditions"]) {
        if (ready) {
            if (c["type"] == "Ready") {
                c["status"] = "True";
                c["reason"] = "KubeletReady";
                c["message"] = "kubelet is posting ready status";
            }
        } else {
            c["status"] = "Unknown";
            c["reason"] = "NodeStatusUnknown";
            c["message"] = message;
        }
        c["lastTransitionTime"] = now;
    }
    if (!ready)
        n["spec"]["taints"] = json::array({json{{"key", "node.kubernetes.io/unreachable"},
                                                {"effect", "NoSchedule"},
                                                {"timeAdded", now}},
                                           json{{"key", "node.kubernetes.io/unreachable"},
                                                {"effect", "NoExecute"},
                                                {"timeAdded", now}}});
    else
        n["spec"].erase("taints");
    m_state.store->update(m_state.nodes, n, QStringLiteral("kube-controller-manager"));
    m_state.recordEvent(m_state.objectRef(m_state.nodes, "", node), "default", "Normal",
                        ready ? "NodeReady" : "NodeNotReady",
                        "Node " + node +
                            " status is now: " + (ready ? "NodeReady" : "NodeNotReady"),
                        "node-controller", "");
}

void MachinesController::setDiskPressure(const std::string &node, int percentUsed)
{
    m_state.machines->edit(node, [&](NodeMachine &m) {
        for (auto &d : m.disks) {
            if (d.mount == "/")
                d.used1k = d.blocks1k * percentUsed / 100;
        }
    });
    if (percentUsed < 85)
        return;
    const auto res = m_state.store->get(m_state.nodes, {}, QString::fromStdString(node));
    json n = *res.object.object;
    const std::string now = m_state.clock->nowRfc3339();
    for (auto &c : n["status"]["conditions"]) {
        if (c["type"] == "DiskPressure") {
            c["status"] = "True";
            c["reason"] = "KubeletHasDiskPressure";
            c["message"] = "kubelet has disk pressure";
            c["lastTransitionTime"] = now;
        }
    }
    n["spec"]["taints"] = json::array({json{{"key", "node.kubernetes.io/disk-pressure"},
                                            {"effect", "NoSchedule"},
                                            {"timeAdded", now}}});
    m_state.store->update(m_state.nodes, n, QStringLiteral("kubelet"));
    m_state.recordEvent(m_state.objectRef(m_state.nodes, "", node), "default", "Warning",
                        "EvictionThresholdMet", "Attempting to reclaim ephemeral-storage",
                        "kubelet", node);
}

void MachinesController::setPhantom(const std::string &node, int card, int memoryMiB)
{
    m_state.machines->edit(node, [&](NodeMachine &m) {
        if (card < int(m.cards.size()))
            m.cards[size_t(card)].phantomMiB = memoryMiB;
    });
}

bool MachinesController::setDriverState(const std::string &node, const std::string &state)
{
    if (state != "ok" && state != "failed" && state != "nodevices" && state != "missing")
        return false;
    bool found = false;
    m_state.machines->edit(node, [&](NodeMachine &m) {
        m.driverState = state;
        found = true;
    });
    return found;
}

void MachinesController::cordon(const std::string &node)
{
    const auto res = m_state.store->get(m_state.nodes, {}, QString::fromStdString(node));
    json n = *res.object.object;
    n["spec"]["unschedulable"] = true;
    n["spec"]["taints"] = json::array({json{{"key", "node.kubernetes.io/unschedulable"},
                                            {"effect", "NoSchedule"},
                                            {"timeAdded", m_state.clock->nowRfc3339()}}});
    m_state.store->update(m_state.nodes, n, QStringLiteral("kubectl-cordon"));
}

} // namespace sim
