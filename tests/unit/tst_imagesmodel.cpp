// SPDX-License-Identifier: GPL-3.0-or-later
// ImagesModel's sizes: total and unique bytes per image (blobs shared by two images are no
// one's unique bytes; a layer listed twice counts once; an index's platforms and manifests), the
// same whether computed here (a small registry) or on a worker (beyond kComputeHereUpTo tags),
// and a worker's result for a registry that was cleared since is dropped.
#include "imageplanner.h"
#include "imagesmodel.h"
#include "operationplan.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace gpudesk;

namespace {
QString digest(const char *kind, int i)
{
    return QStringLiteral("sha256:%1%2").arg(QLatin1String(kind)).arg(i, 58, 10, QLatin1Char('0'));
}

RegistryManifest image(int i, const QList<std::pair<int, qint64>> &layers)
{
    RegistryManifest m;
    m.digest = digest("imagex", i);
    m.bytes = 500;
    m.config = {QString(), digest("config", i), 1000};
    for (const auto &[blob, size] : layers)
        m.layers << RegistryDescriptor{QString(), digest("blobxx", blob), size};
    return m;
}
} // namespace

class TestImagesModel : public QObject
{
    Q_OBJECT
private slots:
    void uniqueAndShared();
    void largeOnAWorker();
    void seenInPodsBeforeTheRegistryAnswers();
};

void TestImagesModel::uniqueAndShared()
{
    ImagesModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // a and b share blob 1; a lists blob 2 twice; c is an index of a's image and its own.
    const RegistryManifest a = image(1, {{1, 10000}, {2, 20000}, {2, 20000}});
    const RegistryManifest b = image(2, {{1, 10000}, {3, 30000}});
    const RegistryManifest arm = image(3, {{4, 40000}});
    RegistryManifest c;
    c.digest = digest("indexx", 1);
    c.bytes = 300;
    c.isIndex = true;
    c.entries = {RegistryDescriptor{QString(), a.digest, a.bytes, u"linux"_qs, u"amd64"_qs},
                 RegistryDescriptor{QString(), arm.digest, arm.bytes, u"linux"_qs, u"arm64"_qs}};
    m.addManifests({a, b, arm, c});
    m.addTags({{u"team/a"_qs, u"1"_qs, a.digest},
               {u"team/a"_qs, u"latest"_qs, a.digest},
               {u"team/b"_qs, u"1"_qs, b.digest},
               {u"team/c"_qs, u"multi"_qs, c.digest}});
    m.setComplete(true);
    QCOMPARE(a.imageBytes(), 1000 + 10000 + 20000); // blob 2 once
    const ImageSize sa = m.sizeOf(m.rowOf(u"team/a"_qs, u"1"_qs));
    QCOMPARE(sa.total, 500 + 1000 + 10000 + 20000);
    // Blob 1 is b's too, and a's image is c's platform: nothing of team/a is its own.
    QCOMPARE(sa.unique, 0);
    const ImageSize sb = m.sizeOf(m.rowOf(u"team/b"_qs, u"1"_qs));
    QCOMPARE(sb.unique, 500 + 1000 + 30000);
    const ImageSize sc = m.sizeOf(m.rowOf(u"team/c"_qs, u"multi"_qs));
    QCOMPARE(sc.platforms, 2);
    QCOMPARE(sc.unique, 300 + 500 + 1000 + 40000); // the index and its arm64 image
    QCOMPARE(m.tagsOf(u"team/a"_qs, a.digest), (QStringList{u"1"_qs, u"latest"_qs}));
    // Every distinct blob once.
    QCOMPARE(m.totalBytes(), qint64(3 * 500 + 300 + 3 * 1000 + 10000 + 20000 + 30000 + 40000));
    // Deleting a and c together frees what only they share (a's image is c's platform), though
    // neither alone has it as its own; blob 1 stays for b.
    const qint64 both = m.freedBy(
        {ImageSizes::key(u"team/a"_qs, a.digest), ImageSizes::key(u"team/c"_qs, c.digest)});
    QCOMPARE(both, qint64(500 + 1000 + 20000 + 300 + 500 + 1000 + 40000));
    QVERIFY(both > sa.unique + sc.unique);
    QCOMPARE(m.freedBy({ImageSizes::key(u"team/b"_qs, b.digest)}), sb.unique);
    m.removeTags(u"team/b"_qs, {u"1"_qs});
    QCOMPARE(m.rowOf(u"team/b"_qs, u"1"_qs), -1);
    QTRY_VERIFY(!m.sizesPending());
    QCOMPARE(m.sizeOf(m.rowOf(u"team/a"_qs, u"1"_qs)).unique, 0); // still c's
}

void TestImagesModel::seenInPodsBeforeTheRegistryAnswers()
{
    ImagesModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const RegistryManifest a = image(1, {{1, 10000}});
    // The pods (three) run two images; the registry has not answered.
    m.setSeenInPods({{u"ai/pytorch"_qs, u"2.1"_qs, a.digest},
                     {u"ai/tf"_qs, u"2.14"_qs, {}},
                     {u"ai/pytorch"_qs, u"2.1"_qs, {}}});
    QCOMPARE(m.rowCount(), 2);
    const int py = m.rowOf(u"ai/pytorch"_qs, u"2.1"_qs), tf = m.rowOf(u"ai/tf"_qs, u"2.14"_qs);
    QVERIFY(!m.isRead(py));
    QVERIFY(!m.isRead(tf));
    QCOMPARE(m.repositories(), 0); // none read yet
    QCOMPARE(m.unreadRows(), 2);
    QCOMPARE(m.readTags(), 0);
    QCOMPARE(m.tagAt(py).digest, a.digest); // the first pod's
    QCOMPARE(m.index(tf, ImagesModel::Platforms).data().toString(),
             u"not read from the registry"_qs);
    QCOMPARE(m.index(tf, ImagesModel::Size).data().toString(), QString());
    QCOMPARE(m.tagsOf(u"ai/pytorch"_qs, a.digest), QStringList());
    // Neither deleted nor copied: nothing about them is known to the registry client.
    const ImagePlanner planner(m, RegistryEndpoint{u"registry.lab.internal"_qs});
    const OperationPlan del = planner.remove({py, tf}, true);
    QVERIFY(del.steps.isEmpty());
    QCOMPARE(del.refusals.size(), 2);
    QVERIFY2(del.refusals.first().contains(u"ai/pytorch:2.1 is seen in pods but was not read"_qs),
             qPrintable(del.refusals.first()));
    QVERIFY(!planner.copy(py, u"ai/pytorch:keep"_qs).refusals.isEmpty());

    // The registry brings one of them: the same row, read now.
    m.addManifests({a});
    m.addTags({{u"ai/pytorch"_qs, u"2.1"_qs, a.digest}, {u"ai/pytorch"_qs, u"old"_qs, a.digest}});
    QCOMPARE(m.rowCount(), 3);
    QCOMPARE(m.rowOf(u"ai/pytorch"_qs, u"2.1"_qs), py);
    QVERIFY(m.isRead(py));
    QCOMPARE(m.repositories(), 1);
    QCOMPARE(m.index(py, ImagesModel::Platforms).data().toString(), QString());
    QCOMPARE(m.tagsOf(u"ai/pytorch"_qs, a.digest), (QStringList{u"2.1"_qs, u"old"_qs}));
    QCOMPARE(planner.remove({py}, true).steps.size(), 1);
    // Read whole, and still without the other: the registry does not have it.
    m.setComplete(true);
    QCOMPARE(m.index(m.rowOf(u"ai/tf"_qs, u"2.14"_qs), ImagesModel::Platforms).data().toString(),
             u"not in this registry"_qs);
    // Its pod went: its row goes; read rows stay whoever runs them.
    m.setSeenInPods({});
    QCOMPARE(m.rowCount(), 2);
    QCOMPARE(m.rowOf(u"ai/tf"_qs, u"2.14"_qs), -1);
    QVERIFY(m.rowOf(u"ai/pytorch"_qs, u"old"_qs) >= 0);
    QCOMPARE(m.repositories(), 1);
    m.clear();
    QCOMPARE(m.rowCount(), 0);
}

void TestImagesModel::largeOnAWorker()
{
    // Beyond the bound: 30,000 tags, each image with a layer of its own and one shared by all.
    constexpr int n = ImagesModel::kComputeHereUpTo + 10000;
    QList<RegistryManifest> manifests;
    QList<RegistryTag> tags;
    for (int i = 0; i < n; ++i) {
        manifests << image(i, {{0, 7}, {100 + i, 1000 + i}});
        tags << RegistryTag{QStringLiteral("r%1").arg(i), u"v1"_qs, manifests.last().digest};
    }
    ImagesModel m;
    m.addManifests(manifests);
    m.addTags(tags);
    QSignalSpy computed(&m, &ImagesModel::sizesComputed);
    m.setComplete(true);
    QVERIFY(m.sizesPending()); // not here: on a worker
    QVERIFY(computed.wait(60000));
    QVERIFY(!m.sizesPending());
    for (const int i : {0, 1234, n - 1}) {
        const ImageSize s = m.sizeOf(m.rowOf(QStringLiteral("r%1").arg(i), u"v1"_qs));
        QCOMPARE(s.total, qint64(500 + 1000 + 7 + 1000 + i));
        QCOMPARE(s.unique, qint64(500 + 1000 + 1000 + i));
    }

    // Cleared while a worker computes: its result is for tags no longer there, and dropped.
    m.setComplete(true);
    QVERIFY(m.sizesPending());
    m.clear();
    m.addManifests({manifests.first()});
    m.addTags({tags.first()});
    QTRY_VERIFY(!m.sizesPending());
    QCOMPARE(m.rowCount(), 1);
    QCOMPARE(m.sizeOf(0).unique, qint64(500 + 1000 + 7 + 1000)); // alone now: all its own
}

QTEST_MAIN(TestImagesModel)
#include "tst_imagesmodel.moc"
