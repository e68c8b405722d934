// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace gpudesk {

class ClusterStore;
class TelemetryStore;

// GPU figures as far as this account can know them. With every pod visible they are exact, as
// the scheduler counts. An account that may list only its own namespace's pods (a researcher)
// cannot count other users' allocations: then `allocated` is a lower bound — its own pods, plus
// the cards the nodes show in use by pods it cannot see, or what the VCs' status says Volcano
// allocated, whichever is more — and how many are free is not known, only at most how many.
struct GpuFigures
{
    int total = 0;             // allocatable nvidia.com/gpu (MIG instances not counted here)
    int allocated = 0;         // exact when `exact`, else at least this many
    std::optional<int> free;   // on Ready, schedulable nodes; none when it cannot be known
    int freeAtMost = 0;        // the same as an upper bound (equal to *free when exact)
    int visible = 0;           // allocated to pods this account sees
    int inUseByHiddenPods = 0; // cards with processes of pods it does not see
    int fromVcStatus = 0;      // allocated by Volcano, summed from the VCs' status
    int unserved = 0;          // allocatable, but nvidia-smi cannot reach them on the node
    bool exact = true;
    // MIG instances (nvidia.com/mig-*), counted apart from whole GPUs: a card in MIG mode is not
    // in `total`. Allocated is exact, or a lower bound as above; free likewise.
    int migTotal = 0;
    int migAllocated = 0;
    std::optional<int> migFree;
    int migFreeAtMost = 0;

    // "12", or "≥ 12" when a lower bound.
    QString allocatedText() const;
    // "3", or "≤ 3", or "?" when nothing can be said.
    QString freeText() const;
};

// One MIG profile on a node or the cluster.
struct MigProfileFigures
{
    QString profile; // "1g.10gb"
    int total = 0;
    int allocated = 0;
    std::optional<int> free;
};

// Per GPU model, for the Overview.
struct ModelFigures
{
    QString model; // "" when the node has no nvidia.com/gpu.product label
    int nodes = 0;
    GpuFigures gpus;
};

// The figures of the Overview, the Nodes page, the GPU map and the report, computed once here so
// that they agree. Reads the store (and the nodes' telemetry, when sampled); no I/O.
class GpuAccounting
{
public:
    explicit GpuAccounting(const ClusterStore *store, const TelemetryStore *telemetry = nullptr);

    GpuFigures node(const QString &name) const;
    GpuFigures cluster() const;
    QList<ModelFigures> byModel() const;
    // MIG instances by profile, for a node or ("") the whole cluster.
    QList<MigProfileFigures> migProfiles(const QString &node = {}) const;
    // Nodes whose GPUs the API counts but nvidia-smi cannot reach (driver failed, no devices,
    // no nvidia-smi), with nvidia-smi's words.
    struct Unserved
    {
        QString node;
        int gpus = 0;
        QString state; // driverFailed, noDevices, noNvidiaSmi, failed
        QString message;
    };
    QList<Unserved> unserved() const;
    // The report's name for a telemetry GPU state.
    static QString gpuStateName(int state);

private:
    void add(GpuFigures *sum, const GpuFigures &node) const;

    const ClusterStore *m_store;
    const TelemetryStore *m_telemetry;
};

} // namespace gpudesk
