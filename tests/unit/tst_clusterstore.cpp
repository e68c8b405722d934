// SPDX-License-Identifier: GPL-3.0-or-later
// Decoding of Kubernetes lists (real shapes and broken ones) and the GPU accounting of the store,
// which must count as the scheduler counts.
#include "clusterstore.h"
#include "decoder.h"
#include "quantity.h"
#include "testpaths.h"

#include <algorithm>

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace gpudesk;

class TestClusterStore : public QObject
{
    Q_OBJECT
private slots:
    void decodeNodes();
    void decodePods();
    void decodeJobStates();
    void notReadyToleration_data();
    void notReadyToleration();
    void malformed_data();
    void malformed();
    void quantity_data();
    void quantity();
    void accounting();
    void nodeFigures_data();
    void nodeFigures();
    void largeListInSlices();
    void relistInSlicesKeepsOrder();
    void relistAfterItsPages();
    void clearDropsWhatIsQueued();
    void uidSetIsASet();
    void manyChangesAreToldAtOnce();

private:
    // 50 Ready nodes of 2,000 GPUs each (room for every pod below).
    static void addNodes(ClusterStore &s)
    {
        QList<NodeInfo> nodes;
        for (int n = 0; n < 50; ++n) {
            NodeInfo node;
            node.name = QStringLiteral("node-%1").arg(n);
            node.ready = true;
            node.gpuAllocatable = node.gpuCapacity = 2000;
            nodes.append(node);
        }
        s.replaceNodes(nodes);
    }
    // `count` running pods of one GPU each on 50 nodes, in namespaces of 10 users and queues of
    // 5 VCs; uids "p<first>"…
    static QList<PodInfo> manyPods(int first, int count)
    {
        QList<PodInfo> pods;
        pods.reserve(count);
        for (int i = first; i < first + count; ++i) {
            PodInfo p;
            p.uid = QStringLiteral("p%1").arg(i);
            p.ns = QStringLiteral("user-%1").arg(i % 10);
            p.name = QStringLiteral("pod-%1").arg(i);
            p.nodeName = QStringLiteral("node-%1").arg(i % 50);
            p.phase = p.status = QStringLiteral("Running");
            p.vc = QStringLiteral("vc-%1").arg(i % 5);
            p.gpuRequest = 1;
            p.cpuRequestMilli = 1000;
            pods.append(p);
        }
        return pods;
    }
    // The figures and indexes a store answers with, to compare two stores.
    static QString figures(const ClusterStore &s)
    {
        QStringList out;
        out << QStringLiteral("pods %1 allocated %2 pending %3")
                   .arg(s.pods().size())
                   .arg(s.totals().gpus.allocated)
                   .arg(s.totals().pendingDemand);
        for (int n = 0; n < 50; ++n) {
            const QString node = QStringLiteral("node-%1").arg(n);
            out << QStringLiteral("%1 %2 %3 %4")
                       .arg(node)
                       .arg(s.podsOnNode(node).size())
                       .arg(s.nodeUse(node).cpuMilli)
                       .arg(s.nodeGpus(node).allocated);
        }
        for (int q = 0; q < 5; ++q)
            out << QString::number(s.vcAllocated(QStringLiteral("vc-%1").arg(q)));
        QStringList keys = s.workloadKeys();
        keys.sort();
        out << QString::number(keys.size()) << keys.first() << keys.last();
        return out.join(u'\n');
    }

private:
    static QByteArray data(const char *name)
    {
        QFile f(TestPaths::testData(u"/k8s/") + QLatin1String(name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static ClusterStore *filled(QObject *parent)
    {
        auto *s = new ClusterStore(parent);
        s->replaceNodes(Decoder::nodes(data("nodes.json")).items);
        s->replacePods(Decoder::pods(data("pods.json")).items);
        s->replaceNamespaces({{.name = QStringLiteral("user-alice"),
                               .user = QStringLiteral("alice"),
                               .vc = QStringLiteral("nlp")},
                              {.name = QStringLiteral("user-bob"),
                               .user = QStringLiteral("bob"),
                               .vc = QStringLiteral("cv")},
                              {.name = QStringLiteral("kube-system")}});
        return s;
    }
};

void TestClusterStore::decodeNodes()
{
    const auto page = Decoder::nodes(data("nodes.json"));
    QVERIFY(page.error.isEmpty());
    QCOMPARE(page.items.size(), 4);
    QCOMPARE(page.skipped, 2); // a string and an object without a name
    QCOMPARE(page.continueToken, QStringLiteral("eyJydiI6ODEyMzQ1fQ"));
    QCOMPARE(page.resourceVersion, QStringLiteral("812345"));
    QCOMPARE(page.items[0].gpuModel, QStringLiteral("NVIDIA A800-SXM4-80GB"));
    QVERIFY(page.items[0].ready);
    QVERIFY(page.items[1].unschedulable);
    QCOMPARE(page.items[1].gpuAllocatable, 7);
    QCOMPARE(page.items[1].gpuCapacity, 8);
    QVERIFY(!page.items[2].ready); // status Unknown
    QCOMPARE(page.items[3].gpuAllocatable, 0);
}

void TestClusterStore::decodePods()
{
    const auto page = Decoder::pods(data("pods.json"));
    QCOMPARE(page.items.size(), 6);
    QCOMPARE(page.items[0].gpuRequest, 5); // requests of one container, limits of the other
    QCOMPARE(page.items[0].vc, QStringLiteral("nlp"));
    QCOMPARE(page.items[1].vc, QStringLiteral("cv")); // from the annotation
    QVERIFY(page.items[1].deleting);
    QVERIFY(page.items[2].finished());
    QVERIFY(page.items[3].nodeName.isEmpty());
}

void TestClusterStore::notReadyToleration_data()
{
    QTest::addColumn<QByteArray>("tolerations");
    QTest::addColumn<qint64>("seconds");
    // What DefaultTolerationSeconds gives a pod that names none.
    QTest::addRow("none") << QByteArray("[]") << 300LL;
    QTest::addRow("both, the longer")
        << QByteArray(
               R"([{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":60},
            {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":900}])")
        << 900LL;
    QTest::addRow("one shorter: the other's default")
        << QByteArray(
               R"([{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":60}])")
        << 300LL;
    QTest::addRow("no seconds: for ever")
        << QByteArray(
               R"([{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute"}])")
        << -1LL;
    QTest::addRow("every taint tolerated") << QByteArray(R"([{"operator":"Exists"}])") << -1LL;
    QTest::addRow("a NoSchedule toleration says nothing of eviction")
        << QByteArray(
               R"([{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoSchedule"}])")
        << 300LL;
    QTest::addRow("another taint")
        << QByteArray(
               R"([{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoExecute","tolerationSeconds":5}])")
        << 300LL;
}

void TestClusterStore::notReadyToleration()
{
    QFETCH(QByteArray, tolerations);
    QFETCH(qint64, seconds);
    const QByteArray body =
        R"({"kind":"PodList","items":[{"metadata":{"name":"p","uid":"u"},"spec":{"tolerations":)" +
        tolerations + "}}]}";
    const auto page = Decoder::pods(body);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    QCOMPARE(page.items.size(), 1);
    QCOMPARE(page.items[0].notReadyTolerationSecs, seconds);
}

void TestClusterStore::malformed_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addRow("empty") << QByteArray();
    QTest::addRow("truncated") << QByteArray(R"({"kind":"PodList","items":[{"metadata":{"name":)");
    QTest::addRow("not a list") << QByteArray(R"({"kind":"Status","code":500})");
    QTest::addRow("items not an array") << QByteArray(R"({"items":{"a":1}})");
    QTest::addRow("binary") << QByteArray("\x00\xff\xfe", 3);
}

void TestClusterStore::malformed()
{
    QFETCH(QByteArray, body);
    QVERIFY(!Decoder::pods(body).error.isEmpty());
    QVERIFY(!Decoder::nodes(body).error.isEmpty());
}

void TestClusterStore::quantity_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("units");
    QTest::addRow("plain") << QStringLiteral("8") << qint64(8);
    // Whole units round up, as the API's Quantity.Value() does.
    QTest::addRow("milli") << QStringLiteral("1500m") << qint64(2);
    QTest::addRow("milli whole") << QStringLiteral("2000m") << qint64(2);
    QTest::addRow("fraction") << QStringLiteral("0.5Gi") << qint64(1LL << 29);
    QTest::addRow("exponent") << QStringLiteral("1e3") << qint64(1000);
    QTest::addRow("peta") << QStringLiteral("2P") << qint64(2000000000000000LL);
    // Past what thousandths of a unit can count in 64 bits: refused, never wrapped.
    QTest::addRow("exa") << QStringLiteral("1E") << qint64(-1);
    QTest::addRow("plus, spaces") << QStringLiteral(" +5 ") << qint64(5);
    QTest::addRow("leading dot") << QStringLiteral(".5k") << qint64(500);
    QTest::addRow("two suffixes") << QStringLiteral("1KiB") << qint64(-1);
    QTest::addRow("bare exponent") << QStringLiteral("1e") << qint64(-1);
    QTest::addRow("empty") << QString() << qint64(-1);
    QTest::addRow("kilo") << QStringLiteral("2k") << qint64(2000);
    QTest::addRow("binary") << QStringLiteral("1Ki") << qint64(1024);
    QTest::addRow("garbage") << QStringLiteral("eight") << qint64(-1);
    QTest::addRow("negative") << QStringLiteral("-1") << qint64(-1);
}

void TestClusterStore::quantity()
{
    QFETCH(QString, text);
    QFETCH(qint64, units);
    QCOMPARE(Decoder::quantityUnits(text), units);
    // One parser for the forms and for the decoder (issue 34: they rounded differently).
    const auto milli = quantity::parseMilli(text);
    QCOMPARE(milli.has_value(), units >= 0);
    if (milli)
        QCOMPARE((*milli + 999) / 1000, units);
    QCOMPARE(quantity::parseMilliOf(std::string_view(text.toStdString())), milli);
}

void TestClusterStore::decodeJobStates()
{
    // Since when a job has its state: Volcano's state.lastTransitionTime, Kubeflow's condition
    // that holds (a finished job's finish time, for the cleanup's "For").
    const auto volcano = Decoder::typedList<JobInfo>(Resource::VolcanoJobs, QByteArray(R"({
        "kind":"JobList","metadata":{"resourceVersion":"9"},"items":[{"metadata":{"name":"a",
        "namespace":"n","uid":"u1"},"spec":{"queue":"cv"},"status":{"state":{"phase":"Completed",
        "lastTransitionTime":"2026-11-27T01:00:00Z"}}}]})"));
    QVERIFY2(volcano.error.isEmpty(), qPrintable(volcano.error));
    QCOMPARE(volcano.items.size(), 1);
    QCOMPARE(volcano.items[0].status, u"Completed"_qs);
    QCOMPARE(volcano.items[0].stateSince,
             QDateTime(QDate(2026, 11, 27), QTime(1, 0), Qt::UTC).toMSecsSinceEpoch());
    const auto kubeflow = Decoder::typedList<JobInfo>(Resource::PyTorchJobs, QByteArray(R"({
        "kind":"PyTorchJobList","metadata":{"resourceVersion":"9"},"items":[{"metadata":{
        "name":"b","namespace":"n","uid":"u2"},"status":{"conditions":[
        {"type":"Running","status":"False","lastTransitionTime":"2026-11-27T02:00:00Z"},
        {"type":"Failed","status":"True","lastTransitionTime":"2026-11-27T03:30:00Z"}]}}]})"));
    QCOMPARE(kubeflow.items.size(), 1);
    QCOMPARE(kubeflow.items[0].status, u"Failed"_qs);
    QCOMPARE(kubeflow.items[0].stateSince,
             QDateTime(QDate(2026, 11, 27), QTime(3, 30), Qt::UTC).toMSecsSinceEpoch());
    // A job that has no state yet: Pending, since unknown.
    const auto fresh = Decoder::typedList<JobInfo>(Resource::VolcanoJobs, QByteArray(R"({
        "kind":"JobList","metadata":{},"items":[{"metadata":{"name":"c","uid":"u3"}}]})"));
    QCOMPARE(fresh.items[0].status, u"Pending"_qs);
    QCOMPARE(fresh.items[0].stateSince, 0);
}

void TestClusterStore::accounting()
{
    QObject parent;
    const ClusterStore *s = filled(&parent);
    const GpuTotals t = s->totals();
    QCOMPARE(t.gpus.total, 8 + 7 + 8);
    QCOMPARE(t.gpus.allocated, 5 + 2 + 3); // the finished pod frees its GPUs; Terminating does not
    QCOMPARE(t.gpus.free, 3);              // only gpu-a is Ready and schedulable
    QCOMPARE(t.pendingDemand, 8);
    QCOMPARE(s->vcAllocated(QStringLiteral("nlp")), 5);
    QCOMPARE(s->vcAllocated(QStringLiteral("cv")), 2);
    QCOMPARE(s->vcAllocated(QStringLiteral("default")), 3);
    QCOMPARE(s->userAllocated(QStringLiteral("alice")), 7);
    QCOMPARE(s->userAllocated(QStringLiteral("bob")), 3);
    QCOMPARE(s->users().size(), 2);
}

void TestClusterStore::nodeFigures_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<int>("total");
    QTest::addColumn<int>("allocated");
    QTest::addColumn<int>("free");
    QTest::addRow("ready") << QStringLiteral("gpu-a") << 8 << 5 << 3;
    QTest::addRow("cordoned") << QStringLiteral("gpu-b") << 7 << 2 << 0;
    QTest::addRow("not ready") << QStringLiteral("gpu-c") << 8 << 3 << 0;
    QTest::addRow("cpu") << QStringLiteral("cpu-a") << 0 << 0 << 0;
}

void TestClusterStore::nodeFigures()
{
    QFETCH(QString, node);
    QFETCH(int, total);
    QFETCH(int, allocated);
    QFETCH(int, free);
    QObject parent;
    const GpuCount c = filled(&parent)->nodeGpus(node);
    QCOMPARE(c.total, total);
    QCOMPARE(c.allocated, allocated);
    QCOMPARE(c.free, free);
}

void TestClusterStore::largeListInSlices()
{
    // The first list of a big cluster: applied a slice at a time, the event loop turning between
    // slices (a timer queued behind the first slice sees the store part-filled), announced as it
    // goes, complete at caughtUp().
    constexpr int count = 60000;
    ClusterStore s;
    addNodes(s);
    QSignalSpy caughtUp(&s, &ClusterStore::caughtUp);
    QSignalSpy updated(&s, &ClusterStore::updated);
    s.replacePods(manyPods(0, count));
    QVERIFY(s.isCatchingUp());
    QCOMPARE(s.pods().size(), 0);
    // What other work on the event loop sees while the list goes in.
    QList<qsizetype> seen;
    QTimer probe;
    connect(&probe, &QTimer::timeout, &s, [&] { seen << s.pods().size(); });
    probe.start(0);
    QVERIFY(caughtUp.wait(20000));
    probe.stop();
    QVERIFY2(
        std::any_of(seen.cbegin(), seen.cend(), [](qsizetype n) { return n > 0 && n < count; }),
        qPrintable(QString::number(seen.size())));
    QVERIFY(!s.isCatchingUp());
    QCOMPARE(s.pods().size(), count);
    QCOMPARE(s.totals().gpus.allocated, count);
    QCOMPARE(s.vcAllocated(QStringLiteral("vc-3")), count / 5);
    QCOMPARE(s.podsOnNode(QStringLiteral("node-7")).size(), count / 50);
    // Every pod is announced, in one or more updates.
    QTRY_VERIFY(!updated.isEmpty());
    s.flush();
    QSet<QString> announced;
    for (const auto &args : std::as_const(updated))
        announced.unite(args.at(0).value<StoreChanges>().pods);
    QCOMPARE(announced.size(), count);
}

void TestClusterStore::relistInSlicesKeepsOrder()
{
    // Known: p0…p39999. A relist drops p0…p9999 and brings p40000…p49999; a watch batch that
    // arrives while it is applied (p20000 moves and finishes, p45000 is deleted, p60000 is new)
    // waits its turn and wins. The result equals a store filled with the outcome at once.
    ClusterStore s;
    addNodes(s);
    s.replacePods(manyPods(0, 40000));
    s.flush();
    QVERIFY(!s.isCatchingUp());
    QCOMPARE(s.pods().size(), 40000);

    s.replacePods(manyPods(10000, 40000));
    QVERIFY(s.isCatchingUp());
    Delta watch;
    watch.resource = Resource::Pods;
    PodInfo moved = manyPods(20000, 1).constFirst();
    moved.nodeName = QStringLiteral("node-3");
    moved.phase = moved.status = QStringLiteral("Succeeded");
    watch.items<PodInfo>() = {moved, manyPods(60000, 1).constFirst()};
    watch.removed = {QStringLiteral("p45000")};
    s.apply(watch);
    // Queued: the store does not show it before the relist ahead of it.
    QVERIFY(s.pod(QStringLiteral("p60000")) == nullptr);
    QSignalSpy caughtUp(&s, &ClusterStore::caughtUp);
    QVERIFY(caughtUp.wait(20000));

    QList<PodInfo> outcome = manyPods(10000, 40000);
    outcome.removeIf([](const PodInfo &p) {
        return p.uid == QLatin1String("p45000") || p.uid == QLatin1String("p20000");
    });
    outcome << moved << manyPods(60000, 1).constFirst();
    ClusterStore expected;
    addNodes(expected);
    expected.replacePods(outcome);
    expected.flush();
    QCOMPARE(s.pod(QStringLiteral("p20000"))->phase, QStringLiteral("Succeeded"));
    QVERIFY(s.pod(QStringLiteral("p0")) == nullptr);
    QVERIFY(s.pod(QStringLiteral("p45000")) == nullptr);
    QCOMPARE(figures(s), figures(expected));
    // p20000 finished and freed its GPU; p45000 is gone; p60000 is new.
    QCOMPARE(s.totals().gpus.allocated, 40000 - 2 + 1);
}

void TestClusterStore::relistAfterItsPages()
{
    // A list of pods arrives as its informer sends it: pages of upserts as they decode, then a
    // relist that names them (Delta::listed) and carries the last page. Known and not listed:
    // gone; listed: kept as the pages brought them. Once small (applied at once), once large
    // (the relist's keys applied in slices behind the pages).
    for (const int n : {10, 60000}) {
        ClusterStore s;
        addNodes(s);
        s.replacePods(manyPods(0, n));
        s.flush();
        QCOMPARE(s.pods().size(), n);
        const int half = n / 2;
        QStringList listed;
        for (int first = half; first < n + half; first += std::max(1, n / 4)) {
            Delta page;
            page.resource = Resource::Pods;
            page.items<PodInfo>() = manyPods(first, std::min(std::max(1, n / 4), n + half - first));
            for (const PodInfo &p : page.items<PodInfo>())
                listed << p.uid;
            s.apply(page);
        }
        Delta relist;
        relist.resource = Resource::Pods;
        relist.relist = true;
        relist.listed = listed;
        relist.items<PodInfo>() = manyPods(n + half, 1);
        s.apply(relist);
        s.flush();
        QCOMPARE(s.pods().size(), n + 1);
        QVERIFY(s.pod(QStringLiteral("p%1").arg(half - 1)) == nullptr);
        QVERIFY(s.pod(QStringLiteral("p%1").arg(half)) != nullptr);
        QVERIFY(s.pod(QStringLiteral("p%1").arg(n + half)) != nullptr);
        ClusterStore expected;
        addNodes(expected);
        expected.replacePods(manyPods(half, n + 1));
        expected.flush();
        QCOMPARE(figures(s), figures(expected));
    }
}

void TestClusterStore::clearDropsWhatIsQueued()
{
    // A context switch while a big list is still going in: nothing of the old cluster arrives
    // afterwards.
    ClusterStore s;
    addNodes(s);
    s.replacePods(manyPods(0, 50000));
    QVERIFY(s.isCatchingUp());
    QSignalSpy updated(&s, &ClusterStore::updated);
    s.clear();
    addNodes(s);
    QVERIFY(!s.isCatchingUp());
    QCOMPARE(updated.size(), 1);
    QVERIFY(updated.at(0).at(0).value<StoreChanges>().reset);
    s.replacePods(manyPods(0, 10));
    QCOMPARE(s.pods().size(), 10);
    // Turns of the event loop later (two zero-time timers: the store's own would have run),
    // still only the new pods.
    for (int turn = 0; turn < 2; ++turn) {
        QTimer probe;
        probe.setSingleShot(true);
        QSignalSpy fired(&probe, &QTimer::timeout);
        probe.start(0);
        QVERIFY(fired.wait());
    }
    QCOMPARE(s.pods().size(), 10);
    QCOMPARE(s.totals().gpus.allocated, 10);
}

void TestClusterStore::uidSetIsASet()
{
    // The store's indexes (UidSet): a list while small, indexed past 32 keys and a list again
    // below 16 — through every size, the same keys as a QSet given the same inserts and removes.
    QRandomGenerator rng(39);
    UidSet set;
    QSet<QString> oracle;
    qsizetype largest = 0;
    int shrankBelowHalf = 0; // times it went from indexed to a scan again
    bool wasLarge = false;
    for (int step = 0; step < 20000; ++step) {
        // Growing for the first half, shrinking after: both thresholds crossed many times.
        const bool grow = (step / 2500) % 2 == 0;
        const QString key = QStringLiteral("uid-%1").arg(rng.bounded(80));
        if (rng.bounded(100) < (grow ? 90 : 10)) {
            set.insert(key);
            oracle.insert(key);
        } else {
            QCOMPARE(set.remove(key), oracle.remove(key));
        }
        QCOMPARE(set.size(), oracle.size());
        QCOMPARE(set.contains(key), oracle.contains(key));
        largest = std::max(largest, set.size());
        wasLarge |= set.size() > UidSet::IndexFrom;
        if (wasLarge && set.size() < UidSet::IndexFrom / 2) {
            ++shrankBelowHalf;
            wasLarge = false;
        }
        if (step % 97 == 0) {
            const QSet<QString> held(set.begin(), set.end());
            QCOMPARE(held, oracle);
        }
    }
    QVERIFY(largest > UidSet::IndexFrom);
    QVERIFY(shrankBelowHalf >= 3);
    QVERIFY(!set.contains(QStringLiteral("uid-nothing")));
}

void TestClusterStore::manyChangesAreToldAtOnce()
{
    // Under churn the models' work on an update grows with what it carries: past 256 pods the
    // store tells them on the next turn of the event loop, not 100 ms later.
    ClusterStore s;
    addNodes(s);
    s.flush();
    QSignalSpy updated(&s, &ClusterStore::updated);
    QElapsedTimer clock;
    clock.start();
    Delta few;
    few.resource = Resource::Pods;
    few.items<PodInfo>() = manyPods(0, 10);
    s.apply(few);
    QCoreApplication::processEvents();
    // Ten pods wait for the tick (unless this machine took its 100 ms to get here).
    if (clock.elapsed() < 90)
        QCOMPARE(updated.size(), 0);
    Delta many;
    many.resource = Resource::Pods;
    many.items<PodInfo>() = manyPods(10, 300);
    s.apply(many);
    QCoreApplication::processEvents();
    QCOMPARE(updated.size(), 1);
    QCOMPARE(updated.at(0).at(0).value<StoreChanges>().pods.size(), 310);
    QCOMPARE(s.pods().size(), 310);
}

QTEST_GUILESS_MAIN(TestClusterStore)
#include "tst_clusterstore.moc"
