// SPDX-License-Identifier: GPL-3.0-or-later
// The launch scripts a job runs from the NAS (issue 36): which paths of a command are scripts on
// a folder the pod mounts from its node, where the node sees them (hostPath and subPath read by
// the same decoder the check uses), and what each fact the NAS gives makes of the verdict —
// missing, a link out of every mount (the AiArts case), a dangling link, not executable when run
// directly; an interpreter's script needs no executable bit.
#include "jobrequestdecoder.h"
#include "launchscripts.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gpudesk;

namespace {

// A Pod of `command` (or of `args` alone, for the image's entrypoint), mounting /mnt/user/bob
// (hostPath), its code/ at /workspace, /data (a claim: not a node's) and a ConfigMap inside the
// home folder.
JobRequest podRunning(const QStringList &command, const char *key = "command",
                      const QString &workingDir = {})
{
    const auto mount = [](const QString &name, const QString &path) {
        return QJsonObject{{u"name"_qs, name}, {u"mountPath"_qs, path}};
    };
    QJsonObject code = mount(u"code"_qs, u"/workspace"_qs);
    code.insert(u"subPath"_qs, u"code"_qs);
    const QJsonObject c{
        {u"name"_qs, u"train"_qs},
        {u"image"_qs, u"registry.lab/train:1"_qs},
        {QString::fromLatin1(key), QJsonArray::fromStringList(command)},
        {u"volumeMounts"_qs,
         QJsonArray{mount(u"home"_qs, u"/mnt/user/bob"_qs), code, mount(u"data"_qs, u"/data"_qs),
                    mount(u"conf"_qs, u"/mnt/user/bob/conf"_qs)}}};
    QJsonObject container = c;
    if (!workingDir.isEmpty())
        container.insert(u"workingDir"_qs, workingDir);
    const auto volume = [](const QString &name, const QString &kind, const QJsonObject &source) {
        return QJsonObject{{u"name"_qs, name}, {kind, source}};
    };
    const QJsonObject home{{u"path"_qs, u"/mnt/user/bob"_qs}};
    const QJsonObject pod{
        {u"apiVersion"_qs, u"v1"_qs},
        {u"kind"_qs, u"Pod"_qs},
        {u"metadata"_qs, QJsonObject{{u"name"_qs, u"t"_qs}, {u"namespace"_qs, u"user-bob"_qs}}},
        {u"spec"_qs,
         QJsonObject{{u"containers"_qs, QJsonArray{container}},
                     {u"volumes"_qs, QJsonArray{volume(u"home"_qs, u"hostPath"_qs, home),
                                                volume(u"code"_qs, u"hostPath"_qs, home),
                                                volume(u"data"_qs, u"persistentVolumeClaim"_qs,
                                                       QJsonObject{{u"claimName"_qs, u"data"_qs}}),
                                                volume(u"conf"_qs, u"configMap"_qs,
                                                       QJsonObject{{u"name"_qs, u"conf"_qs}})}}}}};
    JobRequest job;
    QString error;
    if (!JobRequestDecoder::decode(QJsonDocument(pod).toJson(), &job, &error))
        qWarning("%s", qPrintable(error));
    return job;
}

} // namespace

class TestLaunchScripts : public QObject
{
    Q_OBJECT
private slots:
    void scriptsOfCommands_data();
    void scriptsOfCommands();
    void verdicts();
    void linkResolved();
};

void TestLaunchScripts::scriptsOfCommands_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QStringList>("scripts"); // path|nodePath|direct
    QTest::addColumn<QString>("workingDir");  // the container's ("" none: the image's)
    QTest::newRow("program") << QStringList{u"/mnt/user/bob/run.sh"_qs, u"--fast"_qs}
                             << QStringList{u"/mnt/user/bob/run.sh|/mnt/user/bob/run.sh|1"_qs}
                             << QString();
    QTest::newRow("interpreter")
        << QStringList{u"python"_qs, u"-u"_qs, u"/workspace/train.py"_qs, u"/data/x"_qs}
        << QStringList{u"/workspace/train.py|/mnt/user/bob/code/train.py|0"_qs} << QString();
    QTest::newRow("torchrun options first")
        << QStringList{u"torchrun"_qs, u"--nproc_per_node=8"_qs, u"/mnt/user/bob/a/../b.py"_qs}
        << QStringList{u"/mnt/user/bob/b.py|/mnt/user/bob/b.py|0"_qs} << QString();
    QTest::newRow("sh -c line")
        << QStringList{u"/bin/sh"_qs, u"-c"_qs,
                       u"cd /workspace && NCCL_DEBUG=WARN /workspace/go.sh; bash '/mnt/user/bob/x.sh'"_qs}
        << QStringList{u"/workspace/go.sh|/mnt/user/bob/code/go.sh|1"_qs,
                       u"/mnt/user/bob/x.sh|/mnt/user/bob/x.sh|0"_qs}
        << QString();
    QTest::newRow("env then program")
        << QStringList{u"env"_qs, u"A=1"_qs, u"/mnt/user/bob/run.sh"_qs}
        << QStringList{u"/mnt/user/bob/run.sh|/mnt/user/bob/run.sh|1"_qs} << QString();
    // The image's own programs and a claim's files are not the NAS's.
    QTest::newRow("image program")
        << QStringList{u"/usr/bin/python3"_qs, u"/opt/train.py"_qs} << QStringList{} << QString();
    QTest::newRow("claim") << QStringList{u"/data/run.sh"_qs} << QStringList{} << QString();
    QTest::newRow("relative") << QStringList{u"./run.sh"_qs} << QStringList{} << QString();
    // What a form's line holds: continuations, quotes, option groups, expansions.
    QTest::newRow("continued line")
        << QStringList{u"sh"_qs, u"-c"_qs,
                       u"torchrun --nnodes 2 \\\n  /mnt/user/bob/train.py \\\n  --lr 1e-4"_qs}
        << QStringList{u"/mnt/user/bob/train.py|/mnt/user/bob/train.py|0"_qs} << QString();
    QTest::newRow("quoted space")
        << QStringList{u"sh"_qs, u"-c"_qs, u"bash '/mnt/user/bob/my run.sh' --x"_qs}
        << QStringList{u"/mnt/user/bob/my run.sh|/mnt/user/bob/my run.sh|0"_qs} << QString();
    QTest::newRow("expansion not looked up")
        << QStringList{u"sh"_qs, u"-c"_qs,
                       u"$HOME/run.sh; /mnt/user/bob/${RANK}.sh; python /mnt/user/bob/*.py"_qs}
        << QStringList{} << QString();
    QTest::newRow("bash -lc") << QStringList{u"bash"_qs, u"-lc"_qs, u"/mnt/user/bob/go.sh"_qs}
                              << QStringList{u"/mnt/user/bob/go.sh|/mnt/user/bob/go.sh|1"_qs}
                              << QString();
    QTest::newRow("python -m") << QStringList{u"python"_qs, u"-m"_qs, u"pkg"_qs,
                                              u"/mnt/user/bob/out/new"_qs}
                               << QStringList{} << QString();
    QTest::newRow("an option's path is not the script")
        << QStringList{u"torchrun"_qs, u"--log_dir"_qs, u"/mnt/user/bob/logs/x"_qs,
                       u"/workspace/train.py"_qs}
        << QStringList{u"/workspace/train.py|/mnt/user/bob/code/train.py|0"_qs} << QString();
    QTest::newRow("a ConfigMap inside the home")
        << QStringList{u"/mnt/user/bob/conf/run.sh"_qs} << QStringList{} << QString();
    // Relative paths: from the container's workingDir, then each `cd` of a line.
    QTest::newRow("workingDir, python")
        << QStringList{u"python"_qs, u"train.py"_qs}
        << QStringList{u"/workspace/train.py|/mnt/user/bob/code/train.py|0"_qs} << u"/workspace"_qs;
    QTest::newRow("workingDir, a program")
        << QStringList{u"./run.sh"_qs}
        << QStringList{u"/mnt/user/bob/exp/run.sh|/mnt/user/bob/exp/run.sh|1"_qs}
        << u"/mnt/user/bob/exp"_qs;
    QTest::newRow("bare name for a shell: PATH may have it")
        << QStringList{u"bash"_qs, u"start.sh"_qs} << QStringList{} << u"/workspace"_qs;
    QTest::newRow("bash ./ from the workingDir")
        << QStringList{u"bash"_qs, u"./start.sh"_qs}
        << QStringList{u"/workspace/start.sh|/mnt/user/bob/code/start.sh|0"_qs} << u"/workspace"_qs;
    QTest::newRow("cd in the line")
        << QStringList{u"sh"_qs, u"-c"_qs,
                       u"cd /mnt/user/bob/exp && torchrun --nproc_per_node=8 train.py; "
                       "cd ../code2; python ../x/eval.py"_qs}
        << QStringList{u"/mnt/user/bob/exp/train.py|/mnt/user/bob/exp/train.py|0"_qs,
                       u"/mnt/user/bob/x/eval.py|/mnt/user/bob/x/eval.py|0"_qs}
        << QString();
    QTest::newRow("cd -P, then a line on")
        << QStringList{u"sh"_qs, u"-c"_qs, u"cd -P /mnt/user/bob/exp &&\n  python t.py"_qs}
        << QStringList{u"/mnt/user/bob/exp/t.py|/mnt/user/bob/exp/t.py|0"_qs} << QString();
    // A cd that may not run, or inside a compound command: where the script is, is not known.
    QTest::newRow("cd in a compound command")
        << QStringList{u"bash"_qs, u"-c"_qs,
                       u"if [ -d exp ]; then cd exp; fi; python run.py; (cd b && python c.py)"_qs}
        << QStringList{} << u"/workspace"_qs;
    QTest::newRow("cd that may not run")
        << QStringList{u"sh"_qs, u"-c"_qs, u"cd /mnt/user/bob/exp || true; python t.py"_qs}
        << QStringList{} << QString();
    QTest::newRow("cd after a test")
        << QStringList{u"sh"_qs, u"-c"_qs,
                       u"test -d /mnt/user/bob/exp && cd /mnt/user/bob/exp; python t.py"_qs}
        << QStringList{} << u"/workspace"_qs;
    QTest::newRow("cd in a pipe") << QStringList{u"sh"_qs, u"-c"_qs,
                                                 u"true | cd /mnt; python t.py"_qs}
                                  << QStringList{} << u"/workspace"_qs;
    QTest::newRow("or after the cd")
        << QStringList{u"sh"_qs, u"-c"_qs, u"cd /mnt/user/bob/exp && python a.py || python b.py"_qs}
        << QStringList{u"/mnt/user/bob/exp/a.py|/mnt/user/bob/exp/a.py|0"_qs} << u"/workspace"_qs;
    QTest::newRow("cd somewhere unknown")
        << QStringList{u"sh"_qs, u"-c"_qs, u"cd $WORK && python train.py; cd; python b.py"_qs}
        << QStringList{} << u"/workspace"_qs;
}

void TestLaunchScripts::scriptsOfCommands()
{
    QFETCH(QStringList, command);
    QFETCH(QStringList, scripts);
    QFETCH(QString, workingDir);
    const JobRequest job = podRunning(command, "command", workingDir);
    QCOMPARE(job.roles.first().workingDir, workingDir);
    QCOMPARE(job.roles.size(), 1);
    QVERIFY(job.roles.first().commandGiven);
    QCOMPARE(job.roles.first().hostMounts.size(), 2); // home and code; not the claim, the map
    QStringList got;
    for (const LaunchScript &s : LaunchScripts::of(job))
        got << s.path + u'|' + s.nodePath + u'|' + (s.direct ? u'1' : u'0');
    QCOMPARE(got, scripts);
}

void TestLaunchScripts::verdicts()
{
    // Arguments for the image's own entrypoint: what runs them is not known, nothing judged.
    const JobRequest argsOnly = podRunning({u"/mnt/user/bob/train.py"_qs}, "args");
    QVERIFY(!argsOnly.roles.first().commandGiven);
    QVERIFY(LaunchScripts::of(argsOnly).isEmpty());

    const LaunchScript direct = LaunchScripts::of(podRunning({u"/mnt/user/bob/run.sh"_qs})).first();
    const LaunchScript byBash =
        LaunchScripts::of(podRunning({u"bash"_qs, u"/workspace/run.sh"_qs})).first();
    LaunchScriptFacts f;
    f.found = false;
    QCOMPARE(LaunchScripts::judge(direct, f).code, u"launch-script-missing"_qs);
    QCOMPARE(LaunchScripts::judge(direct, f).severity, StartReason::Never);

    // A link out of every mount: nothing in the container behind it.
    f.found = true;
    f.link = true;
    f.linkTarget = u"/opt/lab/run.sh"_qs;
    StartReason r = LaunchScripts::judge(direct, f);
    // Not on the node either: the image may have it — a warning, not a refusal.
    QCOMPARE(r.code, u"launch-script-link-outside"_qs);
    QCOMPARE(r.severity, StartReason::Warning);
    // Where the link works on the node (the AiArts case), or leads into the NAS the pod does not
    // mount: it will not start.
    f.targetChecked = f.targetFound = true;
    r = LaunchScripts::judge(direct, f);
    QCOMPARE(r.severity, StartReason::Never);
    QVERIFY2(r.message.contains(u"/opt/lab/run.sh"_qs) && r.message.contains(u"/mnt/user/bob"_qs),
             qPrintable(r.message));
    LaunchScript onShare = direct;
    onShare.nasRoots = {u"/mnt/user"_qs, u"/mnt/share"_qs};
    f.targetChecked = f.targetFound = false;
    f.linkTarget = u"/mnt/share/bob/run.sh"_qs;
    QCOMPARE(LaunchScripts::judge(onShare, f).severity, StartReason::Never);
    // A link the NAS would not read: not judged.
    f.linkTarget.clear();
    QCOMPARE(LaunchScripts::judge(direct, f).code, u"launch-script-unchecked"_qs);
    // A relative link inside the mount, its target not there.
    f.linkTarget = u"../bob/missing.sh"_qs;
    f.targetChecked = true;
    f.targetFound = false;
    QCOMPARE(LaunchScripts::targetOf(direct, f.linkTarget), u"/mnt/user/bob/missing.sh"_qs);
    QCOMPARE(LaunchScripts::judge(direct, f).code, u"launch-script-dangling"_qs);
    // Its target there, executable.
    f.targetFound = true;
    f.permissions = 0100755;
    QCOMPARE(LaunchScripts::judge(direct, f).code, u"launch-script-ok"_qs);
    QCOMPARE(LaunchScripts::judge(direct, f).severity, StartReason::Info);

    // Not executable: fatal when run directly, nothing when bash runs it.
    LaunchScriptFacts plain;
    plain.found = true;
    plain.permissions = 0100644;
    r = LaunchScripts::judge(direct, plain);
    QCOMPARE(r.code, u"launch-script-not-executable"_qs);
    QCOMPARE(r.numbers.value(u"mode"_qs).toString(), u"0644"_qs);
    QCOMPARE(LaunchScripts::judge(byBash, plain).code, u"launch-script-ok"_qs);

    // The NAS not asked: said, the verdict left as it was.
    LaunchScriptFacts unasked;
    unasked.error = u"No node that mounts the NAS answers over SSH."_qs;
    r = LaunchScripts::judge(direct, unasked);
    QCOMPARE(r.code, u"launch-script-unchecked"_qs);
    StartVerdict v;
    v.kind = StartVerdict::Waits;
    v.reasons << StartReason{StartReason::Waits, u"queue-full"_qs, {}, {}, {}, {}};
    v.add({r});
    QCOMPARE(v.kind, StartVerdict::Waits);
    v.add({LaunchScripts::judge(direct, plain)});
    QCOMPARE(v.kind, StartVerdict::Never);
    QCOMPARE(v.reasons.first().code, u"launch-script-not-executable"_qs);
}

void TestLaunchScripts::linkResolved()
{
    // The AiArts case as the demo plants it: code/seg mounted at /workspace, start.sh a link made
    // on the login node by the node's own path.
    LaunchScript s{{},
                   u"/workspace/start.sh"_qs,
                   u"/mnt/user/bob/code/seg/start.sh"_qs,
                   false,
                   {{u"/workspace"_qs, u"/mnt/user/bob/code/seg"_qs}},
                   {u"/workspace"_qs, u"/workspace/conf"_qs},
                   {u"/mnt/user"_qs, u"/mnt/share"_qs}};
    LaunchScriptFacts f;
    f.found = f.link = f.targetChecked = f.targetFound = true;
    f.linkTarget = u"/mnt/user/bob/code/seg/tools/train.sh"_qs;
    StartReason r = LaunchScripts::judge(s, f);
    QCOMPARE(r.code, u"launch-script-link-outside"_qs);
    QCOMPARE(r.severity, StartReason::Never);
    // Where the container sees the file, and the folder that would make the link work.
    QCOMPARE(r.numbers.value(u"resolved"_qs).toString(), u"/workspace/tools/train.sh"_qs);
    QCOMPARE(r.numbers.value(u"mountNode"_qs).toString(), u"/mnt/user/bob/code/seg/tools"_qs);
    QCOMPARE(r.numbers.value(u"mountAt"_qs).toString(), u"/mnt/user/bob/code/seg/tools"_qs);
    QVERIFY2(r.fix.startsWith(u"Run the script by the path the container sees it at, "
                              "/workspace/tools/train.sh (where the command names it otherwise, "
                              "mount the node's /mnt/user/bob/code/seg/tools there"_qs) &&
                 r.fix.endsWith(u"A relative link (ln -sfr) works on the node and in the pod "
                                "alike."_qs),
             qPrintable(r.fix));
    // A relative link out of the mount: the node reads it from the link's node folder; the
    // container would find it elsewhere (/shared), and no folder of the node is put there.
    f.linkTarget = u"../../shared/train.sh"_qs;
    QCOMPARE(LaunchScripts::targetOf(s, f.linkTarget), u"/shared/train.sh"_qs);
    QCOMPARE(LaunchScripts::nodeTargetOf(s, f.linkTarget), u"/mnt/user/bob/shared/train.sh"_qs);
    r = LaunchScripts::judge(s, f);
    QVERIFY(!r.numbers.contains(u"resolved"_qs) && !r.numbers.contains(u"mountAt"_qs));
    QVERIFY2(!r.fix.contains(u"relative link"_qs), qPrintable(r.fix));
    // By the node's path into another user's folder: not mounted (the words only).
    f.linkTarget = u"/mnt/user/carol/private/train.sh"_qs;
    QVERIFY(!LaunchScripts::judge(s, f).numbers.contains(u"mountAt"_qs));
    // The node's own disk (not the NAS), a system folder, a folder over another mount, a
    // target the node does not have: nothing to run or mount, the words only.
    for (const QString &target : {u"/opt/scripts/train.sh"_qs, u"/usr/local/bin/train.sh"_qs}) {
        f.linkTarget = target;
        r = LaunchScripts::judge(s, f);
        QVERIFY2(!r.numbers.contains(u"resolved"_qs) && !r.numbers.contains(u"mountAt"_qs),
                 qPrintable(target));
        QVERIFY2(r.fix.startsWith(u"Put the script itself at /workspace/start.sh"_qs),
                 qPrintable(r.fix));
    }
    LaunchScript usr = s;
    usr.nasRoots = {u"/usr/share/nas"_qs};
    usr.nodePath = u"/usr/share/nas/bob/start.sh"_qs;
    usr.hostMounts = {{u"/workspace"_qs, u"/usr/share/nas/bob"_qs}};
    f.linkTarget = u"/usr/share/nas/bob/tools/train.sh"_qs;
    r = LaunchScripts::judge(usr, f);
    QCOMPARE(r.numbers.value(u"resolved"_qs).toString(), u"/workspace/tools/train.sh"_qs);
    QVERIFY(!r.numbers.contains(u"mountAt"_qs)); // a system folder of the image
    LaunchScript over = s;
    over.mountPaths << u"/mnt/user/bob/code/seg/tools/data"_qs;
    f.linkTarget = u"/mnt/user/bob/code/seg/tools/train.sh"_qs;
    QVERIFY(!LaunchScripts::judge(over, f).numbers.contains(u"mountAt"_qs));
    // By the node's path to a file the node does not have either: dangling, not "outside".
    f.targetFound = false;
    r = LaunchScripts::judge(s, f);
    QCOMPARE(r.code, u"launch-script-dangling"_qs);
    QVERIFY(!r.numbers.contains(u"resolved"_qs));
    // A folder mounted deeper hides the one that holds the file there.
    QCOMPARE(LaunchScripts::containerPathOf(s.hostMounts, s.mountPaths,
                                            u"/mnt/user/bob/code/seg/conf/a.sh"_qs),
             QString());
    QCOMPARE(LaunchScripts::containerPathOf(s.hostMounts, s.mountPaths, u"/mnt/user/bob/x"_qs),
             QString());
}

QTEST_GUILESS_MAIN(TestLaunchScripts)
#include "tst_launchscripts.moc"
