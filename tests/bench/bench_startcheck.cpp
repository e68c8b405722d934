// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of the submit check (issue 36). Prints figures; not a test.
// A cluster of 2,000 nodes × 8 cards and 100,000 pods (6,000 of them holding 1 to 8 cards,
// scattered so that most nodes are partly free), 10 queues, a quota; three jobs: one GPU, a
// gang of 2 × 8, and a gang of 64 × 8 (placed pod by pod). As JobChecker does: the snapshot on
// the store's thread, the verdict on a worker. Target: the verdict ≤ 50 ms, so that the form
// can re-check on each change.
#include "capacitysnapshot.h"
#include "clusterstore.h"
#include "jobrequest.h"
#include "startcheck.h"
#include "waitingjob.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSet>

#include <algorithm>
#include <cstdio>

using namespace gpudesk;

namespace {

constexpr int Nodes = 2000;
constexpr int Cards = 8;
constexpr int Pods = 100000;

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

JobRequest job(const QString &name, int replicas, int gpus)
{
    JobRequest j;
    j.kind = Resource::PyTorchJobs;
    j.ns = QStringLiteral("user-7");
    j.name = name;
    j.queue = QStringLiteral("vc-3");
    JobRole r;
    r.name = QStringLiteral("Worker");
    r.replicas = replicas;
    r.gpus = gpus;
    r.cpuMilli = 8000LL * gpus;
    r.memoryBytes = (64LL << 30) * gpus;
    r.env = {{QStringLiteral("NCCL_DEBUG"), QStringLiteral("INFO")}};
    j.roles = {r};
    j.minAvailable = replicas;
    return j;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    ClusterStore cluster(nullptr, [] { return 1'800'000'000'000LL; });
    QList<NodeInfo> nodes;
    for (int n = 0; n < Nodes; ++n) {
        NodeInfo i;
        i.name = QStringLiteral("node-%1").arg(n, 4, 10, QLatin1Char('0'));
        i.uid = QStringLiteral("uid-") + i.name;
        i.ready = n % 200 != 0;
        i.gpuModel = QStringLiteral("NVIDIA H100 80GB HBM3");
        i.gpuAllocatable = i.gpuCapacity = Cards;
        i.cpuAllocatableMilli = 192000;
        i.memoryAllocatableBytes = 2048LL << 30;
        i.labels = {{QStringLiteral("nvidia.com/gpu.product"), i.gpuModel}};
        nodes << i;
    }
    cluster.replaceNodes(nodes);
    QList<PodInfo> pods;
    pods.reserve(Pods);
    QList<int> left(Nodes, Cards);
    QRandomGenerator rng(36);
    for (int p = 0; p < Pods; ++p) {
        PodInfo i;
        i.uid = QStringLiteral("pod-uid-%1").arg(p);
        i.ns = QStringLiteral("user-%1").arg(p % 200);
        i.name = QStringLiteral("pod-%1").arg(p);
        i.phase = i.status = QStringLiteral("Running");
        i.vc = QStringLiteral("vc-%1").arg(p % 10);
        const int n = int(rng.bounded(Nodes));
        i.nodeName = nodes[n].name;
        if (p < 6000) {
            const int want = 1 + int(rng.bounded(Cards));
            i.gpuRequest = std::min(want, left[n]);
            left[n] -= i.gpuRequest;
            i.owner = OwnerRef{QStringLiteral("PyTorchJob"), QStringLiteral("job-%1").arg(p / 2),
                               QStringLiteral("job-uid-%1").arg(p / 2)};
        }
        i.cpuRequestMilli = 1000;
        i.memoryRequestBytes = 4LL << 30;
        pods << i;
    }
    // And 1,000 pods of 8 GPUs that wait (bare pods: each its own workload): what the Workloads
    // page's Reason asks about (WaitExplainer).
    for (int p = 0; p < 1000; ++p) {
        PodInfo i;
        i.uid = QStringLiteral("wait-uid-%1").arg(p);
        i.ns = QStringLiteral("user-%1").arg(p % 200);
        i.name = QStringLiteral("wait-%1").arg(p);
        i.phase = i.status = QStringLiteral("Pending");
        i.vc = QStringLiteral("vc-%1").arg(p % 10);
        i.gpuRequest = 8;
        i.cpuRequestMilli = 64000;
        i.memoryRequestBytes = 512LL << 30;
        pods << i;
    }
    cluster.replacePods(pods);
    QList<QueueInfo> queues;
    for (int q = 0; q < 10; ++q) {
        QueueInfo i;
        i.name = i.uid = QStringLiteral("vc-%1").arg(q);
        i.state = QStringLiteral("Open");
        i.gpuCapability = 4000;
        queues << i;
    }
    cluster.replaceQueues(queues);
    cluster.flush();
    int free = 0;
    for (int l : left)
        free += l;
    std::printf("cluster: %d nodes × %d cards, %d pods, %d cards free\n", Nodes, Cards, Pods, free);

    for (const JobRequest &j : {job(QStringLiteral("one"), 1, 1), job(QStringLiteral("two"), 2, 8),
                                job(QStringLiteral("gang"), 64, 8)}) {
        QList<double> snap, check;
        StartVerdict v;
        for (int run = 0; run < 15; ++run) {
            QElapsedTimer t;
            t.start();
            const CapacitySnapshot s = CapacitySnapshot::of(cluster, j);
            snap << double(t.nsecsElapsed()) / 1e6;
            t.restart();
            v = StartCheck::check(s, j);
            check << double(t.nsecsElapsed()) / 1e6;
        }
        std::printf("%-5s %2d × %d GPUs: snapshot (UI thread) %.1f ms, verdict (worker) %.1f ms "
                    "— %s, %lld reasons\n",
                    qPrintable(j.name), j.roles.first().replicas, j.roles.first().gpus,
                    median(snap), median(check), qPrintable(StartVerdict::kindId(v.kind)),
                    qint64(v.reasons.size()));
    }

    // Why the waiting jobs wait (WaitExplainer): its round's candidate scan (every pod, the
    // unbound ones' workloads resolved), then per job on the UI thread what it still needs and
    // the snapshot, the verdict on a worker.
    QList<double> scan, slice, verdict;
    QStringList waiting;
    for (int run = 0; run < 7; ++run) {
        QElapsedTimer t;
        t.start();
        QSet<QString> candidates;
        for (const PodInfo &p : cluster.pods())
            if (p.nodeName.isEmpty() && !p.finished() && !p.deleting)
                candidates.insert(ClusterStore::workloadKey(p));
        waiting.clear();
        // As WaitExplainer::refill: each candidate told waiting by its job's state or its pods,
        // not resolved (a pending pod's resolution weighs its spread over every node).
        for (const QString &key : std::as_const(candidates))
            for (const PodInfo *p : cluster.podsOfWorkload(key))
                if (p->nodeName.isEmpty() && !p->finished() && !p->deleting) {
                    waiting << key;
                    break;
                }
        scan << double(t.nsecsElapsed()) / 1e6;
        if (waiting.isEmpty())
            return 1;
    }
    for (int run = 0; run < 15; ++run) {
        QElapsedTimer t;
        t.start();
        const auto r = WaitingJob::requestOf(cluster, waiting.value(run % waiting.size()));
        if (!r)
            return 1;
        const CapacitySnapshot s = CapacitySnapshot::of(cluster, *r);
        slice << double(t.nsecsElapsed()) / 1e6;
        t.restart();
        const StartVerdict v = StartCheck::check(s, *r);
        verdict << double(t.nsecsElapsed()) / 1e6;
    }
    std::printf("waiting: %lld jobs found in %.1f ms (a round's scan); per job %.1f ms on the UI "
                "thread (what it needs, the snapshot), %.1f ms on a worker\n",
                qint64(waiting.size()), median(scan), median(slice), median(verdict));
    return 0;
}
