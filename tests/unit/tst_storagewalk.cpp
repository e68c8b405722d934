// SPDX-License-Identifier: GPL-3.0-or-later
// The NAS walk's reader (issue 38) on what `find -printf '%y %s %b %T@ %A@ %n %i %P\0'` prints,
// fed whole and in every chunking: sums per folder, the largest parts and files, core dumps, what
// was written in the day, a file of several names (hard links) counted once; names with newlines,
// spaces and `$(...)` as data; lines that are not records (short, not numbers, absolute, climbing
// out with ..) and one longer than any path left out and said; find's complaints in words. The
// commands' quoting, the history's growth and the alerts' thresholds.
#include "format.h"
#include "storagealerts.h"
#include "storagecommands.h"
#include "storagehistory.h"
#include "storagejson.h"
#include "storageservice.h"
#include "storagewalk.h"

#include <QJsonDocument>
#include <QTest>

using namespace gpudesk;

namespace {

constexpr qint64 Now = 1'790'000'000'000; // ms
constexpr qint64 Day = 24 * 3600 * 1000;

// `inode` 0: one of its own.
QByteArray rec(char type, qint64 size, qint64 blocks, qint64 mtimeMs, const QByteArray &path,
               int links = 1, quint64 inode = 0)
{
    static quint64 next = 1000;
    const QByteArray t = QByteArray::number(mtimeMs / 1000) + '.' +
                         QByteArray::number(mtimeMs % 1000).rightJustified(3, '0') + "0000000";
    return QByteArray(1, type) + ' ' + QByteArray::number(size) + ' ' + QByteArray::number(blocks) +
           ' ' + t + ' ' + t + ' ' + QByteArray::number(links) + ' ' +
           QByteArray::number(inode ? inode : ++next) + ' ' + path + '\0';
}

QByteArray sample()
{
    QByteArray out;
    out += rec('d', 4096, 8, Now - 3 * Day, "alice");
    out += rec('d', 4096, 8, Now - 3 * Day, "alice/checkpoints");
    out += rec('f', 8LL << 30, 16, Now - 2 * 3600 * 1000, "alice/checkpoints/step-9000.pt");
    out += rec('f', 4LL << 30, 8388608, Now - 3 * Day, "alice/checkpoints/step-8000.pt");
    out += rec('d', 4096, 8, Now - 10 * Day, "alice/code");
    out += rec('f', 1200, 8, Now - 10 * Day, "alice/code/train.py");
    out += rec('l', 11, 0, Now - 10 * Day, "alice/code/latest");
    out += rec('f', 2LL << 30, 8, Now - 40 * Day, "alice/core.4242");
    out += rec('d', 4096, 8, Now - 100 * Day, "frank");
    out += rec('f', 10, 8, Now - 100 * Day, "frank/notes\nold.txt");
    out += rec('f', 20, 8, Now - 100 * Day, "frank/$(reboot).txt");
    out += rec('f', 30, 8, Now - 100 * Day, "frank/with space");
    out += rec('l', 1, 0, Now - 100 * Day, "frank/loop");
    out += rec('d', 4096, 8, Now - 100 * Day, "frank/private");
    return out;
}

StorageRootMeasure walk(const QByteArray &bytes, int chunk = 0)
{
    StorageWalk w(QStringLiteral("/mnt/user/"), QStringLiteral("user"), Now);
    if (chunk <= 0)
        w.feed(bytes);
    else
        for (qsizetype i = 0; i < bytes.size(); i += chunk)
            w.feed(bytes.mid(i, chunk));
    return w.finish(true);
}

} // namespace

class TestStorageWalk : public QObject
{
    Q_OBJECT
private slots:
    void sums();
    void chunking_data();
    void chunking();
    void hostileNames();
    void hardLinks();
    void notRecords_data();
    void notRecords();
    void overlongRecord();
    void largestKept();
    void complaints();
    void commands();
    void history();
    void alerts();
    void boundedParts();
    void jobOutputs();
    void percentAsDf();
    void shortWalkKeepsFigures();
    void shellWords();
};

void TestStorageWalk::sums()
{
    const StorageRootMeasure m = walk(sample());
    QCOMPARE(m.root, QStringLiteral("/mnt/user"));
    QCOMPARE(m.entries, 14);
    QCOMPARE(m.folders.size(), 2);
    const StorageFolder &a = m.folders[0]; // biggest first
    QCOMPARE(a.path, QStringLiteral("/mnt/user/alice"));
    QCOMPARE(a.owner, QStringLiteral("alice"));
    QCOMPARE(a.kind, QStringLiteral("user"));
    QCOMPARE(a.bytes, 4096 * 3 + (8LL << 30) + (4LL << 30) + 1200 + 11 + (2LL << 30));
    QCOMPARE(a.allocated, (8 + 8 + 16 + 8388608 + 8 + 8 + 0 + 8) * 512LL);
    QCOMPARE(a.files, 5); // two checkpoints, train.py, the link, the core dump
    QCOMPARE(a.dirs, 2);
    QCOMPARE(a.lastChange, Now - 2 * 3600 * 1000);
    QCOMPARE(a.changedDay, 8LL << 30);                  // only step-9000 is that new
    QCOMPARE(a.changedWeek, (8LL << 30) + (4LL << 30)); // and step-8000 this week
    QCOMPARE(a.largest.size(), 3);
    QCOMPARE(a.largest[0].name, QStringLiteral("checkpoints"));
    QCOMPARE(a.largest[0].bytes, 4096 + (8LL << 30) + (4LL << 30));
    QCOMPARE(a.largest[1].name, QStringLiteral("core.4242"));
    QCOMPARE(a.largestFiles.size(), 4); // regular files only: not the link
    QCOMPARE(a.largestFiles[0].path, QStringLiteral("/mnt/user/alice/checkpoints/step-9000.pt"));
    QCOMPARE(a.largestFiles[0].allocated, 16 * 512); // sparse
    QCOMPARE(a.coreDumps.size(), 1);
    QCOMPARE(a.coreDumps[0].path, QStringLiteral("/mnt/user/alice/core.4242"));
    QCOMPARE(a.coreDumps[0].modified, Now - 40 * Day);
    QVERIFY(a.staleFiles.isEmpty());            // 40 days is not stale; 90 is
    QVERIFY(m.folders[1].staleFiles.isEmpty()); // frank's: 100 days old, but small
    QVERIFY(m.problems.isEmpty());
}

void TestStorageWalk::chunking_data()
{
    QTest::addColumn<int>("chunk");
    for (int c : {1, 2, 3, 7, 64, 1000})
        QTest::addRow("%d bytes", c) << c;
}

void TestStorageWalk::chunking()
{
    QFETCH(int, chunk);
    const StorageRootMeasure whole = walk(sample());
    const StorageRootMeasure pieces = walk(sample(), chunk);
    QCOMPARE(pieces.entries, whole.entries);
    QCOMPARE(pieces.folders.size(), whole.folders.size());
    for (int i = 0; i < whole.folders.size(); ++i) {
        QCOMPARE(pieces.folders[i].bytes, whole.folders[i].bytes);
        QCOMPARE(pieces.folders[i].files, whole.folders[i].files);
        QCOMPARE(pieces.folders[i].largestFiles.size(), whole.folders[i].largestFiles.size());
    }
}

void TestStorageWalk::hostileNames()
{
    const StorageRootMeasure m = walk(sample(), 5);
    const StorageFolder &f = m.folders[1];
    QCOMPARE(f.owner, QStringLiteral("frank"));
    QCOMPARE(f.files, 4);
    QStringList paths;
    for (const StorageFile &file : f.largestFiles)
        paths << file.path;
    QVERIFY2(paths.contains(QStringLiteral("/mnt/user/frank/notes\nold.txt")),
             qPrintable(paths.join(u'|')));
    QVERIFY(paths.contains(QStringLiteral("/mnt/user/frank/$(reboot).txt")));
    QVERIFY(paths.contains(QStringLiteral("/mnt/user/frank/with space")));
}

// A checkpoint also named latest.pt (ln), and linked into bob's folder too: its bytes once in
// alice's folder (as du -sb of it), once in bob's, once in the root; each name a file.
void TestStorageWalk::hardLinks()
{
    constexpr quint64 Inode = 77;
    QByteArray out;
    out += rec('d', 4096, 8, Now - Day, "alice", 3);
    out += rec('d', 4096, 8, Now - Day, "alice/ckpt", 2);
    out += rec('f', 8LL << 30, 16, Now - 3600 * 1000, "alice/ckpt/step-6000.pt", 3, Inode);
    out += rec('f', 8LL << 30, 16, Now - 3600 * 1000, "alice/ckpt/latest.pt", 3, Inode);
    out += rec('f', 100, 8, Now - 2 * Day, "alice/ckpt/notes.txt");
    out += rec('d', 4096, 8, Now - Day, "bob", 2);
    out += rec('f', 8LL << 30, 16, Now - 3600 * 1000, "bob/from-alice.pt", 3, Inode);
    StorageWalk w(QStringLiteral("/mnt/user"), QStringLiteral("user"), Now);
    w.feed(out);
    QCOMPARE(w.bytesSoFar(), 3 * 4096 + (8LL << 30) + 100);
    const StorageRootMeasure m = w.finish(true);
    QCOMPARE(m.entries, 7); // every name is an entry
    QCOMPARE(m.folders.size(), 2);
    const StorageFolder &a = m.folders[0];
    QCOMPARE(a.owner, QStringLiteral("alice"));
    QCOMPARE(a.bytes, 2 * 4096 + (8LL << 30) + 100);
    QCOMPARE(a.allocated, (8 + 8 + 16 + 8) * 512LL);
    QCOMPARE(a.files, 3);
    QCOMPARE(a.changedDay, 8LL << 30);
    QCOMPARE(a.largest[0].bytes, 4096 + (8LL << 30) + 100);
    QCOMPARE(a.largestFiles.size(), 2); // the checkpoint under its first name, and the notes
    QCOMPARE(a.largestFiles[0].path, QStringLiteral("/mnt/user/alice/ckpt/step-6000.pt"));
    const StorageFolder &b = m.folders[1];
    QCOMPARE(b.owner, QStringLiteral("bob"));
    QCOMPARE(b.bytes, 4096 + (8LL << 30));
    QCOMPARE(b.files, 1);
}

void TestStorageWalk::notRecords_data()
{
    QTest::addColumn<QByteArray>("line");
    // QByteArray, not the string builder (which would hold the temporary).
    const auto line = [](const char *text) -> QByteArray { return QByteArray(text) + '\0'; };
    QTest::newRow("empty") << line("");
    QTest::newRow("no fields") << line("f");
    QTest::newRow("size not a number") << line("f x 8 1.0 1.0 1 7 alice/a");
    QTest::newRow("negative size") << line("f -5 8 1.0 1.0 1 7 alice/a");
    QTest::newRow("no path") << line("f 5 8 1.0 1.0 1 7 ");
    QTest::newRow("time not a number") << line("f 5 8 x 1.0 1 7 alice/a");
    QTest::newRow("links not a number") << line("f 5 8 1.0 1.0 x 7 alice/a");
    QTest::newRow("negative inode") << line("f 5 8 1.0 1.0 2 -7 alice/a");
    QTest::newRow("the old format") << line("f 5 8 1.0 1.0 alice/a");
    QTest::newRow("absolute path") << line("f 5 8 1.0 1.0 1 7 /etc/passwd");
    QTest::newRow("climbs out") << line("f 5 8 1.0 1.0 1 7 alice/../../etc");
    QTest::newRow("a warning on stdout") << QByteArray("find: warning: something\0", 25);
}

void TestStorageWalk::notRecords()
{
    QFETCH(QByteArray, line);
    const StorageRootMeasure m = walk(line + sample() + line);
    QCOMPARE(m.entries, 14); // the good records all counted, the bad ones not
    QCOMPARE(m.folders.size(), 2);
    QCOMPARE(m.folders[0].owner, QStringLiteral("alice"));
    QCOMPARE(m.problems.size(), 1);
    QCOMPARE(m.problems[0].kind, StorageProblem::NotRecords);
    QCOMPARE(m.problems[0].count, 2);
    const QString said = StorageAlerts::describe(m).join(u'\n');
    QVERIFY2(said.contains(QLatin1String("2 line(s) that are not records")) &&
                 said.contains(QLatin1String("/mnt/user")),
             qPrintable(said));
}

void TestStorageWalk::overlongRecord()
{
    QByteArray junk(StorageWalk::MaxRecord + 10, 'x');
    junk += '\0';
    const StorageRootMeasure m = walk(sample() + junk + sample(), 4000);
    QCOMPARE(m.entries, 28);
    QCOMPARE(m.folders[0].files, 10);
    QCOMPARE(m.problems.size(), 1);
}

void TestStorageWalk::largestKept()
{
    {
        // Stale: 1 GiB and more, neither read nor changed for 90 days.
        QByteArray out = rec('d', 4096, 8, Now, "carol");
        out += rec('f', 5LL << 30, 8, Now - 200 * Day, "carol/old-dataset.tar");
        out += rec('f', 1LL << 30, 8, Now - 91 * Day, "carol/just-old-enough.bin");
        out += rec('f', (1LL << 30) - 1, 8, Now - 300 * Day, "carol/too-small.bin");
        out += rec('f', 7LL << 30, 8, Now - 89 * Day, "carol/not-old-enough.bin");
        const StorageFolder f = walk(out).folders.constFirst();
        QCOMPARE(f.staleFiles.size(), 2);
        QCOMPARE(f.staleFiles[0].path, QStringLiteral("/mnt/user/carol/old-dataset.tar"));
        QCOMPARE(f.staleFiles[1].path, QStringLiteral("/mnt/user/carol/just-old-enough.bin"));
    }
    QByteArray out = rec('d', 4096, 8, Now, "bob");
    for (int i = 1; i <= 50; ++i)
        out += rec('f', (i * 37) % 50 * 1000 + i, 8, Now, "bob/f" + QByteArray::number(i));
    const StorageFolder f = walk(out, 9).folders.constFirst();
    QCOMPARE(f.largestFiles.size(), StorageFolder::MaxFiles);
    QCOMPARE(f.largest.size(), StorageFolder::MaxParts);
    for (int i = 1; i < f.largestFiles.size(); ++i)
        QVERIFY(f.largestFiles[i - 1].bytes >= f.largestFiles[i].bytes);
    QCOMPARE(f.largestFiles[0].bytes, 49 * 1000 + 27); // 27 * 37 % 50 == 49
}

void TestStorageWalk::complaints()
{
    StorageWalk w(QStringLiteral("/mnt/user"), QStringLiteral("user"), Now);
    w.feed(sample());
    w.addErrors("find: '/mnt/user/frank/private': Permission denied\n"
                "find: '/mnt/user/gone': No such file or directory\n");
    const StorageRootMeasure m = w.finish(true);
    QCOMPARE(m.problems.size(), 2);
    QCOMPARE(m.problems[0].kind, StorageProblem::Unreadable);
    QCOMPARE(m.problems[0].path, QStringLiteral("/mnt/user/frank/private"));
    QCOMPARE(m.problems[1].kind, StorageProblem::Complaint);
    const QStringList said = StorageAlerts::describe(m);
    QVERIFY(said[0].startsWith(QLatin1String("/mnt/user/frank/private could not be read")));
    QCOMPARE(said[1], QStringLiteral("find: '/mnt/user/gone': No such file or directory"));
    // Past MaxProblems: counted, not kept.
    StorageWalk flood(QStringLiteral("/mnt/user"), QStringLiteral("user"), Now);
    QByteArray lines;
    for (int i = 0; i < 500; ++i)
        lines += "find: '/mnt/user/x" + QByteArray::number(i) + "': Permission denied\n";
    flood.addErrors(lines);
    const StorageRootMeasure f = flood.finish(true);
    QCOMPARE(f.problems.size(), 51);
    QCOMPARE(f.problems.constLast().kind, StorageProblem::More);
    QCOMPARE(f.problems.constLast().count, 450);
}

void TestStorageWalk::commands()
{
    QCOMPARE(nodecmd::storageWalkCommand(QStringLiteral("/mnt/user")),
             QByteArray("nice -n 19 ionice -c 3 find -P '/mnt/user' -xdev -mindepth 1 -printf "
                        "'%y %s %b %T@ %A@ %n %i %P\\0'"));
    for (const char *bad : {"mnt/user", "/mnt/$(reboot)", "/mnt/../etc", "/", "/mnt/a b",
                            "/mnt/a'b", "/mnt/a\nb", ""})
        QVERIFY2(nodecmd::storageWalkCommand(QString::fromUtf8(bad)).isEmpty(), bad);
    QString why;
    QVERIFY(!nodecmd::validStorageRoot(QStringLiteral("/mnt/../etc"), &why));
    QVERIFY(why.contains(QLatin1String("..")));
    QCOMPARE(nodecmd::storageDfCommand({QStringLiteral("/mnt/user"), QStringLiteral("bad root"),
                                        QStringLiteral("/mnt/share")}),
             QByteArray("df -P -k '/mnt/user' '/mnt/share'"));
}

void TestStorageWalk::history()
{
    StorageHistory h;
    auto measure = [](qint64 at, qint64 bytes, bool complete = true) {
        StorageRootMeasure m;
        m.root = QStringLiteral("/mnt/user");
        m.measuredAt = at;
        m.complete = complete;
        StorageFolder f;
        f.path = QStringLiteral("/mnt/user/alice");
        f.bytes = bytes;
        m.folders = {f};
        return m;
    };
    const QString alice = QStringLiteral("/mnt/user/alice");
    h.record(measure(Now - 8 * Day, 100));
    h.record(measure(Now - Day - 3600 * 1000, 400));
    h.record(measure(Now - 3600 * 1000 / 2, 999, false)); // cut short: not a point
    QCOMPARE(h.points(alice).size(), 2);
    QCOMPARE(h.growth(alice, 1000, Now, StorageHistory::DayMs), 600);
    QCOMPARE(h.growth(alice, 1000, Now, 7 * StorageHistory::DayMs), 900);
    QCOMPARE(h.growth(alice, 1000, Now, 30 * StorageHistory::DayMs), std::nullopt);
    QCOMPARE(h.growth(QStringLiteral("/mnt/user/nobody"), 1, Now, StorageHistory::DayMs),
             std::nullopt);
    QCOMPARE(h.growth(QStringLiteral("/mnt/user"), 1000, Now, StorageHistory::DayMs), 600);
    // Walks again and again within the hour: the first and the last of them are kept.
    for (int i = 0; i < 10; ++i)
        h.record(measure(Now + i * 60 * 1000, 1000 + i));
    QCOMPARE(h.points(alice).size(), 4);
    QCOMPARE(h.points(alice).constLast().bytes, 1009);
    // Kept 90 days, and through JSON.
    h.record(measure(Now + 91 * Day, 5));
    QCOMPARE(h.points(alice).size(), 1);
    const StorageHistory back = StorageHistory::fromJson(h.toJson());
    QCOMPARE(back.points(alice).size(), 1);
    QCOMPARE(back.points(alice).constFirst().at, Now + 91 * Day);
    QCOMPARE(back.points(alice).constFirst().bytes, 5);
}

void TestStorageWalk::alerts()
{
    StorageRootMeasure m;
    m.root = QStringLiteral("/mnt/share");
    m.capacityBytes = 100LL << 40;
    m.usedBytes = 93LL << 40;
    m.freeBytes = 7LL << 40;
    m.measuredAt = Now;
    m.complete = true;
    StorageFolder big;
    big.path = QStringLiteral("/mnt/share/nlp");
    big.owner = QStringLiteral("nlp");
    big.kind = QStringLiteral("group");
    big.bytes = 30LL << 40;
    big.changedDay = 600LL << 30;
    StorageFolder small = big;
    small.path = QStringLiteral("/mnt/share/cv");
    small.bytes = 1LL << 30;
    small.changedDay = 0;
    m.folders = {big, small};
    AlertRules rules;
    QList<Problem> p = StorageAlerts::now({m}, {}, rules);
    QStringList keys;
    for (const Problem &x : p)
        keys << x.key;
    keys.sort();
    QCOMPARE(keys, (QStringList{QStringLiteral("storage:growth:/mnt/share/nlp"),
                                QStringLiteral("storage:root:/mnt/share"),
                                QStringLiteral("storage:size:/mnt/share/nlp")}));
    const auto root = std::find_if(p.cbegin(), p.cend(), [](const Problem &x) {
        return x.key.startsWith(QLatin1String("storage:root"));
    });
    QCOMPARE(root->severity, Problem::Critical);
    QVERIFY2(root->text.contains(QLatin1String("93 %")), qPrintable(root->text));
    rules.diskCriticalPercent = 95;
    rules.storageFolderGiB = 40 * 1024;
    rules.storageDayGiB = 1024;
    p = StorageAlerts::now({m}, {}, rules);
    QCOMPARE(p.size(), 1);
    QCOMPARE(p[0].severity, Problem::Warning);
    rules.disabled.insert(QStringLiteral("storage"));
    QVERIFY(StorageAlerts::now({m}, {}, rules).isEmpty());
}

void TestStorageWalk::boundedParts()
{
    // Millions of files flat in one folder cost one sum past MaxPartsTracked names, not a map
    // entry each.
    QByteArray out = rec('d', 4096, 8, Now, "flat");
    const int n = int(StorageWalk::MaxPartsTracked) + 500;
    for (int i = 0; i < n; ++i)
        out += rec('f', 10, 8, Now, "flat/f" + QByteArray::number(i));
    StorageWalk w(QStringLiteral("/mnt/user"), QStringLiteral("user"), Now);
    w.feed(out);
    const StorageFolder f = w.finish(true).folders.constFirst();
    QCOMPARE(f.files, n);
    QCOMPARE(f.bytes, 4096 + 10LL * n);
    QCOMPARE(f.largest.constFirst().name, QStringLiteral("…"));
    QCOMPARE(f.largest.constFirst().bytes, 10 * 500);

    // Job folders too: past MaxJobOutputsTracked in a folder, a new one is not told apart (never
    // offered, however big), those tracked go on being summed.
    QByteArray jobs = rec('d', 4096, 8, Now, "many");
    for (int i = 0; i < int(StorageWalk::MaxJobOutputsTracked); ++i)
        jobs += rec('f', 10, 8, Now, "many/checkpoints/job" + QByteArray::number(i) + "/a.pt");
    jobs += rec('f', 1LL << 40, 8, Now, "many/checkpoints/huge/a.pt");
    jobs += rec('f', 1LL << 30, 8, Now, "many/checkpoints/job7/b.pt");
    StorageWalk j(QStringLiteral("/mnt/user"), QStringLiteral("user"), Now);
    j.feed(jobs);
    const StorageFolder many = j.finish(true).folders.constFirst();
    QCOMPARE(many.jobOutputs.size(), StorageFolder::MaxJobOutputs);
    QCOMPARE(many.jobOutputs.constFirst().job, u"job7"_qs);
    QCOMPARE(many.jobOutputs.constFirst().bytes, 10 + (1LL << 30));
    // And past MaxJobOutputsInWalk in the whole walk: the 49th user's last ones not tracked.
    StorageWalk all(QStringLiteral("/mnt/user"), QStringLiteral("user"), Now);
    const int users = int(StorageWalk::MaxJobOutputsInWalk / StorageWalk::MaxJobOutputsTracked) + 1;
    for (int u = 0; u < users; ++u) {
        QByteArray records;
        const QByteArray user = "u" + QByteArray::number(u).rightJustified(2, '0');
        for (int i = 0; i < int(StorageWalk::MaxJobOutputsTracked); ++i)
            records += rec('f', i == 4000 ? 1LL << 30 : 10, 8, Now,
                           user + "/checkpoints/j" + QByteArray::number(i) + "/a.pt");
        all.feed(records);
    }
    const StorageRootMeasure walked = all.finish(true);
    for (const StorageFolder &f : walked.folders)
        QCOMPARE(f.jobOutputs.constFirst().job == u"j4000"_qs, f.owner != u"u48"_qs);
}

void TestStorageWalk::jobOutputs()
{
    // Each folder below checkpoints/ or outputs/ is one job's, summed as du sums it; a file
    // right in checkpoints/ is no job's, a folder below code/ neither; a hard link counted once.
    QByteArray out = rec('d', 4096, 8, Now - 90 * Day, "alice");
    out += rec('d', 4096, 8, Now - 90 * Day, "alice/checkpoints");
    out += rec('f', 100, 8, Now - 90 * Day, "alice/checkpoints/best.pt");
    out += rec('d', 4096, 8, Now - 60 * Day, "alice/checkpoints/bert");
    out += rec('f', 1000, 8, Now - 70 * Day, "alice/checkpoints/bert/step-1.pt", 2, 77);
    out += rec('f', 1000, 8, Now - 60 * Day, "alice/checkpoints/bert/latest.pt", 2, 77);
    out += rec('d', 4096, 8, Now - 50 * Day, "alice/checkpoints/bert/eval");
    out += rec('f', 30, 8, Now - 50 * Day, "alice/checkpoints/bert/eval/a b\n.json");
    out += rec('d', 4096, 8, Now - 5 * Day, "alice/outputs");
    out += rec('d', 4096, 8, Now - 5 * Day, "alice/outputs/vit");
    out += rec('f', 7, 8, Now - 5 * Day, "alice/outputs/vit/train.log");
    out += rec('d', 4096, 8, Now - 5 * Day, "alice/code");
    out += rec('d', 4096, 8, Now - 5 * Day, "alice/code/proj");
    StorageWalk w(QStringLiteral("/mnt/user"), QStringLiteral("user"), Now);
    w.feed(out);
    const StorageRootMeasure walked = w.finish(true);
    const StorageFolder f = walked.folders.constFirst();
    QCOMPARE(f.jobOutputs.size(), 2);
    const StorageJobOutput &bert = f.jobOutputs[0];
    QCOMPARE(bert.path, u"/mnt/user/alice/checkpoints/bert"_qs);
    QCOMPARE(bert.job, u"bert"_qs);
    QCOMPARE(bert.bytes, 4096 + 1000 + 4096 + 30);
    QCOMPARE(bert.files, 2);
    QCOMPARE(bert.allocated, 4 * 8 * 512);
    QCOMPARE(bert.lastChange, Now - 50 * Day);
    QCOMPARE(bert.lastRead, Now - 50 * Day); // its files' newest atime (the folders' not)
    QCOMPARE(f.jobOutputs[1].path, u"/mnt/user/alice/outputs/vit"_qs);
    QCOMPARE(f.jobOutputs[1].bytes, 4096 + 7);
    // Kept with the walk's other figures (the cache), read back as written.
    StorageRootMeasure m;
    QVERIFY(storagejson::fromJson(storagejson::toJson(walked), &m));
    // The cache names each by its place below the folder, not by its whole path.
    QVERIFY(!QJsonDocument(storagejson::toJson(walked)).toJson().contains("/checkpoints/bert\""));
    const StorageJobOutput &back = m.folders.constFirst().jobOutputs.constFirst();
    QCOMPARE(back.path, bert.path);
    QCOMPARE(back.job, bert.job);
    QCOMPARE(back.bytes, bert.bytes);
    QCOMPARE(back.allocated, bert.allocated);
    QCOMPARE(back.files, bert.files);
    QCOMPARE(back.lastChange, bert.lastChange);
    QCOMPARE(back.lastRead, bert.lastRead);
}

void TestStorageWalk::percentAsDf()
{
    // df -P: 1000 blocks, 900 used, 50 available (50 reserved for root): Use% 95, not 90.
    StorageRootMeasure m;
    m.capacityBytes = 1000;
    m.usedBytes = 900;
    m.freeBytes = 50;
    QCOMPARE(m.percentUsed(), 95);
    m.usedBytes = 0;
    m.freeBytes = 1000;
    QCOMPARE(m.percentUsed(), 0);
    m.capacityBytes = -1;
    QCOMPARE(m.percentUsed(), -1);
}

void TestStorageWalk::shortWalkKeepsFigures()
{
    auto measure = [](qint64 at, qint64 bytes, bool complete, const QString &error = {}) {
        StorageRootMeasure m;
        m.root = QStringLiteral("/mnt/user");
        m.kind = QStringLiteral("user");
        m.measuredAt = at;
        m.complete = complete;
        m.error = error;
        StorageFolder f;
        f.path = QStringLiteral("/mnt/user/alice");
        f.bytes = bytes;
        m.folders = {f};
        return m;
    };
    QList<StorageRootMeasure> kept;
    StorageHistory history;
    StorageService::merge(kept, history, {measure(Now - Day, 1000, true)});
    // Cut short (cancelled, timed out): partial sums must not replace the last complete ones.
    StorageService::merge(kept, history, {measure(Now, 10, false)});
    QCOMPARE(kept.size(), 1);
    QCOMPARE(kept[0].folders[0].bytes, 1000);
    QCOMPARE(kept[0].measuredAt, Now - Day);
    QVERIFY(!kept[0].error.isEmpty());
    // Complete but with an error (found nothing: the NAS not mounted on that node): kept too.
    StorageRootMeasure empty = measure(Now, 0, true, QStringLiteral("nothing there"));
    empty.folders.clear();
    StorageService::merge(kept, history, {empty});
    QCOMPARE(kept[0].folders[0].bytes, 1000);
    QCOMPARE(kept[0].error, QStringLiteral("nothing there"));
    QCOMPARE(history.points(QStringLiteral("/mnt/user/alice")).size(), 1);
    // A complete walk replaces them, error and all.
    StorageService::merge(kept, history, {measure(Now + 1000, 2000, true)});
    QCOMPARE(kept[0].folders[0].bytes, 2000);
    QVERIFY(kept[0].error.isEmpty());
    QCOMPARE(history.points(QStringLiteral("/mnt/user/alice")).size(), 2);
}

void TestStorageWalk::shellWords()
{
    QCOMPARE(format::shellWord(QStringLiteral("/mnt/user/alice/ckpt-1.pt")),
             QStringLiteral("/mnt/user/alice/ckpt-1.pt"));
    QCOMPARE(format::shellWord(QStringLiteral("/mnt/user/frank/$(reboot).txt")),
             QStringLiteral("'/mnt/user/frank/$(reboot).txt'"));
    QCOMPARE(format::shellWord(QStringLiteral("/mnt/it's\nx")),
             QStringLiteral("'/mnt/it'\\''s\nx'"));
}

QTEST_GUILESS_MAIN(TestStorageWalk)
#include "tst_storagewalk.moc"
