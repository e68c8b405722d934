// SPDX-License-Identifier: GPL-3.0-or-later
// The Storage page's Cleanup tab (issue 38, part 3) on a simulator of the test's own whose NAS is
// a real directory tree: what the walk shows no one needs — a user who left, core dumps older
// than a week, a stale archive — each once with its evidence, not the core dump of six days; a
// user's folder and a core dump removed through the operations framework (their evidence as the
// steps' reasons, the count typed, df's verdict: the folder's blocks freed, the sparse core dump
// unverified); what is gone no longer offered.
#include "clustersession.h"
#include "contextconnection.h"
#include "nascleanuppanel.h"
#include "operation.h"
#include "operationdialog.h"
#include "sshpool.h"
#include "storagepage.h"
#include "storageservice.h"
#include "windowfixture.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>

#include <algorithm>

using namespace gpudesk;

class TestNasCleanupPage : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTab();

private:
    QTemporaryDir m_dir;
    QProcess m_sim;
    std::unique_ptr<Services> m_services;
    std::unique_ptr<MainWindow> m_window;
    QString m_nas;
};

void TestNasCleanupPage::initTestCase()
{
    startOwnSim(m_sim, m_dir.path(), true);
    m_services = ownSimServices(m_dir.path());
    QVERIFY(m_services);
    m_window = std::make_unique<MainWindow>(m_services.get());
    m_window->resize(1500, 900);
    m_window->show();
    m_nas = simTruthOf(m_dir.path())[QStringLiteral("nas")][QStringLiteral("root")].toString();
    QVERIFY(QFileInfo(m_nas).isDir());
    const ClusterSession *session = m_services->session();
    QTRY_VERIFY_WITH_TIMEOUT(session->connection() && session->connection()->pool() &&
                                 session->connection()->pool()->status(u"a100-01"_qs).usable(),
                             60000);
}

void TestNasCleanupPage::cleanupTab()
{
    // What no one needs, from the walk: a user who left, old core dumps, a stale archive — and
    // not the core dump of six days. Two of them removed through the operations framework.
    MainWindow &w = *m_window;
    Services *services = m_services.get();
    services->storage()->measureNow();
    QTRY_VERIFY_WITH_TIMEOUT(
        !services->storage()->isMeasuring() && !services->storage()->measures().isEmpty(), 120000);
    w.showPage(MainWindow::Storage);
    auto *page = static_cast<StoragePage *>(w.page(MainWindow::Storage));
    NasCleanupPanel *panel = page->cleanup();
    page->findChild<QTabWidget *>(QStringLiteral("storageTabs"))->setCurrentWidget(panel);
    const auto listed = [panel] {
        QStringList out;
        for (const NasCandidate &c : panel->shown())
            out << NasCleanup::classId(c.cls) + u' ' + c.path;
        return out;
    };
    const QString yangming = QStringLiteral("/mnt/user/yangming");
    const QString core = QStringLiteral("/mnt/user/erin/core.7790");
    QTRY_VERIFY_WITH_TIMEOUT(listed().contains(u"nas-departed-user "_qs + yangming), 10000);
    QVERIFY2(listed().contains(u"nas-core-dump "_qs + core), qPrintable(listed().join(u'\n')));
    QVERIFY(listed().contains(u"nas-core-dump /mnt/user/erin/core.7731"_qs));
    QVERIFY(listed().contains(u"nas-stale-file /mnt/user/wangfang/old-dataset.tar"_qs));
    // The checkpoints of jobs long gone: no job of their name is left.
    const QList<NasCandidate> shown = panel->shown();
    QVERIFY2(std::any_of(shown.cbegin(), shown.cend(),
                         [](const NasCandidate &c) {
                             return c.cls == NasCandidate::JobOutput && c.jobEnded == 0 &&
                                    c.path.contains(u"/checkpoints/"_qs) &&
                                    c.path.endsWith(u'/' + c.job);
                         }),
             qPrintable(listed().join(u'\n')));
    QVERIFY(!listed().join(u' ').contains(u"core.48213"_qs));          // six days old: kept
    QVERIFY(!listed().join(u' ').contains(u"/mnt/user/yangming/"_qs)); // in his folder: once
    QVERIFY2(panel->summary()->text().startsWith(
                 QStringLiteral("%1 candidate(s): ").arg(panel->shown().size())),
             qPrintable(panel->summary()->text()));
    save(w, QStringLiteral("storage-cleanup"));

    panel->select({yangming, core});
    panel->removeSelected();
    QTRY_VERIFY_WITH_TIMEOUT(w.findChild<OperationDialog *>(QStringLiteral("operationDialog")),
                             20000);
    auto *dialog = w.findChild<OperationDialog *>(QStringLiteral("operationDialog"));
    Operation *op = dialog->operation();
    QCOMPARE(op->plan().action, QStringLiteral("nas.cleanup"));
    QVERIFY(op->plan().refusals.isEmpty());
    QCOMPARE(op->plan().steps.size(), 2);
    QCOMPARE(op->plan().confirmationWord(), QStringLiteral("2"));
    QStringList whys;
    for (const PlanStep &s : op->plan().steps)
        whys << s.why;
    QVERIFY2(whys.join(u'\n').contains(u"Folder of a user who left: 24Mi in "_qs) &&
                 whys.join(u'\n').contains(u"gpudesk.io/user=yangming"_qs) &&
                 whys.join(u'\n').contains(u"Core dump: 3.9Gi ("_qs),
             qPrintable(whys.join(u'\n')));
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Ready, 30000);
    save(*dialog, QStringLiteral("storage-cleanup-plan"));
    QTest::keyClicks(dialog->findChild<QLineEdit *>(QStringLiteral("confirmEdit")),
                     QStringLiteral("2"));
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("runButton")),
                      Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(op->state(), Operation::State::Finished, 60000);
    for (int i = 0; i < 2; ++i) {
        const StepOutcome &o = op->outcomes().at(i);
        const QString said = o.message + u" | " + o.verification;
        if (op->plan().steps.at(i).nas.path == yangming)
            // Real blocks: df shows them freed.
            QVERIFY2(o.result == StepOutcome::Result::Done &&
                         o.verification.contains(u"(24Mi more than before)"_qs),
                     qPrintable(said));
        else // a sparse core dump: gone, and nothing freed — said
            QVERIFY2(o.result == StepOutcome::Result::Unverified, qPrintable(said));
    }
    QVERIFY(!QFileInfo::exists(m_nas + u"/user/yangming"_qs));
    QVERIFY(!QFileInfo::exists(m_nas + u"/user/erin/core.7790"_qs));
    QVERIFY(QFileInfo::exists(m_nas + u"/user/erin/core.7731"_qs));
    dialog->close();
    // What is gone since the walk is no longer offered.
    QTRY_VERIFY_WITH_TIMEOUT(
        !listed().join(u' ').contains(yangming) && !listed().join(u' ').contains(core), 20000);
    QVERIFY(listed().contains(u"nas-core-dump /mnt/user/erin/core.7731"_qs));
}

QTEST_MAIN(TestNasCleanupPage)
#include "tst_nascleanuppage.moc"
