// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clock.h"
#include "nodesample.h"
#include "podusagehistory.h"
#include "sshstatus.h"
#include "telemetryhistory.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <map>
#include <memory>
#include <unordered_map>

namespace gpudesk {

class ClusterStore;
struct PodInfo;

// A GPU process joined to the cluster: its card, and the pod, user and VC its cgroup leads to.
struct AttributedProcess
{
    qint64 pid = 0;
    int cardIndex = -1;
    int migDevice = -1; // on a MIG card: its instance
    std::optional<qint64> memoryMiB;
    QString command;
    QString podUid; // from the cgroup; may name a pod that no longer exists
    QString containerId;
    char state = 0;         // /proc/PID/stat's letter; 0 unknown
    qint64 startTicks = -1; // its start time, clock ticks since boot: tells a reused PID
    // Filled when the pod exists; all empty when the process is unattributed.
    QString pod;
    QString ns;
    QString user;
    QString vc;
    // Its pod is not among those this account may list (it sees one namespace's pods): the pod
    // may well exist, so the process is not called "of no pod".
    bool podHidden = false;
    bool attributed() const { return !pod.isEmpty(); }
    // Known to belong to no live pod: its pod is gone (or it is a host process).
    bool orphan() const { return pod.isEmpty() && !podHidden; }
};

// One MIG instance of a card, with its processes.
struct MigState
{
    MigDeviceSample sample;
    QList<AttributedProcess> processes;
    bool attributed = false;   // a process of a pod this account sees
    bool unattributed = false; // a process of no live pod
    bool hiddenOwner = false;  // a process of a pod not visible to this account
    bool inUse() const { return !processes.isEmpty(); }
};

// One card as the node last reported it, with what gpudesk concludes about it.
struct CardState
{
    GpuCardSample sample;
    // In MIG mode: its instances. Such a card has no utilization of its own; it counts as busy
    // when an instance runs a process (nvidia-smi measures no more without DCGM).
    bool migEnabled = false;
    QList<MigState> mig;
    bool busy = false;         // utilization ≥ BusyPercent
    bool phantom = false;      // memory held (≥ PhantomMiB) with no process listed
    bool unattributed = false; // a process on it belongs to no live pod
    bool hiddenOwner = false;  // a process on it belongs to a pod this account cannot see
    QList<AttributedProcess> processes;
};

// A card a pod's processes run on, by the latest sample of its node.
struct PodCard
{
    QString podUid;
    QString node;
    int card = -1;
};

// A pod's GPU use as gpudesk's own samples saw it, for "idle since": from the first sample of
// its node that showed it holding GPUs, the last sample in which one of its cards was busy.
struct GpuActivity
{
    qint64 firstSampled = 0;
    qint64 lastSampled = 0;
    qint64 lastBusy = 0;     // 0: never busy while sampled
    bool hasProcess = false; // a process of it was on a card in the latest sample
};

// A pod's own use now, as the cgroup on its node last said.
struct PodUsageNow
{
    QString node;
    qint64 time = 0;
    PodUsage usage;
};

// What a pod or job uses against what it asked for, over a recent window: the figures a
// researcher reads to see whether the GPUs wait for the input pipeline.
struct WorkloadUsage
{
    int podsSampled = 0;                  // pods whose cgroup answered
    int cards = 0;                        // cards its processes use
    std::optional<double> gpuUtilization; // average over its cards and the window, %
    std::optional<double> cpuCores;       // average over the window, summed over its pods
    double cpuRequestCores = 0;
    qint64 workingSetBytes = 0; // now, summed
    qint64 memoryRequestBytes = 0;
    // The GPUs mostly wait (under InputBoundGpuPercent) while the CPU runs at its request.
    bool inputBound = false;
};

// What the nodes say, next to what the API says: latest sample and SSH state per node, a day of
// history, and the join GPU process → container → pod → user and VC. Plain data in (samples),
// figures out; changes are announced coalesced, at most ten times a second.
class TelemetryStore : public QObject
{
    Q_OBJECT
public:
    static constexpr int BusyPercent = 5;     // as /sim/truth and nvidia's own "idle" define it
    static constexpr qint64 PhantomMiB = 256; // above the driver's own per-context reserve
    static constexpr qint64 StaleMs = 30000;  // a sample older than this no longer counts
    // How long what gpudesk keeps of a pod gone from the API stays (its usage, its activity).
    static constexpr qint64 GoneKeepMs = 10 * 60 * 1000;
    static constexpr int InputBoundGpuPercent = 50;
    static constexpr double InputBoundCpuShare = 0.9; // of the CPU request

    explicit TelemetryStore(const ClusterStore *cluster, QObject *parent = nullptr);
    void setClock(Clock clock) { m_now = std::move(clock); }

    void apply(const gpudesk::NodeSample &sample);
    void setSshStatus(const QString &node, const gpudesk::SshStatus &status);
    void clear();
    void flush();

    const ClusterStore *cluster() const { return m_cluster; }
    const NodeSample *latest(const QString &node) const;
    bool isFresh(const QString &node) const;
    // What nvidia-smi said of the node's GPUs at the last sample (Ok when never sampled).
    NvidiaSmiResult<GpuCardSample>::State gpuState(const QString &node) const;
    QString gpuMessage(const QString &node) const;
    SshStatus sshStatus(const QString &node) const;
    QList<CardState> cards(const QString &node) const;
    QList<AttributedProcess> processes(const QString &node) const;
    const TelemetryHistory *history(const QString &node) const;
    QStringList nodes() const;

    // Over nodes with a fresh sample.
    int busyGpus() const;
    int sampledGpus() const;
    // The cards these pods' processes use now (their history is the cards' history).
    QList<PodCard> cardsOfPods(const QStringList &podUids) const;
    // A pod's own CPU and memory: now (none when its node's sample is stale or did not list
    // it) and over the last day.
    std::optional<PodUsageNow> podUsage(const QString &podUid) const;
    const PodUsageHistory *podHistory(const QString &podUid) const;
    const PodInfo *pod(const QString &podUid) const;
    WorkloadUsage workloadUsage(const QStringList &podUids, qint64 windowMs) const;
    // Whose cgroups the nodes are asked for: pods that hold GPUs always (their number is bounded
    // by the cards, and theirs is the use that matters), others while someone watches them.
    bool wantsUsageOf(const PodInfo &pod) const;
    void watchPods(const QStringList &podUids);
    void unwatchPods(const QStringList &podUids);
    int podHistoryCount() const { return int(m_podHistory.size()); }
    // A GPU-holding pod's activity over gpudesk's samples (none: its node was never sampled
    // with it running there).
    std::optional<GpuActivity> gpuActivity(const QString &podUid) const;
    // Since when a GPU process has been in uninterruptible sleep (D) in every sample, or 0.
    qint64 uninterruptibleSince(const QString &node, qint64 pid) const;
    // Since when a GPU process has been of no live pod in every sample, or 0.
    qint64 orphanSince(const QString &node, qint64 pid) const;
    // The node's latest fresh sample asked for the pod's cgroup and found none, and lists no
    // GPU process of it: whatever the API says, no container of it runs there.
    bool containersGone(const QString &podUid) const;

signals:
    void updated(const QSet<QString> &nodes);

private:
    AttributedProcess attribute(const NodeProcess &p) const;
    void applyPods(const NodeSample &sample, const NodeSample *previous);
    void prunePodHistory();

    const ClusterStore *m_cluster;
    Clock m_now = systemNow;
    std::map<QString, NodeSample> m_latest;
    QHash<QString, SshStatus> m_ssh;
    std::map<QString, TelemetryHistory> m_history; // move-only values
    std::unordered_map<QString, std::unique_ptr<PodUsageHistory>> m_podHistory;
    QHash<QString, PodUsageNow> m_podNow;
    QHash<QString, int> m_watched; // pod uid → open viewers
    void trackActivity(const NodeSample &sample);
    QHash<QString, GpuActivity> m_activity;              // pod uid → its GPU use while sampled
    QHash<QString, QHash<qint64, qint64>> m_dSince;      // node → pid → first seen in D state
    QHash<QString, QHash<qint64, qint64>> m_orphanSince; // node → pid → first seen of no pod
    qint64 m_lastPrune = 0;
    QSet<QString> m_pending;
    QTimer m_tick;
    // Freshness is a matter of time: a node whose samples stop (every node down, a frozen
    // session) must be announced as it goes stale, or every view keeps calling it answering.
    void checkAging();
    QSet<QString> m_fresh; // nodes fresh at the last check
    QTimer m_aging;
};

} // namespace gpudesk
