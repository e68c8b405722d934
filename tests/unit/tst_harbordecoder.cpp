// SPDX-License-Identifier: GPL-3.0-or-later
// Harbor's documents as gpudesk reads them (HarborDecoder) — a GC log in Harbor's own words, its
// zero time as "never", artifacts with null tags and references, error bodies — and the pull
// times gpudesk keeps so that its own reads are not taken for pulls (HarborPullTimes).
#include "harbordecoder.h"
#include "harborpulltimes.h"

#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestHarborDecoder : public QObject
{
    Q_OBJECT
private slots:
    void gcLogInHarborsWords();
    void zeroTimeIsNever();
    void artifactsWithNullsAndJunk();
    void errorsAndSystemInfo();
    void ownReadsAreLeftOut();
};

void TestHarborDecoder::gcLogInHarborsWords()
{
    // Harbor 2.x's job log: rounded units, no exact byte count.
    HarborGcResult r = HarborDecoder::gcLog(
        u"2026-11-26T12:02:25Z [INFO] [/jobservice/job/impl/gc/garbage_collection.go:450]: "
        "12 blobs and 3 manifests eligible for deletion\n"
        "2026-11-26T12:02:26Z [INFO] The GC job actual frees up 1.5 GB space.\n"_qs);
    QCOMPARE(r.blobs, 12);
    QCOMPARE(r.manifests, 3);
    QCOMPARE(r.bytes, qint64(1.5 * double(1ll << 30)));
    // A dry run's sentence; an exact count where the log gives one wins over the rounded one.
    r = HarborDecoder::gcLog(u"The GC could free up 0.24 MB space (250849 bytes), the size is a "
                             "rough estimate."_qs);
    QCOMPARE(r.bytes, qint64(250849));
    QCOMPARE(r.blobs, -1);
    // Nothing said: not known, never 0.
    QCOMPARE(HarborDecoder::gcLog(u"success to run gc in job."_qs).bytes, qint64(-1));
}

void TestHarborDecoder::zeroTimeIsNever()
{
    QVERIFY(!HarborDecoder::time(u"0001-01-01T00:00:00.000Z"_qs).isValid());
    QVERIFY(!HarborDecoder::time(QString()).isValid());
    const QDateTime t = HarborDecoder::time(u"2026-11-26T11:31:44.999Z"_qs);
    QCOMPARE(t.toMSecsSinceEpoch() % 1000, 999);
    QCOMPARE(t.date(), QDate(2026, 11, 26));
}

void TestHarborDecoder::artifactsWithNullsAndJunk()
{
    QString error;
    const QList<HarborArtifact> a = HarborDecoder::artifacts(
        R"([{"digest":"sha256:aa","size":-5,"tags":null,"references":null,
             "push_time":"2026-11-26T11:31:44.999Z","pull_time":"0001-01-01T00:00:00.000Z"},
            {"digest":"md5:zz"}, 7,
            {"digest":"sha256:bb","size":10,"tags":[{"name":"v1","immutable":true},{"name":""}],
             "references":[{"child_digest":"sha256:cc"},{}]}])",
        u"shared/release"_qs, &error);
    QVERIFY(error.isEmpty());
    QCOMPARE(a.size(), 2);
    QCOMPARE(a[0].size, 0);
    QVERIFY(a[0].tags.isEmpty() && !a[0].pulled.isValid() && a[0].pushed.isValid());
    QCOMPARE(a[1].repository, u"shared/release"_qs);
    QCOMPARE(a[1].tags.size(), 1);
    QVERIFY(a[1].immutable());
    QCOMPARE(a[1].platformDigests, QStringList{u"sha256:cc"_qs});
    HarborDecoder::artifacts("{\"not\": \"a list\"}", u"x/y"_qs, &error);
    QVERIFY(!error.isEmpty());
}

void TestHarborDecoder::errorsAndSystemInfo()
{
    QString code;
    QCOMPARE(HarborDecoder::errorMessage(
                 R"({"errors":[{"code":"PRECONDITION","message":"tag v1 is immutable"}]})", &code),
             u"tag v1 is immutable"_qs);
    QCOMPARE(code, u"PRECONDITION"_qs);
    QVERIFY(!HarborDecoder::systemInfo(R"({"registry_url":"x"})"));
    QVERIFY(!HarborDecoder::systemInfo("404 page not found"));
    const auto info =
        HarborDecoder::systemInfo(R"({"harbor_version":"v2.9.1","registry_url":"harbor.lab"})");
    QVERIFY(info);
    QCOMPARE(info->registryUrl, u"harbor.lab"_qs);
    HarborProject p;
    QVERIFY(
        HarborDecoder::summary(R"({"quota":{"hard":{"storage":-1},"used":{"storage":42}}})", &p));
    QCOMPARE(p.quotaHard, -1);
    QCOMPARE(p.quotaUsed, 42);
    QVERIFY(!HarborDecoder::summary(R"({"repo_count":2})", &p));
}

void TestHarborDecoder::ownReadsAreLeftOut()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"cache/registry.json"_qs);
    const QDateTime t0 = QDateTime::currentDateTimeUtc().addDays(-10);
    HarborArtifact pulledLongAgo{u"a/x"_qs, u"sha256:1"_qs, 1, t0, t0.addDays(-30), {}, {}};
    HarborArtifact never{u"a/y"_qs, u"sha256:2"_qs, 1, t0, {}, {}, {}};
    never.tags << HarborTag{u"v1"_qs, t0, {}, false};
    // The first read: nothing known yet; what Harbor says stands, and is kept with the window.
    QList<HarborArtifact> first{pulledLongAgo, never};
    HarborPullTimes(file).resolve(&first);
    QCOMPARE(first[0].pulled, t0.addDays(-30));
    const QDateTime readStart = QDateTime::currentDateTimeUtc().addSecs(-5);
    HarborPullTimes(file).remember(first, readStart, QDateTime::currentDateTimeUtc());
    // Harbor counted the read's GETs as pulls: inside the window, so the kept times stand.
    const QDateTime byUs = readStart.addSecs(2);
    QList<HarborArtifact> second{pulledLongAgo, never};
    second[0].pulled = byUs;
    second[1].pulled = byUs;
    second[1].tags[0].pulled = byUs;
    HarborPullTimes(file).resolve(&second);
    QCOMPARE(second[0].pulled, t0.addDays(-30));
    QVERIFY(!second[1].pulled.isValid());
    QVERIFY(!second[1].tags[0].pulled.isValid());
    // A pull after the window is a real one.
    QList<HarborArtifact> third{pulledLongAgo};
    third[0].pulled = QDateTime::currentDateTimeUtc().addSecs(3600);
    HarborPullTimes(file).resolve(&third);
    QCOMPARE(third[0].pulled.toSecsSinceEpoch(),
             QDateTime::currentDateTimeUtc().addSecs(3600).toSecsSinceEpoch());
}

QTEST_GUILESS_MAIN(TestHarborDecoder)
#include "tst_harbordecoder.moc"
