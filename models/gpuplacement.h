// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <map>

namespace gpudesk {

class ClusterStore;
class TelemetryStore;
struct NodeInfo;

// One card of a node as the GPU map and the report show it.
struct CardCell
{
    enum State
    {
        Free,
        Allocated,   // to `podUid` (a pod this account sees)
        Unavailable, // the node is NotReady or cordoned
        InUseHidden, // its processes belong to a pod this account cannot see
        Unknown,     // this account cannot see who holds what: free or not is not known
    };
    State state = Free;
    QString podUid;
    QString user;
    int cardIndex = -1;   // nvidia-smi's index of the card, when sampled
    int utilization = -1; // -1: no fresh telemetry
    qint64 memoryUsedMiB = -1;
    qint64 memoryTotalMiB = -1;
    bool phantom = false;      // memory held, no process listed
    bool unattributed = false; // a process of no live pod
    bool hiddenOwner = false;  // a process of a pod not visible to this account
    struct Process
    {
        qint64 pid = 0;
        QString podUid;
        QString ns;
        QString pod;
        QString user;
        bool hidden = false;
    };
    QList<Process> processes;
};

// One MIG instance, as the device plugin offers it (nvidia.com/mig-<profile>): the same states
// as a card's, drawn to the scale of its slices.
struct MigCell
{
    CardCell::State state = CardCell::Free;
    QString profile;
    int slices = 1;     // of the card's seven
    int cardIndex = -1; // the card it is carved from, when sampled
    int device = -1;    // nvidia-smi's MIG device index on that card
    QString podUid;
    QString user;
    qint64 memoryUsedMiB = -1;
    qint64 memoryTotalMiB = -1;
    bool unattributed = false;
    bool hiddenOwner = false;
    QList<CardCell::Process> processes;
};

struct NodeCards
{
    QString name;
    QString status;
    bool down = false;     // NotReady
    QList<CardCell> cells; // whole GPUs (nvidia.com/gpu)
    QList<MigCell> mig;    // MIG instances, by card and device (or by profile, unsampled)
};

// Which pod holds which card. The API says how many cards a pod holds, not which: with the
// node's telemetry a pod takes the cards its processes run on, then the remaining cards in
// order; without it pods take cells in order of creation. An account that sees only its own
// namespace's pods gets its own pods placed, the cards other pods' processes use marked as in
// use, and the rest as unknown, never as free.
class GpuPlacement
{
public:
    static NodeCards place(const ClusterStore &store, const TelemetryStore *telemetry,
                           const NodeInfo &node);
    // Every node with GPUs, sorted by name.
    static QList<NodeCards> all(const ClusterStore &store, const TelemetryStore *telemetry);
};

// Where the free GPUs are: how many on how many nodes, and the largest single-node job that fits.
struct FreeGpus
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::FreeGpus)
public:
    bool exact = true;
    int free = 0;                                       // when exact
    int freeAtMost = 0;                                 // when not
    std::map<int, QStringList, std::greater<>> byCount; // free cards → nodes
    int largestSingleNode = 0;
    static FreeGpus of(const ClusterStore &store, const TelemetryStore *telemetry);
    // "12 GPUs free: 7 free on g4090-02; … The largest single-node job that fits now takes 7."
    QString sentence(const QString &scope = {}) const;
};

} // namespace gpudesk
