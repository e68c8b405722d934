// SPDX-License-Identifier: GPL-3.0-or-later
// Saving a container as an image, without a node: the runtime decides the tool (CRI-O has no
// commit: refused in words), every word of the commands is validated and quoted (a hostile
// container name or reference gives no command at all), the password is on no command line,
// the plan refuses what cannot work and warns of a tag it moves, and the digest a push reports
// is read from nerdctl's and docker's output alike.
#include "containercommands.h"
#include "saveimageplanner.h"
#include "saveimagestep.h"

#include <QTest>

using namespace gpudesk;

class TestSaveImagePlan : public QObject
{
    Q_OBJECT
private slots:
    void toolForRuntime();
    void commandsAreQuotedAndValidated();
    void planOfASave();
    void planRefusesWhatCannotWork();
    void pushedDigest();

private:
    static SaveImageRequest request();
};

SaveImageRequest TestSaveImagePlan::request()
{
    SaveImageRequest r;
    r.env = QStringLiteral("dev-alice");
    r.podUid = QStringLiteral("72c977d6-0e68-4fb6-ab96-96325c82fe0e");
    r.ns = QStringLiteral("user-alice");
    r.pod = QStringLiteral("dev-alice");
    r.container = QStringLiteral("devenv");
    r.node = QStringLiteral("g4090-01");
    r.owner = QStringLiteral("alice");
    r.runtime = QStringLiteral("containerd://1.7.12");
    r.phase = QStringLiteral("Running");
    r.registry = QStringLiteral("registry.lab:5000");
    r.repository = QStringLiteral("alice/dev");
    r.tag = QStringLiteral("day1");
    r.credentials.username = QStringLiteral("alice");
    r.credentials.secret = QStringLiteral("s3cret'; rm -rf /");
    return r;
}

void TestSaveImagePlan::toolForRuntime()
{
    QString why;
    const auto containerd = nodecmd::containerToolFor(QStringLiteral("containerd://1.7.12"), &why);
    QVERIFY(containerd);
    QCOMPARE(containerd->command, QByteArray("nerdctl -n k8s.io"));
    const auto docker = nodecmd::containerToolFor(QStringLiteral("docker://24.0.7"), &why);
    QVERIFY(docker);
    QCOMPARE(docker->command, QByteArray("docker"));
    QVERIFY(!nodecmd::containerToolFor(QStringLiteral("cri-o://1.28.1"), &why));
    QVERIFY2(why.contains(QStringLiteral("CRI-O")) && why.contains(QStringLiteral("no commit")),
             qPrintable(why));
    QVERIFY(!nodecmd::containerToolFor(QString(), &why));
    QVERIFY(why.contains(QStringLiteral("unknown")));
}

void TestSaveImagePlan::commandsAreQuotedAndValidated()
{
    QString why;
    const auto tool = *nodecmd::containerToolFor(QStringLiteral("containerd://1.7"), &why);
    const QString uid = QStringLiteral("72c977d6-0e68-4fb6-ab96-96325c82fe0e");
    QCOMPARE(nodecmd::findContainerCommand(tool, uid, QStringLiteral("devenv")),
             QByteArray("nerdctl -n k8s.io ps -q --filter "
                        "'label=io.kubernetes.pod.uid=72c977d6-0e68-4fb6-ab96-96325c82fe0e' "
                        "--filter 'label=io.kubernetes.container.name=devenv'"));
    QVERIFY(nodecmd::findContainerCommand(tool, uid, QStringLiteral("a;reboot")).isEmpty());
    QVERIFY(nodecmd::findContainerCommand(tool, QStringLiteral("$(id)"), QStringLiteral("c"))
                .isEmpty());
    QCOMPARE(nodecmd::commitCommand(tool, QStringLiteral("d2969b398936"),
                                    QStringLiteral("registry.lab:5000/alice/dev:day1")),
             QByteArray("nerdctl -n k8s.io commit 'd2969b398936' "
                        "'registry.lab:5000/alice/dev:day1'"));
    QVERIFY(
        nodecmd::commitCommand(tool, QStringLiteral("xyz"), QStringLiteral("r.lab/a:b")).isEmpty());
    QVERIFY(
        nodecmd::commitCommand(tool, QStringLiteral("d2969b398936"), QStringLiteral("--help/a:b"))
            .isEmpty());
    QVERIFY(
        nodecmd::commitCommand(tool, QStringLiteral("d2969b398936"), QStringLiteral("r.lab/a:b c"))
            .isEmpty());

    const QByteArray dir = nodecmd::newPushDirectory();
    QVERIFY2(QRegularExpression(QStringLiteral("^/tmp/gpudesk-push-[0-9a-f]{16}$"))
                 .match(QString::fromLatin1(dir))
                 .hasMatch(),
             dir.constData());
    QVERIFY(nodecmd::newPushDirectory() != dir);
    const QByteArray login = nodecmd::registryLoginCommand(
        tool, dir, QStringLiteral("alice o'neil"), QStringLiteral("registry.lab:5000"));
    QCOMPARE(login, "mkdir -m 700 " + dir + " && env DOCKER_CONFIG=" + dir +
                        " nerdctl login --username 'alice o'\\''neil' --password-stdin "
                        "'registry.lab:5000' 2>&1");
    QVERIFY(nodecmd::registryLoginCommand(tool, "/tmp/x", QStringLiteral("a"),
                                          QStringLiteral("r.lab"))
                .isEmpty()); // never a directory gpudesk did not name
    QVERIFY(nodecmd::registryLoginCommand(tool, dir, QStringLiteral("-p"), QStringLiteral("r.lab"))
                .isEmpty());
    QCOMPARE(nodecmd::pushCommand(tool, dir, QStringLiteral("r.lab/a/b:c")),
             "env DOCKER_CONFIG=" + dir + " nerdctl -n k8s.io push 'r.lab/a/b:c' 2>&1");
    QCOMPARE(nodecmd::removePushDirectoryCommand(dir), "rm -rf " + dir);
    QVERIFY(nodecmd::removePushDirectoryCommand("/").isEmpty());
}

void TestSaveImagePlan::planOfASave()
{
    const OperationPlan p = SaveImagePlanner::plan(request());
    QVERIFY2(p.refusals.isEmpty(), qPrintable(p.refusals.join(u'\n')));
    QCOMPARE(p.action, QStringLiteral("devenv.save-image"));
    QCOMPARE(p.subject, QStringLiteral("user-alice/dev-alice"));
    QCOMPARE(p.steps.size(), 1);
    const PlanStep &s = p.steps.first();
    QCOMPARE(s.kind, PlanStep::Kind::SaveImage);
    QCOMPARE(s.target.uid, request().podUid);
    QCOMPARE(s.image.toReference(), QStringLiteral("registry.lab:5000/alice/dev:day1"));
    QVERIFY(!s.detail.contains(QStringLiteral("s3cret")));
    QVERIFY(s.detail.contains(QStringLiteral("--password-stdin")));
    QCOMPARE(s.detail.split(u'\n').size(), 5);
    QVERIFY(!p.warnings.join(u' ').contains(QStringLiteral("exists"))); // a new tag
    SaveImageRequest moving = request();
    moving.currentDigest = QStringLiteral("sha256:") + QString(64, u'a');
    const OperationPlan over = SaveImagePlanner::plan(moving);
    QCOMPARE(over.steps.first().image.toDigest, moving.currentDigest);
    QVERIFY(over.warnings.join(u' ').contains(moving.currentDigest));
    QCOMPARE(SaveImagePlanner::defaultTag(QDateTime(QDate(2026, 11, 25), QTime(22, 31))),
             QStringLiteral("20261125-2231"));
}

void TestSaveImagePlan::planRefusesWhatCannotWork()
{
    SaveImageRequest crio = request();
    crio.runtime = QStringLiteral("cri-o://1.28.1");
    QVERIFY(SaveImagePlanner::plan(crio).refusals.join(u' ').contains(QStringLiteral("CRI-O")));
    SaveImageRequest stopped = request();
    stopped.phase = QStringLiteral("Pending");
    QVERIFY(
        SaveImagePlanner::plan(stopped).refusals.join(u' ').contains(QStringLiteral("Pending")));
    SaveImageRequest anonymous = request();
    anonymous.credentials = {};
    QVERIFY(SaveImagePlanner::plan(anonymous).refusals.join(u' ').contains(
        QStringLiteral("No credentials")));
    SaveImageRequest token = request();
    token.credentials.secret.clear();
    token.credentials.identityToken = QStringLiteral("tok");
    QVERIFY(SaveImagePlanner::plan(token).refusals.join(u' ').contains(QStringLiteral("token")));
    SaveImageRequest upper = request();
    upper.repository = QStringLiteral("Alice/Dev");
    QVERIFY(SaveImagePlanner::plan(upper).refusals.join(u' ').contains(
        QStringLiteral("not a reference")));
    SaveImageRequest plain = request();
    plain.plainHttp = true;
    QVERIFY(
        SaveImagePlanner::plan(plain).warnings.join(u' ').contains(QStringLiteral("plain HTTP")));
}

void TestSaveImagePlan::pushedDigest()
{
    const QString d = QStringLiteral("sha256:") + QString(64, u'0').replace(0, 4, u"beef"_qs);
    QCOMPARE(SaveImageStep::pushedDigest("layer-sha256:1: done\nmanifest-" + d.toUtf8() +
                                         ": done\nelapsed: 0.1 s\n"),
             d);
    QCOMPARE(SaveImageStep::pushedDigest("The push refers to repository [r.lab/a]\n5f70bf18a086: "
                                         "Pushed\nday1: digest: " +
                                         d.toUtf8() + " size: 528\n"),
             d);
    QCOMPARE(SaveImageStep::pushedDigest("nothing said\n"), QString());
}

QTEST_MAIN(TestSaveImagePlan)
#include "tst_saveimageplan.moc"
