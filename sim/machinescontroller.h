// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <map>
#include <string>

namespace sim {

struct NodeMachine;
struct PodInfo;
struct SimState;

// The nodes' hardware: each step the machines' cards (whole or MIG instances), GPU processes,
// pod cgroups, CPU and memory follow the pods on them, and the card timeline records who held
// which card. Processes a removed pod leaves behind (a hung runtime, a dead kubelet) become
// orphans that live until killed.
class MachinesController
{
public:
    explicit MachinesController(SimState &state);

    // `migCards`: the first cards of the node are in MIG mode, each split all-balanced
    // (3g.40gb, 2g.20gb and two 1g.10gb on an 80 GB A100).
    void addNodeMachine(const nlohmann::json &node, const std::string &cgroupStyle,
                        int migCards = 0);
    void update(qint64 stepMs);
    // The next pod IP in the node's pod CIDR.
    std::string podIpFor(const std::string &node);
    // A pod object was removed: its kubelet ends its processes, unless it cannot (a hung
    // runtime, processes in D state, a NotReady node): then they stay behind as orphans.
    void podRemoved(const std::string &podUid, bool nodeReady);

private:
    void placePod(NodeMachine &m, const std::string &uid, const PodInfo &info, qint64 nowMs);
    void recordTimeline(const NodeMachine &m, qint64 nowMs);

    SimState &m_state;
    std::map<std::string, int> m_podIpCounter; // node → pod IPs handed out
    std::map<std::string, int> m_nodeIndex;    // node → its number, which picks its pod CIDR
    // A pod's /proc/PID/cgroup text by pod uid, made again only when its container restarts:
    // made at every step for every process otherwise.
    struct CgroupOf
    {
        int restartCount = -1;
        std::string text;
    };
    std::map<std::string, CgroupOf> m_cgroupOf;
};

} // namespace sim
