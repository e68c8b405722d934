// SPDX-License-Identifier: GPL-3.0-or-later
// Image layers scanned for an SSH server (issue 36, an MPI job's workers): archives written by
// GNU tar itself — gzip'd and plain, GNU long names, PAX paths, ustar prefixes —, fed whole and
// a byte at a time; a whiteout and an opaque folder; cut short, not gzip, zstd; and the image
// history's words.
#include "layerscan.h"
#include "sshdprobe.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

namespace {

const QStringList kPaths{QStringLiteral("usr/sbin/sshd"), QStringLiteral("usr/sbin/dropbear")};

// `files` made under a fresh folder, archived by GNU tar with `options`.
QByteArray tarOf(const QStringList &files, const QStringList &options)
{
    QTemporaryDir dir;
    for (const QString &f : files) {
        QDir(dir.path()).mkpath(QFileInfo(dir.filePath(f)).path());
        QFile file(dir.filePath(f));
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(QByteArray(700, 'x')); // more than a block: its data must be skipped right
    }
    QProcess tar;
    tar.start(QStringLiteral("tar"),
              options + QStringList{QStringLiteral("-cf"), QStringLiteral("-"),
                                    QStringLiteral("-C"), dir.path(), QStringLiteral(".")});
    if (!tar.waitForFinished(30000) || tar.exitCode() != 0)
        return {};
    return tar.readAllStandardOutput();
}

LayerScan::Hit scan(const QByteArray &layer, int chunk = 0, QString *path = nullptr,
                    QString *error = nullptr)
{
    LayerScan s(kPaths);
    if (chunk <= 0) {
        s.feed(layer);
    } else {
        for (qsizetype i = 0; i < layer.size(); i += chunk)
            if (!s.feed(layer.constData() + i, qMin<qsizetype>(chunk, layer.size() - i)))
                break;
    }
    s.finish();
    if (path)
        *path = s.path();
    if (error)
        *error = s.error();
    return s.hit();
}

} // namespace

class TestLayerScan : public QObject
{
    Q_OBJECT
private slots:
    void found_data();
    void found();
    void notThere();
    void whiteouts();
    void gzipMembers();
    void broken();
    void tarNumbers();
    void history();
};

void TestLayerScan::found_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("chunk");
    for (const auto &[name, options] : std::initializer_list<std::pair<const char *, QStringList>>{
             {"gzip, gnu", {QStringLiteral("-z"), QStringLiteral("--format=gnu")}},
             {"plain, gnu", {QStringLiteral("--format=gnu")}},
             {"gzip, pax", {QStringLiteral("-z"), QStringLiteral("--format=posix")}},
             {"gzip, ustar", {QStringLiteral("-z"), QStringLiteral("--format=ustar")}},
             // GNU's incremental headers keep times where ustar keeps a name's prefix.
             {"gzip, gnu incremental",
              {QStringLiteral("-z"), QStringLiteral("--format=gnu"), QStringLiteral("-G")}}})
        for (int chunk : {0, 1, 7, 4096})
            QTest::addRow("%s, chunks of %d", name, chunk) << options << chunk;
}

// sshd among other files, after names longer than a header holds (a GNU long name, a PAX
// path, a ustar prefix, as the format writes it).
void TestLayerScan::found()
{
    QFETCH(QStringList, options);
    QFETCH(int, chunk);
    const QString longDir = QString(70, u'a') + u'/' + QString(70, u'b');
    const QByteArray layer =
        tarOf({longDir + QStringLiteral("/model.py"), QStringLiteral("etc/ssh/sshd_config"),
               QStringLiteral("usr/sbin/sshd"), QStringLiteral("usr/bin/ssh")},
              options);
    QVERIFY(!layer.isEmpty());
    QString path, error;
    QCOMPARE(scan(layer, chunk, &path, &error), LayerScan::Hit::Found);
    QCOMPARE(path, QStringLiteral("usr/sbin/sshd"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestLayerScan::notThere()
{
    // sshd_config and a folder named sshd are not the server.
    const QByteArray layer =
        tarOf({QStringLiteral("etc/ssh/sshd_config"), QStringLiteral("usr/share/sshd/README"),
               QString(120, u'c') + QStringLiteral("/usr/sbin/sshd")},
              {QStringLiteral("-z")});
    QString error;
    QCOMPARE(scan(layer, 0, nullptr, &error), LayerScan::Hit::None);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    LayerScan s(kPaths);
    s.feed(layer);
    s.finish();
    QCOMPARE(s.entries(), 12); // ., etc, etc/ssh, the config, usr, …: every header read
}

void TestLayerScan::whiteouts()
{
    QString path;
    QCOMPARE(scan(tarOf({QStringLiteral("usr/sbin/.wh.sshd")}, {QStringLiteral("-z")}), 0, &path),
             LayerScan::Hit::Removed);
    QCOMPARE(path, QStringLiteral("usr/sbin/sshd"));
    QCOMPARE(scan(tarOf({QStringLiteral("usr/.wh.sbin")}, {QStringLiteral("-z")})),
             LayerScan::Hit::Removed);
    QCOMPARE(scan(tarOf({QStringLiteral("usr/sbin/.wh..wh..opq")}, {QStringLiteral("-z")})),
             LayerScan::Hit::Removed);
    // An opaque folder that gets the server again in the same layer has it.
    QCOMPARE(scan(tarOf({QStringLiteral("usr/sbin/.wh..wh..opq"), QStringLiteral("usr/sbin/sshd")},
                        {QStringLiteral("-z")})),
             LayerScan::Hit::Found);
    // Another file's whiteout removes nothing of it.
    QCOMPARE(scan(tarOf({QStringLiteral("usr/sbin/.wh.sshd-keygen")}, {QStringLiteral("-z")})),
             LayerScan::Hit::None);
    // Dropbear purged: that path removed, not sshd's (which a lower layer may still add).
    LayerScan purged(kPaths);
    purged.feed(tarOf({QStringLiteral("usr/sbin/.wh.dropbear")}, {QStringLiteral("-z")}));
    purged.finish();
    QCOMPARE(purged.hit(), LayerScan::Hit::Removed);
    QCOMPARE(purged.removed(), QStringList{QStringLiteral("usr/sbin/dropbear")});
    // Both paths' folder hidden: both removed.
    LayerScan hidden(kPaths);
    hidden.feed(tarOf({QStringLiteral("usr/sbin/.wh..wh..opq")}, {QStringLiteral("-z")}));
    hidden.finish();
    QCOMPARE(hidden.removed(), kPaths);
}

// Gzip members one after another (eStargz writes one per file), then zeros as padding: read as
// one stream. sshd lies past the first member's end.
void TestLayerScan::gzipMembers()
{
    const QByteArray plain = tarOf({QStringLiteral("a/first.bin"), QStringLiteral("b/second.bin"),
                                    QStringLiteral("usr/sbin/sshd")},
                                   {QStringLiteral("--format=gnu")});
    QVERIFY(plain.size() > 4 * 512);
    const auto gzip = [](const QByteArray &bytes) {
        QProcess p;
        p.start(QStringLiteral("gzip"), {QStringLiteral("-c")});
        p.write(bytes);
        p.closeWriteChannel();
        p.waitForFinished(30000);
        return p.readAllStandardOutput();
    };
    const QByteArray members = gzip(plain.left(3 * 512)) + gzip(plain.mid(3 * 512, 1000)) +
                               gzip(plain.mid(3 * 512 + 1000)) + QByteArray(100, '\0');
    QString path, error;
    for (int chunk : {0, 1, 333}) {
        QCOMPARE(scan(members, chunk, &path, &error), LayerScan::Hit::Found);
        QCOMPARE(path, QStringLiteral("usr/sbin/sshd"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    // Without sshd, the members read to the end make a whole layer.
    const QByteArray none = tarOf({QStringLiteral("a/first.bin"), QStringLiteral("b/second.bin")},
                                  {QStringLiteral("--format=gnu")});
    QCOMPARE(scan(gzip(none.left(1024)) + gzip(none.mid(1024)), 0, nullptr, &error),
             LayerScan::Hit::None);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // A plain archive cut at an entry's end is still cut short: its end blocks never came.
    QCOMPARE(scan(none.left(3 * 512), 0, nullptr, &error), LayerScan::Hit::None);
    QVERIFY2(error.contains(QLatin1String("ended in the middle")), qPrintable(error));
}

void TestLayerScan::broken()
{
    const QByteArray whole = tarOf({QString(2000, u'x').left(90) + QStringLiteral("/data.bin"),
                                    QStringLiteral("usr/lib/x.so")},
                                   {QStringLiteral("-z")});
    QString error;
    QCOMPARE(scan(whole.left(whole.size() / 2), 0, nullptr, &error), LayerScan::Hit::None);
    QVERIFY2(error.contains(QLatin1String("ended in the middle")), qPrintable(error));
    QByteArray garbled = whole;
    for (qsizetype i = 20; i < garbled.size() - 20; i += 3)
        garbled[i] = char(garbled[i] ^ 0x5a);
    QCOMPARE(scan(garbled, 0, nullptr, &error), LayerScan::Hit::None);
    QVERIFY2(error.contains(QLatin1String("gzip")), qPrintable(error));
    QCOMPARE(scan(QByteArray(2048, 'A'), 0, nullptr, &error), LayerScan::Hit::None);
    QVERIFY2(error.contains(QLatin1String("not a tar archive")), qPrintable(error));
    QCOMPARE(scan(QByteArray("\x28\xb5\x2f\xfd rest of a zstd frame"), 0, nullptr, &error),
             LayerScan::Hit::None);
    QVERIFY2(error.contains(QLatin1String("zstd")), qPrintable(error));
    QCOMPARE(scan(QByteArray("\x1f"), 0, nullptr, &error), LayerScan::Hit::None);
    QVERIFY2(!error.isEmpty(), "a layer of one byte");
}

void TestLayerScan::tarNumbers()
{
    QCOMPARE(LayerScan::tarNumber("00000001274\0", 12), 700);
    QCOMPARE(LayerScan::tarNumber("     1274 \0\0", 12), 700);
    QCOMPARE(LayerScan::tarNumber("0000000127x\0", 12), -1);
    QCOMPARE(LayerScan::tarNumber("\0\0\0\0\0\0\0\0\0\0\0\0", 12), 0); // as GNU tar reads it
    // GNU's base-256: 16 GiB.
    const char big[12] = {char(0x80), 0, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0};
    QCOMPARE(LayerScan::tarNumber(big, 12), 16LL << 30);
}

void TestLayerScan::history()
{
    const QByteArray config =
        R"({"history":[{"created_by":"/bin/sh -c #(nop) ADD file:abc in / "},
        {"created_by":"RUN /bin/sh -c apt-get update && apt-get install -y openssh-server # buildkit"},
        {"created_by":"/bin/sh -c #(nop)  CMD [\"/usr/sbin/sshd\",\"-D\"]"},
        {"created_by":"RUN pip install torch", "empty_layer": false}]})";
    const QStringList found = SshdProbe::sshInHistory(config);
    QCOMPARE(found.size(), 2);
    QVERIFY(found[0].contains(QLatin1String("openssh-server")));
    QVERIFY(SshdProbe::sshInHistory(R"({"history":[{"created_by":"RUN pip install sshtunnel"}]})")
                .isEmpty());
    QVERIFY(SshdProbe::sshInHistory("not json").isEmpty());
}

QTEST_GUILESS_MAIN(TestLayerScan)
#include "tst_layerscan.moc"
