// SPDX-License-Identifier: GPL-3.0-or-later
// Actions beyond the cleanup, in the window, on a simulator of their own: an object edited as
// YAML (the server's dry run shown as a diff; an object that moved meanwhile refused with 409,
// never overwritten, the newer version loaded; then applied); a job run again from a copy; and
// what a researcher's account may not do offered disabled, with the server's reason.
#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "contextconnection.h"
#include "mainwindow.h"
#include "objectviewer.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationsservice.h"
#include "permissions.h"
#include "services.h"
#include "simprocess.h"
#include "workloadspage.h"
#include "yamleditdialog.h"

#include <QApplication>
#include <QDir>
#include <QJsonArray>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace gpudesk;

class TestActions : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void editWithConflict();
    void runJobAgain();
    void researcherSeesWhatSheMayNotDo();

private:
    // Runs the operation the dialog shows (one step, one click) and waits for its end.
    static Operation *runShown(QWidget *parent);
    static void save(QWidget &w, const QString &name)
    {
        QDir().mkpath(QStringLiteral("screenshots"));
        QCoreApplication::sendPostedEvents();
        QVERIFY(w.grab().save(QStringLiteral("screenshots/") + name + QStringLiteral(".png")));
    }

    SimProcess m_sim;
    QTemporaryDir m_data;
};

void TestActions::initTestCase()
{
    qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    QString error;
    QVERIFY2(
        m_sim.start({QStringLiteral("--speed"), QStringLiteral("0"), QStringLiteral("--no-ssh")},
                    &error),
        qPrintable(error));
}

Operation *TestActions::runShown(QWidget *parent)
{
    OperationDialog *d = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                d = parent->findChild<OperationDialog *>(QStringLiteral("operationDialog"));
                return d && d->operation() && d->operation()->state() == Operation::State::Ready;
            },
            30000))
        return nullptr;
    d->setObjectName(QString()); // the next one is found, not this one
    Operation *op = d->operation();
    auto *run = d->findChild<QPushButton *>(QStringLiteral("runButton"));
    if (!run || !run->isEnabled())
        return nullptr; // a single reversible step needs one click, nothing typed
    QTest::mouseClick(run, Qt::LeftButton);
    if (!QTest::qWaitFor([op] { return op->state() == Operation::State::Finished; }, 60000))
        return nullptr;
    d->close();
    return op;
}

void TestActions::editWithConflict()
{
    auto s = m_sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    MainWindow w(s.get());
    auto *viewer = qobject_cast<ObjectViewer *>(w.openObject(
        ObjectRef::node(*s->store(), QStringLiteral("g4090-02")), ObjectViewer::YamlTab));
    QVERIFY(viewer);
    viewer->resize(1000, 700);
    auto *edit = viewer->findChild<QPushButton *>(QStringLiteral("editYaml"));
    QVERIFY(edit);
    QTest::mouseClick(edit, Qt::LeftButton);
    QTRY_VERIFY(viewer->editDialog());
    auto *dialog = qobject_cast<YamlEditDialog *>(viewer->editDialog());
    QTRY_VERIFY(dialog->editor()->toPlainText().contains(QLatin1String("  labels:\n")));
    auto addLabel = [dialog] {
        QString text = dialog->editor()->toPlainText();
        text.replace(QStringLiteral("  labels:\n"),
                     QStringLiteral("  labels:\n    gpudesk.io/note: \"rack 3, checked\"\n"));
        dialog->editor()->setPlainText(text);
    };
    addLabel();
    QSignalSpy checked(dialog, &YamlEditDialog::checked);
    auto *check = dialog->findChild<QPushButton *>(QStringLiteral("checkButton"));
    auto *apply = dialog->findChild<QPushButton *>(QStringLiteral("applyButton"));
    QTest::mouseClick(check, Qt::LeftButton);
    QVERIFY(checked.wait(10000));
    QVERIFY2(dialog->diffView()->toPlainText().contains(
                 QStringLiteral("+    gpudesk.io/note: rack 3, checked")),
             qPrintable(dialog->diffView()->toPlainText()));
    QVERIFY(apply->isEnabled());
    save(*dialog, QStringLiteral("edit-diff"));
    // The dry run changed nothing.
    QVERIFY(!m_sim.request("GET", QStringLiteral("/api/v1/nodes/g4090-02"))
                 .json()[QStringLiteral("metadata")][QStringLiteral("labels")]
                 .toObject()
                 .contains(QStringLiteral("gpudesk.io/note")));

    // Meanwhile someone else labels the node: the edit is on an older version now.
    QCOMPARE(m_sim
                 .request("PATCH", QStringLiteral("/api/v1/nodes/g4090-02"),
                          R"({"metadata":{"labels":{"team":"speech"}}})",
                          QStringLiteral("sim-admin"), "application/merge-patch+json")
                 .status,
             200);
    QSignalSpy applied(dialog, &YamlEditDialog::applied);
    QTest::mouseClick(apply, Qt::LeftButton);
    Operation *op = runShown(dialog);
    QVERIFY(op);
    QCOMPARE(op->outcomes().first().result, StepOutcome::Result::Skipped);
    QVERIFY2(op->outcomes().first().message.contains(QLatin1String("has been modified")),
             qPrintable(op->outcomes().first().message));
    QVERIFY(applied.count() == 1 || applied.wait(5000));
    QVERIFY2(dialog->status().startsWith(QLatin1String("Not applied: changed since the plan")),
             qPrintable(dialog->status()));
    const QJsonObject labels = m_sim.request("GET", QStringLiteral("/api/v1/nodes/g4090-02"))
                                   .json()[QStringLiteral("metadata")][QStringLiteral("labels")]
                                   .toObject();
    QVERIFY(!labels.contains(QStringLiteral("gpudesk.io/note"))); // not overwritten
    QCOMPARE(labels[QStringLiteral("team")].toString(), QStringLiteral("speech"));

    // The newer version, loaded in place of the edit (asked first: the edit would be lost).
    auto *newer = dialog->findChild<QPushButton *>(QStringLiteral("newerButton"));
    QVERIFY(newer->isVisible());
    QTimer::singleShot(0, [] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
            box->button(QMessageBox::Yes)->click();
    });
    QTest::mouseClick(newer, Qt::LeftButton);
    QTRY_VERIFY(dialog->editor()->toPlainText().contains(QLatin1String("team: speech")));
    // The diff is computed off the UI thread: it comes a moment later.
    QTRY_VERIFY(dialog->diffView()->toPlainText().contains(QLatin1String("+    team: speech")));
    // The edit it replaced is one undo away.
    dialog->editor()->undo();
    QVERIFY(dialog->editor()->toPlainText().contains(QLatin1String("gpudesk.io/note")));
    dialog->editor()->redo();
    QVERIFY(!dialog->editor()->toPlainText().contains(QLatin1String("gpudesk.io/note")));
    addLabel();
    QTest::mouseClick(check, Qt::LeftButton);
    QVERIFY(checked.wait(10000));
    QVERIFY(apply->isEnabled());
    QTest::mouseClick(apply, Qt::LeftButton);
    op = runShown(dialog);
    QVERIFY(op);
    QCOMPARE(op->outcomes().first().result, StepOutcome::Result::Done);
    QVERIFY(
        op->outcomes().first().verification.startsWith(QLatin1String("stored as resourceVersion")));
    const QJsonObject after = m_sim.request("GET", QStringLiteral("/api/v1/nodes/g4090-02"))
                                  .json()[QStringLiteral("metadata")][QStringLiteral("labels")]
                                  .toObject();
    QCOMPARE(after[QStringLiteral("gpudesk.io/note")].toString(),
             QStringLiteral("rack 3, checked"));
    QCOMPARE(after[QStringLiteral("team")].toString(), QStringLiteral("speech"));
    // Both attempts are in the audit log.
    int edits = 0;
    for (const QJsonObject &r : s->operations()->audit().read())
        edits += r[QStringLiteral("action")].toString() == QLatin1String("object.edit") &&
                         r[QStringLiteral("event")].toString() == QLatin1String("ended")
                     ? 1
                     : 0;
    QCOMPARE(edits, 2);
    dialog->close();
    viewer->close();
}

void TestActions::runJobAgain()
{
    auto s = m_sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    QString key;
    for (const QString &k : s->store()->jobKeys())
        if (s->store()->job(k)->name == QLatin1String("clip-pretrain"))
            key = k;
    QVERIFY(!key.isEmpty());
    MainWindow w(s.get());
    auto *dialog = qobject_cast<YamlEditDialog *>(w.rerun(key));
    QVERIFY(dialog);
    QTRY_VERIFY(!dialog->editor()->toPlainText().isEmpty());
    const QString copy = dialog->editor()->toPlainText();
    QVERIFY2(copy.contains(QLatin1String("  name: clip-pretrain-r")), qPrintable(copy));
    QVERIFY(!copy.contains(QLatin1String("uid:")) &&
            !copy.contains(QLatin1String("resourceVersion:")) &&
            !copy.contains(QLatin1String("\nstatus:")));
    const QString name = copy.section(QStringLiteral("  name: "), 1, 1).section(u'\n', 0, 0);
    // The failed run had /dev/shm too small: the copy is where that is fixed before it runs.
    QSignalSpy checked(dialog, &YamlEditDialog::checked);
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("checkButton")),
                      Qt::LeftButton);
    QVERIFY(checked.wait(10000));
    QVERIFY2(dialog->status().startsWith(QLatin1String("The server would accept it")),
             qPrintable(dialog->status()));
    save(*dialog, QStringLiteral("rerun-check"));
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("applyButton")),
                      Qt::LeftButton);
    Operation *op = runShown(&w);
    QVERIFY(op);
    QCOMPARE(op->outcomes().first().result, StepOutcome::Result::Done);
    QVERIFY(op->outcomes().first().verification.startsWith(QStringLiteral("created as ") + name));
    QCOMPARE(m_sim
                 .request("GET", QStringLiteral(
                                     "/apis/kubeflow.org/v1/namespaces/user-carol/pytorchjobs/") +
                                     name)
                 .status,
             200);
    dialog->close();
}

void TestActions::researcherSeesWhatSheMayNotDo()
{
    auto alice = m_sim.connect(QStringLiteral("sim-alice"));
    QVERIFY(alice);
    MainWindow w(alice.get());
    auto *page = qobject_cast<WorkloadsPage *>(w.page(MainWindow::Workloads));
    QString hers;
    for (const PodInfo &p : alice->store()->pods())
        if (p.name == QLatin1String("dev-alice"))
            hers = p.uid;
    QVERIFY(!hers.isEmpty());
    // Asked once (the answer is cached per connection); then the menu knows.
    Permissions *perms = alice->permissions();
    QSignalSpy changed(perms, &Permissions::changed);
    QCOMPARE(page->denied({hers}, false), QString());
    QVERIFY(changed.wait(10000));
    QCOMPARE(page->denied({hers}, false), QString()); // her own pod: allowed
    const Permissions::Check bobs{QStringLiteral("delete"), QString(), QStringLiteral("pods"),
                                  QStringLiteral("user-bob"), QString()};
    perms->ask(bobs);
    QTRY_COMPARE(perms->ask(bobs), Permissions::Answer::Denied);
    const Permissions::Check nodes{QStringLiteral("patch"), QString(), QStringLiteral("nodes"),
                                   QString(), QString()};
    perms->ask(nodes);
    QTRY_COMPARE(perms->ask(nodes), Permissions::Answer::Denied);
}

QTEST_MAIN(TestActions)
#include "tst_actions.moc"
