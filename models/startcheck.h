// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capacitysnapshot.h"
#include "jobrequest.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QVariantMap>

namespace gpudesk {

// One reason of a verdict: how much it weighs, a stable code (docs/submit.md lists them), the
// reason in words, the figures behind it, the fix, and the form's field it concerns.
struct StartReason
{
    enum Severity
    {
        Info,
        Warning, // does not stop the job; very likely a mistake
        Waits,   // it will wait until this changes
        Never,   // it will not start as it is
    };
    Severity severity = Info;
    QString code;
    QString message;
    QString fix;
    QVariantMap numbers;
    // The form's field: name, image, command, env, gpus, gpuModel, cpu, memory, shm, replicas,
    // queue, priority, nodes, data.
    QString field;
};

// Where the check would put each pod: the tightest fit that keeps whole nodes whole.
struct StartPlacement
{
    QString role;
    QString node;
    int pods = 0;
    int gpusPerPod = 0;
    int freeBefore = 0; // the node's free GPUs before this job
    int freeAfter = 0;
};

struct StartVerdict
{
    enum Kind
    {
        Starts,
        Waits,
        Never,
    };
    Kind kind = Starts;
    // Free GPUs were counted from every pod (false: a researcher's account sees only its own
    // namespace; "starts" then means no more than "would fit in what is not seen in use").
    bool exact = true;
    QList<StartReason> reasons; // the weightiest first
    QList<StartPlacement> placement;

    static QString kindId(Kind k); // "starts", "waits", "never"
    // One line in the user's language: "Starts now on g4090-03, g4090-04." / "Never starts: …"
    QString summary() const;
    bool has(const QString &code) const;
    // Reasons found after the check itself (launch scripts on the NAS, images in their
    // registry): a Never among them makes the verdict Never; kept the weightiest first.
    void add(const QList<StartReason> &found);
};

// Will the job start? From a snapshot of the cluster: its shape against the nodes (bigger than
// any node it may run on, a GPU model or selector that matches none), the queue (missing,
// closed, capability), the namespace's quotas, then where it would go now — or what it waits
// for (the queue's room and who uses it, the quota in use, free GPUs scattered over nodes and
// who holds the cards that would make room, jobs ahead) — and warnings that do not block (NCCL
// and CUDA variables left on, /dev/shm at its default, WORLD_SIZE under Volcano's pytorch
// plugin, CPU and memory far off the lab's rule). Pure: no store, no I/O, any thread.
class StartCheck
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::StartCheck)

public:
    static StartVerdict check(const CapacitySnapshot &cluster, const JobRequest &job);

    // The runtime's /dev/shm without a Memory emptyDir.
    static constexpr qint64 DefaultShmBytes = 64LL * 1024 * 1024;

private:
    static void checkShape(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v);
    static void checkQueue(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v);
    static void checkQuota(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v);
    static void place(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v);
    static void warn(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v);
    // NCCL_SOCKET_IFNAME against the interfaces the role's pods will have.
    static void warnSocketIfname(const CapacitySnapshot &cluster, const JobRole &role,
                                 const QString &ifname, bool multiPod, StartVerdict *v);
};

} // namespace gpudesk
