// SPDX-License-Identifier: GPL-3.0-or-later
// The NAS's files for a researcher without SSH to the nodes (issue 38, part 2): the same browser
// and the same copies through her running dev environment pod, over the API's exec — on a
// simulator of the test's own whose NAS is a real directory tree and whose dev-alice pod mounts
// alice's NFS folder at /mnt/user/alice and the share at /mnt/share. Browsed from /mnt/user (her
// folder only), the pod named; a folder downloaded byte for
// byte; a big file's download cut by the API server (the stream dropped, as a load balancer
// does) and asked again, going on where it stopped; a folder uploaded, and an upload that broke
// gone on with; hostile names as data, a link to /etc named and not followed, a path the pod
// does not mount refused in words; a log read in place; a folder removed and a file moved as
// operations through the pod (its check, the typed name, the audit), one changed since its plan
// skipped.
#include "clustersession.h"
#include "contextconnection.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "localfiles.h"
#include "nasfiles.h"
#include "nasfilespanel.h"
#include "nasfileviewer.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationsservice.h"
#include "podfileclient.h"
#include "podnasmounts.h"
#include "storagepage.h"
#include "windowfixture.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTreeWidget>

using namespace gpudesk;

namespace {

QByteArray randomBytes(qsizetype n)
{
    QByteArray b(n, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(b.data()), n / 4);
    return b;
}

bool write(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A POST as the simulator's admin in `dir` (a stream cut): its HTTP status, 0 without answer.
int adminPost(const QString &dir, const QString &path)
{
    QString error;
    const auto config = KubeConfig::load({dir + QStringLiteral("/kubeconfig")}, &error);
    const auto ep = config ? config->endpoint(QStringLiteral("sim-admin"), &error) : std::nullopt;
    if (!ep)
        return 0;
    KubeClient admin(*ep);
    int status = 0;
    admin.create(path, "{}", false, &admin,
                 [&status](const KubeReply &r) { status = r.httpStatus; });
    return QTest::qWaitFor([&] { return status != 0; }, 10000) ? status : 0;
}

} // namespace

class TestNasThroughPod : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void mountsOfAPod();
    void findRecords();
    void researcherThroughHerDevEnvironment();
};

void TestNasThroughPod::mountsOfAPod()
{
    // The sidecar's mounts are not the user's; a hostPath under a root is mapped (a subPath
    // too), a volume mounted under a root is where the nodes have it, one elsewhere is not the
    // NAS; ".." is never taken.
    const QJsonObject pod = QJsonDocument::fromJson(R"({
      "metadata": {"name": "dev-lina-0", "namespace": "user-lina",
                   "labels": {"gpudesk.io/devenv": "dev-lina"}},
      "spec": {
        "containers": [
          {"name": "sidecar", "volumeMounts": [{"name": "user", "mountPath": "/mnt/user/x"}]},
          {"name": "devenv", "volumeMounts": [
            {"name": "home", "mountPath": "/home/lina"},
            {"name": "user", "mountPath": "/mnt/user/lina"},
            {"name": "code", "mountPath": "/workspace"},
            {"name": "data", "mountPath": "/data", "subPath": "imagenet"},
            {"name": "sneaky", "mountPath": "/up"},
            {"name": "user", "mountPath": "/mnt/user/../etc"}]}],
        "volumes": [
          {"name": "home", "persistentVolumeClaim": {"claimName": "dev-lina-home"}},
          {"name": "user", "nfs": {"server": "nas", "path": "/export/user/lina"}},
          {"name": "code", "hostPath": {"path": "/mnt/user/lina/code/"}},
          {"name": "data", "hostPath": {"path": "/mnt/share/cv"}},
          {"name": "sneaky", "hostPath": {"path": "/mnt/user/../../etc"}}]},
      "status": {"phase": "Running"}})")
                                .object();
    const QStringList roots{u"/mnt/user"_qs, u"/mnt/share"_qs};
    const PodNasRoute r = PodNasMounts::of(pod, roots);
    QCOMPARE(r.container, u"devenv"_qs);
    QCOMPARE(r.environment, u"dev-lina"_qs);
    const QList<PodFileClient::Mount> want{{u"/mnt/user/lina"_qs, u"/mnt/user/lina"_qs},
                                           {u"/mnt/user/lina/code"_qs, u"/workspace"_qs},
                                           {u"/mnt/share/cv/imagenet"_qs, u"/data"_qs}};
    QCOMPARE(r.mounts, want);
    // The deepest mount wins; the container's path of a NAS path, nothing for what none holds.
    QCOMPARE(PodFileClient::inContainer(u"/mnt/user/lina/code/run.sh"_qs, r.mounts),
             u"/workspace/run.sh"_qs);
    QCOMPARE(PodFileClient::inContainer(u"/mnt/user/lina/ckpt"_qs, r.mounts),
             u"/mnt/user/lina/ckpt"_qs);
    QCOMPARE(PodFileClient::inContainer(u"/mnt/user/lina2/x"_qs, r.mounts), QString());
    QCOMPARE(PodFileClient::inContainer(u"/mnt/user/lina/../bob"_qs, r.mounts), QString());
    // Another volume mounted deeper over a NAS folder: what lies under it is not the NAS.
    // (a path with ".." is no mount point: it is not taken at all)
    QCOMPARE(r.mountPoints, QStringList({u"/home/lina"_qs, u"/mnt/user/lina"_qs, u"/workspace"_qs,
                                         u"/data"_qs, u"/up"_qs}));
    const QStringList points{u"/mnt/user/lina"_qs, u"/mnt/user/lina/lab"_qs};
    QCOMPARE(PodFileClient::inContainer(u"/mnt/user/lina/lab/x"_qs, r.mounts, points), QString());
    QCOMPARE(PodFileClient::inContainer(u"/mnt/user/lina/lab"_qs, r.mounts, points), QString());
    QCOMPARE(PodFileClient::inContainer(u"/mnt/user/lina/labs"_qs, r.mounts, points),
             u"/mnt/user/lina/labs"_qs);
    // A rename stays within one mount.
    QCOMPARE(PodFileClient::mountOf(u"/mnt/user/lina/a"_qs, r.mounts), 0);
    QCOMPARE(PodFileClient::mountOf(u"/mnt/user/lina/code/a"_qs, r.mounts), 1);
    QCOMPARE(PodFileClient::mountOf(u"/mnt/user/bob/a"_qs, r.mounts), -1);
    // A subPathExpr's folder is known only on the node: not taken.
    QJsonObject expr = pod;
    QJsonObject spec = expr[u"spec"_qs].toObject();
    QJsonArray containers = spec[u"containers"_qs].toArray();
    QJsonObject devenv = containers[1].toObject();
    devenv[u"volumeMounts"_qs] = QJsonArray{QJsonObject{
        {u"name"_qs, u"code"_qs}, {u"mountPath"_qs, u"/w"_qs}, {u"subPathExpr"_qs, u"$(POD)"_qs}}};
    containers[1] = devenv;
    spec[u"containers"_qs] = containers;
    expr[u"spec"_qs] = spec;
    QVERIFY(PodNasMounts::of(expr, roots).mounts.isEmpty());

    // Chosen: a running one with a mount, the context's namespace first.
    QJsonObject pending = pod;
    pending[u"status"_qs] = QJsonObject{{u"phase"_qs, u"Pending"_qs}};
    QJsonObject other = pod;
    QJsonObject meta = other[u"metadata"_qs].toObject();
    meta[u"namespace"_qs] = u"team-cv"_qs;
    meta[u"name"_qs] = u"aaa"_qs;
    other[u"metadata"_qs] = meta;
    QCOMPARE(PodNasMounts::choose({pending}, roots, u"user-lina"_qs).has_value(), false);
    QCOMPARE(PodNasMounts::choose({other, pod}, roots, u"user-lina"_qs)->pod, u"dev-lina-0"_qs);
    QCOMPARE(PodNasMounts::choose({other, pending}, roots, u"user-lina"_qs)->pod, u"aaa"_qs);
    QCOMPARE(PodNasMounts::choose({pod}, {u"/nas"_qs}, u"user-lina"_qs).has_value(), false);
}

void TestNasThroughPod::findRecords()
{
    // GNU find's records: a name with blanks and a newline is the rest of its record.
    const QByteArray out("d 4096 1700000000.1234567890 1700000001.0000000000 755 ckpt\0"
                         "f 12 1700000002.5000000000 1700000003.0000000000 644 a b\nc.txt\0"
                         "l 4 1700000004.0000000000 1700000004.0000000000 777 etc\0"
                         "p 0 1700000005.0000000000 1700000005.0000000000 600 fifo\0",
                         sizeof "d 4096 1700000000.1234567890 1700000001.0000000000 755 ckpt\0"
                                "f 12 1700000002.5000000000 1700000003.0000000000 644 a b\nc.txt\0"
                                "l 4 1700000004.0000000000 1700000004.0000000000 777 etc\0"
                                "p 0 1700000005.0000000000 1700000005.0000000000 600 fifo\0" -
                             1);
    const auto e = PodFileClient::parseFind(out, u"/mnt/user/a/"_qs, true);
    QVERIFY(e);
    QCOMPARE(e->size(), 4);
    QCOMPARE(e->at(0).path, u"/mnt/user/a/ckpt"_qs);
    QCOMPARE(e->at(0).type, 'd');
    QCOMPARE(e->at(0).modified, 1700000000123LL);
    QCOMPARE(e->at(1).name, u"a b\nc.txt"_qs);
    QCOMPARE(e->at(1).size, 12);
    QCOMPARE(e->at(1).modified, 1700000002500LL);
    QCOMPARE(e->at(1).accessed, 1700000003000LL);
    QCOMPARE(e->at(1).permissions & 07777, 0644u);
    QCOMPARE(e->at(2).type, 'l');
    QCOMPARE(e->at(3).type, 'o');
    // A time before 1970 (an unpacked archive's) is a time, not a broken listing.
    const auto old = PodFileClient::parseFind(
        QByteArray("f 1 -1.5000000000 -0.2500000000 644 x\0", 38), u"/a"_qs, true);
    QVERIFY(old && old->size() == 1);
    QCOMPARE(old->first().modified, -1500LL);
    QCOMPARE(old->first().accessed, -250LL);
    // stat's form: no name, the entry is the path asked.
    const auto s = PodFileClient::parseFind(QByteArray("f 5 1.0 2.0 600", 15) + '\0',
                                            u"/mnt/user/a/x"_qs, false);
    QVERIFY(s && s->size() == 1);
    QCOMPARE(s->first().name, u"x"_qs);
    // Malformed: refused, not guessed.
    QVERIFY(!PodFileClient::parseFind(QByteArray("f twelve 1.0 2.0 644 x\0", 24), u"/"_qs, true));
    QVERIFY(!PodFileClient::parseFind(QByteArray("f 1 1.0 2.0 644\0", 16), u"/"_qs, true));
    QVERIFY(!PodFileClient::parseFind(QByteArray("f 1 1.0 2.0 644 a/b\0", 20), u"/"_qs, true));
}

void TestNasThroughPod::researcherThroughHerDevEnvironment()
{
    QTemporaryDir dir;
    QProcess sim;
    const auto stop = qScopeGuard([&sim] {
        sim.kill();
        sim.waitForFinished();
    });
    startOwnSim(sim, dir.path(), false);
    const QString nas =
        simTruthOf(dir.path())[u"nas"_qs][u"root"_qs].toString() + QStringLiteral("/user/alice");
    QVERIFY(QFileInfo(nas).isDir());
    // What the test puts on the NAS (as the node has it): a big file (sparse: 512 MiB, its
    // first and last MiB random), hostile names, a link out.
    constexpr qint64 Big = 512LL << 20;
    const QByteArray head = randomBytes(1 << 20), tail = randomBytes(1 << 20);
    {
        QFile f(nas + QStringLiteral("/big.bin"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(head);
        QVERIFY(f.seek(Big - tail.size()));
        f.write(tail);
    }
    const QByteArray odd = randomBytes(4096);
    for (const QString &name :
         {u"notes\nold.txt"_qs, u"$(touch pwned).txt"_qs, u"-rf"_qs, u"a'b \"c\".txt"_qs})
        QVERIFY(write(nas + QStringLiteral("/odd/") + name, odd + name.toUtf8()));
    QVERIFY(QFile::link(u"/etc"_qs, nas + QStringLiteral("/odd/etc")));

    // Alice: no SSH to the nodes (no telemetry), her dev environment running.
    Services services({dir.filePath(u"kubeconfig"_qs)});
    QString error;
    QVERIFY2(services.session()->loadConfig(&error), qPrintable(error));
    services.session()->connectTo(u"sim-alice"_qs);
    MainWindow w(&services);
    w.resize(1500, 900);
    w.show();
    w.showPage(MainWindow::Storage);
    auto *page = static_cast<StoragePage *>(w.page(MainWindow::Storage));
    NasFilesPanel *panel = page->files();
    NasFiles *files = services.nasFiles();
    QTRY_VERIFY_WITH_TIMEOUT(services.session()->connection(), 20000);
    QVERIFY(!files->reachesNodes());
    const auto rowOf = [panel](const QString &name) {
        for (int i = 0; i < panel->view()->topLevelItemCount(); ++i)
            if (panel->view()->topLevelItem(i)->text(0) == name)
                return i;
        return -1;
    };
    const auto choose = [&](const QString &name) {
        panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(name)));
        return panel->current().name == name;
    };
    auto *status = panel->findChild<QLabel *>(u"nasStatus"_qs);
    auto *route = panel->findChild<QLabel *>(u"nasRoute"_qs);

    // /mnt/user through the pod: her own folder, which the pod mounts — no one else's.
    page->browse(u"/mnt/user"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(u"alice"_qs) >= 0, 30000);
    QCOMPARE(panel->view()->topLevelItemCount(), 1);
    QVERIFY2(route->isVisibleTo(panel) && route->text().contains(u"dev-alice"_qs) &&
                 route->text().contains(u"user-alice"_qs),
             qPrintable(route->text()));
    // Removing and moving go through the pod too (below).
    auto *remove = panel->findChild<QPushButton *>(u"nasRemove"_qs);
    QVERIFY(remove->isEnabled());
    panel->go(u"/mnt/user/alice"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(u"big.bin"_qs) >= 0, 20000);
    QVERIFY(rowOf(u"code"_qs) >= 0 && rowOf(u"checkpoints"_qs) >= 0);
    QCOMPARE(panel->view()->topLevelItem(rowOf(u"big.bin"_qs))->text(1), u"512Mi"_qs);
    save(w, QStringLiteral("storage-files-through-devenv"));
    // Another user's folder is not in the pod: said, not shown.
    panel->go(u"/mnt/user/bob"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(u"not in a folder dev-alice mounts"_qs),
                             20000);

    // A folder downloaded: every file, its bytes.
    QSignalSpy finished(files, &NasFiles::finished);
    QTemporaryDir local;
    RemoteFile code{u"code"_qs, u"/mnt/user/alice/code"_qs, 'd'};
    files->download(code, local.path());
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    const auto want = filesBelow(nas + QStringLiteral("/code"));
    QVERIFY(want.size() >= 3);
    QVERIFY(filesBelow(local.filePath(u"code"_qs)) == want);

    // The big file: the API server drops the stream half-way (as a load balancer cut does);
    // asked again, it goes on from what arrived, and arrives whole.
    RemoteFile bigFile{u"big.bin"_qs, u"/mnt/user/alice/big.bin"_qs, 'f', Big};
    bool dropped = false;
    auto cut = connect(files, &NasFiles::progress, files, [&](qint64 done) {
        if (done > (8 << 20) && !std::exchange(dropped, true))
            adminPost(dir.path(), u"/sim/streams/drop?namespace=user-alice&name=dev-alice"_qs);
    });
    files->download(bigFile, local.path());
    QVERIFY(finished.wait(60000));
    disconnect(cut);
    QVERIFY(dropped);
    const QString part = local.filePath(u"big.bin.part"_qs);
    const qint64 had = QFileInfo(part).size();
    QVERIFY2(!finished.last().at(0).toBool() && had > 0 && had < Big,
             qPrintable(finished.last().at(1).toString() + u' ' + QString::number(had)));
    // Went on, not started over, told by the bytes themselves (no race with the progress
    // ticks): a mark put into what had arrived stays in the file, which is whole otherwise.
    const QByteArray mark("kept from the first try, not fetched again");
    {
        QFile f(part);
        QVERIFY(f.open(QIODevice::ReadWrite) && f.seek(4 << 20) && f.write(mark) == mark.size());
    }
    files->download(bigFile, local.path());
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    QVERIFY(sparseCopyIs(local.filePath(u"big.bin"_qs), Big, head, tail));
    {
        QFile f(local.filePath(u"big.bin"_qs));
        QVERIFY(f.open(QIODevice::ReadOnly) && f.seek(4 << 20));
        QCOMPARE(f.read(mark.size()), mark);
    }
    QVERIFY(!QFileInfo::exists(part));

    // A folder uploaded: its tree on the NAS byte for byte. Then an upload that broke (a part
    // of the file left on the NAS) goes on from there, and the part becomes the file.
    QTemporaryDir tree;
    const QString project = tree.filePath(u"proj"_qs);
    QVERIFY(write(project + QStringLiteral("/train.py"), "print('hi')\n"));
    QVERIFY(write(project + QStringLiteral("/src/deep/w.bin"), randomBytes(3 << 20)));
    QVERIFY(write(project + QStringLiteral("/src/odd\nname $(x).txt"), "odd\n"));
    panel->go(u"/mnt/user/alice"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(panel->dir() == u"/mnt/user/alice"_qs && rowOf(u"code"_qs) >= 0,
                             20000);
    panel->uploadFile(project);
    QVERIFY(finished.wait(60000));
    QString said = finished.last().at(1).toString();
    QVERIFY2(finished.last().at(0).toBool() && said.contains(u"Uploaded 3 file(s)"_qs),
             qPrintable(said));
    QCOMPARE(filesBelow(nas + QStringLiteral("/proj")), filesBelow(project));
    const QByteArray weights = randomBytes(20 << 20);
    QVERIFY(write(tree.filePath(u"weights.bin"_qs), weights));
    // The part on the NAS holds other bytes than the file's first 7 MiB: going on keeps them,
    // starting over would not — the bytes tell which, not the timing of a progress tick.
    const QByteArray firstTry = randomBytes(7 << 20);
    QVERIFY(write(nas + QStringLiteral("/weights.bin.part"), firstTry));
    panel->uploadFile(tree.filePath(u"weights.bin"_qs));
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    {
        QFile f(nas + QStringLiteral("/weights.bin"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll() == firstTry + weights.mid(7 << 20));
    }
    QVERIFY(!QFileInfo::exists(nas + QStringLiteral("/weights.bin.part")));
    // Uploaded again: refused, nothing replaced.
    panel->uploadFile(tree.filePath(u"weights.bin"_qs));
    QVERIFY(finished.wait(60000));
    QVERIFY2(!finished.last().at(0).toBool() &&
                 finished.last().at(1).toString().contains(u"there already"_qs),
             qPrintable(finished.last().at(1).toString()));

    // Hostile names are data; the link to /etc is named and left; nothing ran.
    RemoteFile oddDir{u"odd"_qs, u"/mnt/user/alice/odd"_qs, 'd'};
    QTemporaryDir hostile;
    files->download(oddDir, hostile.path());
    QVERIFY(finished.wait(60000));
    said = finished.last().at(1).toString();
    QVERIFY2(finished.last().at(0).toBool() &&
                 said.contains(u"/mnt/user/alice/odd/etc: a link or special file, not followed"_qs),
             qPrintable(said));
    QVERIFY(filesBelow(hostile.filePath(u"odd"_qs)) == filesBelow(nas + QStringLiteral("/odd")));
    QCOMPARE(filesBelow(hostile.filePath(u"odd"_qs)).size(), 4);
    QVERIFY(!QFileInfo::exists(hostile.filePath(u"odd/etc"_qs)));

    // A log read in place, through the pod as over SFTP.
    panel->go(u"/mnt/user/alice/code/llama"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(u"train.py"_qs) >= 0, 20000);
    QVERIFY(choose(u"train.py"_qs));
    NasFileViewer *viewer = panel->openCurrent();
    QVERIFY(viewer);
    QTRY_VERIFY_WITH_TIMEOUT(viewer->isRead(), 20000);
    QFile script(nas + QStringLiteral("/code/llama/train.py"));
    QVERIFY(script.open(QIODevice::ReadOnly));
    QCOMPARE(viewer->text()->toPlainText(), QString::fromUtf8(script.readAll()));
    viewer->close();

    // Removing and moving through the pod, as operations: the plan, its check (what the folder
    // holds), the folder's name typed, removed depth first — a link to /etc and one to a folder
    // beside it removed themselves, what they point at kept —, verified gone, audited; a file
    // changed since its plan skipped; a move.
    const QByteArray payload = randomBytes(4 << 20);
    QVERIFY(write(nas + QStringLiteral("/run-old/model.bin"), payload));
    QVERIFY(write(nas + QStringLiteral("/run-old/logs/train.log"), payload));
    QVERIFY(write(nas + QStringLiteral("/keepme/important.txt"), "keep me\n"));
    QVERIFY(QFile::link(u"/etc"_qs, nas + QStringLiteral("/run-old/etc")));
    QVERIFY(QFile::link(u"../keepme"_qs, nas + QStringLiteral("/run-old/keep")));
    QVERIFY(write(nas + QStringLiteral("/notes.txt"), "notes\n"));
    QVERIFY(write(nas + QStringLiteral("/draft.txt"), "draft\n"));
    panel->go(u"/mnt/user/alice"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(u"run-old"_qs) >= 0 && rowOf(u"draft.txt"_qs) >= 0, 20000);
    QVERIFY(choose(u"run-old"_qs));
    panel->removeSelected();
    auto *dialog = w.findChild<OperationDialog *>(u"operationDialog"_qs);
    QVERIFY(dialog);
    Operation *op = dialog->operation();
    QCOMPARE(op->plan().action, u"nas.remove"_qs);
    QVERIFY2(op->plan().refusals.isEmpty(), qPrintable(op->plan().refusals.join(u'\n')));
    QCOMPARE(op->plan().steps.constFirst().nas.pod, u"user-alice/dev-alice"_qs);
    QCOMPARE(op->plan().confirmationWord(), u"run-old"_qs);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    const PlanStep &checked = op->plan().steps.constFirst();
    QVERIFY2(checked.dryRun == PlanStep::DryRun::Accepted &&
                 checked.dryRunMessage.contains(u"4 file(s), 2 folder(s), 8.0Mi in it"_qs),
             qPrintable(checked.dryRunMessage));
    QTest::keyClicks(dialog->findChild<QLineEdit *>(u"confirmEdit"_qs), u"run-old"_qs);
    save(*dialog, QStringLiteral("storage-remove-through-devenv"));
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"runButton"_qs), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    StepOutcome o = op->outcomes().constFirst();
    QVERIFY2(o.result == StepOutcome::Result::Done &&
                 o.message.contains(u"removed 4 file(s), 8.0Mi"_qs) &&
                 o.verification.contains(u"/mnt/user/alice/run-old is gone (through a dev"_qs),
             qPrintable(o.message + u" | " + o.verification));
    QVERIFY(!QFileInfo::exists(nas + QStringLiteral("/run-old")));
    QVERIFY(QFileInfo::exists(nas + QStringLiteral("/keepme/important.txt")));
    // The audit: the plan as it started (through which pod), and how it ended.
    int records = 0;
    bool namesThePod = false;
    for (const QJsonObject &r : services.operations()->audit().read())
        if (r[u"operation"_qs].toString() == op->id()) {
            ++records;
            const QByteArray text = QJsonDocument(r).toJson();
            QVERIFY(text.contains("/mnt/user/alice/run-old"));
            namesThePod = namesThePod || text.contains("\"pod\": \"user-alice/dev-alice\"");
        }
    QCOMPARE(records, 2);
    QVERIFY(namesThePod);
    dialog->close();
    QTRY_VERIFY(!w.findChild<OperationDialog *>(u"operationDialog"_qs));

    // A file changed between its plan and the run: skipped, kept.
    QTRY_VERIFY_WITH_TIMEOUT(choose(u"draft.txt"_qs), 20000);
    panel->removeSelected();
    dialog = w.findChild<OperationDialog *>(u"operationDialog"_qs);
    QVERIFY(dialog);
    op = dialog->operation();
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    QVERIFY(write(nas + QStringLiteral("/draft.txt"), "draft, edited since\n"));
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"runButton"_qs), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    o = op->outcomes().constFirst();
    QVERIFY2(o.result == StepOutcome::Result::Skipped &&
                 o.message.contains(u"changed since the plan"_qs),
             qPrintable(o.message));
    QVERIFY(QFileInfo::exists(nas + QStringLiteral("/draft.txt")));
    dialog->close();
    QTRY_VERIFY(!w.findChild<OperationDialog *>(u"operationDialog"_qs));

    // The folder a planned file is in swapped for a link since the plan: refused, nothing
    // removed where the link leads.
    QVERIFY(write(nas + QStringLiteral("/swap/victim.txt"), "planned\n"));
    QVERIFY(write(nas + QStringLiteral("/elsewhere/victim.txt"), "elsewhere\n"));
    panel->go(u"/mnt/user/alice/swap"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(choose(u"victim.txt"_qs), 20000);
    panel->removeSelected();
    dialog = w.findChild<OperationDialog *>(u"operationDialog"_qs);
    QVERIFY(dialog);
    op = dialog->operation();
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    QVERIFY(QDir().rename(nas + QStringLiteral("/swap"), nas + QStringLiteral("/swap-real")));
    QVERIFY(QFile::link(u"elsewhere"_qs, nas + QStringLiteral("/swap")));
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"runButton"_qs), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    o = op->outcomes().constFirst();
    QVERIFY2(o.result == StepOutcome::Result::Refused &&
                 o.message.contains(u"reached through a link"_qs),
             qPrintable(o.message));
    QVERIFY(QFileInfo::exists(nas + QStringLiteral("/elsewhere/victim.txt")));
    dialog->close();
    QTRY_VERIFY(!w.findChild<OperationDialog *>(u"operationDialog"_qs));
    panel->go(u"/mnt/user/alice"_qs);

    // A move into a folder of hers.
    QTRY_VERIFY_WITH_TIMEOUT(choose(u"notes.txt"_qs), 20000);
    panel->moveCurrentTo(u"/mnt/user/alice/keepme"_qs);
    dialog = w.findChild<OperationDialog *>(u"operationDialog"_qs);
    QVERIFY(dialog);
    op = dialog->operation();
    QCOMPARE(op->plan().action, u"nas.move"_qs);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"runButton"_qs), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    o = op->outcomes().constFirst();
    QVERIFY2(o.result == StepOutcome::Result::Done,
             qPrintable(o.message + u" | " + o.verification));
    QVERIFY(!QFileInfo::exists(nas + QStringLiteral("/notes.txt")));
    QFile moved(nas + QStringLiteral("/keepme/notes.txt"));
    QVERIFY(moved.open(QIODevice::ReadOnly));
    QCOMPARE(moved.readAll(), QByteArray("notes\n"));
    dialog->close();
}

QTEST_MAIN(TestNasThroughPod)
#include "tst_nasthroughpod.moc"
