// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "behavior.h"
#include "nodemachine.h"

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace sim {

class MachinesController;
struct ContainerExit;
struct SimState;

// The kubelets of the Ready nodes: start a bound pod's containers (or fail to pull their
// image), finish, fail and crash-loop them as their behaviour says, record containers a signal
// ended (and restart them as the pod's restartPolicy says), stop the containers of deleted pods
// and remove the pods once they are stopped. A NotReady node's pods stay as they were.
class KubeletController
{
public:
    KubeletController(SimState &state, MachinesController &machines);

    void runKubelets();
    // Containers ended by a kill on their node: their status, a restart, the events.
    void handleContainerExits();
    void forgetPod(const std::string &podUid);

private:
    // Exits on a NotReady node: its kubelet is down, so nothing records them or restarts the
    // container until it is back; the processes stay gone meanwhile.
    std::vector<ContainerExit> m_unrecorded;

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
    // Whether a running container's time (its behaviour's runSeconds) is up.
    // spec.activeDeadlineSeconds past since status.startTime: the kubelet fails the pod
    // (phase Failed, reason DeadlineExceeded) and kills its containers.
    bool deadlinePassed(const nlohmann::json &pod) const;
    void exceedDeadline(const PodWork &w, nlohmann::json &pod);
    bool finishDue(const Behavior &b, const nlohmann::json &pod) const;
    // A deleted pod: stop its containers, then remove it (unless they cannot be stopped).
    void terminate(const PodWork &w, const nlohmann::json &pod);
    void recordExit(nlohmann::json &pod, const ContainerExit &exit);

    SimState &m_state;
    MachinesController &m_machines;
    std::unordered_map<std::string, qint64> m_nextRestart; // crash-looping pod uid → time
    std::set<std::string> m_stopping; // deleted pods whose containers were told to stop
};

} // namespace sim
