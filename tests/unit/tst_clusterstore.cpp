// SPDX-License-Identifier: GPL-3.0-or-later
// Decoding of Kubernetes lists (real shapes and broken ones) and the GPU accounting of the store,
// which must count as the scheduler counts.
#include "clusterstore.h"
#include "decoder.h"

#include <QFile>
#include <QTest>

using namespace gpudesk;

class TestClusterStore : public QObject
{
    Q_OBJECT
private slots:
    void decodeNodes();
    void decodePods();
    void malformed_data();
    void malformed();
    void quantity_data();
    void quantity();
    void accounting();
    void nodeFigures_data();
    void nodeFigures();

private:
    static QByteArray data(const char *name)
    {
        QFile f(QStringLiteral(GPUDESK_TEST_DATA "/k8s/") + QLatin1String(name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static ClusterStore *filled(QObject *parent)
    {
        auto *s = new ClusterStore(parent);
        s->replaceNodes(Decoder::nodes(data("nodes.json")).items);
        s->replacePods(Decoder::pods(data("pods.json")).items);
        s->replaceNamespaces(
            {{QStringLiteral("user-alice"), QStringLiteral("alice"), QStringLiteral("nlp")},
             {QStringLiteral("user-bob"), QStringLiteral("bob"), QStringLiteral("cv")},
             {QStringLiteral("kube-system"), QString(), QString()}});
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
    QCOMPARE(page.items[0].queue, QStringLiteral("nlp"));
    QCOMPARE(page.items[1].queue, QStringLiteral("cv")); // from the annotation
    QVERIFY(page.items[1].deleting);
    QVERIFY(page.items[2].finished());
    QVERIFY(page.items[3].nodeName.isEmpty());
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
    QTest::addRow("milli") << QStringLiteral("1500m") << qint64(1);
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
    QCOMPARE(s->queueAllocated(QStringLiteral("nlp")), 5);
    QCOMPARE(s->queueAllocated(QStringLiteral("cv")), 2);
    QCOMPARE(s->queueAllocated(QStringLiteral("default")), 3);
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

QTEST_GUILESS_MAIN(TestClusterStore)
#include "tst_clusterstore.moc"
