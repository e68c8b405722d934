// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "quantity.h"
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
    QString containerRuntime; // status.nodeInfo.containerRuntimeVersion: "containerd://1.7.12"
    QStringList taints;       // key=value:Effect, as kubectl describe shows them
    QList<Condition> conditions;
    Labels labels;
    qint64 created = 0;
};

struct OwnerRef
{
    QString kind;
    QString name;
    QString uid;
    friend bool operator==(const OwnerRef &, const OwnerRef &) = default;
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
    QString image;   // of the first container
    QString imageId; // its status's imageID: "repo@sha256:…", the digest the node runs
    QString devEnv;  // label gpudesk.io/devenv: the dev environment it serves, if any
    // Container ports with a name (jupyter, ssh, vscode, tensorboard…): the services it offers.
    QList<std::pair<QString, int>> namedPorts;
    // Where it may run, as the scheduler filters nodes: spec.nodeSelector, and tolerations as
    // "key|operator|value|effect" (operator Equal or Exists; empty key and Exists: every taint).
    Labels nodeSelector;
    QStringList tolerations;
    // How long the pod stays bound to a NotReady or unreachable node before Kubernetes evicts it:
    // the longer of its NoExecute tolerations of node.kubernetes.io/not-ready and /unreachable,
    // each 300 s where it names none (the DefaultTolerationSeconds admission); -1: for ever.
    qint64 notReadyTolerationSecs = 300;

    bool finished() const
    {
        return phase == QLatin1String("Succeeded") || phase == QLatin1String("Failed");
    }
    // Every field equal (the two pod decoders are held to this).
    friend bool operator==(const PodInfo &, const PodInfo &) = default;
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
    QString state; // Open, Closing, Closed (status.state)
    int weight = 1;
    // The spec's resource lists (thousandths, see ResourceAmounts) and the status's allocation,
    // every resource they name: capability is the ceiling, deserved the fair share reclaim aims
    // at, guarantee what is kept for it whatever others need.
    ResourceAmounts capability;
    ResourceAmounts deserved;
    ResourceAmounts guarantee;
    ResourceAmounts allocated;
    QString parent; // hierarchical queues: spec.parent ("" or "root" for a top-level queue)
    bool reclaimable = true;
    // Pod groups by phase, as the queue controller counts them (status).
    int running = 0;
    int pending = 0;
    int inqueue = 0;
    qint64 created = 0;
    // The spec as the server holds it (JSON): an edit is a JSON patch that first tests it is
    // unchanged, so an edit planned on an older spec is refused, never applied over a newer one.
    QByteArray spec;
};

struct NamespaceInfo
{
    QString uid;
    QString name;
    QString user;  // label gpudesk.io/user
    QString vc;    // label gpudesk.io/vc
    QString phase; // Active, Terminating
    qint64 created = 0;
    // Annotation gpudesk.io/disabled: what disabling the user took away (the quota's limits
    // and the RoleBinding, as JSON), so that enabling gives it back; "" while enabled.
    QString disabled;
};

// A ResourceQuota: a namespace's limits (spec.hard) and what it uses of them (status.used, as
// the API server's quota controller counts it), in thousandths.
struct ResourceQuotaInfo
{
    QString uid;
    QString ns;
    QString name;
    ResourceAmounts hard;
    ResourceAmounts used;
    qint64 created = 0;
    QByteArray spec;        // as the server holds it (JSON), for edits that test it first
    bool annotated = false; // metadata.annotations exists (a JSON patch may add to it)
};

// A LimitRange: what the API server's LimitRanger gives a namespace's containers that name no
// request or limit, and the bounds it refuses them past (type Container; type Pod's bounds on
// the containers' sums), in thousandths.
struct LimitRangeInfo
{
    QString uid;
    QString ns;
    QString name;
    ResourceAmounts defaultRequest; // type Container
    ResourceAmounts defaultLimit;   // type Container, "default"
    ResourceAmounts min;            // type Container: each request (and limit) at least this
    ResourceAmounts max;            // type Container: each limit at most this
    ResourceAmounts podMin;         // type Pod: the containers' summed requests
    ResourceAmounts podMax;         // type Pod: the containers' summed limits
    qint64 created = 0;
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
    // When it entered `status` (the API's lastTransitionTime of the state or condition that
    // holds), ms since the epoch; 0 when the API does not say. A finished job's finish time.
    qint64 stateSince = 0;
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
