// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"
#include "jupyteruse.h"
#include "telemetrystore.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace gpudesk {

class ClusterStore;

// What holds GPUs and should not: the findings the Cleanup page lists, the report's findings[]
// and `--cleanup` acts on. Computed from a snapshot (FindingsInput) taken on the stores' thread,
// so that the computation itself can run on another.

enum class FindingClass
{
    OrphanProcess,       // a GPU process of no live pod (or of no container at all)
    StuckTerminating,    // a pod Terminating past its grace period and a margin
    IdleGpus,            // allocated GPUs at ≤ BusyPercent for the configured time
    PhantomMemory,       // card memory in use with no process listed
    FinishedHoldingGpus, // a pod still running for a job that has finished or failed
    OnNotReadyNode,      // a pod holding GPUs on a node that is NotReady
    Uninterruptible,     // a GPU process in D state: no signal will end it
};
inline constexpr int kFindingClassCount = 7;

// The stable names used by the report, `--cleanup --classes` and /sim/truth.
QString findingClassId(FindingClass c);
std::optional<FindingClass> findingClassFromId(const QString &id);
// The user's words for a class (translated).
QString findingClassTitle(FindingClass c);

// What would end a finding, as the cleanup plan turns it into steps.
enum class Remedy
{
    None,                // nothing gpudesk should do by itself (the note says what to do)
    KillProcesses,       // TERM, then KILL, over SSH
    DeletePod,           // a graceful delete
    ForceDeletePod,      // grace 0: the node shows the containers gone, or is NotReady
    KillThenForceDelete, // its processes ignore the kubelet: end them, then the object
    StopWorkload,        // the job the pod belongs to, the way its kind is stopped
    Drain,               // cordon and drain the node (then reboot it)
};

struct FindingProcess
{
    qint64 pid = 0;
    qint64 startTicks = -1;
    int card = -1;
    int migDevice = -1;
    std::optional<qint64> memoryMiB;
    QString command;
    QString podUid; // the pod its cgroup names ("" a host process)
    char state = 0;
};

struct Finding
{
    FindingClass cls = FindingClass::OrphanProcess;
    QString key; // stable across computations: class, node and what it is about
    QString node;
    QString ns;
    QString pod;
    QString podUid;
    QString user;
    QString vc;
    QString devEnv; // the dev environment the pod runs, if any
    OwnerRef owner; // the pod's controller (a job, a ReplicaSet), if any
    QString ownerStatus;
    int gpus = 0;              // whole GPUs held (a pod's request; distinct cards of processes)
    int migDevices = 0;        // MIG instances held
    QList<int> cards;          // the cards concerned, where known
    qint64 since = 0;          // ms since the epoch; 0 when not known
    bool sinceAtLeast = false; // it began before `since`: that is when it was first observed
    QString sinceSource;       // what `since` comes from, in words
    QString evidence;          // one sentence a user can check
    QList<FindingProcess> processes;
    Remedy remedy = Remedy::None;
    QString remedyNote; // why this remedy (or why none)
};

struct FindingsOptions
{
    qint64 idleForMs = 60 * 60 * 1000; // idle at least this long to be listed
    qint64 stuckMarginMs = 5 * 60 * 1000;
    qint64 uninterruptibleForMs = 5 * 60 * 1000; // a short D state is ordinary I/O
    // Only these classes (all when empty).
    QList<FindingClass> classes;
};

// What Prometheus (DCGM-exporter) says of a pod's cards over a longer past than gpudesk sampled.
struct ExternalIdle
{
    qint64 coveredFromMs = 0; // the first point of the series
    qint64 lastBusyMs = 0;    // 0: at or under the threshold throughout
};

// A snapshot of what the computation reads: slim copies, taken in milliseconds on the stores'
// thread, read on another.
struct FindingsInput
{
    qint64 now = 0;
    FindingsOptions options;
    bool podsComplete = true;
    struct Node
    {
        QString name;
        bool ready = true;
        qint64 notReadySince = 0;
        bool fresh = false; // sampled recently enough to tell
        NodeSample sample;  // implicitly shared: copying it costs nothing
        QHash<qint64, qint64> dSince;
        QHash<qint64, qint64> orphanSince;
    };
    struct Pod
    {
        QString uid;
        QString ns;
        QString name;
        QString node;
        QString user;
        QString vc;
        QString phase;
        int gpus = 0;
        int migDevices = 0;
        bool deleting = false;
        qint64 deletionTime = 0;
        qint64 gracePeriodSecs = 30;
        qint64 notReadyTolerationSecs = 300; // -1: tolerates a NotReady node for ever
        qint64 created = 0;
        OwnerRef owner;
        QString ownerStatus;        // the owning job's status, when the owner is a job
        qint64 ownerStateSince = 0; // since when the job has had that status (the API's); 0 unknown
        QString devEnv;             // the dev environment it runs (gpudesk.io/devenv), if any
        std::optional<GpuActivity> activity;
        std::optional<ExternalIdle> external;
        bool containersGone = false;
    };
    QList<Node> nodes;
    QHash<QString, Pod> pods; // GPU holders, Terminating pods, and every pod a process names
    // Pods that are gone but whose processes still run: "namespace/name" by uid, from the events
    // that still name them (the API keeps events an hour) — an orphan named, not only its uid.
    QHash<QString, QString> gonePods;
    // What dev environments' Jupyter servers said of their use, by pod uid (DevEnvActivity).
    QHash<QString, JupyterUse> jupyter;

    // `telemetry` may be null (no node telemetry): the API's findings alone.
    static FindingsInput capture(const ClusterStore &cluster, const TelemetryStore *telemetry,
                                 const FindingsOptions &options,
                                 const QHash<QString, ExternalIdle> &external);
    // The same in parts, for a caller that walks the pods over turns of the event loop (the
    // window: one walk of 100,000 pods held it 35 ms): begin, each pod that holdsGpu, then the
    // nodes (which add the pods their processes name).
    static FindingsInput begin(const ClusterStore &cluster, const FindingsOptions &options);
    static bool holdsGpu(const PodInfo &pod);
    void addPod(const ClusterStore &cluster, const TelemetryStore *telemetry,
                const QHash<QString, ExternalIdle> &external, const PodInfo &pod);
    void addNodes(const ClusterStore &cluster, const TelemetryStore *telemetry,
                  const QHash<QString, ExternalIdle> &external);
};

// The findings, sorted by class then node then key. Pure: runs on any thread.
QList<Finding> computeFindings(const FindingsInput &input);

// The running GPU pods whose idleness gpudesk's own samples cannot date (never busy while
// sampled), by uid: Prometheus, asked about them, says since when.
QStringList undatedIdlePods(const ClusterStore &cluster, const TelemetryStore &telemetry);

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::Finding)
