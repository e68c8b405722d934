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

// How a failing workload fails at the end of its run: the last lines its program prints, as
// PyTorch, NCCL and Python print them, and the container's end (OOMKilled: exit 137). The job
// doctor's classes the demo plants beside the shared-memory, launch-script and image-pull ones.
enum class Failure
{
    None,
    GpuOutOfMemory,   // torch.cuda.OutOfMemoryError on the first step
    NcclTimeout,      // the NCCL watchdog: an all-reduce that never finished
    RankUnset,        // torch.distributed's env:// without RANK
    ModuleMissing,    // ModuleNotFoundError: a package not in the image
    DataPathMissing,  // FileNotFoundError: a dataset path not on the NAS
    DriverTooOld,     // the image's CUDA newer than the node's driver
    OutOfMemory,      // the kernel's OOM killer: reason OOMKilled, exit 137, no traceback
    EccUncorrectable, // the card lost data under the job: the CUDA runtime's ECC error
    MpiSsh,           // an MPI job's launcher: mpirun cannot start its daemons on the workers
                      // (over SSH: no sshd; with kubectl exec under the training operator: no
                      // container yet); the workers wait, the launcher fails
};

// How a pod's containers meet their end once the pod is deleted.
enum class Termination
{
    Normal,          // the processes exit on TERM within a couple of seconds
    IgnoresTerm,     // they trap TERM: the kubelet KILLs them when the grace period is over
    Hung,            // the runtime cannot kill them: the pod stays Terminating, they run on
    Uninterruptible, // they hang in D state (an NFS mount that stopped answering): as Hung,
                     // and no signal, not even KILL, ends them
    Lost,            // the kubelet lost track: the processes and the pod's cgroup are gone from
                     // the node, but the pod stays Terminating in the API
};

struct Behavior
{
    Profile profile = Profile::Train;
    qint64 runSeconds = 3600; // < 0: runs until deleted
    bool fails = false;
    Failure failure = Failure::None; // fails this way (implies `fails`)
    Termination termination = Termination::Normal;
    // Bit i: the process on the pod's i-th card ignores TERM (only KILL ends it).
    unsigned ignoreTermMask = 0;
    int utilization = 90;
    quint64 seed = 0;

    // The pod cannot be removed by its kubelet: a deletion leaves it Terminating.
    bool stuck() const
    {
        return termination == Termination::Hung || termination == Termination::Uninterruptible ||
               termination == Termination::Lost;
    }
};

} // namespace sim
