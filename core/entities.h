// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resource.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace gpudesk {

// The fields of Kubernetes objects that gpudesk uses, decoded once (see decoder.h). Times are
// milliseconds since the epoch, 0 when absent.

struct Condition
{
    QString type;
    QString status; // True, False, Unknown
    QString reason;
    QString message;
    qint64 lastTransition = 0;
};

using Labels = QList<std::pair<QString, QString>>;
// MIG instances by profile ("1g.10gb" → 2), from the device plugin's nvidia.com/mig-<profile>
// resources (its mixed strategy).
using MigCounts = QList<std::pair<QString, int>>;
inline int migTotal(const MigCounts &counts)
{
    int n = 0;
    for (const auto &[profile, count] : counts)
        n += count;
    return n;
}

struct NodeInfo
{
    QString uid;
    QString name;
    bool ready = false;
    bool unschedulable = false;
    QString gpuModel;       // label nvidia.com/gpu.product
    int gpuAllocatable = 0; // whole GPUs (nvidia.com/gpu): cards in MIG mode are not among them
    int gpuCapacity = 0;
    MigCounts migAllocatable;
    qint64 cpuAllocatableMilli = 0;
    qint64 memoryAllocatableBytes = 0;
    QString internalIP;
    QString kubeletVersion;
    QStringList taints; // key=value:Effect, as kubectl describe shows them
    QList<Condition> conditions;
    Labels labels;
    qint64 created = 0;
};

struct OwnerRef
{
    QString kind;
    QString name;
    QString uid;
};

struct PodInfo
{
    QString uid;
    QString ns;
    QString name;
    QString nodeName;
    QString phase;
    QString status;  // what kubectl's STATUS column says: Running, CrashLoopBackOff, Terminating…
    QString message; // why it waits: the scheduler's message, or the container's waiting message
    // The virtual cluster (Volcano queue) it names: label volcano.sh/queue-name, else the
    // annotation, else "" (ClusterStore::vcOf falls back to its namespace's VC).
    QString vc;
    OwnerRef owner; // the controller, if any
    QStringList containers;
    QString podIP;
    QString qosClass; // Guaranteed, Burstable, BestEffort: where the kubelet puts its cgroup
    int gpuRequest = 0;
    MigCounts migRequests; // nvidia.com/mig-<profile>
    qint64 cpuRequestMilli = 0;
    qint64 memoryRequestBytes = 0;
    int restarts = 0;
    bool deleting = false;
    qint64 deletionTime = 0;     // metadata.deletionTimestamp: when the grace period ends
    qint64 gracePeriodSecs = 30; // metadata.deletionGracePeriodSeconds, else the spec's
    qint64 created = 0;
    QString image; // of the first container
    // Where it may run, as the scheduler filters nodes: spec.nodeSelector, and tolerations as
    // "key|operator|value|effect" (operator Equal or Exists; empty key and Exists: every taint).
    Labels nodeSelector;
    QStringList tolerations;

    bool finished() const
    {
        return phase == QLatin1String("Succeeded") || phase == QLatin1String("Failed");
    }
};

// A virtual cluster: a Volcano Queue (scheduling.volcano.sh). "VC" is the word users and the UI
// use; the object is a Queue, so this type keeps the API's name.
struct QueueInfo
{
    QString uid;
    QString name;
    std::optional<int> gpuCapability; // none: unlimited
    // status.allocated, as Volcano's scheduler counts it: readable by anyone who may read
    // queues, so it says what a researcher who sees only her own pods cannot count herself.
    std::optional<int> gpuAllocated;
    QString state; // Open, Closing, Closed
    int weight = 1;
};

struct NamespaceInfo
{
    QString uid;
    QString name;
    QString user; // label gpudesk.io/user
    QString vc;   // label gpudesk.io/vc
};

// A Volcano PodGroup: the gang a Volcano job (or a Kubeflow job scheduled by Volcano) is admitted
// as. Its phase and conditions say why a job waits before it has any pod.
struct PodGroupInfo
{
    QString uid;
    QString ns;
    QString name;
    QString vc;    // spec.queue
    QString phase; // Pending, Inqueue, Running, Unknown
    int minMember = 0;
    int minGpus = 0; // spec.minResources nvidia.com/gpu (requests. or bare)
    OwnerRef owner;  // the job it belongs to
    QList<Condition> conditions;
    qint64 created = 0;
};

// A Volcano Job, PyTorchJob or MPIJob.
struct JobInfo
{
    QString uid;
    Resource kind = Resource::VolcanoJobs;
    QString ns;
    QString name;
    QString vc;      // its queue
    QString status;  // Pending, Running, Completed, Failed, …
    QString message; // the latest condition's message
    qint64 created = 0;
    int minAvailable = 0; // Volcano: spec.minAvailable
};

struct EventInfo
{
    QString uid;
    QString ns;
    QString name;
    QString type; // Normal, Warning
    QString reason;
    QString message;
    QString source;
    int count = 1;
    qint64 firstSeen = 0;
    qint64 lastSeen = 0;
    QString objectKind;
    QString objectName;
    QString objectUid;
};

} // namespace gpudesk

// Lists of 100,000 pods grow and move by memcpy (every member is a relocatable Qt value; a member
// that is not, such as std::string, must not be added without removing this).
Q_DECLARE_TYPEINFO(gpudesk::PodInfo, Q_RELOCATABLE_TYPE);
