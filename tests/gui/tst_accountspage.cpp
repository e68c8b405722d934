// SPDX-License-Identifier: GPL-3.0-or-later
// The Users and VCs pages end to end on a simulator of their own: a user made through the form
// and its plan, handed a kubeconfig through its dialog (the access review shown first), which
// kubectl then uses — allowed at home, forbidden next door, refused over quota — and revoked
// (kubectl gets 401); a VC's form saying what a resize would admit, and refusing what Volcano's
// webhook would let through. Screenshots under build/dev/screenshots.
#include "clusterstore.h"
#include "csvimportdialog.h"
#include "kubeconfigdialog.h"
#include "mainwindow.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationrun.h"
#include "queuedialog.h"
#include "queuesmodel.h"
#include "services.h"
#include "simprocess.h"
#include "userdetailpanel.h"
#include "userdialog.h"
#include "usersmodel.h"
#include "userspage.h"
#include "vcspage.h"
#include "workloadresolver.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestAccountsPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void pagesCountTheSameJobs();
    void userThroughTheWindow();
    void vcForm();
    void csvImportStaysResponsive();

private:
    // Runs the operation the window shows (typing the confirmation when one is asked).
    static Operation *runShown(QWidget *window);
    static QString kubectl(const QString &kubeconfig, const QStringList &args, int *exit);
    static void save(QWidget &w, const QString &name)
    {
        QDir().mkpath(QStringLiteral("screenshots"));
        QCoreApplication::sendPostedEvents();
        QVERIFY(w.grab().save(QStringLiteral("screenshots/") + name + QStringLiteral(".png")));
    }

    SimProcess m_sim;
    QTemporaryDir m_data;
};

void TestAccountsPage::initTestCase()
{
    qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    QString error;
    QVERIFY2(
        m_sim.start({QStringLiteral("--speed"), QStringLiteral("5"), QStringLiteral("--no-ssh")},
                    &error),
        qPrintable(error));
}

Operation *TestAccountsPage::runShown(QWidget *window)
{
    return gpudesk::testing::runShown(
        window, [](QWidget &d) { save(d, QStringLiteral("user-operation-done")); });
}

QString TestAccountsPage::kubectl(const QString &kubeconfig, const QStringList &args, int *exit)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(qEnvironmentVariable("KUBECTL", QStringLiteral("kubectl")),
            QStringList{QStringLiteral("--kubeconfig"), kubeconfig} + args);
    *exit = p.waitForFinished(60000) ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAll());
}

void TestAccountsPage::pagesCountTheSameJobs()
{
    // The Overview, the Users page and the VCs page say the same of the same jobs at one moment
    // (issue 34: "0 pending" beside three Pending jobs; the VCs page counted Volcano's pod
    // groups). The simulator runs on: the check is retried until a moment when nothing moves.
    auto s = m_sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    MainWindow w(s.get());
    w.resize(1500, 900);
    w.show();
    const ClusterStore &store = *s->store();
    auto *vcs = qobject_cast<VcsPage *>(w.page(MainWindow::Vcs));
    auto *users = qobject_cast<UsersPage *>(w.page(MainWindow::Users));
    QVERIFY(vcs && users);
    QString why;
    const auto agree = [&] {
        const WorkloadCounts all = WorkloadResolver::counts(store);
        if (all.total() == 0)
            return (why = u"no jobs yet"_qs), false;
        // The Overview's card: running, and the rest in its subtitle.
        const QStringList texts = [&] {
            QStringList out;
            for (const QLabel *l : w.page(MainWindow::Overview)->findChildren<QLabel *>())
                out << l->text();
            return out;
        }();
        const QString subtitle = QStringLiteral("%1 waiting (%2 stuck) · %3 failed · %4 finished")
                                     .arg(all.waiting)
                                     .arg(all.stuck)
                                     .arg(all.failed)
                                     .arg(all.finished);
        if (!texts.contains(QString::number(all.running)) || !texts.contains(subtitle))
            return (why = u"Overview: "_qs + texts.join(u'|')), false;
        // The VCs page: each VC's running and waiting jobs; together, the cluster's.
        QAbstractItemModel *m = vcs->view()->model();
        const QHash<QString, WorkloadCounts> byVc = WorkloadResolver::countsByVc(store);
        int running = 0, waiting = 0;
        for (int r = 0; r < m->rowCount(); ++r) {
            const QString vc = m->index(r, QueuesModel::Name).data().toString();
            const QString shown = m->index(r, QueuesModel::Jobs).data().toString();
            const QString expected = QStringLiteral("%1 running, %2 waiting")
                                         .arg(byVc.value(vc).running)
                                         .arg(byVc.value(vc).waiting);
            if (shown != expected)
                return (why = vc + u": "_qs + shown + u" ≠ "_qs + expected), false;
            running += byVc.value(vc).running;
            waiting += byVc.value(vc).waiting;
        }
        // The Users page: each user's running jobs, as the function counts their namespace.
        UsersModel *um = users->model();
        for (int r = 0; r < um->rowCount(); ++r) {
            const QString ns = um->index(r, UsersModel::Namespace).data().toString();
            const QString shown = um->index(r, UsersModel::Running).data().toString();
            if (shown != QString::number(WorkloadResolver::countsIn(store, ns).running))
                return (why = ns + u" running: "_qs + shown), false;
        }
        if (running != all.running || waiting != all.waiting)
            return (why = u"VCs add up to %1 running, %2 waiting"_qs.arg(running).arg(waiting)),
                   false;
        return true;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(agree(), qPrintable(why), 30000);
}

void TestAccountsPage::userThroughTheWindow()
{
    auto s = m_sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    MainWindow w(s.get());
    w.resize(1500, 900);
    w.show();
    w.showPage(MainWindow::Users);
    auto *page = qobject_cast<UsersPage *>(w.page(MainWindow::Users));
    QVERIFY(page);
    // The demo's twelve users, with their quotas as the API server counts them.
    QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 12, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(page->model()->summary(QStringLiteral("user-alice")) &&
                                 page->model()
                                     ->summary(QStringLiteral("user-alice"))
                                     ->hardOf(QStringLiteral("nvidia.com/gpu")),
                             20000);
    page->selectUser(QStringLiteral("user-alice"));
    QTRY_VERIFY_WITH_TIMEOUT(page->detail()->isLoaded(), 20000);
    save(w, QStringLiteral("page-users"));

    // A new user through the form.
    auto *form = qobject_cast<UserDialog *>(page->newUser());
    QVERIFY(form);
    auto *ok = form->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled()); // no name yet
    QTest::keyClicks(form->nameEdit(), QStringLiteral("Li_si"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(form->problems()->text().contains(QLatin1String("not a valid user name")),
             qPrintable(form->problems()->text()));
    form->nameEdit()->clear();
    QTest::keyClicks(form->nameEdit(), QStringLiteral("lisi"));
    form->findChild<QComboBox *>(QStringLiteral("userVc"))->setCurrentText(QStringLiteral("nlp"));
    auto *gpus = form->findChild<QLineEdit *>(QStringLiteral("quota:requests.nvidia.com/gpu"));
    gpus->setText(QStringLiteral("2"));
    // The cluster's roles arrive from the server; gpudesk-viewer is chosen for cluster-wide read.
    QTRY_VERIFY_WITH_TIMEOUT(form->findChild<QComboBox *>(QStringLiteral("userRole"))->count() > 1,
                             20000);
    QVERIFY(ok->isEnabled());
    save(*form, QStringLiteral("user-new"));
    QTest::mouseClick(ok, Qt::LeftButton);
    Operation *made = runShown(&w);
    QVERIFY(made);
    QCOMPARE(made->count(StepOutcome::Result::Done), int(made->plan().steps.size()));
    QTRY_VERIFY_WITH_TIMEOUT(page->model()->rowOf(QStringLiteral("user-lisi")) >= 0, 20000);
    page->selectUser(QStringLiteral("user-lisi"));
    QTRY_VERIFY_WITH_TIMEOUT(page->detail()->isLoaded(), 20000);
    QCOMPARE(page->detail()->driftLabel()->text(),
             QStringLiteral("Everything is as gpudesk makes it."));
    save(w, QStringLiteral("page-users-new"));

    // The kubeconfig: what the user may do first, then the file.
    auto *kc = qobject_cast<KubeconfigDialog *>(page->handOutKubeconfig());
    QVERIFY(kc);
    QSignalSpy reviewed(kc, &KubeconfigDialog::accessReviewed);
    QVERIFY(reviewed.wait(30000));
    QStringList answers;
    for (int r = 0; r < kc->access()->rowCount(); ++r)
        answers << kc->access()->item(r, 0)->text() + u'=' + kc->access()->item(r, 1)->text();
    QVERIFY2(answers.contains(QStringLiteral("create pods=yes")), qPrintable(answers.join(u' ')));
    QVERIFY2(answers.contains(QStringLiteral("read nodes=yes")), qPrintable(answers.join(u' ')));
    QVERIFY2(answers.contains(QStringLiteral("read other users' pods=no")),
             qPrintable(answers.join(u' ')));
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("lisi.kubeconfig"));
    kc->pathEdit()->setText(file);
    kc->resize(820, 640);
    save(*kc, QStringLiteral("user-kubeconfig"));
    QSignalSpy written(kc, &KubeconfigDialog::written);
    QTest::mouseClick(kc->writeButton(), Qt::LeftButton);
    QVERIFY(written.wait(30000));
    QVERIFY2(written.first().first().toBool(), qPrintable(kc->result()->text()));
    QVERIFY(kc->result()->text().contains(file));
    save(*kc, QStringLiteral("user-kubeconfig-written"));
    kc->close();

    // kubectl, not gpudesk, with what was handed out.
    int exit = -1;
    QString out = kubectl(file, {QStringLiteral("get"), QStringLiteral("pods")}, &exit);
    QVERIFY2(exit == 0, qPrintable(out));
    out = kubectl(file,
                  {QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-n"),
                   QStringLiteral("user-bob")},
                  &exit);
    QVERIFY2(exit != 0 && out.contains(QLatin1String("Forbidden")), qPrintable(out));
    out = kubectl(file,
                  {QStringLiteral("run"), QStringLiteral("too-big"),
                   QStringLiteral("--image=pytorch/pytorch:2.1"),
                   QStringLiteral("--overrides={\"spec\":{\"containers\":[{\"name\":\"too-big\","
                                  "\"image\":\"pytorch/pytorch:2.1\",\"resources\":{\"limits\":{"
                                  "\"nvidia.com/gpu\":\"3\"}}}]}}")},
                  &exit);
    QVERIFY2(exit != 0 && out.contains(QLatin1String("exceeded quota")), qPrintable(out));

    // Revoked from the page: the same file gets 401.
    page->revokeTokens();
    Operation *revoked = runShown(&w);
    QVERIFY(revoked);
    QCOMPARE(revoked->outcomes().first().result, StepOutcome::Result::Done);
    out = kubectl(file, {QStringLiteral("get"), QStringLiteral("pods")}, &exit);
    QVERIFY2(exit != 0 && out.contains(QLatin1String("Unauthorized")), qPrintable(out));
}

void TestAccountsPage::vcForm()
{
    auto s = m_sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    MainWindow w(s.get());
    w.resize(1500, 900);
    w.show();
    w.showPage(MainWindow::Vcs);
    auto *page = qobject_cast<VcsPage *>(w.page(MainWindow::Vcs));
    QTRY_VERIFY_WITH_TIMEOUT(page->model()->rowOf(QStringLiteral("speech")) >= 0, 20000);
    page->selectVc(QStringLiteral("speech"));
    // The VC's row comes with the queues; its jobs with the pods and jobs, later under load
    // (QTRY's default 5 s was too little for the ASan build beside three other tests).
    QTRY_VERIFY_WITH_TIMEOUT(page->detail()->text().contains(QLatin1String("asr-conformer")),
                             30000);
    save(w, QStringLiteral("page-vcs"));
    // Each job in the state the Workloads page and the counts give it: a Volcano pod group is
    // "Completed" for a failed job too (issue 34: three Failed jobs listed as Completed).
    page->selectVc(QStringLiteral("nlp"));
    QStringList failed, groupPhases;
    for (const auto &[uid, g] : s->store()->objects<PodGroupInfo>(Resource::PodGroups))
        if (g.vc == QLatin1String("nlp") && !g.owner.uid.isEmpty())
            if (const auto wl = s->store()->workload(g.owner.uid);
                wl && wl->status == QLatin1String("Failed")) {
                failed << g.owner.name;
                groupPhases << g.phase;
            }
    QVERIFY(!failed.isEmpty());
    QVERIFY2(!groupPhases.contains(u"Failed"_qs), qPrintable(groupPhases.join(u' ')));
    QTRY_VERIFY_WITH_TIMEOUT(page->detail()->text().contains(u"/%1: Failed"_qs.arg(failed.first())),
                             30000);
    for (const QString &job : std::as_const(failed))
        QVERIFY2(page->detail()->text().contains(u"/%1: Failed"_qs.arg(job)) &&
                     !page->detail()->text().contains(u"/%1: Completed"_qs.arg(job)),
                 qPrintable(job + u'\n' + page->detail()->text()));
    page->selectVc(QStringLiteral("speech"));
    auto *form = qobject_cast<QueueDialog *>(page->editVc());
    QVERIFY(form);
    form->amount(QStringLiteral("capability"), QStringLiteral("nvidia.com/gpu"))
        ->setText(QStringLiteral("16"));
    QVERIFY2(form->canPlan(), qPrintable(form->errors()->text()));
    QVERIFY2(
        form->effects()->text().contains(QLatin1String("would be admitted: chenjie/asr-conformer")),
        qPrintable(form->effects()->text()));
    save(*form, QStringLiteral("vc-edit"));
    form->amount(QStringLiteral("deserved"), QStringLiteral("nvidia.com/gpu"))
        ->setText(QStringLiteral("32"));
    QVERIFY(!form->canPlan());
    QVERIFY2(form->errors()->text().contains(QLatin1String("above the capability")),
             qPrintable(form->errors()->text()));
    save(*form, QStringLiteral("vc-edit-refused"));
    form->close();
}

void TestAccountsPage::csvImportStaysResponsive()
{
    // Issue 33: a users CSV of 2 million one-letter lines held the UI thread 33 s and took
    // 4.87 GB while the dialog was open. Read on a worker, bounded, said.
    ClusterStore store(nullptr, [] { return QDateTime::currentMSecsSinceEpoch(); });
    QTemporaryDir dir;
    QFile huge(dir.filePath(u"class.csv"_qs));
    QVERIFY(huge.open(QIODevice::WriteOnly));
    huge.write("name\n");
    const QByteArray block = QByteArray("a\n").repeated(64 * 1024);
    for (int i = 0; i < 32; ++i)
        huge.write(block);
    huge.close();
    CsvImportDialog d(&store);
    QSignalSpy loaded(&d, &CsvImportDialog::loaded);
    d.load(huge.fileName());
    QVERIFY(d.isLoading()); // load() returned before the file was read
    // Read on a worker: how long it takes is not what is tested (over 30 s under ASan beside
    // three other tests), only that the thread is not held and what is said.
    QVERIFY(loaded.wait(180000));
    auto *summary = d.findChild<QLabel *>(QStringLiteral("csvSummary"));
    QVERIFY2(summary->text().startsWith(u"More than 10000 users in one file"_qs),
             qPrintable(summary->text()));
    auto *buttons = d.findChild<QDialogButtonBox *>();
    QVERIFY(!buttons->button(QDialogButtonBox::Ok)->isEnabled());
    QCOMPARE(d.table()->rowCount(), 0);
    // A class list is read as before.
    QFile list(dir.filePath(u"list.csv"_qs));
    QVERIFY(list.open(QIODevice::WriteOnly));
    list.write("name,vc,gpus\nann,cv,2\nbo,,1\nBad Name,,1\n");
    list.close();
    d.load(list.fileName());
    QVERIFY(loaded.wait(30000));
    QCOMPARE(d.table()->rowCount(), 3);
    QCOMPARE(d.users().size(), 2);
}

QTEST_MAIN(TestAccountsPage)
#include "tst_accountspage.moc"
