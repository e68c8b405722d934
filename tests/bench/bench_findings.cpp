// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of the findings. Prints figures; not a test.
// A cluster of 2,000 nodes × 8 cards and 100,000 pods (16,000 of them holding a GPU each, a
// twentieth of those idle, and 500 orphan processes, 200 stuck Terminating pods), sampled by
// the nodes; then, as FindingsService does: the snapshot taken on the stores' thread, the
// computation on a worker. Target (issue 13): the computation ≤ 200 ms off the UI thread.
#include "clusterstore.h"
#include "findings.h"
#include "telemetrystore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>

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

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 t0 = 1'800'000'000'000;
    qint64 now = t0;
    ClusterStore cluster(nullptr, [&now] { return now; });
    TelemetryStore telemetry(&cluster);
    telemetry.setClock([&now] { return now; });

    QList<NodeInfo> nodes;
    for (int n = 0; n < Nodes; ++n) {
        NodeInfo i;
        i.name = QStringLiteral("node-%1").arg(n, 4, 10, QLatin1Char('0'));
        i.uid = QStringLiteral("uid-") + i.name;
        i.ready = n % 200 != 0; // ten NotReady nodes
        i.gpuAllocatable = Cards;
        nodes << i;
    }
    cluster.replaceNodes(nodes);
    QList<NamespaceInfo> namespaces;
    for (int u = 0; u < 200; ++u)
        namespaces << NamespaceInfo{
            QStringLiteral("ns-%1").arg(u), QStringLiteral("user-%1").arg(u),
            QStringLiteral("user-%1").arg(u), QStringLiteral("vc-%1").arg(u % 10)};
    cluster.replaceNamespaces(namespaces);
    QList<PodInfo> pods;
    pods.reserve(Pods);
    for (int p = 0; p < Pods; ++p) {
        PodInfo i;
        i.uid = QStringLiteral("pod-uid-%1").arg(p);
        i.ns = QStringLiteral("user-%1").arg(p % 200);
        i.name = QStringLiteral("pod-%1").arg(p);
        i.phase = QStringLiteral("Running");
        i.status = i.phase;
        i.qosClass = QStringLiteral("Guaranteed");
        i.created = t0 - 24 * 3600 * 1000LL;
        if (p < Nodes * Cards) { // one GPU each, card by card
            i.nodeName = nodes[p / Cards].name;
            i.gpuRequest = 1;
            if (p % 80 == 0) {
                i.deleting = true;
                i.deletionTime = t0 - 3600 * 1000;
            }
        } else {
            i.nodeName = nodes[p % Nodes].name;
        }
        pods << i;
    }
    cluster.replacePods(pods);
    cluster.flush();

    // Ten minutes of samples (every 30 s here, to build the state quickly): one process per GPU
    // pod, busy but for every twentieth pod; 500 orphans.
    QElapsedTimer applyTimer;
    qint64 applyNs = 0;
    int samples = 0;
    for (qint64 t = t0; t <= t0 + 10 * 60 * 1000; t += 30000) {
        now = t;
        for (int n = 0; n < Nodes; ++n) {
            NodeSample s;
            s.node = nodes[n].name;
            s.time = t;
            s.cgroupLayout = CgroupLayout::V2Systemd;
            for (int c = 0; c < Cards; ++c) {
                const int p = n * Cards + c;
                GpuCardSample card;
                card.index = c;
                card.uuid = QStringLiteral("GPU-%1-%2").arg(n).arg(c);
                card.utilization = p % 20 == 0 ? 0 : 85;
                card.memoryUsedMiB = 20000;
                s.cards << card;
                NodeProcess proc;
                proc.pid = 10000 + c;
                proc.cardIndex = c;
                proc.gpuUuid = card.uuid;
                proc.memoryMiB = 20000;
                proc.state = 'S';
                proc.startTicks = 5000 + c;
                proc.owner.podUid =
                    (n % 4 == 0 && c == 7) ? QStringLiteral("gone-%1").arg(n) : pods[p].uid;
                s.processes << proc;
                s.podsAsked << pods[p].uid;
            }
            applyTimer.start();
            telemetry.apply(s);
            applyNs += applyTimer.nsecsElapsed();
            ++samples;
        }
    }
    telemetry.flush();

    FindingsOptions options;
    options.idleForMs = 5 * 60 * 1000;
    QList<double> captureMs, computeMs;
    int found = 0;
    for (int run = 0; run < 7; ++run) {
        QElapsedTimer t;
        t.start();
        FindingsInput input = FindingsInput::capture(cluster, &telemetry, options, {});
        captureMs << double(t.nsecsElapsed()) / 1e6;
        t.start();
        QFuture<QList<Finding>> f =
            QtConcurrent::run([input = std::move(input)] { return computeFindings(input); });
        f.waitForFinished();
        computeMs << double(t.nsecsElapsed()) / 1e6;
        found = int(f.result().size());
    }
    std::printf("findings over %d nodes x %d cards, %d pods: %d found\n", Nodes, Cards, Pods,
                found);
    std::printf("  snapshot on the stores' thread: %.1f ms (median of 7)\n", median(captureMs));
    std::printf("  computation on a worker:        %.1f ms (median of 7; target <= 200 ms)\n",
                median(computeMs));
    std::printf("  sample apply with activity tracking: %.3f ms per node sample (%d samples)\n",
                double(applyNs) / 1e6 / samples, samples);
    return 0;
}
