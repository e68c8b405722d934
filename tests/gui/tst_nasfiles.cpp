// SPDX-License-Identifier: GPL-3.0-or-later
// The NAS's files over SFTP (issue 38, part 2), on a simulator of the test's own whose NAS is a
// real directory tree: a folder browsed, a folder downloaded (every file's bytes equal the
// NAS's, links not followed and said), a file and a folder uploaded (a folder again: what is
// there kept, a file changed there never replaced), a download cancelled half-way and asked
// again going on where it stopped, and the hostile corner (a name with a newline, a link to
// /etc, an unreadable folder) — nothing followed out of the NAS. Removing and moving through the
// operations framework: the plan and its check, the folder's name typed, the removal verified
// gone and by the NAS's free space, a target changed since the plan skipped, a path reached
// through a link refused, the audit.
#include "appsettings.h"
#include "clustersession.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "jobchecker.h"
#include "localfiles.h"
#include "nasfiles.h"
#include "nasfilespanel.h"
#include "nasfileviewer.h"
#include "newjobdialog.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationsservice.h"
#include "sshpool.h"
#include "storagepage.h"
#include "storageservice.h"
#include "testpaths.h"
#include "windowfixture.h"

#include <QComboBox>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QTemporaryFile>
#include <QTreeWidget>

using namespace gpudesk;

struct Bench;

class TestNasFiles : public QObject, public WindowFixture
{
    Q_OBJECT
    std::unique_ptr<Bench> m_bench;
private slots:
    // Each test on a simulator of its own (its NAS changed by the test before it is not).
    void init();
    void cleanup();
    void browseCopyResume();
    void removeAndMove();
    void launchScripts();
    void nodeChosenOnThePage();
};

// A simulator of the test's own with SSH, the window on it once the nodes answer, and the real
// directory its NAS is.
struct Bench
{
    QTemporaryDir dir;
    QProcess sim;
    std::unique_ptr<Services> services;
    std::unique_ptr<MainWindow> window;
    QString nas;
};

void TestNasFiles::init()
{
    m_bench = std::make_unique<Bench>();
    Bench &b = *m_bench;
    startOwnSim(b.sim, b.dir.path(), true);
    b.services = ownSimServices(b.dir.path());
    QVERIFY(b.services);
    b.window = std::make_unique<MainWindow>(b.services.get());
    b.window->resize(1500, 900);
    b.window->show();
    b.nas = simTruthOf(b.dir.path())[QStringLiteral("nas")][QStringLiteral("root")].toString();
    QVERIFY(QFileInfo(b.nas).isDir());
    // The nodes answer over SSH (their first samples).
    const ClusterSession *session = b.services->session();
    QTRY_VERIFY_WITH_TIMEOUT(session->connection() && session->connection()->pool() &&
                                 session->connection()->pool()->status(u"a100-01"_qs).usable(),
                             60000);
}

void TestNasFiles::cleanup()
{
    m_bench.reset();
}

void TestNasFiles::browseCopyResume()
{
    Bench &b = *m_bench;
    MainWindow &w = *b.window;
    Services *services = b.services.get();
    const QString &nas = b.nas;

    w.showPage(MainWindow::Storage);
    auto *page = static_cast<StoragePage *>(w.page(MainWindow::Storage));
    NasFilesPanel *panel = page->files();
    NasFiles *files = services->nasFiles();
    const auto rowOf = [panel](const QString &name) {
        for (int i = 0; i < panel->view()->topLevelItemCount(); ++i)
            if (panel->view()->topLevelItem(i)->text(0) == name)
                return i;
        return -1;
    };
    page->browse(QStringLiteral("/mnt/user/alice"));
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("code")) >= 0, 20000);
    QVERIFY(rowOf(QStringLiteral("checkpoints")) >= 0);
    QCOMPARE(panel->view()->topLevelItem(rowOf(QStringLiteral("code")))->text(3), tr("folder"));
    save(w, QStringLiteral("storage-files"));

    // A folder downloaded: every file, its bytes; links named and left.
    QTemporaryDir local;
    QSignalSpy finished(files, &NasFiles::finished);

    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("code"))));
    panel->downloadTo(local.path());
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    const auto want = filesBelow(nas + QStringLiteral("/user/alice/code"));
    const auto got = filesBelow(local.filePath(QStringLiteral("code")));
    QVERIFY(want.size() >= 3);
    QCOMPARE(got.keys(), want.keys());
    QVERIFY(got == want);
    QVERIFY2(finished.last().at(1).toString().contains(QStringLiteral("Downloaded")),
             qPrintable(finished.last().at(1).toString()));

    // A file uploaded into the folder shown: the same bytes on the NAS, and listed.
    QByteArray payload(3 << 20, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(payload.data()),
                                          payload.size() / 4);
    const QString up = local.filePath(QStringLiteral("results.bin"));
    {
        QFile f(up);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(payload);
    }
    panel->uploadFile(up);
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    {
        QFile f(nas + QStringLiteral("/user/alice/results.bin"));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        QVERIFY(f.readAll() == payload);
    }
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("results.bin")) >= 0, 10000);
    // Uploaded again: refused, nothing replaced.
    panel->uploadFile(up);
    QVERIFY(finished.wait(60000));
    QVERIFY(!finished.last().at(0).toBool());
    QVERIFY2(finished.last().at(1).toString().contains(QStringLiteral("there already")),
             qPrintable(finished.last().at(1).toString()));

    // A folder uploaded whole: its tree on the NAS byte for byte, a link named and not followed.
    // Asked again it goes on (a file there with its size is kept); one of another size there is
    // left, never replaced.
    QTemporaryDir tree;
    const QString project = tree.filePath(QStringLiteral("proj"));
    QVERIFY(QDir().mkpath(project + QStringLiteral("/src/deep")));
    const QList<std::pair<QString, QByteArray>> projectFiles{
        {QStringLiteral("train.py"), "print('hi')\n"},
        {QStringLiteral("src/deep/w.bin"), payload.left(1 << 20)},
        {QStringLiteral("src/odd\nname $(x).txt"), "odd\n"},
        // A file and another named as a copy's part of it: each keeps its own bytes.
        {QStringLiteral("ckpt.bin"), payload.mid(1 << 20, 300000)},
        {QStringLiteral("ckpt.bin.part"), payload.mid(2 << 20, 1000)}};
    for (const auto &[rel, bytes] : projectFiles) {
        QFile f(project + u'/' + rel);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    QVERIFY(QFile::link(QStringLiteral("/etc"), project + QStringLiteral("/etc-link")));
    const QString nasProject = nas + QStringLiteral("/user/alice/proj");
    panel->uploadFile(project);
    QVERIFY(finished.wait(60000));
    QString said = finished.last().at(1).toString();
    QVERIFY2(finished.last().at(0).toBool() &&
                 said.contains(QStringLiteral("Uploaded 5 file(s)")) &&
                 said.contains(QStringLiteral("etc-link: a link, not followed")),
             qPrintable(said));
    QCOMPARE(filesBelow(nasProject), filesBelow(project));
    QVERIFY(!QFileInfo(nasProject + QStringLiteral("/etc-link")).exists());
    {
        QFile f(nasProject + QStringLiteral("/train.py"));
        QVERIFY(f.open(QIODevice::Append));
        f.write("# edited on the NAS\n");
    }
    // ckpt.bin gone from the NAS, its namesake part there whole: ckpt.bin is copied afresh, not
    // gone on with into the other file.
    QVERIFY(QFile::remove(nasProject + QStringLiteral("/ckpt.bin")));
    panel->uploadFile(project);
    QVERIFY(finished.wait(60000));
    said = finished.last().at(1).toString();
    QVERIFY2(finished.last().at(0).toBool() &&
                 said.contains(QStringLiteral("Uploaded 4 file(s)")) &&
                 said.contains(QStringLiteral("3 of them were there from a copy that broke")) &&
                 said.contains(QStringLiteral("/mnt/user/alice/proj/train.py is there already")),
             qPrintable(said));
    QVERIFY(filesBelow(nasProject).value(QStringLiteral("train.py")).endsWith("on the NAS\n"));
    {
        auto onNas = filesBelow(nasProject), here = filesBelow(project);
        onNas.remove(QStringLiteral("train.py"));
        here.remove(QStringLiteral("train.py"));
        QVERIFY(onNas == here);
    }
    // The same folder downloaded, then again with ckpt.bin gone here: the same on both sides.
    // (Asked of the service: the panel's rows are being listed again after the upload.)
    QTemporaryDir back;
    RemoteFile proj;
    proj.name = QStringLiteral("proj");
    proj.path = QStringLiteral("/mnt/user/alice/proj");
    proj.type = 'd';
    for (int round = 0; round < 2; ++round) {
        files->download(proj, back.path());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
        QCOMPARE(filesBelow(back.filePath(QStringLiteral("proj"))), filesBelow(nasProject));
        if (round == 0)
            QVERIFY(QFile::remove(back.filePath(QStringLiteral("proj/ckpt.bin"))));
    }

    // A big file (sparse on the NAS: 256 MiB, its first and last 64 KiB random): cancelled early,
    // then asked again — it goes on from where it stopped, and both ends arrive whole.
    constexpr qint64 Big = 256LL << 20;
    QByteArray head(64 << 10, Qt::Uninitialized), tail(64 << 10, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(head.data()),
                                          head.size() / 4);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(tail.data()),
                                          tail.size() / 4);
    {
        QFile f(nas + QStringLiteral("/user/alice/big.bin"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(head);
        QVERIFY(f.seek(Big - tail.size()));
        f.write(tail);
    }
    panel->go(QStringLiteral("/mnt/user/alice"));
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("big.bin")) >= 0, 10000);
    // Asked of the service: the panel lists the folder again after each copy, and a row chosen
    // before that listing is gone from under the choice (a download of nothing, never ending).
    RemoteFile bigFile;
    bigFile.name = QStringLiteral("big.bin");
    bigFile.path = QStringLiteral("/mnt/user/alice/big.bin");
    bigFile.size = Big;
    QTemporaryDir into;
    auto cut = connect(files, &NasFiles::progress, files, [files](qint64 done) {
        if (done > (4 << 20))
            files->cancel();
    });
    files->download(bigFile, into.path());
    QVERIFY(finished.wait(60000));
    disconnect(cut);
    QVERIFY2(!finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    const QString part = into.filePath(QStringLiteral("big.bin.part"));
    const qint64 had = QFileInfo(part).size();
    QVERIFY2(had > 0 && had < Big, qPrintable(QString::number(had)));
    QVERIFY(!QFileInfo::exists(into.filePath(QStringLiteral("big.bin"))));
    QList<qint64> seen;
    auto watch = connect(files, &NasFiles::progress, files, [&seen](qint64 done) { seen << done; });
    files->download(bigFile, into.path());
    QVERIFY(finished.wait(120000));
    disconnect(watch);
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    QVERIFY(!seen.isEmpty());
    QVERIFY2(seen.constFirst() >= had, qPrintable(QString::number(seen.constFirst())));
    QVERIFY(sparseCopyIs(into.filePath(QStringLiteral("big.bin")), Big, head, tail));
    QVERIFY(!QFileInfo::exists(part));

    // The hostile corner: names as data; the link to /etc and the unreadable folder said,
    // nothing from outside the NAS.
    panel->go(QStringLiteral("/mnt/user/frank"));
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("private")) >= 0, 10000);
    const auto onNas = [&nas](const QString &name) {
        QFile f(nas + QStringLiteral("/user/frank/") + name);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(not on the NAS)");
    };
    QTemporaryDir hostile;
    for (const QString &name : {QStringLiteral("notes\nold.txt"), QStringLiteral("$(reboot).txt"),
                                QStringLiteral("-rf")}) {
        panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(name)));
        panel->downloadTo(hostile.path());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
        QFile f(hostile.filePath(name));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(name));
        QCOMPARE(f.readAll(), onNas(name));
    }
    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("etc"))));
    QCOMPARE(panel->current().type, 'l');
    panel->downloadTo(hostile.path());
    QVERIFY(finished.wait(60000));
    QVERIFY(!finished.last().at(0).toBool());
    QVERIFY2(finished.last().at(1).toString().contains(QStringLiteral("is a link")),
             qPrintable(finished.last().at(1).toString()));
    QVERIFY(!QFileInfo::exists(hostile.filePath(QStringLiteral("etc"))));
    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("private"))));
    panel->downloadTo(hostile.path());
    QVERIFY(finished.wait(60000));
    said = finished.last().at(1).toString();
    QVERIFY2(said.contains(QStringLiteral("/mnt/user/frank/private: permission denied")),
             qPrintable(said));
    QCOMPARE(filesBelow(hostile.path()).size(), 3);

    // Read in place: a link is not opened (it may lead anywhere); a log of 3 MiB shows its last
    // MiB from a line's start, ending with its last line; a script shows whole, as on the NAS.
    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("etc"))));
    QVERIFY(!panel->openCurrent());
    const QString refusal = panel->findChild<QLabel *>(u"nasStatus"_qs)->text();
    QVERIFY2(refusal.contains(u"is a link: links are not followed"_qs), qPrintable(refusal));
    QByteArray log;
    for (int step = 0; log.size() < (3 << 20); ++step)
        log += "step " + QByteArray::number(step) + " loss " + QByteArray::number(step % 97) + '\n';
    {
        QFile f(nas + QStringLiteral("/user/alice/outputs/train.log"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(log);
    }
    panel->go(QStringLiteral("/mnt/user/alice/outputs"));
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("train.log")) >= 0, 10000);
    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("train.log"))));
    NasFileViewer *viewer = panel->openCurrent();
    QVERIFY(viewer);
    QTRY_VERIFY_WITH_TIMEOUT(viewer->isRead(), 20000);
    QVERIFY2(viewer->status()->text().contains(u"its last"_qs),
             qPrintable(viewer->status()->text()));
    const QString shown = viewer->text()->toPlainText();
    QVERIFY(shown.startsWith(u"step "_qs));
    QVERIFY(log.endsWith(shown.toUtf8()));
    QVERIFY(shown.size() <= NasFiles::ViewBytes && shown.size() > NasFiles::ViewBytes - 64);
    save(*viewer, QStringLiteral("storage-file-viewer"));
    viewer->close();
    panel->go(QStringLiteral("/mnt/user/alice/code/llama"));
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("launch.sh")) >= 0, 10000);
    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("launch.sh"))));
    viewer = panel->openCurrent();
    QVERIFY(viewer);
    QTRY_VERIFY_WITH_TIMEOUT(viewer->isRead(), 20000);
    QFile script(nas + QStringLiteral("/user/alice/code/llama/launch.sh"));
    QVERIFY(script.open(QIODevice::ReadOnly));
    QCOMPARE(viewer->text()->toPlainText(), QString::fromUtf8(script.readAll()));
    viewer->close();
}

void TestNasFiles::removeAndMove()
{
    Bench &b = *m_bench;
    MainWindow &w = *b.window;
    Services *services = b.services.get();
    const QString alice = b.nas + QStringLiteral("/user/alice");
    // A finished run's folder: real files, a subfolder, a link to /etc (removed, not followed);
    // and a folder holding a 3 GiB sparse file (its length, but nothing on disk).
    QVERIFY(QDir().mkpath(alice + QStringLiteral("/run-old/logs")));
    // Random bytes: a compressing file system would free less than their length.
    QByteArray payload(4 << 20, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(payload.data()),
                                          payload.size() / 4);
    for (const QString &name :
         {QStringLiteral("run-old/model.bin"), QStringLiteral("run-old/logs/train.log"),
          QStringLiteral("notes.txt")}) {
        QFile f(alice + u'/' + name);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(payload);
    }
    QVERIFY(QFile::link(QStringLiteral("/etc"), alice + QStringLiteral("/run-old/etc")));
    // A link to a folder beside it on the NAS: removed itself, what it points at kept.
    QVERIFY(QDir().mkpath(alice + QStringLiteral("/keepme")));
    {
        QFile f(alice + QStringLiteral("/keepme/important.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep me\n");
    }
    QVERIFY(QFile::link(QStringLiteral("../keepme"), alice + QStringLiteral("/run-old/keep")));
    QVERIFY(QDir().mkpath(alice + QStringLiteral("/run-sparse")));
    {
        QFile f(alice + QStringLiteral("/run-sparse/ckpt.pt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(3LL << 30));
    }
    w.showPage(MainWindow::Storage);
    auto *page = static_cast<StoragePage *>(w.page(MainWindow::Storage));
    NasFilesPanel *panel = page->files();
    NasFiles *files = services->nasFiles();
    const auto select = [panel](const QString &name) {
        for (int i = 0; i < panel->view()->topLevelItemCount(); ++i)
            if (panel->view()->topLevelItem(i)->text(0) == name) {
                panel->view()->setCurrentItem(panel->view()->topLevelItem(i));
                return true;
            }
        return false;
    };
    page->browse(QStringLiteral("/mnt/user/alice"));
    QTRY_VERIFY_WITH_TIMEOUT(select(QStringLiteral("run-old")), 20000);

    // The folder: planned, checked (what it holds), its name typed, removed, verified.
    panel->removeSelected();
    auto *dialog = w.findChild<OperationDialog *>(QStringLiteral("operationDialog"));
    QVERIFY(dialog);
    Operation *op = dialog->operation();
    QCOMPARE(op->plan().action, QStringLiteral("nas.remove"));
    QCOMPARE(op->plan().confirmationWord(), QStringLiteral("run-old"));
    QVERIFY(op->plan().refusals.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    const PlanStep &checked = op->plan().steps.constFirst();
    QCOMPARE(checked.dryRun, PlanStep::DryRun::Accepted);
    QVERIFY2(checked.dryRunMessage.contains(QStringLiteral("4 file(s), 2 folder(s), 8.0Mi in it")),
             qPrintable(checked.dryRunMessage));
    auto *run = dialog->findChild<QPushButton *>(QStringLiteral("runButton"));
    auto *confirm = dialog->findChild<QLineEdit *>(QStringLiteral("confirmEdit"));
    QVERIFY(run && confirm && confirm->isVisible());
    QVERIFY(!run->isEnabled());
    QTest::keyClicks(confirm, QStringLiteral("run-old"));
    QVERIFY(run->isEnabled());
    save(*dialog, QStringLiteral("storage-remove-plan"));
    QSignalSpy changed(files, &NasFiles::changed);
    QTest::mouseClick(run, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    StepOutcome o = op->outcomes().constFirst();
    QVERIFY2(o.result == StepOutcome::Result::Done,
             qPrintable(o.message + u" | " + o.verification));
    QVERIFY2(o.message.contains(QStringLiteral("removed 4 file(s), 8.0Mi")), qPrintable(o.message));
    QVERIFY2(
        o.verification.contains(QStringLiteral("/mnt/user/alice/run-old is gone; /mnt/user has")) &&
            o.verification.contains(QStringLiteral("(8.0Mi more than before)")),
        qPrintable(o.verification));
    QVERIFY(!QFileInfo::exists(alice + QStringLiteral("/run-old")));
    QVERIFY(QFileInfo::exists(alice + QStringLiteral("/keepme/important.txt")));
    int records = 0;
    for (const QJsonObject &r : services->operations()->audit().read())
        if (r[QStringLiteral("operation")].toString() == op->id()) {
            ++records;
            QVERIFY(QJsonDocument(r).toJson().contains("/mnt/user/alice/run-old"));
        }
    QCOMPARE(records, 2);
    QVERIFY(changed.count() > 0 || changed.wait(5000));
    save(*dialog, QStringLiteral("storage-remove-done"));
    dialog->close();
    QTRY_VERIFY(!w.findChild<OperationDialog *>(QStringLiteral("operationDialog")));
    QTRY_VERIFY_WITH_TIMEOUT(!select(QStringLiteral("run-old")), 10000);

    // Deleted is not freed: 3 GiB gone from the listing, nothing back on the NAS's disk — said.
    QVERIFY(select(QStringLiteral("run-sparse")));
    panel->removeSelected();
    dialog = w.findChild<OperationDialog *>(QStringLiteral("operationDialog"));
    QVERIFY(dialog);
    op = dialog->operation();
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    QTest::keyClicks(dialog->findChild<QLineEdit *>(QStringLiteral("confirmEdit")),
                     QStringLiteral("run-sparse"));
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("runButton")),
                      Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    o = op->outcomes().constFirst();
    QVERIFY2(o.result == StepOutcome::Result::Unverified, qPrintable(o.message));
    QVERIFY2(o.verification.contains(QStringLiteral("free space did not grow")) &&
                 o.verification.contains(QStringLiteral("sparse")),
             qPrintable(o.verification));
    QVERIFY(!QFileInfo::exists(alice + QStringLiteral("/run-sparse")));
    dialog->close();
    QTRY_VERIFY(!w.findChild<OperationDialog *>(QStringLiteral("operationDialog")));

    // A file changed between the check and the run: skipped, still there.
    QTRY_VERIFY_WITH_TIMEOUT(select(QStringLiteral("notes.txt")), 10000);
    panel->removeSelected();
    dialog = w.findChild<OperationDialog *>(QStringLiteral("operationDialog"));
    QVERIFY(dialog);
    op = dialog->operation();
    QVERIFY(!op->plan().needsTypedConfirmation()); // one file: a click
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    {
        QFile f(alice + QStringLiteral("/notes.txt"));
        QVERIFY(f.open(QIODevice::Append));
        f.write("one more line\n");
    }
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("runButton")),
                      Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    o = op->outcomes().constFirst();
    QVERIFY2(o.result == StepOutcome::Result::Skipped, qPrintable(o.message));
    QVERIFY2(o.message.contains(QStringLiteral("changed since the plan")), qPrintable(o.message));
    QVERIFY(QFileInfo::exists(alice + QStringLiteral("/notes.txt")));
    dialog->close();
    QTRY_VERIFY(!w.findChild<OperationDialog *>(QStringLiteral("operationDialog")));

    // Moved into a folder: there, and no longer here; never over a name that is there. Planned
    // from a listing that has the line added (one from before it would be refused as changed,
    // rightly: a full run once planned from it).
    const qint64 grown = QFileInfo(alice + QStringLiteral("/notes.txt")).size();
    panel->go(QStringLiteral("/mnt/user/alice"));
    QTRY_VERIFY_WITH_TIMEOUT(select(QStringLiteral("notes.txt")) && panel->current().size == grown,
                             10000);
    panel->moveCurrentTo(QStringLiteral("/mnt/user/alice/code"));
    dialog = w.findChild<OperationDialog *>(QStringLiteral("operationDialog"));
    QVERIFY(dialog);
    op = dialog->operation();
    QCOMPARE(op->plan().steps.constFirst().nas.toPath,
             QStringLiteral("/mnt/user/alice/code/notes.txt"));
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("runButton")),
                      Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    o = op->outcomes().constFirst();
    QVERIFY2(o.result == StepOutcome::Result::Done,
             qPrintable(o.message + u" | " + o.verification));
    QVERIFY(QFileInfo::exists(alice + QStringLiteral("/code/notes.txt")));
    QVERIFY(!QFileInfo::exists(alice + QStringLiteral("/notes.txt")));
    dialog->close();
    QTRY_VERIFY(!w.findChild<OperationDialog *>(QStringLiteral("operationDialog")));

    // Refused before anything is asked: out of the roots, a root itself, a folder into itself.
    RemoteFile code{QStringLiteral("code"), QStringLiteral("/mnt/user/alice/code"), 'd', 0, 0, 0};
    QVERIFY(!files->planMove(code, QStringLiteral("/etc")).refusals.isEmpty());
    QVERIFY(!files->planMove(code, QStringLiteral("/mnt/user/alice/code/sub")).refusals.isEmpty());
    QVERIFY(!files->planMove(code, QStringLiteral("/mnt/user/../../etc")).refusals.isEmpty());
    QVERIFY(!files
                 ->planRemove({RemoteFile{QStringLiteral("user"), QStringLiteral("/mnt/user"), 'd',
                                          0, 0, 0}})
                 .refusals.isEmpty());
    QVERIFY(!files
                 ->planRemove(
                     {RemoteFile{QStringLiteral("x"),
                                 QStringLiteral("/mnt/user/alice/../../../etc/x"), 'f', 0, 0, 0}})
                 .refusals.isEmpty());

    // Cancelled as it starts: it stops between entries, says so, and the rest stays.
    QVERIFY(QDir().mkpath(alice + u"/many"_qs));
    for (int i = 0; i < 3000; ++i) {
        QFile f(alice + u"/many/f"_qs + QString::number(i));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
    }
    panel->go(u"/mnt/user/alice"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(select(u"many"_qs), 10000);
    OperationDialog *many = w.openOperation(files->planRemove(panel->selected()));
    op = many->operation();
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    QString started;
    QVERIFY2(op->start(&started), qPrintable(started));
    op->cancel();
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    o = op->outcomes().constFirst();
    QVERIFY2(o.result == StepOutcome::Result::Cancelled ||
                 (o.result == StepOutcome::Result::Failed &&
                  o.message.contains(u"the rest is still there"_qs)),
             qPrintable(o.message));
    const int left = int(QDir(alice + u"/many"_qs).entryList(QDir::Files).size());
    QVERIFY2(left > 0 && left <= 3000, qPrintable(QString::number(left)));
    many->close();

    // Several entries with a folder among them: their count is typed.
    const OperationPlan two = files->planRemove(
        {code, RemoteFile{u"notes.txt"_qs, u"/mnt/user/alice/code/notes.txt"_qs, 'f', 1, 0, 0}});
    QVERIFY(two.refusals.isEmpty());
    QVERIFY(two.needsTypedConfirmation());
    QCOMPARE(two.confirmationWord(), u"2"_qs);

    // Reached through a link (frank's loop → .): the check refuses it, nothing is removed.
    const QString victim = b.nas + QStringLiteral("/user/frank/-rf");
    const QFileInfo before(victim);
    QVERIFY(before.exists());
    OperationDialog *through = w.openOperation(files->planRemove(
        {RemoteFile{QStringLiteral("-rf"), QStringLiteral("/mnt/user/frank/loop/-rf"), 'f',
                    before.size(), before.lastModified().toMSecsSinceEpoch() / 1000 * 1000, 0}}));
    op = through->operation();
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    QCOMPARE(op->plan().steps.constFirst().dryRun, PlanStep::DryRun::Refused);
    QVERIFY2(op->plan().steps.constFirst().dryRunMessage.contains(QStringLiteral("through a link")),
             qPrintable(op->plan().steps.constFirst().dryRunMessage));
    // Run anyway (as a plan checked before the link was swapped in would be): refused again.
    QString error;
    QVERIFY2(op->start(&error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 30000);
    QVERIFY2(op->outcomes().constFirst().result == StepOutcome::Result::Refused,
             qPrintable(op->outcomes().constFirst().message));
    through->close();
    QVERIFY(QFileInfo::exists(victim));
}

// The submit check looks at the launch scripts on the NAS (issue 36): the simulator's seeded four
// — alice's good one, bob's dangling link, carol's link out of every mount, dave's without its
// executable bit — each judged as the NAS has it; `--submit --check` says the same, exit 2.
void TestNasFiles::launchScripts()
{
    Bench &b = *m_bench;
    Services *services = b.services.get();
    QTRY_COMPARE_WITH_TIMEOUT(services->state()->state(), ConnectionState::State::Connected, 60000);
    const auto podOf = [](const QString &user, const QStringList &command) {
        const QString home = u"/mnt/user/"_qs + user;
        const QJsonObject c{
            {u"name"_qs, u"train"_qs},
            {u"image"_qs, u"registry.lab/train:1"_qs},
            {u"command"_qs, QJsonArray::fromStringList(command)},
            {u"resources"_qs,
             QJsonObject{{u"limits"_qs, QJsonObject{{u"nvidia.com/gpu"_qs, u"1"_qs}}}}},
            {u"volumeMounts"_qs,
             QJsonArray{QJsonObject{{u"name"_qs, u"home"_qs}, {u"mountPath"_qs, home}}}}};
        return QJsonDocument(
                   QJsonObject{
                       {u"apiVersion"_qs, u"v1"_qs},
                       {u"kind"_qs, u"Pod"_qs},
                       {u"metadata"_qs, QJsonObject{{u"name"_qs, u"script-check"_qs}}},
                       {u"spec"_qs,
                        QJsonObject{{u"containers"_qs, QJsonArray{c}},
                                    {u"volumes"_qs,
                                     QJsonArray{QJsonObject{
                                         {u"name"_qs, u"home"_qs},
                                         {u"hostPath"_qs, QJsonObject{{u"path"_qs, home}}}}}}}}})
            .toJson();
    };
    JobChecker checker(services->store(), services->telemetry());
    checker.setNas(services->nasFiles());
    QSignalSpy ready(&checker, &JobChecker::ready);
    const auto verdictOf = [&](const QString &user, const QStringList &command) {
        QString error;
        if (!checker.checkJson(podOf(user, command), u"user-"_qs + user, &error))
            return StartReason{StartReason::Info, u"undecodable"_qs, error, {}, {}, {}};
        if (!ready.wait(30000))
            return StartReason{StartReason::Info, u"no verdict"_qs, {}, {}, {}, {}};
        for (const StartReason &r : checker.verdict().reasons)
            if (r.code.startsWith(u"launch-script"_qs))
                return r;
        return StartReason{StartReason::Info, u"no launch-script reason"_qs, {}, {}, {}, {}};
    };
    StartReason r = verdictOf(u"alice"_qs, {u"/mnt/user/alice/code/llama/launch.sh"_qs});
    QCOMPARE(r.code, u"launch-script-ok"_qs);
    QCOMPARE(checker.verdict().has(u"launch-script-ok"_qs), true);
    r = verdictOf(u"bob"_qs, {u"/mnt/user/bob/code/run.sh"_qs});
    QCOMPARE(r.code, u"launch-script-dangling"_qs);
    QCOMPARE(checker.verdict().kind, StartVerdict::Never);
    QVERIFY2(r.message.contains(u"/mnt/user/bob/code/missing.sh"_qs), qPrintable(r.message));
    // carol's link leads to the node's /opt, which no node has: the image may — a warning.
    r = verdictOf(u"carol"_qs, {u"bash"_qs, u"/mnt/user/carol/code/start.sh"_qs});
    QCOMPARE(r.code, u"launch-script-link-outside"_qs);
    QCOMPARE(r.severity, StartReason::Warning);
    QVERIFY2(r.message.contains(u"/opt/scripts/start.sh"_qs), qPrintable(r.message));
    // A link into the NAS's shared tree, which her pod does not mount: it cannot start.
    QVERIFY(QFileInfo::exists(b.nas + u"/share/cv/datasets/README.md"_qs));
    QVERIFY(QFile::link(u"/mnt/share/cv/datasets/README.md"_qs,
                        b.nas + u"/user/carol/code/shared-start.sh"_qs));
    r = verdictOf(u"carol"_qs, {u"/mnt/user/carol/code/shared-start.sh"_qs});
    QCOMPARE(r.code, u"launch-script-link-outside"_qs);
    QCOMPARE(r.severity, StartReason::Never);
    QCOMPARE(checker.verdict().kind, StartVerdict::Never);
    // Into that tree, to a file it does not have: dangling, wherever it would be mounted.
    QVERIFY(QFile::link(u"/mnt/share/vision/scripts/start.sh"_qs,
                        b.nas + u"/user/carol/code/gone-start.sh"_qs));
    r = verdictOf(u"carol"_qs, {u"/mnt/user/carol/code/gone-start.sh"_qs});
    QCOMPARE(r.code, u"launch-script-dangling"_qs);
    r = verdictOf(u"dave"_qs, {u"/mnt/user/dave/code/train.sh"_qs});
    QCOMPARE(r.code, u"launch-script-not-executable"_qs);
    QCOMPARE(r.numbers.value(u"mode"_qs).toString(), u"0644"_qs);
    r = verdictOf(u"dave"_qs, {u"sh"_qs, u"/mnt/user/dave/code/train.sh"_qs});
    QCOMPARE(r.code, u"launch-script-ok"_qs);
    r = verdictOf(u"dave"_qs, {u"/mnt/user/dave/code/nothing.sh"_qs});
    QCOMPARE(r.code, u"launch-script-missing"_qs);

    // Headless: the same verdict as JSON, exit 2 (never starts).
    QTemporaryFile job(QDir::tempPath() + u"/job-XXXXXX.json"_qs);
    QVERIFY(job.open());
    job.write(podOf(u"bob"_qs, {u"/mnt/user/bob/code/run.sh"_qs}));
    job.close();
    QProcess cli;
    cli.start(TestPaths::gpudeskBin(),
              {u"--kubeconfig"_qs, b.dir.filePath(u"kubeconfig"_qs), u"--context"_qs,
               u"sim-admin"_qs, u"--ssh-config"_qs, b.dir.filePath(u"ssh_config"_qs),
               u"--submit"_qs, job.fileName(), u"--check"_qs});
    QVERIFY(cli.waitForFinished(120000));
    const QJsonObject out = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    QCOMPARE(cli.exitCode(), 2);
    QCOMPARE(out[u"verdict"_qs].toString(), u"never"_qs);
    bool said = false;
    for (const QJsonValue &reason : out[u"reasons"_qs].toArray())
        said |= reason[u"code"_qs].toString() == u"launch-script-dangling"_qs;
    QVERIFY2(said, QJsonDocument(out).toJson().constData());

    // The form says it as the user types: carol's script is a link out of her mounts.
    MainWindow &w = *b.window;
    w.showPage(MainWindow::Workloads);
    QTest::mouseClick(w.page(MainWindow::Workloads)->findChild<QPushButton *>(u"newTrainingJob"_qs),
                      Qt::LeftButton);
    NewJobDialog *form = w.findChild<NewJobDialog *>(u"newJobDialog"_qs);
    QVERIFY(form);
    form->nameEdit()->setText(u"carol-sft"_qs);
    form->findChild<QComboBox *>(u"jobNamespace"_qs)->setCurrentText(u"user-carol"_qs);
    form->imageBox()->setCurrentText(u"registry.lab.internal/train/llm:2.3"_qs);
    form->dataEdit()->setPlainText(u"/mnt/user/carol"_qs);
    form->commandEdit()->setPlainText(u"/mnt/user/carol/code/shared-start.sh --epochs 3"_qs);
    form->gpusBox()->setValue(1);
    QTRY_VERIFY_WITH_TIMEOUT(
        !form->isChecking() && form->verdict().has(u"launch-script-link-outside"_qs), 30000);
    QCOMPARE(form->verdict().kind, StartVerdict::Never);
    QVERIFY(!form->submitButton()->isEnabled());
    save(*form, u"newjob-launch-script"_qs);
    form->reject();
}

// The node the NAS is walked on, chosen on the page (it was a setting only): listed among the
// nodes gpudesk reaches over SSH, kept per context, and the next walk runs there.
void TestNasFiles::nodeChosenOnThePage()
{
    Bench &b = *m_bench;
    MainWindow &w = *b.window;
    StorageService *storage = b.services->storage();
    w.showPage(MainWindow::Storage);
    auto *page = static_cast<StoragePage *>(w.page(MainWindow::Storage));
    QComboBox *box = page->nodeBox();
    QTRY_VERIFY_WITH_TIMEOUT(box->findData(u"g4090-03"_qs) > 0, 20000);
    QCOMPARE(box->itemData(0).toString(), QString()); // any that answers, first
    QCOMPARE(box->currentIndex(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!storage->isMeasuring(), 60000); // its own walk, if one was due
    const int at = box->findData(u"g4090-03"_qs);
    box->setCurrentIndex(at);
    emit box->activated(at);
    QCOMPARE(storage->node(), u"g4090-03"_qs);
    QCOMPARE(AppSettings::storage(b.services->session()->context()).node, u"g4090-03"_qs);
    storage->measureNow();
    QVERIFY2(storage->isMeasuring(), qPrintable(storage->unavailableReason()));
    QTRY_VERIFY_WITH_TIMEOUT(!storage->isMeasuring(), 60000);
    QVERIFY(!storage->measures().isEmpty());
    for (const StorageRootMeasure &m : storage->measures())
        QCOMPARE(m.node, u"g4090-03"_qs);
    QCOMPARE(box->currentData().toString(), u"g4090-03"_qs); // shown as chosen after the walk
    save(w, QStringLiteral("storage-node"));
    emit box->activated(0);
    QCOMPARE(storage->node(), QString());
}

QTEST_MAIN(TestNasFiles)
#include "tst_nasfiles.moc"
