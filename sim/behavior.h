// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

namespace sim {

// What a simulated workload does once it runs; kept by the simulation beside the API objects
// (never written into them), so that gpudesk sees only what a real cluster shows.
enum class Profile
{
    Train,        // busy GPUs, a training log
    Starved,      // DataLoader-bound: GPUs mostly waiting on the CPU
    Idle,         // holds GPUs at 0 %
    DevEnv,       // Jupyter / VS Code / SSH dev environment, light use
    CrashSymlink, // launch script is a dangling symlink: CrashLoopBackOff
    ShmError,     // DataLoader dies of too little shared memory
    ImagePull,    // image from an unknown registry host
    Chatty,       // logs very many lines
    Cpu,          // CPU-only data preparation
};

struct Behavior
{
    Profile profile = Profile::Train;
    qint64 runSeconds = 3600; // < 0: runs until deleted
    bool fails = false;
    bool hung = false; // containers cannot be killed: the pod stays Terminating
    int utilization = 90;
    quint64 seed = 0;
};

} // namespace sim
