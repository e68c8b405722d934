// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectfactory.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sim {

// kube-scheduler's filters (unschedulable, taints, node selector, resources) and a bin-packing
// score: a 1-GPU pod goes to the node with the fewest free GPUs that fits, keeping whole nodes
// whole. Gangs (pods of one PodGroup) are placed all together or not at all.
class Scheduler
{
public:
    struct NodeState
    {
        std::string name;
        const nlohmann::json *node = nullptr;
        Resources allocatable;
        Resources requested;
        bool ready = true;
        bool unschedulable = false;
    };

    // Builds node states from the nodes and every pod bound and not terminated.
    void load(const std::vector<const nlohmann::json *> &nodes,
              const std::vector<const nlohmann::json *> &pods);

    // Chooses nodes for the pods (a gang, or one pod); empty result means it does not fit, and
    // `message` holds the FailedScheduling text for the first pod that did not fit.
    std::vector<std::string> place(const std::vector<const nlohmann::json *> &pods,
                                   std::string *message);

    // Volcano's preempt action for a gang that place() could not fit: the nodes it would get
    // if pods that `mayEvict` allows were gone, taking on each node the fewest victims, those
    // of lowest priority (and newest) first, and only pods that hold what the pod lacks. None
    // when even that does not place every pod of the gang.
    struct Preemption
    {
        std::vector<std::string> nodes;
        std::vector<const nlohmann::json *> victims;
    };
    std::optional<Preemption>
    preempt(const std::vector<const nlohmann::json *> &gang,
            const std::function<bool(const nlohmann::json &)> &mayEvict) const;

    const std::map<std::string, NodeState> &nodes() const { return m_nodes; }

    static bool tolerates(const nlohmann::json &pod, const nlohmann::json &taint);
    static bool isTerminated(const nlohmann::json &pod);

private:
    std::string fitError(const nlohmann::json &pod) const;
    bool fits(const nlohmann::json &pod, const NodeState &n, std::vector<std::string> *why) const;

    std::map<std::string, NodeState> m_nodes;
    // The pods bound to each node, not finished: the candidates for preemption.
    std::map<std::string, std::vector<const nlohmann::json *>> m_bound;
    // Pending pods nominated to a node (status.nominatedNodeName) by a preemption: what they
    // ask is held there for them, as kube-scheduler holds it, so that the room their victims
    // leave is not taken by another pod first. By pod uid: the node.
    std::map<std::string, std::string> m_reserved;
    // The gang's own holds, given back on `nodes` before it is placed there.
    void release(std::map<std::string, NodeState> &nodes,
                 const std::vector<const nlohmann::json *> &gang) const;
};

} // namespace sim
