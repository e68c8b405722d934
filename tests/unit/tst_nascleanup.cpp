// SPDX-License-Identifier: GPL-3.0-or-later
// The NAS's cleanup candidates found in a walk's figures (NasCleanup) and planned against what
// the NAS says of each path right before (NasPlanner::cleanup): each thing once, the classes'
// bounds, what cannot be judged said, and a path that changed (or was read) since the walk left
// out.
#include "nascleanup.h"
#include "nasplanner.h"

#include <QTest>

using namespace gpudesk;

namespace {

constexpr qint64 kDay = 24LL * 3600 * 1000;
constexpr qint64 kGiB = 1LL << 30;
const qint64 kNow = 1796000000000LL; // 2026-11-30

StorageFile file(const QString &path, qint64 bytes, int daysOld, qint64 allocated = -1)
{
    StorageFile f;
    f.path = path;
    f.bytes = bytes;
    f.allocated = allocated < 0 ? bytes : allocated;
    f.modified = kNow - daysOld * kDay - 250; // a fraction of a second, as find's %T@ has
    f.accessed = f.modified;
    return f;
}

StorageFolder folder(const QString &owner, int lastChangeDaysAgo, qint64 bytes)
{
    StorageFolder f;
    f.owner = owner;
    f.kind = QStringLiteral("user");
    f.path = QStringLiteral("/mnt/user/") + owner;
    f.bytes = bytes;
    f.allocated = bytes;
    f.files = 12;
    f.lastChange = kNow - lastChangeDaysAgo * kDay;
    return f;
}

QList<StorageRootMeasure> walk()
{
    StorageRootMeasure m;
    m.root = QStringLiteral("/mnt/user");
    m.kind = QStringLiteral("user");
    m.node = QStringLiteral("g4090-01");
    m.measuredAt = kNow - 3600 * 1000;
    StorageFolder alice = folder(QStringLiteral("alice"), 1, 40 * kGiB);
    alice.coreDumps << file(QStringLiteral("/mnt/user/alice/core.77"), 2 * kGiB, 3)
                    << file(QStringLiteral("/mnt/user/alice/core.12"), 3 * kGiB, 120, 4096);
    // Old enough to be stale too: said once, as the core dump it is.
    alice.staleFiles << file(QStringLiteral("/mnt/user/alice/core.12"), 3 * kGiB, 120, 4096)
                     << file(QStringLiteral("/mnt/user/alice/old.tar"), 10 * kGiB, 200);
    StorageFolder gone = folder(QStringLiteral("yangming"), 140, 24LL << 20);
    gone.staleFiles << file(QStringLiteral("/mnt/user/yangming/ckpt.pt"), 2 * kGiB, 141);
    gone.coreDumps << file(QStringLiteral("/mnt/user/yangming/core"), kGiB, 141);
    // No namespace either, but written to this week: someone's.
    StorageFolder fresh = folder(QStringLiteral("newhire"), 2, kGiB);
    m.folders << alice << gone << fresh;
    StorageRootMeasure share;
    share.root = QStringLiteral("/mnt/share");
    share.kind = QStringLiteral("group");
    share.measuredAt = m.measuredAt;
    StorageFolder nlp = folder(QStringLiteral("nlp"), 300, 5 * kGiB);
    nlp.kind = QStringLiteral("group");
    nlp.path = QStringLiteral("/mnt/share/nlp");
    share.folders << nlp; // a group of no user: never a departed user
    return {m, share};
}

QStringList paths(const QList<NasCandidate> &list)
{
    QStringList out;
    for (const NasCandidate &c : list)
        out << NasCleanup::classId(c.cls) + u' ' + c.path;
    return out;
}

RemotePathInfo there(const NasCandidate &c)
{
    RemotePathInfo i;
    i.path = c.path;
    i.found = true;
    i.type = c.type;
    i.size = c.type == 'd' ? 4096 : c.bytes;
    i.modified = c.type == 'd' ? kNow - 140 * kDay : c.modified / 1000 * 1000;
    i.accessed = c.type == 'd' ? kNow - kDay : c.accessed / 1000 * 1000;
    return i;
}

} // namespace

class TestNasCleanup : public QObject
{
    Q_OBJECT
private slots:
    void eachThingOnce();
    void boundsAndClasses();
    void usersUnknown();
    void evidenceInWords();
    void planAsTheNasIsNow();
    void planRefusesOutsideRoots();
    void classIds();
    void jobOutputs();
};

void TestNasCleanup::eachThingOnce()
{
    const NasCleanupFound found = NasCleanup::find(walk(), QSet<QString>{QStringLiteral("alice")},
                                                   NasCleanupOptions(), kNow, ClusterJobs());
    // Biggest first; yangming's files are his folder's; alice's fresh core dump is not old enough.
    QCOMPARE(paths(found.candidates),
             QStringList({QStringLiteral("nas-stale-file /mnt/user/alice/old.tar"),
                          QStringLiteral("nas-core-dump /mnt/user/alice/core.12"),
                          QStringLiteral("nas-departed-user /mnt/user/yangming")}));
    const NasCandidate &folderOf = found.candidates.at(2);
    QCOMPARE(folderOf.type, 'd');
    QCOMPARE(folderOf.bytes, 24LL << 20);
    QCOMPARE(folderOf.files, 12);
    QCOMPARE(folderOf.node, QStringLiteral("g4090-01"));
    QVERIFY(found.notes.isEmpty());
}

void TestNasCleanup::boundsAndClasses()
{
    NasCleanupOptions o;
    o.classes = {NasCandidate::CoreDump};
    o.coreDumpDays = 2;
    NasCleanupFound found =
        NasCleanup::find(walk(), QSet<QString>{QStringLiteral("alice")}, o, kNow);
    // Without the departed class, what lies in yangming's folder is judged on its own.
    QCOMPARE(paths(found.candidates),
             QStringList({QStringLiteral("nas-core-dump /mnt/user/alice/core.12"),
                          QStringLiteral("nas-core-dump /mnt/user/alice/core.77"),
                          QStringLiteral("nas-core-dump /mnt/user/yangming/core")}));
    o.classes = {NasCandidate::DepartedUser};
    o.departedDays = 1; // newhire wrote 2 days ago: now a candidate
    found = NasCleanup::find(walk(), QSet<QString>{QStringLiteral("alice")}, o, kNow);
    QCOMPARE(paths(found.candidates),
             QStringList({QStringLiteral("nas-departed-user /mnt/user/newhire"),
                          QStringLiteral("nas-departed-user /mnt/user/yangming")}));
    o.departedDays = 200;
    QVERIFY(NasCleanup::find(walk(), QSet<QString>{QStringLiteral("alice")}, o, kNow)
                .candidates.isEmpty());
}

void TestNasCleanup::usersUnknown()
{
    // A researcher's account cannot list namespaces: nobody is called gone.
    for (const std::optional<QSet<QString>> &users :
         {std::optional<QSet<QString>>(), std::optional<QSet<QString>>(QSet<QString>())}) {
        const NasCleanupFound found =
            NasCleanup::find(walk(), users, NasCleanupOptions(), kNow, ClusterJobs());
        QCOMPARE(found.notes.size(), 1);
        QVERIFY2(found.notes.first().contains(QLatin1String("not judged")),
                 qPrintable(found.notes.first()));
        for (const NasCandidate &c : found.candidates)
            QVERIFY(c.cls != NasCandidate::DepartedUser);
        // yangming's files are then listed for themselves.
        QVERIFY(paths(found.candidates)
                    .contains(QStringLiteral("nas-stale-file /mnt/user/yangming/ckpt.pt")));
    }
}

void TestNasCleanup::evidenceInWords()
{
    const NasCleanupFound found =
        NasCleanup::find(walk(), QSet<QString>{QStringLiteral("alice")}, NasCleanupOptions(), kNow);
    QCOMPARE(NasCleanup::evidence(found.candidates.at(0), kNow),
             QStringLiteral("10Gi, neither read nor changed for 200 day(s) (read %1, changed %1)")
                 .arg(QDateTime::fromMSecsSinceEpoch(kNow - 200 * kDay - 250)
                          .toString(QStringLiteral("yyyy-MM-dd"))));
    const QString core = NasCleanup::evidence(found.candidates.at(1), kNow);
    QVERIFY2(
        core.startsWith(QLatin1String("3Gi (4Ki on disk), a core dump written 120 day(s) ago")),
        qPrintable(core));
    const QString gone = NasCleanup::evidence(found.candidates.at(2), kNow);
    QVERIFY2(gone.contains(QLatin1String("no namespace is labelled gpudesk.io/user=yangming")),
             qPrintable(gone));
    QVERIFY2(gone.startsWith(QLatin1String("24Mi in 12 file(s)")), qPrintable(gone));
}

void TestNasCleanup::planAsTheNasIsNow()
{
    const QList<NasCandidate> found =
        NasCleanup::find(walk(), QSet<QString>{QStringLiteral("alice")}, NasCleanupOptions(), kNow)
            .candidates;
    QCOMPARE(found.size(), 3);
    const NasPlanner planner(QStringLiteral("lab"), QStringLiteral("https://k8s:6443"),
                             QStringLiteral("g4090-01"),
                             {QStringLiteral("/mnt/user"), QStringLiteral("/mnt/share")});
    // All as the walk saw them (SFTP's whole seconds against the walk's fractions).
    OperationPlan p =
        planner.cleanup(found, {there(found[0]), there(found[1]), there(found[2])}, kNow);
    QVERIFY(p.refusals.isEmpty());
    QCOMPARE(p.action, QStringLiteral("nas.cleanup"));
    QCOMPARE(p.steps.size(), 3);
    QCOMPARE(p.steps[0].kind, PlanStep::Kind::RemoveNasPath);
    QCOMPARE(p.steps[0].nas.path, QStringLiteral("/mnt/user/alice/old.tar"));
    QCOMPARE(p.steps[0].nas.modified, found[0].modified / 1000 * 1000);
    QVERIFY2(p.steps[0].why.startsWith(QLatin1String("Stale large file: 10Gi, neither")),
             qPrintable(p.steps[0].why));
    QCOMPARE(p.steps[2].nas.type, 'd');
    QCOMPARE(p.steps[2].target.user, QStringLiteral("yangming"));
    // A folder among them: the count is typed.
    QCOMPARE(p.confirmationWord(), QStringLiteral("3"));

    // One written to since the walk, one gone, one now a link: left out, each said.
    RemotePathInfo grown = there(found[0]);
    grown.size += 4;
    RemotePathInfo missing = there(found[1]);
    missing.found = false;
    RemotePathInfo link = there(found[2]);
    link.type = 'l';
    p = planner.cleanup(found, {grown, missing, link}, kNow);
    QVERIFY(p.steps.isEmpty());
    const QString notes = p.notes.join(u'\n');
    QVERIFY2(notes.contains(QLatin1String("/mnt/user/alice/old.tar changed since the walk")),
             qPrintable(notes));
    QVERIFY2(notes.contains(QLatin1String("/mnt/user/alice/core.12 is no longer there")),
             qPrintable(notes));
    QVERIFY2(notes.contains(QLatin1String("/mnt/user/yangming is no longer what the walk found")),
             qPrintable(notes));
    // The stale file read since the walk (its atime moved, nothing else), the core dump read
    // within the same second as the walk saw (not later), the folder with an entry made in it:
    // the first and the last left out, each said.
    RemotePathInfo read = there(found[0]);
    read.accessed = kNow - 60 * 1000;
    RemotePathInfo sameSecond = there(found[1]);
    sameSecond.accessed = found[1].accessed / 1000 * 1000;
    RemotePathInfo filled = there(found[2]);
    filled.modified = kNow - 120 * 1000;
    p = planner.cleanup(found, {read, sameSecond, filled}, kNow);
    QCOMPARE(p.steps.size(), 1);
    QCOMPARE(p.steps[0].nas.path, found[1].path);
    const QString said = p.notes.join(u'\n');
    QVERIFY2(said.contains(QLatin1String("/mnt/user/alice/old.tar was read since the walk")),
             qPrintable(said));
    QVERIFY2(said.contains(QLatin1String("/mnt/user/yangming changed since the walk (an entry "
                                         "made or removed in it")),
             qPrintable(said));
    // The NAS not asked at all: nothing planned for it.
    QVERIFY(planner.cleanup(found, {}, kNow).steps.isEmpty());
    // One folder alone: its name is typed.
    p = planner.cleanup({found[2]}, {there(found[2])}, kNow);
    QCOMPARE(p.confirmationWord(), QStringLiteral("yangming"));
}

void TestNasCleanup::planRefusesOutsideRoots()
{
    NasCandidate c;
    c.path = QStringLiteral("/mnt/user/../../etc/passwd");
    c.bytes = 10;
    const NasPlanner planner(QString(), QString(), QStringLiteral("n"),
                             {QStringLiteral("/mnt/user")});
    RemotePathInfo i;
    i.path = c.path;
    i.found = true;
    i.type = 'f';
    i.size = 10;
    const OperationPlan p = planner.cleanup({c}, {i}, kNow);
    QVERIFY(p.steps.isEmpty());
    QCOMPARE(p.refusals.size(), 1);
    // No node that mounts the NAS: refused, whatever was found.
    QVERIFY(!NasPlanner(QString(), QString(), QString(), {QStringLiteral("/mnt/user")})
                 .cleanup({}, {}, kNow)
                 .refusals.isEmpty());
}

void TestNasCleanup::classIds()
{
    for (int i = 0; i < NasCleanup::kClassCount; ++i) {
        const auto c = NasCandidate::Class(i);
        QCOMPARE(NasCleanup::classFromId(NasCleanup::classId(c)), std::optional(c));
        QVERIFY(!NasCleanup::classTitle(c).isEmpty());
    }
    QVERIFY(!NasCleanup::classFromId(QStringLiteral("orphan-process")));
}

void TestNasCleanup::jobOutputs()
{
    QList<StorageRootMeasure> measures = walk();
    StorageFolder &alice = measures[0].folders[0];
    // Changed `daysOld` ago, a file read `readDaysAgo` ago.
    const auto output = [](const QString &key, int daysOld, qint64 bytes, int readDaysAgo = -1) {
        return StorageJobOutput{u"/mnt/user/alice/"_qs + key,
                                key.section(u'/', 1),
                                bytes,
                                bytes,
                                4,
                                kNow - daysOld * kDay,
                                kNow - (readDaysAgo < 0 ? daysOld : readDaysAgo) * kDay};
    };
    alice.jobOutputs << output(u"checkpoints/bert-old"_qs, 200, 30 * kGiB)
                     << output(u"checkpoints/llama-sft"_qs, 200, 20 * kGiB) // its job runs
                     << output(u"outputs/vit-done"_qs, 150, 2 * kGiB)       // ended long ago
                     << output(u"checkpoints/ended-lately"_qs, 150, kGiB)   // ended lately
                     << output(u"checkpoints/resumed"_qs, 200, kGiB, 3)     // read this week
                     << output(u"checkpoints/Team_Run"_qs, 200, kGiB)       // team-run-7 runs
                     << output(u"checkpoints/mpi-bert"_qs, 200, kGiB)       // its pods'
                     << output(u"checkpoints/2024-11-29"_qs, 200, kGiB)     // no job's name
                     << output(u"checkpoints/fresh"_qs, 10, kGiB);
    // A stale file in an old job's folder: that folder's, when its class is asked.
    alice.staleFiles << file(u"/mnt/user/alice/checkpoints/bert-old/step-9000.pt"_qs, 8 * kGiB,
                             200);
    // yangming left: his job folders are his folder's.
    measures[0].folders[1].jobOutputs << StorageJobOutput{u"/mnt/user/yangming/checkpoints/asr"_qs,
                                                          u"asr"_qs,
                                                          kGiB,
                                                          kGiB,
                                                          1,
                                                          kNow - 150 * kDay,
                                                          kNow - 150 * kDay};
    ClusterJobs jobs;
    jobs.byUser[u"alice"_qs] = {{u"llama-sft"_qs, 0},
                                {u"vit-done"_qs, kNow - 100 * kDay},
                                {u"ended-lately"_qs, kNow - 10 * kDay},
                                {u"mpi-bert-worker-0"_qs, 0}};
    jobs.addLive(u"llama-sft"_qs);
    jobs.addLive(u"team-run-7"_qs); // in a team's namespace
    jobs.addLive(u"mpi-bert-worker-0"_qs);
    NasCleanupOptions o;
    o.classes = {NasCandidate::JobOutput, NasCandidate::StaleFile, NasCandidate::DepartedUser};
    NasCleanupFound found = NasCleanup::find(measures, QSet<QString>{u"alice"_qs}, o, kNow, jobs);
    QVERIFY(found.notes.isEmpty());
    QCOMPARE(paths(found.candidates),
             QStringList({u"nas-job-output /mnt/user/alice/checkpoints/bert-old"_qs,
                          u"nas-stale-file /mnt/user/alice/old.tar"_qs,
                          u"nas-stale-file /mnt/user/alice/core.12"_qs,
                          u"nas-job-output /mnt/user/alice/outputs/vit-done"_qs,
                          u"nas-departed-user /mnt/user/yangming"_qs}));
    const NasCandidate &gone = found.candidates[0];
    QCOMPARE(gone.type, 'd');
    QCOMPARE(gone.job, u"bert-old"_qs);
    QCOMPARE(gone.jobEnded, 0);
    QVERIFY2(NasCleanup::evidence(gone, kNow)
                 .startsWith(u"30Gi in 4 file(s), named for job bert-old: no job or pod of that "
                             "name is left in alice's namespaces, none runs in another; nothing "
                             "below it changed since "_qs),
             qPrintable(NasCleanup::evidence(gone, kNow)));
    const QString ended = NasCleanup::evidence(found.candidates[3], kNow);
    QVERIFY2(ended.contains(u"named for job vit-done, which ended "_qs +
                            QDateTime::fromMSecsSinceEpoch(kNow - 100 * kDay)
                                .toString(QStringLiteral("yyyy-MM-dd"))),
             qPrintable(ended));
    // "Job outputs unused for" bounds it: a job that ended, or a read, within the days keeps it.
    o.jobOutputDays = 5;
    o.classes = {NasCandidate::JobOutput};
    found = NasCleanup::find(measures, QSet<QString>{u"alice"_qs}, o, kNow, jobs);
    QCOMPARE(paths(found.candidates),
             QStringList({u"nas-job-output /mnt/user/alice/checkpoints/bert-old"_qs,
                          u"nas-job-output /mnt/user/alice/outputs/vit-done"_qs,
                          u"nas-job-output /mnt/user/alice/checkpoints/ended-lately"_qs,
                          u"nas-job-output /mnt/user/alice/checkpoints/fresh"_qs,
                          u"nas-job-output /mnt/user/yangming/checkpoints/asr"_qs}));
    // Without the class, the stale file in it is listed for itself; without the jobs, no job's
    // outputs are offered, and that is said.
    o.classes = {NasCandidate::StaleFile};
    QVERIFY(paths(NasCleanup::find(measures, QSet<QString>{u"alice"_qs}, o, kNow, jobs).candidates)
                .contains(u"nas-stale-file /mnt/user/alice/checkpoints/bert-old/step-9000.pt"_qs));
    o.classes = {NasCandidate::JobOutput};
    found = NasCleanup::find(measures, QSet<QString>{u"alice"_qs}, o, kNow);
    QVERIFY(found.candidates.isEmpty());
    QCOMPARE(found.notes.size(), 1);
    QVERIFY2(found.notes[0].startsWith(u"Outputs of jobs: not judged"_qs),
             qPrintable(found.notes[0]));
    // Names as the API spells them.
    QVERIFY(NasCleanup::namedAfter(u"Bert_Large"_qs, u"bert-large"_qs));
    QVERIFY(NasCleanup::namedAfter(u"x"_qs, u"x-7f3k2"_qs));
    QVERIFY(!NasCleanup::namedAfter(u"x"_qs, u"xy"_qs));
    QVERIFY(!NasCleanup::namedAfter(u"x-1"_qs, u"x"_qs));
    QVERIFY(NasCleanup::jobLike(u"Bert_Large"_qs));
    for (const QString &no : {u"2024-11-29"_qs, u"v1.2"_qs, u"a b"_qs, u"-x"_qs, u""_qs})
        QVERIFY2(!NasCleanup::jobLike(no), qPrintable(no));
}

QTEST_GUILESS_MAIN(TestNasCleanup)
#include "tst_nascleanup.moc"
