// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpuaccounting.h"

#include "clusterstore.h"
#include "telemetrystore.h"

#include <QSet>

#include <map>

namespace gpudesk {

QString GpuFigures::allocatedText() const
{
    return exact ? QString::number(allocated) : QStringLiteral("≥ %1").arg(allocated);
}

QString GpuFigures::freeText() const
{
    if (free)
        return QString::number(*free);
    return QStringLiteral("≤ %1").arg(freeAtMost);
}

GpuAccounting::GpuAccounting(const ClusterStore *store, const TelemetryStore *telemetry)
    : m_store(store), m_telemetry(telemetry)
{}

QString GpuAccounting::gpuStateName(int state)
{
    using S = NvidiaSmiResult<GpuCardSample>;
    switch (S::State(state)) {
    case S::Ok:
        return QStringLiteral("ok");
    case S::NoNvidiaSmi:
        return QStringLiteral("noNvidiaSmi");
    case S::DriverFailed:
        return QStringLiteral("driverFailed");
    case S::NoDevices:
        return QStringLiteral("noDevices");
    case S::Failed:
        break;
    }
    return QStringLiteral("failed");
}

GpuFigures GpuAccounting::node(const QString &name) const
{
    GpuFigures f;
    const NodeInfo *n = m_store->node(name);
    if (!n)
        return f;
    const GpuCount c = m_store->nodeGpus(name);
    f.total = c.total;
    f.visible = c.allocated;
    f.allocated = c.allocated;
    f.exact = m_store->podsComplete();
    const bool available = n->ready && !n->unschedulable;
    const bool sampled = m_telemetry && m_telemetry->isFresh(name);
    if (sampled && f.total > 0 && m_telemetry->gpuState(name) != NvidiaSmiResult<GpuCardSample>::Ok)
        f.unserved = f.total;
    if (!f.exact && sampled) {
        // Cards that run processes of pods this account cannot see are held by someone; a card
        // that also runs a visible pod's process is already counted with that pod.
        for (const CardState &card : m_telemetry->cards(name)) {
            bool hidden = false, visible = false;
            for (const AttributedProcess &p : card.processes) {
                hidden |= p.podHidden;
                visible |= p.attributed();
            }
            f.inUseByHiddenPods += hidden && !visible ? 1 : 0;
        }
        f.allocated = std::min(f.total, f.visible + f.inUseByHiddenPods);
    }
    f.freeAtMost = available ? std::max(0, f.total - f.allocated) : 0;
    if (f.exact)
        f.free = f.freeAtMost;
    f.migTotal = migTotal(n->migAllocatable);
    if (f.migTotal > 0) {
        f.migAllocated = migTotal(m_store->migAllocated(name));
        if (!f.exact && sampled) {
            // Instances running processes of pods not visible here are held by someone.
            int hidden = 0;
            for (const CardState &card : m_telemetry->cards(name))
                for (const MigState &m : card.mig)
                    hidden += m.hiddenOwner && !m.attributed ? 1 : 0;
            f.migAllocated = std::min(f.migTotal, f.migAllocated + hidden);
        }
        f.migFreeAtMost = available ? std::max(0, f.migTotal - f.migAllocated) : 0;
        if (f.exact)
            f.migFree = f.migFreeAtMost;
    }
    return f;
}

QList<MigProfileFigures> GpuAccounting::migProfiles(const QString &node) const
{
    std::map<QString, MigProfileFigures> by;
    const bool exact = m_store->podsComplete();
    for (const NodeInfo &n : m_store->nodes()) {
        if (!node.isEmpty() && n.name != node)
            continue;
        const bool available = n.ready && !n.unschedulable;
        const MigCounts used = m_store->migAllocated(n.name);
        for (const auto &[profile, total] : n.migAllocatable) {
            MigProfileFigures &f = by[profile];
            f.profile = profile;
            f.total += total;
            int allocated = 0;
            for (const auto &[p, a] : used)
                if (p == profile)
                    allocated = a;
            f.allocated += allocated;
            if (exact)
                f.free = f.free.value_or(0) + (available ? std::max(0, total - allocated) : 0);
        }
    }
    QList<MigProfileFigures> out;
    for (auto &[p, f] : by)
        out.append(f);
    return out;
}

void GpuAccounting::add(GpuFigures *sum, const GpuFigures &n) const
{
    sum->total += n.total;
    sum->allocated += n.allocated;
    sum->visible += n.visible;
    sum->inUseByHiddenPods += n.inUseByHiddenPods;
    sum->freeAtMost += n.freeAtMost;
    sum->unserved += n.unserved;
    sum->exact = sum->exact && n.exact;
    sum->migTotal += n.migTotal;
    sum->migAllocated += n.migAllocated;
    sum->migFreeAtMost += n.migFreeAtMost;
    if (sum->migFree && n.migFree)
        *sum->migFree += *n.migFree;
    else if (n.migTotal > 0 || !n.exact)
        sum->migFree.reset();
    // A sum is known only when every part is (it starts at 0).
    if (sum->free && n.free)
        *sum->free += *n.free;
    else
        sum->free.reset();
}

GpuFigures GpuAccounting::cluster() const
{
    GpuFigures sum;
    sum.free = 0;
    sum.migFree = 0;
    for (const NodeInfo &n : m_store->nodes())
        add(&sum, node(n.name));
    sum.exact = m_store->podsComplete();
    if (sum.exact)
        return sum;
    sum.free.reset();
    // Volcano's own count of what it allocated per VC is readable where pods are not.
    for (const QueueInfo &q : m_store->queues())
        sum.fromVcStatus += q.gpuAllocated.value_or(0);
    if (sum.fromVcStatus > sum.allocated) {
        // The nodes' lower bounds summed say less than the VCs do: the VCs' figure is the better
        // bound, and at most what it leaves can be free.
        sum.allocated = std::min(sum.total, sum.fromVcStatus);
        sum.freeAtMost = std::min(sum.freeAtMost, std::max(0, sum.total - sum.allocated));
    }
    return sum;
}

QList<ModelFigures> GpuAccounting::byModel() const
{
    std::map<QString, ModelFigures> models;
    for (const NodeInfo &n : m_store->nodes()) {
        if (n.gpuAllocatable <= 0)
            continue;
        ModelFigures &m = models[n.gpuModel];
        if (m.nodes == 0) {
            m.model = n.gpuModel;
            m.gpus.free = 0;
        }
        ++m.nodes;
        add(&m.gpus, node(n.name));
    }
    QList<ModelFigures> out;
    for (auto &[name, m] : models)
        out.append(m);
    return out;
}

QList<GpuAccounting::Unserved> GpuAccounting::unserved() const
{
    QList<Unserved> out;
    if (!m_telemetry)
        return out;
    for (const NodeInfo &n : m_store->nodes()) {
        const GpuFigures f = node(n.name);
        if (f.unserved > 0)
            out.append({n.name, f.unserved, gpuStateName(m_telemetry->gpuState(n.name)),
                        m_telemetry->gpuMessage(n.name)});
    }
    return out;
}

} // namespace gpudesk
