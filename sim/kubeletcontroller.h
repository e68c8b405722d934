// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "behavior.h"

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <string>
#include <unordered_map>

namespace sim {

class MachinesController;
struct SimState;

// The kubelets of the Ready nodes: start a bound pod's containers (or fail to pull their
// image), finish, fail and crash-loop them as their behaviour says, and remove pods whose
// deletion's grace period is over. A NotReady node's pods stay as they were.
class KubeletController
{
public:
    KubeletController(SimState &state, MachinesController &machines);

    void runKubelets();
    void forgetPod(const std::string &podUid);

private:
    // A pod a kubelet works on in this step.
    struct PodWork
    {
        std::string ns;
        std::string name;
        std::string uid;
        std::string node;
        Behavior behavior;
        nlohmann::json involved; // its first container, as its events name it
    };
    // Each writes the pod back if it changed it.
    void start(const PodWork &w, nlohmann::json &pod);
    void backOffImagePull(const PodWork &w, nlohmann::json &pod);
    void crashLoop(const PodWork &w, nlohmann::json &pod);
    void finish(const PodWork &w, nlohmann::json &pod);

    SimState &m_state;
    MachinesController &m_machines;
    std::unordered_map<std::string, qint64> m_nextRestart; // crash-looping pod uid → time
};

} // namespace sim
