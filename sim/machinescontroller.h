// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <map>
#include <string>

namespace sim {

struct SimState;

// The nodes' hardware and what happens to whole nodes: each step the machines' cards,
// processes, cgroups, CPU and memory follow the pods on them; the admin actions of the
// scenarios (NotReady, disk pressure, phantom memory, broken drivers, cordon) change the Node
// objects and the machines together.
class MachinesController
{
public:
    explicit MachinesController(SimState &state);

    void addNodeMachine(const nlohmann::json &node, const std::string &cgroupStyle);
    void update(qint64 stepMs);
    // The next pod IP in the node's pod CIDR.
    std::string podIpFor(const std::string &node);
    // A deleted pod whose containers hang leaves its GPU processes behind as orphans.
    void orphanProcessesOf(const std::string &podUid);

    void setNodeReady(const std::string &node, bool ready, const std::string &message);
    void setDiskPressure(const std::string &node, int percentUsed);
    void setPhantom(const std::string &node, int card, int memoryMiB);
    bool setDriverState(const std::string &node, const std::string &state);
    void cordon(const std::string &node);

private:
    SimState &m_state;
    std::map<std::string, int> m_podIpCounter; // node → pod IPs handed out
    std::map<std::string, int> m_nodeIndex;    // node → its number, which picks its pod CIDR
};

} // namespace sim
