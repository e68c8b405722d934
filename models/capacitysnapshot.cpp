// SPDX-License-Identifier: GPL-3.0-or-later
#include "capacitysnapshot.h"

#include "clusterstore.h"
#include "gpuaccounting.h"
#include "jobrequest.h"
#include "telemetrystore.h"

#include <QHash>

#include <algorithm>

namespace gpudesk {

namespace {

void sortByGpus(QList<CapacitySnapshot::Holder> *holders)
{
    std::sort(holders->begin(), holders->end(), [](const auto &a, const auto &b) {
        return std::tie(b.gpus, a.ns, a.name) < std::tie(a.gpus, b.ns, b.name);
    });
}

} // namespace

QList<CapacitySnapshot::Holder> CapacitySnapshot::merged(const QList<Holder> &in)
{
    QHash<QString, CapacitySnapshot::Holder> by;
    for (const auto &h : in) {
        auto &m = by[h.ns + u'/' + h.name];
        if (m.name.isEmpty())
            m = h;
        else
            m.gpus += h.gpus;
    }
    QList<CapacitySnapshot::Holder> out = by.values();
    sortByGpus(&out);
    return out;
}

QString CapacitySnapshot::queueOf(const JobRequest &job)
{
    return job.queue.isEmpty() ? QStringLiteral("default") : job.queue;
}

CapacitySnapshot CapacitySnapshot::of(const ClusterStore &store, const JobRequest &job,
                                      const TelemetryStore *telemetry)
{
    CapacitySnapshot s;
    s.now = store.now();
    s.exact = store.podsComplete();
    s.scope = store.scope(Resource::Pods);
    const GpuAccounting accounting(&store, telemetry);
    const QString queue = queueOf(job);
    QList<Holder> inQueue, inNamespace;
    const auto &nodes = store.objects<NodeInfo>(Resource::Nodes); // by name
    s.nodes.reserve(qsizetype(nodes.size()));
    for (const auto &[key, n] : nodes) {
        Node node;
        node.name = n.name;
        node.model = n.gpuModel;
        node.ready = n.ready;
        node.schedulable = !n.unschedulable;
        node.labels = n.labels;
        node.taints = n.taints;
        node.gpuAllocatable = n.gpuAllocatable;
        const GpuFigures g = accounting.node(n.name);
        node.gpuFree = g.free.value_or(g.freeAtMost);
        const NodeUse use = store.nodeUse(n.name);
        node.cpuAllocatableMilli = n.cpuAllocatableMilli;
        node.memoryAllocatableBytes = n.memoryAllocatableBytes;
        node.cpuFreeMilli = std::max<qint64>(0, n.cpuAllocatableMilli - use.cpuMilli);
        node.memoryFreeBytes = std::max<qint64>(0, n.memoryAllocatableBytes - use.memoryBytes);
        if (const NodeSample *sample = telemetry ? telemetry->latest(n.name) : nullptr)
            for (const NetInterface &i : sample->interfaces)
                node.interfaces << i.name;
        if (g.visible > 0) {
            // Who holds the node's GPUs, from the store's index of GPU pods (a node's whole
            // list of pods, looked up pod by pod, took 75 ms for 100,000 pods).
            QHash<QString, Holder> by;
            for (const PodInfo *p : store.gpuPodsOnNode(n.name)) {
                const QString name = p->owner.uid.isEmpty() ? p->name : p->owner.name;
                Holder &h = by[p->ns + u'/' + name];
                if (h.name.isEmpty())
                    h = Holder{p->ns, name, store.userOf(p->ns), store.vcOf(*p), 0};
                h.gpus += p->gpuRequest;
            }
            node.holders = by.values();
            sortByGpus(&node.holders);
            for (const Holder &h : std::as_const(node.holders))
                if ((h.vc.isEmpty() ? QStringLiteral("default") : h.vc) == queue)
                    inQueue << h;
        }
        s.nodes << std::move(node);
    }
    s.queueHolders = merged(inQueue);
    // The quota counts every pod of the namespace not finished, bound to a node or not. A job
    // asked about after it was submitted (why it waits) is not in its own way: what its pods
    // that the request asks for again (those not bound) count in the quota is taken out.
    ResourceAmounts own;
    for (const PodInfo *p : store.podsIn(job.ns)) {
        if (p->finished())
            continue;
        if (!job.workloadKey.isEmpty() && ClusterStore::workloadKey(*p) == job.workloadKey) {
            if (p->nodeName.isEmpty() && !p->deleting) {
                own[QStringLiteral("nvidia.com/gpu")] += p->gpuRequest * 1000LL;
                own[QStringLiteral("cpu")] += p->cpuRequestMilli;
                own[QStringLiteral("memory")] += p->memoryRequestBytes * 1000;
                own[QStringLiteral("pods")] += 1000;
            }
            continue;
        }
        if (p->gpuRequest > 0)
            inNamespace << Holder{p->ns, p->owner.uid.isEmpty() ? p->name : p->owner.name,
                                  store.userOf(p->ns), store.vcOf(*p), p->gpuRequest};
    }
    s.namespaceHolders = merged(inNamespace);
    const QList<QueueInfo> queues = store.queues();
    s.queuesKnown = !queues.isEmpty();
    for (const QueueInfo &q : queues) {
        if (q.name == queue)
            s.queue = q;
        if (q.state.isEmpty() || q.state == QLatin1String("Open"))
            s.openQueues << q.name;
    }
    for (const auto &[key, pg] : store.objects<PodGroupInfo>(Resource::PodGroups)) {
        if ((pg.vc.isEmpty() ? QStringLiteral("default") : pg.vc) != queue)
            continue;
        if (pg.phase != QLatin1String("Pending") && pg.phase != QLatin1String("Inqueue"))
            continue;
        if (!job.workloadKey.isEmpty() && pg.owner.uid == job.workloadKey)
            continue; // the job itself, asked why it waits
        if (job.created > 0 && pg.created >= job.created)
            continue; // behind it, not ahead
        s.ahead << Waiting{pg.ns, pg.owner.name.isEmpty() ? pg.name : pg.owner.name, pg.minGpus,
                           pg.created};
    }
    std::sort(s.ahead.begin(), s.ahead.end(),
              [](const Waiting &a, const Waiting &b) { return a.created < b.created; });
    for (const ResourceQuotaInfo *q : store.quotasIn(job.ns)) {
        ResourceQuotaInfo quota = *q;
        for (auto it = quota.used.begin(); it != quota.used.end(); ++it) {
            const QString plain =
                it.key().startsWith(QLatin1String("requests.")) ? it.key().mid(9) : it.key();
            *it = std::max<qint64>(0, *it - own.value(plain));
        }
        s.quotas << quota;
    }
    s.limitRanges = limitRangesIn(store, job.ns);
    return s;
}

QList<LimitRangeInfo> CapacitySnapshot::limitRangesIn(const ClusterStore &store, const QString &ns)
{
    QList<LimitRangeInfo> ranges;
    for (const auto &[uid, lr] : store.objects<LimitRangeInfo>(Resource::LimitRanges))
        if (lr.ns == ns)
            ranges << lr;
    // In one order (by name), so that the check says the same of them each time.
    std::sort(ranges.begin(), ranges.end(),
              [](const LimitRangeInfo &a, const LimitRangeInfo &b) { return a.name < b.name; });
    return ranges;
}

} // namespace gpudesk
