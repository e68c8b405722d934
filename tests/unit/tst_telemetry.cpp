// SPDX-License-Identifier: GPL-3.0-or-later
// History rings (values, gaps, the day tier, bounded size) and the telemetry join: process →
// pod → user and VC, unattributed processes, phantom memory, busy cards (idle pods: tst_findings);
// a pod's own CPU and memory history, and the input-bound verdict on a workload.
#include "clusterstore.h"
#include "gpuaccounting.h"
#include "gpuplacement.h"
#include "podusagehistory.h"
#include "telemetryhistory.h"
#include "telemetrystore.h"

#include <QSignalSpy>
#include <QTest>

using namespace gpudesk;
using Metric = TelemetryHistory::Metric;

class TestTelemetry : public QObject
{
    Q_OBJECT
private slots:
    void fineRingKeepsValues();
    void gapsAreMissing();
    void dayTierAverages();
    void sizeIsBounded();
    void joinProcessesToPods();
    void podUsageHistory();
    void inputBoundWorkload();
    void migInstancesAccountedAndPlaced_data();
    void migInstancesAccountedAndPlaced();
};

namespace {

constexpr qint64 T0 = 1'800'000'000'000; // a whole minute

TelemetryHistory::CardValues card(int util, qint64 mem = 1000, int temp = 50, double power = 100)
{
    return {util, mem, temp, power};
}

} // namespace

void TestTelemetry::fineRingKeepsValues()
{
    TelemetryHistory h;
    for (int i = 0; i < 300; ++i) // ten minutes every 2 s
        h.addCards(T0 + i * 2000, {card(i % 101, 81920 - i * 4, 30 + i % 50, 358.21)});
    const QList<QPointF> util = h.cardSeries(0, Metric::Utilization, T0, T0 + 600000);
    QCOMPARE(util.size(), 300);
    QCOMPARE(util[7], QPointF(double(T0 + 14000), 7));
    QCOMPARE(util[150].y(), 150 % 101);
    const QList<QPointF> mem = h.cardSeries(0, Metric::MemoryMiB, T0, T0 + 600000);
    QCOMPARE(mem.first().y(), 81920.0);
    QCOMPARE(mem[3].y(), 81908.0);
    // Power is kept in 5 W steps, temperature in degrees.
    QCOMPARE(h.cardSeries(0, Metric::PowerW, T0, T0).first().y(), 360.0);
    QCOMPARE(h.cardSeries(0, Metric::TemperatureC, T0 + 2000, T0 + 2000).first().y(), 31.0);
    QCOMPARE(h.maxUtilization(0, T0, T0 + 600000), 100);
    QCOMPARE(h.maxUtilization(0, T0, T0 + 20000), 10);
    QCOMPARE(h.maxUtilization(1, T0, T0 + 20000), -1); // no such card
}

void TestTelemetry::gapsAreMissing()
{
    TelemetryHistory h;
    h.addCards(T0, {card(10)});
    h.addCards(T0 + 2000, {card(20)});
    h.addCards(T0 + 62000, {card(30)}); // the node did not answer for a minute
    h.addCards(T0 + 1000, {card(99)});  // the clock went back: ignored
    const QList<QPointF> s = h.cardSeries(0, Metric::Utilization, T0, T0 + 62000);
    QCOMPARE(s.size(), 3);
    QCOMPARE(s[1], QPointF(double(T0 + 2000), 20));
    QCOMPARE(s[2], QPointF(double(T0 + 62000), 30));
    // Unknown values ([N/A]) are gaps too.
    h.addCards(T0 + 64000, {card(-1, -1, -1, -1)});
    QCOMPARE(h.cardSeries(0, Metric::Utilization, T0 + 64000, T0 + 64000).size(), 0);
    QCOMPARE(h.cardSeries(0, Metric::PowerW, T0 + 64000, T0 + 64000).size(), 0);
}

void TestTelemetry::dayTierAverages()
{
    TelemetryHistory h;
    // 25 hours, a sample every 2 s: utilization 20 in even minutes, 80 in odd ones; the
    // temperature peaks at 90 once a minute.
    const qint64 end = T0 + 25LL * 3600 * 1000;
    for (qint64 t = T0; t < end; t += 2000) {
        const bool odd = (t / 60000) % 2;
        h.addCards(t, {card(odd ? 80 : 20, 2000, (t % 60000) == 30000 ? 90 : 40, 200)});
        h.addNode(t, {50, 25, 1.5});
    }
    // The last hour needs the day tier (the fine ring keeps 20 minutes).
    const QList<QPointF> hour = h.cardSeries(0, Metric::Utilization, end - 3600000, end);
    QCOMPARE(hour.size(), 60);
    for (const QPointF &p : hour)
        QCOMPARE(p.y(), ((qint64(p.x()) / 60000) % 2) ? 80.0 : 20.0);
    const QList<QPointF> temp = h.cardSeries(0, Metric::TemperatureC, end - 3600000, end);
    QCOMPARE(temp.first().y(), 90.0); // the minute's maximum, not its mean
    // A day back is kept, 25 hours back is gone.
    QCOMPARE(h.cardSeries(0, Metric::Utilization, end - 24 * 3600000LL + 60000, end).size(), 1439);
    QCOMPARE(h.cardSeries(0, Metric::Utilization, T0, T0 + 3540000).size(), 0);
    // Node metrics the same way.
    const QList<QPointF> load = h.nodeSeries(Metric::Load1, end - 600000, end);
    QCOMPARE(load.size(), 300);
    QCOMPARE(load.first().y(), 1.5);
    QCOMPARE(h.nodeSeries(Metric::CpuPercent, end - 7200000, end).first().y(), 50.0);
}

void TestTelemetry::sizeIsBounded()
{
    // The memory target (a day of 2,000 nodes × 8 cards in 200 MB) rests on these sizes.
    QVERIFY2(TelemetryHistory::bytesPerCard() <= 10400,
             qPrintable(QString::number(TelemetryHistory::bytesPerCard())));
    QVERIFY2(TelemetryHistory::bytesPerNode() <= 8400,
             qPrintable(QString::number(TelemetryHistory::bytesPerNode())));
    QVERIFY(2000 * (8 * TelemetryHistory::bytesPerCard() + TelemetryHistory::bytesPerNode()) <
            200LL * 1024 * 1024);
}

namespace {

PodInfo pod(const QString &uid, const QString &ns, const QString &name, const QString &node,
            int gpus, const QString &queue = {})
{
    PodInfo p;
    p.uid = uid;
    p.ns = ns;
    p.name = name;
    p.nodeName = node;
    p.phase = QStringLiteral("Running");
    p.status = QStringLiteral("Running");
    p.gpuRequest = gpus;
    p.vc = queue;
    return p;
}

// One Ready node g1 with 4 GPUs, and namespace user-<user> of that user and VC.
void addNodeAndUser(ClusterStore &cluster, const QString &user, const QString &vc)
{
    NodeInfo n;
    n.name = QStringLiteral("g1");
    n.ready = true;
    n.gpuAllocatable = 4;
    cluster.replaceNodes({n});
    cluster.replaceNamespaces({{.name = QStringLiteral("user-") + user, .user = user, .vc = vc}});
}

NodeSample sampleOf(qint64 time)
{
    NodeSample s;
    s.node = QStringLiteral("g1");
    s.time = time;
    for (int i = 0; i < 4; ++i) {
        GpuCardSample c;
        c.index = i;
        c.uuid = QStringLiteral("GPU-%1").arg(i);
        c.utilization = i == 0 ? 97 : 0;
        c.memoryUsedMiB = i == 3 ? 30720 : i == 2 ? 0 : 20000;
        c.memoryTotalMiB = 81920;
        s.cards << c;
    }
    auto proc = [&](qint64 pid, int card, const QString &podUid) {
        NodeProcess p;
        p.pid = pid;
        p.cardIndex = card;
        p.gpuUuid = QStringLiteral("GPU-%1").arg(card);
        p.memoryMiB = 20000;
        p.name = QStringLiteral("python");
        p.owner.podUid = podUid;
        s.processes << p;
    };
    proc(100, 0, QStringLiteral("uid-train"));   // a live pod
    proc(200, 1, QStringLiteral("uid-deleted")); // its pod is gone: unattributed
    proc(300, 1, QString());                     // a host process: unattributed
    return s;
}

} // namespace

void TestTelemetry::joinProcessesToPods()
{
    ClusterStore cluster;
    addNodeAndUser(cluster, QStringLiteral("alice"), QStringLiteral("nlp"));
    cluster.replacePods(
        {pod(QStringLiteral("uid-train"), QStringLiteral("user-alice"), QStringLiteral("train-0"),
             QStringLiteral("g1"), 1, QStringLiteral("cv"))});
    TelemetryStore t(&cluster);
    qint64 now = T0;
    t.setClock([&now] { return now; });
    QSignalSpy updated(&t, &TelemetryStore::updated);
    t.apply(sampleOf(T0));
    QVERIFY(updated.wait(1000));
    QCOMPARE(updated.first().first().value<QSet<QString>>(), QSet<QString>{QStringLiteral("g1")});

    const QList<CardState> cards = t.cards(QStringLiteral("g1"));
    QCOMPARE(cards.size(), 4);
    QCOMPARE(cards[0].processes.size(), 1);
    const AttributedProcess &p = cards[0].processes.first();
    QCOMPARE(p.pod, QStringLiteral("train-0"));
    QCOMPARE(p.ns, QStringLiteral("user-alice"));
    QCOMPARE(p.user, QStringLiteral("alice"));
    QCOMPARE(p.vc, QStringLiteral("cv")); // the pod's queue before the namespace's VC
    QVERIFY(cards[0].busy && !cards[0].phantom && !cards[0].unattributed);
    QCOMPARE(cards[1].processes.size(), 2);
    QVERIFY(cards[1].unattributed);
    QCOMPARE(cards[1].processes[0].podUid, QStringLiteral("uid-deleted"));
    QVERIFY(!cards[1].processes[0].attributed());
    QVERIFY(!cards[1].processes[1].attributed());
    QVERIFY(!cards[2].phantom); // no memory held
    QVERIFY(cards[3].phantom);  // 30 GiB held, no process
    QCOMPARE(t.busyGpus(), 1);
    QCOMPARE(t.sampledGpus(), 4);

    // A sample 31 s old no longer counts.
    now = T0 + 31000;
    QCOMPARE(t.busyGpus(), 0);
    QVERIFY(!t.isFresh(QStringLiteral("g1")));
    // No sample came to say so: the store announces the node as it goes stale, so that the
    // views stop calling it answering.
    updated.clear();
    QVERIFY(updated.wait(3000));
    QCOMPARE(updated.first().first().value<QSet<QString>>(), QSet<QString>{QStringLiteral("g1")});
    // A failed sample keeps the last good one.
    NodeSample failed;
    failed.node = QStringLiteral("g1");
    failed.error = QStringLiteral("timeout");
    t.apply(failed);
    QCOMPARE(t.latest(QStringLiteral("g1"))->cards.size(), 4);
}

void TestTelemetry::podUsageHistory()
{
    PodUsageHistory h;
    h.add(T0, std::nullopt, 1LL << 30); // first sample: memory, no CPU rate yet
    for (int i = 1; i < 300; ++i)
        h.add(T0 + i * 2000, 7.25 + (i % 2) * 0.5, (1LL << 30) * 3 / 2);
    const QList<QPointF> cpu = h.cpuSeries(T0, T0 + 600000);
    QCOMPARE(cpu.size(), 299); // the first slot has no CPU figure
    QCOMPARE(cpu.first(), QPointF(double(T0 + 2000), 7.75));
    QCOMPARE(cpu[1].y(), 7.25);
    const QList<QPointF> mem = h.memorySeries(T0, T0 + 600000);
    QCOMPARE(mem.size(), 300);
    QCOMPARE(mem.first().y(), 1024.0);
    QCOMPARE(mem.last().y(), 1536.0);
    // 150 samples of 7.75 (odd i) and 149 of 7.25.
    QCOMPARE(*h.averageCpu(T0, T0 + 600000), (150 * 7.75 + 149 * 7.25) / 299);
    QVERIFY(!h.averageCpu(T0 - 60000, T0 - 2000));
    // An hour later the fine ring no longer covers its start: the minute averages answer.
    for (int i = 300; i < 1800; ++i)
        h.add(T0 + i * 2000, 2.0, 1LL << 30);
    const QList<QPointF> hour = h.cpuSeries(T0, T0 + 3600000);
    QCOMPARE(hour.size(), 60);
    QCOMPARE(hour[1].y(), 7.5); // 15 samples of 7.75 and 15 of 7.25
    QCOMPARE(hour.last().y(), 2.0);
    QVERIFY(PodUsageHistory::bytes() <= 10400);
}

void TestTelemetry::inputBoundWorkload()
{
    ClusterStore cluster;
    addNodeAndUser(cluster, QStringLiteral("sam"), QStringLiteral("cv"));
    PodInfo starved = pod(QStringLiteral("uid-train"), QStringLiteral("user-sam"),
                          QStringLiteral("sam-0"), QStringLiteral("g1"), 1);
    starved.cpuRequestMilli = 8000;
    starved.memoryRequestBytes = 64LL << 30;
    cluster.replacePods({starved});
    TelemetryStore t(&cluster);
    qint64 now = T0 + 120000;
    t.setClock([&now] { return now; });
    auto feed = [&](int gpuUtil, double cores) {
        t.clear();
        for (qint64 time = T0; time <= now; time += 2000) {
            NodeSample s = sampleOf(time);
            s.cards[0].utilization = gpuUtil; // card 0 runs uid-train's process
            s.pods = {PodUsage{QStringLiteral("uid-train"),
                               time == T0 ? std::nullopt : std::optional<double>(cores), 50LL << 30,
                               40LL << 30}};
            t.apply(s);
        }
    };
    const QStringList uids{QStringLiteral("uid-train")};
    // GPUs at 30 % while the CPU runs at 98 % of its 8 cores: the input pipeline starves them.
    feed(30, 7.84);
    WorkloadUsage w = t.workloadUsage(uids, 120000);
    QCOMPARE(w.cards, 1);
    QCOMPARE(*w.gpuUtilization, 30.0);
    QCOMPARE(*w.cpuCores, 7.84);
    QCOMPARE(w.cpuRequestCores, 8.0);
    QCOMPARE(w.workingSetBytes, 40LL << 30);
    QCOMPARE(w.memoryRequestBytes, 64LL << 30);
    QCOMPARE(w.podsSampled, 1);
    QVERIFY(w.inputBound);
    QVERIFY(t.podUsage(uids[0]));
    QCOMPARE(t.podHistory(uids[0])->cpuSeries(T0, now).size(), 60);
    // Busy GPUs, or a CPU with room to spare: not input-bound.
    feed(92, 7.84);
    QVERIFY(!t.workloadUsage(uids, 120000).inputBound);
    feed(30, 3.0);
    QVERIFY(!t.workloadUsage(uids, 120000).inputBound);
    // GPU pods are always sampled; a CPU pod while a viewer watches it.
    PodInfo cpuPod = pod(QStringLiteral("uid-cpu"), QStringLiteral("user-sam"),
                         QStringLiteral("prep-0"), QStringLiteral("g1"), 0);
    QVERIFY(t.wantsUsageOf(starved));
    QVERIFY(!t.wantsUsageOf(cpuPod));
    t.watchPods({cpuPod.uid});
    t.watchPods({cpuPod.uid});
    t.unwatchPods({cpuPod.uid});
    QVERIFY(t.wantsUsageOf(cpuPod)); // one viewer still open
    t.unwatchPods({cpuPod.uid});
    QVERIFY(!t.wantsUsageOf(cpuPod));
    // A pod the node stops listing has no "now", but keeps its history.
    NodeSample later = sampleOf(now + 2000);
    t.apply(later);
    QVERIFY(!t.podUsage(uids[0]));
    QVERIFY(t.podHistory(uids[0]));
}

void TestTelemetry::migInstancesAccountedAndPlaced_data()
{
    QTest::addColumn<bool>("everyPodVisible");
    QTest::addRow("admin") << true;
    QTest::addRow("researcher who sees only her namespace") << false;
}

void TestTelemetry::migInstancesAccountedAndPlaced()
{
    // a100-01: cards 0 and 1 in MIG mode (3g.40gb + 2g.20gb + 1g.10gb × 2, and 3g.40gb × 2),
    // cards 2 and 3 whole. The device plugin (mixed strategy) offers 2 GPUs and 6 instances.
    QFETCH(bool, everyPodVisible);
    ClusterStore cluster;
    NodeInfo n;
    n.name = QStringLiteral("a100-01");
    n.ready = true;
    n.gpuAllocatable = 2;
    n.migAllocatable = {{QStringLiteral("1g.10gb"), 2},
                        {QStringLiteral("2g.20gb"), 1},
                        {QStringLiteral("3g.40gb"), 3}};
    cluster.replaceNodes({n});
    cluster.replaceNamespaces({{.name = QStringLiteral("user-alice"),
                                .user = QStringLiteral("alice"),
                                .vc = QStringLiteral("nlp")},
                               {.name = QStringLiteral("user-bob"),
                                .user = QStringLiteral("bob"),
                                .vc = QStringLiteral("cv")}});
    PodInfo infer = pod(QStringLiteral("uid-infer"), QStringLiteral("user-alice"),
                        QStringLiteral("infer"), n.name, 0);
    infer.migRequests = {{QStringLiteral("2g.20gb"), 1}};
    PodInfo notebook = pod(QStringLiteral("uid-nb"), QStringLiteral("user-bob"),
                           QStringLiteral("notebook"), n.name, 0);
    notebook.migRequests = {{QStringLiteral("3g.40gb"), 1}};
    PodInfo train = pod(QStringLiteral("uid-train"), QStringLiteral("user-bob"),
                        QStringLiteral("train"), n.name, 1);
    Delta pods;
    pods.resource = Resource::Pods;
    pods.relist = true;
    pods.items<PodInfo>() =
        everyPodVisible ? QList<PodInfo>{infer, notebook, train} : QList<PodInfo>{infer};
    if (!everyPodVisible)
        pods.scope = QStringLiteral("user-alice");
    cluster.apply(pods);
    cluster.flush();

    TelemetryStore telemetry(&cluster);
    telemetry.setClock([] { return T0; });
    NodeSample s;
    s.node = n.name;
    s.time = T0;
    for (int i = 0; i < 4; ++i) {
        GpuCardSample c;
        c.index = i;
        c.uuid = QStringLiteral("GPU-%1").arg(i);
        c.migEnabled = i < 2;
        if (i >= 2)
            c.utilization = i == 2 ? 90 : 0;
        s.cards << c;
    }
    auto mig = [&](int gpu, int index, const char *profile, int gi) {
        MigDeviceSample d{gpu, index, QLatin1String(profile)};
        d.uuid = QStringLiteral("MIG-%1-%2").arg(gpu).arg(index);
        d.gpuInstanceId = gi;
        d.computeInstanceId = 0;
        d.memoryTotalMiB = QByteArray(profile).startsWith('3') ? 40192 : 9728;
        d.memoryUsedMiB = 12;
        s.migDevices << d;
    };
    mig(0, 0, "3g.40gb", 1);
    mig(0, 1, "2g.20gb", 5);
    mig(0, 2, "1g.10gb", 13);
    mig(0, 3, "1g.10gb", 14);
    mig(1, 0, "3g.40gb", 1);
    mig(1, 1, "3g.40gb", 2);
    auto proc = [&](qint64 pid, int card, int migDevice, const QString &podUid) {
        NodeProcess p;
        p.pid = pid;
        p.cardIndex = card;
        p.migDevice = migDevice;
        p.owner.podUid = podUid;
        s.processes << p;
    };
    proc(101, 0, 1, infer.uid);    // alice's inference in the 2g.20gb instance
    proc(102, 1, 1, notebook.uid); // bob's notebook in the second 3g.40gb of card 1
    proc(103, 2, -1, train.uid);   // bob's training on the whole card 2
    telemetry.apply(s);
    telemetry.flush();

    const QList<CardState> cards = telemetry.cards(n.name);
    QCOMPARE(cards.size(), 4);
    QVERIFY(cards[0].migEnabled && cards[1].migEnabled && !cards[2].migEnabled);
    QCOMPARE(cards[0].mig.size(), 4);
    QCOMPARE(cards[0].mig[1].processes.size(), 1);
    QVERIFY(cards[0].busy);  // an instance runs a process
    QVERIFY(!cards[3].busy); // a whole card at 0 %
    QCOMPARE(telemetry.busyGpus(), 3);

    const GpuFigures g = GpuAccounting(&cluster, &telemetry).node(n.name);
    QCOMPARE(g.total, 2);
    QCOMPARE(g.migTotal, 6);
    if (everyPodVisible) {
        QCOMPARE(g.allocated, 1);
        QCOMPARE(g.migAllocated, 2);
        QCOMPARE(g.migFree, std::optional<int>(4));
        const auto profiles = GpuAccounting(&cluster, &telemetry).migProfiles(n.name);
        QCOMPARE(profiles.size(), 3);
        QCOMPARE(profiles[2].profile, QStringLiteral("3g.40gb"));
        QCOMPARE(profiles[2].allocated, 1);
        QCOMPARE(profiles[2].free, std::optional<int>(2));
    } else {
        // Hers, and the instance bob's notebook runs in: seen, not visible, counted.
        QCOMPARE(g.migAllocated, 2);
        QVERIFY(!g.migFree);
        QCOMPARE(g.migFreeAtMost, 4);
    }

    // Placed where their processes run: the 2g.20gb of card 0, the second 3g.40gb of card 1.
    const NodeCards placed = GpuPlacement::place(cluster, &telemetry, n);
    QCOMPARE(placed.mig.size(), 6);
    QCOMPARE(placed.mig[1].podUid, infer.uid);
    QCOMPARE(placed.mig[1].state, CardCell::Allocated);
    QCOMPARE(placed.mig[1].slices, 2);
    QCOMPARE(placed.mig[5].state, everyPodVisible ? CardCell::Allocated : CardCell::InUseHidden);
    QCOMPARE(placed.mig[5].podUid, everyPodVisible ? notebook.uid : QString());
    QCOMPARE(placed.mig[0].state, everyPodVisible ? CardCell::Free : CardCell::Unknown);
    // The whole cards are cells 0 and 1 (cards 2 and 3), bob's training on card 2.
    QCOMPARE(placed.cells.size(), 2);
    QCOMPARE(placed.cells[0].cardIndex, 2);
    QCOMPARE(placed.cells[0].state, everyPodVisible ? CardCell::Allocated : CardCell::InUseHidden);
}

QTEST_GUILESS_MAIN(TestTelemetry)
#include "tst_telemetry.moc"
