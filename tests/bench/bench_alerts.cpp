// SPDX-License-Identifier: GPL-3.0-or-later
// What the alert rules cost on the UI thread of a large cluster: Problems::now over 2,000 nodes
// (16,000 GPUs, 100,000 pods, a telemetry sample of each node with its cards and disks), and the
// AlertCenter's whole evaluation (the rules, the history rules, and the alerts kept), which runs
// every 5 s and a moment after the figures change. Prints figures; docs/benchmarks.md keeps them.
#include "alertcenter.h"
#include "clusterstore.h"
#include "connectionstate.h"
#include "problems.h"
#include "telemetrystore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>

using namespace gpudesk;

namespace {

constexpr int kNodes = 2000, kGpusPerNode = 8, kPods = 100000;

QString nodeName(int i)
{
    return QStringLiteral("gpu-node-%1").arg(i, 4, 10, QLatin1Char('0'));
}

// Nodes as a troubled large cluster has them: 1 % NotReady, 1 % under DiskPressure.
QList<NodeInfo> nodes(qint64 now)
{
    QList<NodeInfo> out;
    for (int i = 0; i < kNodes; ++i) {
        NodeInfo n;
        n.uid = QStringLiteral("node-uid-%1").arg(i);
        n.name = nodeName(i);
        n.ready = i % 100 != 7;
        n.gpuModel = QStringLiteral("NVIDIA-A800-SXM4-80GB");
        n.gpuAllocatable = n.gpuCapacity = kGpusPerNode;
        n.cpuAllocatableMilli = 128000;
        n.memoryAllocatableBytes = 1024LL << 30;
        n.conditions << Condition{
            QStringLiteral("Ready"), n.ready ? QStringLiteral("True") : QStringLiteral("Unknown"),
            n.ready ? QStringLiteral("KubeletReady") : QStringLiteral("NodeStatusUnknown"),
            QStringLiteral("Kubelet stopped posting node status."), now - 3600000};
        n.conditions << Condition{QStringLiteral("DiskPressure"),
                                  i % 100 == 13 ? QStringLiteral("True") : QStringLiteral("False"),
                                  {},
                                  {},
                                  now - 600000};
        out << n;
    }
    return out;
}

QList<PodInfo> pods(qint64 now)
{
    QList<PodInfo> out;
    out.reserve(kPods);
    for (int i = 0; i < kPods; ++i) {
        PodInfo p;
        p.uid = QStringLiteral("uid-%1").arg(i);
        p.ns = QStringLiteral("user-u%1").arg(i % 500);
        p.name = QStringLiteral("train-%1-worker-%2").arg(i / 8).arg(i % 8);
        p.nodeName = nodeName(i % kNodes);
        p.phase = p.status = QStringLiteral("Running");
        p.gpuRequest = i % 7 == 0 ? 1 : 0; // ~14,300 of the 16,000 cards held
        p.created = now - 86400000;
        out << p;
    }
    return out;
}

// One sample a node: its eight cards (a few hot, one with ECC errors) and two disks.
NodeSample sample(int i, qint64 now)
{
    NodeSample s;
    s.node = nodeName(i);
    s.time = now;
    for (int c = 0; c < kGpusPerNode; ++c) {
        GpuCardSample card;
        card.index = c;
        card.uuid = QStringLiteral("GPU-%1-%2").arg(i).arg(c);
        card.name = QStringLiteral("NVIDIA A800-SXM4-80GB");
        card.utilization = (i + c) % 3 == 0 ? 0 : 97;
        card.memoryUsedMiB = 40000;
        card.memoryTotalMiB = 81920;
        card.temperatureC = (i * 8 + c) % 500 == 0 ? 88 : 61;
        card.eccUncorrected = (i * 8 + c) % 1999 == 0 ? 2 : 0;
        s.cards << card;
    }
    s.disks << DiskUse{QStringLiteral("/dev/nvme0n1p2"),
                       QStringLiteral("/"),
                       1 << 30,
                       i % 50 == 3 ? (1 << 30) / 100 * 92 : (1 << 30) / 2,
                       0,
                       i % 50 == 3 ? 92 : 50};
    s.disks << DiskUse{QStringLiteral("nas:/share"),
                       QStringLiteral("/mnt/nas"),
                       1LL << 40,
                       1LL << 39,
                       1LL << 39,
                       50};
    return s;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    ClusterStore store;
    store.replaceNodes(nodes(now));
    store.replacePods(pods(now));
    store.flush();
    TelemetryStore telemetry(&store);
    for (int i = 0; i < kNodes; ++i)
        telemetry.apply(sample(i, now));

    QElapsedTimer clock;
    qint64 best = -1, worst = 0;
    QList<Problem> problems;
    for (int run = 0; run < 10; ++run) {
        clock.start();
        problems = Problems::now(store, &telemetry);
        const qint64 took = clock.nsecsElapsed() / 1000;
        best = best < 0 ? took : std::min(best, took);
        worst = std::max(worst, took);
    }
    std::printf("Problems::now over %d nodes, %d pods, %d node samples: %.1f ms best, %.1f ms "
                "worst of 10 (%lld problems)\n",
                kNodes, kPods, kNodes, double(best) / 1000.0, double(worst) / 1000.0,
                qlonglong(problems.size()));

    // Connected and every collection live: the figures are current, every rule runs.
    ConnectionState state;
    state.setConnecting(QStringLiteral("bench"), QStringLiteral("https://127.0.0.1:6443"), true);
    state.setConnected(ClusterSummary{QStringLiteral("v1.29.4"), kNodes, kNodes, kNodes * 8});
    QList<InformerStatus> live;
    for (Resource r : {Resource::Nodes, Resource::Pods}) {
        InformerStatus st;
        st.resource = r;
        st.state = InformerStatus::Live;
        live << st;
    }
    state.setCollections(live);
    AlertCenter alerts(&store, &telemetry, &state);
    best = -1;
    worst = 0;
    for (int run = 0; run < 10; ++run) {
        clock.start();
        alerts.evaluate();
        const qint64 took = clock.nsecsElapsed() / 1000;
        best = best < 0 ? took : std::min(best, took);
        worst = std::max(worst, took);
    }
    std::printf("AlertCenter::evaluate (every rule, the history rules, the alerts kept): %.1f ms "
                "best, %.1f ms worst of 10 (%lld alerts)\n",
                double(best) / 1000.0, double(worst) / 1000.0, qlonglong(alerts.alerts().size()));
    return 0;
}
