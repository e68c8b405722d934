// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace sim {

struct SimState;

// What happens to whole nodes, the Node objects and the machines together: the scenarios'
// admin actions (NotReady, disk pressure, phantom memory, broken drivers, cordon) and the node
// lifecycle controller's unschedulable taint.
class NodeAdmin
{
public:
    explicit NodeAdmin(SimState &state) : m_state(state) {}

    void setNodeReady(const std::string &node, bool ready, const std::string &message);
    void setDiskPressure(const std::string &node, int percentUsed);
    void setPhantom(const std::string &node, int card, int memoryMiB);
    // The kubelet's eviction for disk pressure of a pod on its node: the pod fails (reason
    // Evicted, the kubelet's message naming the container's use), its containers are killed,
    // a DisruptionTarget condition and a Warning Evicted event.
    void evictForDiskPressure(const std::string &ns, const std::string &name,
                              const std::string &usage);
    // Uncorrectable ECC errors on the first card the pod holds on the node, counted from now
    // (nvidia-smi shows them until the driver reloads); the card's index, -1 when it holds none.
    int eccErrors(const std::string &node, const std::string &podUid, int count);
    // A line the node's kernel logs now (dmesg shows it).
    void kernelMessage(const std::string &node, const std::string &message);
    bool setDriverState(const std::string &node, const std::string &state);
    void cordon(const std::string &node);
    void syncUnschedulableTaints();

private:
    SimState &m_state;
};

} // namespace sim
