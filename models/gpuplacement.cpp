// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpuplacement.h"

#include "clusterstore.h"
#include "gpuaccounting.h"
#include "nodesmodel.h"
#include "telemetrystore.h"

namespace gpudesk {

namespace {

CardCell::Process processOf(const AttributedProcess &p)
{
    return {p.pid, p.podUid, p.ns, p.pod, p.user, p.podHidden};
}

void applyTelemetry(const TelemetryStore &telemetry, const NodeInfo &node, bool exact,
                    NodeCards *nc)
{
    // Cards in MIG mode are not among the whole GPUs the API counts: cell i is the i-th card
    // that is not in MIG mode.
    QList<CardState> cards;
    for (const CardState &c : telemetry.cards(node.name))
        if (!c.migEnabled)
            cards.append(c);
    if (cards.isEmpty())
        return;
    QList<CardCell> allocated;
    for (const CardCell &c : std::as_const(nc->cells))
        if (c.state == CardCell::Allocated)
            allocated.append(c);
    const bool available = node.ready && !node.unschedulable;
    const CardCell::State rest =
        !available ? CardCell::Unavailable : (exact ? CardCell::Free : CardCell::Unknown);
    QList<CardCell> out(qMax(cards.size(), nc->cells.size()), CardCell{rest});
    QList<bool> taken(out.size(), false);
    for (qsizetype i = 0; i < cards.size(); ++i) {
        const CardState &card = cards[i];
        for (const AttributedProcess &p : card.processes) {
            const auto it = std::find_if(allocated.begin(), allocated.end(),
                                         [&](const CardCell &c) { return c.podUid == p.podUid; });
            if (it != allocated.end() && !taken[i]) {
                out[i] = *it;
                taken[i] = true;
                allocated.erase(it);
                break;
            }
        }
        if (!taken[i] && card.hiddenOwner) {
            out[i].state = CardCell::InUseHidden;
            taken[i] = true;
        }
    }
    for (const CardCell &c : std::as_const(allocated)) {
        const auto free = std::find(taken.begin(), taken.end(), false);
        if (free == taken.end())
            break;
        const auto i = std::distance(taken.begin(), free);
        out[i] = c;
        taken[i] = true;
    }
    for (qsizetype i = 0; i < cards.size(); ++i) {
        const CardState &card = cards[i];
        CardCell &c = out[i];
        c.cardIndex = card.sample.index;
        c.utilization = card.sample.utilization.value_or(-1);
        c.memoryUsedMiB = card.sample.memoryUsedMiB.value_or(-1);
        c.memoryTotalMiB = card.sample.memoryTotalMiB.value_or(-1);
        c.phantom = card.phantom;
        c.unattributed = card.unattributed;
        c.hiddenOwner = card.hiddenOwner;
        for (const AttributedProcess &p : card.processes)
            c.processes.append(processOf(p));
    }
    nc->cells = out;
}

// MIG instances: with telemetry, each instance of each card in MIG mode, a pod on the instance
// its processes run in, then the node's other MIG pods on free instances of their profile; without,
// the instances the device plugin offers, by profile, pods in order of creation.
void placeMig(const ClusterStore &store, const TelemetryStore *telemetry, const NodeInfo &node,
              const QList<const PodInfo *> &pods, NodeCards *nc)
{
    if (node.migAllocatable.isEmpty())
        return;
    const bool exact = store.podsComplete();
    const bool available = node.ready && !node.unschedulable;
    const CardCell::State rest =
        !available ? CardCell::Unavailable : (exact ? CardCell::Free : CardCell::Unknown);
    // Each pod's wanted instances, by profile.
    QList<std::pair<QString, const PodInfo *>> wanted;
    for (const PodInfo *p : pods)
        for (const auto &[profile, n] : p->migRequests)
            for (int k = 0; k < n; ++k)
                wanted.append({profile, p});
    QList<MigCell> cells;
    if (telemetry && telemetry->isFresh(node.name)) {
        for (const CardState &card : telemetry->cards(node.name))
            for (const MigState &m : card.mig) {
                MigCell c{rest, m.sample.profile, m.sample.slices(), card.sample.index,
                          m.sample.index};
                c.memoryUsedMiB = m.sample.memoryUsedMiB.value_or(-1);
                c.memoryTotalMiB = m.sample.memoryTotalMiB.value_or(-1);
                c.unattributed = m.unattributed;
                c.hiddenOwner = m.hiddenOwner;
                for (const AttributedProcess &p : m.processes) {
                    c.processes.append(processOf(p));
                    const auto it = std::find_if(wanted.begin(), wanted.end(), [&](const auto &w) {
                        return w.second->uid == p.podUid && w.first == c.profile;
                    });
                    if (c.podUid.isEmpty() && it != wanted.end()) {
                        c.state = CardCell::Allocated;
                        c.podUid = it->second->uid;
                        c.user = store.userOf(it->second->ns);
                        wanted.erase(it);
                    }
                }
                if (c.podUid.isEmpty() && c.hiddenOwner)
                    c.state = CardCell::InUseHidden;
                cells.append(c);
            }
    }
    if (cells.isEmpty()) {
        for (const auto &[profile, n] : node.migAllocatable)
            for (int k = 0; k < n; ++k) {
                MigCell c{rest, profile};
                c.slices = MigDeviceSample{-1, -1, profile}.slices();
                cells.append(c);
            }
    }
    for (const auto &[profile, pod] : std::as_const(wanted)) {
        for (MigCell &c : cells)
            if (c.profile == profile && c.podUid.isEmpty() &&
                (c.state == CardCell::Free || c.state == CardCell::Unknown ||
                 c.state == CardCell::Unavailable)) {
                c.state = CardCell::Allocated;
                c.podUid = pod->uid;
                c.user = store.userOf(pod->ns);
                break;
            }
    }
    nc->mig = cells;
}

} // namespace

NodeCards GpuPlacement::place(const ClusterStore &store, const TelemetryStore *telemetry,
                              const NodeInfo &n)
{
    NodeCards nc;
    nc.name = n.name;
    nc.status = NodesModel::statusText(n);
    nc.down = !n.ready;
    const bool exact = store.podsComplete();
    const bool available = n.ready && !n.unschedulable;
    QList<const PodInfo *> pods = store.podsOnNode(n.name);
    std::sort(pods.begin(), pods.end(), [](const PodInfo *a, const PodInfo *b) {
        return std::tie(a->created, a->name) < std::tie(b->created, b->name);
    });
    for (const PodInfo *p : pods) {
        if (p->finished())
            continue;
        for (int g = 0; g < p->gpuRequest && nc.cells.size() < n.gpuAllocatable; ++g)
            nc.cells.append(CardCell{CardCell::Allocated, p->uid, store.userOf(p->ns)});
    }
    while (nc.cells.size() < n.gpuAllocatable)
        nc.cells.append(CardCell{!available ? CardCell::Unavailable
                                            : (exact ? CardCell::Free : CardCell::Unknown)});
    if (telemetry && telemetry->isFresh(n.name))
        applyTelemetry(*telemetry, n, exact, &nc);
    QList<const PodInfo *> live;
    for (const PodInfo *p : std::as_const(pods))
        if (!p->finished() && !p->migRequests.isEmpty())
            live.append(p);
    placeMig(store, telemetry, n, live, &nc);
    return nc;
}

QList<NodeCards> GpuPlacement::all(const ClusterStore &store, const TelemetryStore *telemetry)
{
    QList<NodeCards> out;
    for (const NodeInfo &n : store.nodes())
        if (n.gpuAllocatable > 0 || !n.migAllocatable.isEmpty())
            out.append(place(store, telemetry, n));
    return out;
}

FreeGpus FreeGpus::of(const ClusterStore &store, const TelemetryStore *telemetry)
{
    FreeGpus f;
    const GpuAccounting accounting(&store, telemetry);
    f.exact = store.podsComplete();
    for (const NodeInfo &n : store.nodes()) {
        const GpuFigures g = accounting.node(n.name);
        const int free = g.free.value_or(g.freeAtMost);
        f.freeAtMost += g.freeAtMost;
        if (g.free)
            f.free += *g.free;
        if (free > 0)
            f.byCount[free].append(n.name);
    }
    f.largestSingleNode = f.byCount.empty() ? 0 : f.byCount.begin()->first;
    return f;
}

QString FreeGpus::sentence(const QString &scope) const
{
    if (!exact) {
        // Other users' pods are not visible: no card can be called free, only "not seen in use".
        QString s = tr("Your account sees only the pods of namespace %1, so which GPUs are free "
                       "is not known.")
                        .arg(scope);
        if (freeAtMost > 0)
            s += u' ' + tr("At most %n GPU(s) can be free; the largest single-node job that "
                           "could fit takes at most %1.",
                           nullptr, freeAtMost)
                            .arg(largestSingleNode);
        else
            s += u' ' + tr("Every GPU is in use by what you can see.");
        return s;
    }
    if (free == 0)
        return tr("No GPU is free.");
    QStringList parts;
    for (const auto &[count, nodes] : byCount) {
        parts.append(nodes.size() == 1
                         ? tr("%1 free on %2").arg(count).arg(nodes.first())
                         : tr("%1 free on each of %2 nodes").arg(count).arg(nodes.size()));
    }
    return tr("%n GPU(s) free: %1. The largest single-node job that fits now takes %2.", nullptr,
              free)
        .arg(parts.join(QStringLiteral("; ")))
        .arg(largestSingleNode);
}

} // namespace gpudesk
