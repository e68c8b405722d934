// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clock.h"
#include "nodesample.h"
#include "sshconnection.h"
#include "telemetryhistory.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <map>

namespace gpudesk {

class ClusterStore;

// A GPU process joined to the cluster: its card, and the pod, user and VC its cgroup leads to.
struct AttributedProcess
{
    qint64 pid = 0;
    int cardIndex = -1;
    std::optional<qint64> memoryMiB;
    QString command;
    QString podUid; // from the cgroup; may name a pod that no longer exists
    QString containerId;
    // Filled when the pod exists; all empty when the process is unattributed.
    QString pod;
    QString ns;
    QString user;
    QString vc;
    bool attributed() const { return !pod.isEmpty(); }
};

// One card as the node last reported it, with what gpudesk concludes about it.
struct CardState
{
    GpuCardSample sample;
    bool busy = false;         // utilization ≥ BusyPercent
    bool phantom = false;      // memory held (≥ PhantomMiB) with no process listed
    bool unattributed = false; // a process on it belongs to no live pod
    QList<AttributedProcess> processes;
};

// A card a pod's processes run on, by the latest sample of its node.
struct PodCard
{
    QString podUid;
    QString node;
    int card = -1;
};

// A pod that holds GPUs the nodes say it does not use.
struct IdleAllocation
{
    QString podUid;
    QString pod;
    QString ns;
    QString user;
    QString vc;
    QString node;
    int gpus = 0;
    int maxUtilization = -1; // over the window; -1: no process of it on any card
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
    static constexpr qint64 IdleWindowMs = 10 * 60 * 1000;

    explicit TelemetryStore(const ClusterStore *cluster, QObject *parent = nullptr);
    void setClock(Clock clock) { m_now = std::move(clock); }

    void apply(const gpudesk::NodeSample &sample);
    void setSshStatus(const QString &node, const gpudesk::SshStatus &status);
    void clear();
    void flush();

    const NodeSample *latest(const QString &node) const;
    bool isFresh(const QString &node) const;
    SshStatus sshStatus(const QString &node) const;
    QList<CardState> cards(const QString &node) const;
    QList<AttributedProcess> processes(const QString &node) const;
    const TelemetryHistory *history(const QString &node) const;
    QStringList nodes() const;

    // Over nodes with a fresh sample.
    int busyGpus() const;
    int sampledGpus() const;
    QList<IdleAllocation> idleAllocations() const;
    // The cards these pods' processes use now (their history is the cards' history).
    QList<PodCard> cardsOfPods(const QStringList &podUids) const;

signals:
    void updated(const QSet<QString> &nodes);

private:
    AttributedProcess attribute(const NodeProcess &p) const;

    const ClusterStore *m_cluster;
    Clock m_now = systemNow;
    std::map<QString, NodeSample> m_latest;
    QHash<QString, SshStatus> m_ssh;
    QHash<QString, qint64> m_firstSample;          // idle claims need the whole window sampled
    std::map<QString, TelemetryHistory> m_history; // move-only values
    QSet<QString> m_pending;
    QTimer m_tick;
};

} // namespace gpudesk
