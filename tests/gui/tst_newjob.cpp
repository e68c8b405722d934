// SPDX-License-Identifier: GPL-3.0-or-later
// New training job (issue 36), in the window against the demo cluster running in real time: a
// one-node job of 16 GPUs never starts and the form offers 2 × 8; switched, the verdict follows;
// a small job starts, is pinned to the nodes the check proposes, submitted through the plan, and
// the server has it — its pods on those nodes, an Event naming who submitted it. The YAML tab
// takes over from the form when edited, and what is not a job is said there. A job saved as a
// template starts the next one; a copy of a job the form made comes back to the form, one it did
// not make to the YAML tab with the reason; what the user typed is replaced only when they say so.
#include "jobchecker.h"
#include "jobmanifest.h"
#include "jobtemplates.h"
#include "newjobdialog.h"
#include "objectservice.h"
#include "operationrun.h"
#include "verdictpanel.h"
#include "windowfixture.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QInputDialog>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>

class TestNewJob : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        loadSimConfig();
        QStandardPaths::setTestModeEnabled(true);
        QDir(JobTemplates::defaultDir()).removeRecursively();
    }
    void submitKnowingItStarts();
    void templatesAndCopies();

private:
    // Answers the next modal dialog (a question, a name asked for) as the user would; gives up
    // after 10 s. `answer` closes it: a check that fails in it must not leave it open (the
    // test would wait in its event loop), so a modal left open is rejected afterwards.
    void answerNextModal(const std::function<void(QWidget *)> &answer)
    {
        auto *poll = new QTimer(this);
        poll->setInterval(20);
        auto *clock = new QElapsedTimer;
        clock->start();
        QObject::connect(poll, &QTimer::timeout, poll, [poll, clock, answer] {
            QWidget *modal = QApplication::activeModalWidget();
            if (!modal && clock->elapsed() < 10000)
                return;
            poll->stop();
            poll->deleteLater();
            delete clock;
            if (!modal)
                return; // none came: the test's own checks say so
            answer(modal);
            if (auto *d = qobject_cast<QDialog *>(modal); d && d->isVisible())
                d->reject();
        });
        poll->start();
    }
    static void choose(QComboBox *box, const QString &data)
    {
        const int at = box->findData(data);
        QVERIFY2(at >= 0, qPrintable(data));
        box->setCurrentIndex(at);
        emit box->activated(at); // as a pick from its list does
    }
};

void TestNewJob::submitKnowingItStarts()
{
    SimWindow s;
    if (!openSimWindow(s, QStringLiteral("1")))
        return;
    MainWindow &w = *s.window;

    // From the Workloads page's button, as the user finds it.
    w.showPage(MainWindow::Workloads);
    auto *button = w.page(MainWindow::Workloads)->findChild<QPushButton *>(u"newTrainingJob"_qs);
    QVERIFY(button);
    QTest::mouseClick(button, Qt::LeftButton);
    NewJobDialog *form = w.findChild<NewJobDialog *>(u"newJobDialog"_qs);
    QVERIFY(form);
    const QPointer<NewJobDialog> formAlive(form); // it deletes itself once the job is made
    // Priority offers the cluster's classes, each with its value; not the system's.
    auto *priority = form->findChild<QComboBox *>(u"jobPriority"_qs);
    QVERIFY(priority);
    QTRY_COMPARE_WITH_TIMEOUT(priority->count(), 4, 10000);
    QCOMPARE(priority->itemText(0), QString());
    QCOMPARE(priority->itemText(1), u"vip"_qs);
    QCOMPARE(priority->itemText(2), u"vip-waiting"_qs);
    QCOMPARE(priority->itemText(3), u"high-priority"_qs);
    QVERIFY2(priority->itemData(1, Qt::ToolTipRole).toString().startsWith(u"100000 — VIP jobs"_qs),
             qPrintable(priority->itemData(1, Qt::ToolTipRole).toString()));
    QVERIFY2(
        priority->itemData(2, Qt::ToolTipRole).toString().startsWith(u"100000 — never preempts"_qs),
        qPrintable(priority->itemData(2, Qt::ToolTipRole).toString()));
    QVERIFY(priority->currentText().isEmpty()); // nothing chosen for the user
    form->nameEdit()->setText(u"llm-16"_qs);
    form->findChild<QComboBox *>(u"jobNamespace"_qs)->setCurrentText(u"user-alice"_qs);
    form->imageBox()->setCurrentText(u"registry.lab.internal/train/llm:2.3"_qs);
    form->commandEdit()->setPlainText(u"torchrun --nproc_per_node=16 train.py"_qs);
    form->gpusBox()->setValue(16);
    auto verdictIs = [form](StartVerdict::Kind k) {
        return !form->isChecking() && form->verdict().kind == k;
    };
    // A class the cluster does not have: its pods would be refused for ever.
    priority->setCurrentText(u"urgent-now"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(
        !form->isChecking() && form->verdict().has(u"priority-class-unknown"_qs), 10000);
    QVERIFY2(form->verdictPanel()->reasonsText().contains(u"no PriorityClass named urgent-now"),
             qPrintable(form->verdictPanel()->reasonsText()));
    priority->setCurrentText(QString());
    QTRY_VERIFY_WITH_TIMEOUT(
        !form->isChecking() && !form->verdict().has(u"priority-class-unknown"_qs), 10000);

    // One pod of 16 GPUs: never — no node has more than 8 — and 2 × 8 offered.
    QTRY_VERIFY_WITH_TIMEOUT(verdictIs(StartVerdict::Never), 10000);
    QVERIFY(form->verdict().has(u"gpus-per-node"_qs));
    QVERIFY2(form->verdictPanel()->summaryText().contains(u"no node it may run on has more than 8"),
             qPrintable(form->verdictPanel()->summaryText()));
    QVERIFY(!form->submitButton()->isEnabled());
    QPushButton *split = form->verdictPanel()->splitButton();
    QVERIFY(split->isVisible());
    QVERIFY2(split->text().contains(u"2 × 8"), qPrintable(split->text()));
    save(*form, u"newjob-never"_qs);
    QTest::mouseClick(split, Qt::LeftButton);
    QCOMPARE(form->nodesBox()->value(), 2);
    QCOMPARE(form->gpusBox()->value(), 8);
    QTRY_VERIFY_WITH_TIMEOUT(!form->isChecking(), 10000);
    QVERIFY2(form->verdict().kind != StartVerdict::Never,
             qPrintable(form->verdictPanel()->summaryText()));
    // The YAML is the form's: a PyTorchJob of a Master and one Worker of 8 GPUs each.
    const QString yaml = form->yamlEdit()->toPlainText();
    QVERIFY2(yaml.contains(u"kind: PyTorchJob") && yaml.contains(u"Worker:") &&
                 yaml.contains(u"nvidia.com/gpu: \"8\""),
             qPrintable(yaml));

    // Every kind the form makes is one the server takes: its dry run of each is accepted.
    form->nameEdit()->setText(u"kinds"_qs);
    form->gpusBox()->setValue(1);
    for (JobSpec::Kind k : {JobSpec::Mpi, JobSpec::Volcano, JobSpec::SinglePod}) {
        form->kindBox()->setCurrentIndex(form->kindBox()->findData(int(k)));
        QTRY_VERIFY_WITH_TIMEOUT(!form->isChecking() && form->submitButton()->isEnabled(), 10000);
        QTest::mouseClick(form->submitButton(), Qt::LeftButton);
        OperationDialog *d = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((d = w.findChild<OperationDialog *>(u"operationDialog"_qs)) &&
                                     d->operation()->state() == Operation::State::Ready,
                                 30000);
        const PlanStep &step = d->operation()->plan().steps.first();
        QVERIFY2(step.dryRun == PlanStep::DryRun::Accepted,
                 qPrintable(JobSpec::kindName(k) + u": "_qs + step.dryRunMessage));
        d->setObjectName(QString());
        d->reject();
    }
    form->kindBox()->setCurrentIndex(form->kindBox()->findData(int(JobSpec::PyTorch)));

    // A small job: 2 × 1 GPU starts now, on the nodes the check names; pinned there.
    form->nameEdit()->setText(u"small-2x1"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(verdictIs(StartVerdict::Starts), 10000);
    QStringList proposed;
    for (const StartPlacement &p : form->verdict().placement)
        proposed << p.node;
    QVERIFY(!proposed.isEmpty());
    QVERIFY2(form->verdictPanel()->summaryText().contains(proposed.first()),
             qPrintable(form->verdictPanel()->summaryText()));
    QVERIFY(form->submitButton()->isEnabled());
    form->pinBox()->setChecked(true);
    save(*form, u"newjob-starts"_qs);
    QTest::mouseClick(form->submitButton(), Qt::LeftButton);
    Operation *made = gpudesk::testing::runShown(&w);
    QVERIFY(made);
    QCOMPARE(made->count(StepOutcome::Result::Done), 1);
    QCOMPARE(made->plan().steps.first().eventReason, u"GpudeskSubmitted"_qs);

    // The server has it, pinned to the proposed nodes; its pods go there.
    const QJsonObject job = adminGet(
        s.dir.path(), u"/apis/kubeflow.org/v1/namespaces/user-alice/pytorchjobs/small-2x1"_qs);
    const QJsonArray pinned =
        job[u"spec"][u"pytorchReplicaSpecs"][u"Master"][u"template"][u"spec"][u"affinity"]
           [u"nodeAffinity"][u"requiredDuringSchedulingIgnoredDuringExecution"]
           [u"nodeSelectorTerms"][0][u"matchExpressions"][0][u"values"]
               .toArray();
    QStringList pinnedNodes;
    for (const QJsonValue &v : pinned)
        pinnedNodes << v.toString();
    pinnedNodes.sort();
    proposed.sort();
    proposed.removeDuplicates();
    QCOMPARE(pinnedNodes, proposed);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            int bound = 0;
            for (const QJsonValue &p :
                 adminGet(s.dir.path(), u"/api/v1/namespaces/user-alice/pods"_qs)[u"items"]
                     .toArray())
                if (p[u"metadata"][u"name"].toString().startsWith(u"small-2x1-") &&
                    proposed.contains(p[u"spec"][u"nodeName"].toString()))
                    ++bound;
            return bound == 2;
        }(),
        60000);
    bool event = false;
    for (const QJsonValue &e :
         adminGet(s.dir.path(), u"/api/v1/namespaces/user-alice/events"_qs)[u"items"].toArray())
        event |= e[u"reason"].toString() == u"GpudeskSubmitted" &&
                 e[u"involvedObject"][u"name"].toString() == u"small-2x1";
    QVERIFY(event);
    // The window shows it on the Workloads page.
    QTRY_VERIFY(!formAlive || formAlive->isHidden());
    QCOMPARE(w.currentPage(), MainWindow::Workloads);

    // The YAML tab: edited, it takes over; what is not a job is said, and not submitted.
    NewJobDialog *again = w.newTrainingJob();
    again->tabs()->setCurrentIndex(1);
    again->yamlEdit()->setPlainText(
        u"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(!again->isChecking(), 10000);
    QVERIFY2(again->verdictPanel()->summaryText().contains(u"is not a job gpudesk submits"),
             qPrintable(again->verdictPanel()->summaryText()));
    QVERIFY(!again->submitButton()->isEnabled());
    QVERIFY(!again->findChild<QLabel *>(u"jobFormNote"_qs)->isHidden()); // above the tabs

    // A job the namespace's LimitRange leaves podless: 64Gi asked and no limit written, under
    // a default limit of 16Gi. The server's dry run of the job accepts it; the check does not.
    again->yamlEdit()->setPlainText(
        u"apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: greedy\n"
        u"  namespace: user-alice\nspec:\n  pytorchReplicaSpecs:\n    Master:\n"
        u"      replicas: 1\n      template:\n        spec:\n          containers:\n"
        u"          - name: pytorch\n            image: registry.lab.internal/train/llm:2.3\n"
        u"            resources:\n              limits: {nvidia.com/gpu: \"1\"}\n"
        u"              requests: {cpu: \"8\", memory: 64Gi}\n"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(!again->isChecking() && again->verdict().has(u"request-over-limit"_qs),
                             10000);
    QCOMPARE(again->verdict().kind, StartVerdict::Never);
    QVERIFY(!again->verdict().has(u"server-refused"_qs));
    QVERIFY(!again->submitButton()->isEnabled());
    save(*again, u"newjob-limitrange"_qs);
    again->close();
}

void TestNewJob::templatesAndCopies()
{
    SimWindow s;
    if (!openSimWindow(s, QStringLiteral("1")))
        return;
    Services &services = *s.services;
    MainWindow &w = *s.window;
    auto settled = [](NewJobDialog *f) {
        return !f->isChecking() && f->verdict().kind != StartVerdict::Never;
    };

    // A Volcano job of two nodes, kept as a template, then submitted.
    NewJobDialog *form = w.newTrainingJob();
    form->findChild<QComboBox *>(u"jobNamespace"_qs)->setCurrentText(u"user-alice"_qs);
    form->kindBox()->setCurrentIndex(form->kindBox()->findData(int(JobSpec::Volcano)));
    form->nameEdit()->setText(u"sweep"_qs);
    form->imageBox()->setCurrentText(u"registry.lab.internal/train/llm:2.3"_qs);
    form->commandEdit()->setPlainText(u"python sweep.py --lr 3e-4"_qs);
    form->gpusBox()->setValue(1);
    form->nodesBox()->setValue(2);
    form->shmEdit()->setText(u"8Gi"_qs);
    form->envEdit()->setPlainText(u"WANDB_MODE=offline"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(settled(form), 10000);
    answerNextModal([](QWidget *modal) {
        auto *ask = qobject_cast<QInputDialog *>(modal);
        QVERIFY(ask);
        QCOMPARE(ask->textValue(), u"sweep"_qs); // the job's name is offered
        ask->setTextValue(u"sweep 2×1"_qs);
        ask->accept();
    });
    QTest::mouseClick(form->saveTemplateButton(), Qt::LeftButton);
    QTRY_VERIFY(JobTemplates().names() == QStringList{u"sweep 2×1"_qs});
    QString error;
    QString saved = JobTemplates().load(u"sweep 2×1"_qs, &error);
    QVERIFY2(saved.contains(u"kind: Job") && saved.contains(u"WANDB_MODE") &&
                 saved.contains(u"name: sweep"),
             qPrintable(saved));
    QCOMPARE(form->startFromBox()->currentData().toString(), u"t:sweep 2×1"_qs);
    QTest::mouseClick(form->submitButton(), Qt::LeftButton);
    Operation *made = gpudesk::testing::runShown(&w);
    QVERIFY(made);
    QCOMPARE(made->count(StepOutcome::Result::Done), 1);
    QString sweepKey;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const QString &k : services.store()->workloadKeysIn(u"user-alice"_qs))
                if (const auto wl = services.store()->workload(k);
                    wl && wl->job && wl->name == u"sweep")
                    sweepKey = k;
            return !sweepKey.isEmpty();
        }(),
        30000);

    // The template starts the next job, in the form; its name is taken now, so it is numbered.
    NewJobDialog *next = w.newTrainingJob();
    next->findChild<QComboBox *>(u"jobNamespace"_qs)->setCurrentText(u"user-alice"_qs);
    choose(next->startFromBox(), u"t:sweep 2×1"_qs);
    QCOMPARE(next->origin(), u"the template sweep 2×1"_qs);
    QCOMPARE(next->nameEdit()->text(), u"sweep-2"_qs);
    QCOMPARE(next->kindBox()->currentData().toInt(), int(JobSpec::Volcano));
    QCOMPARE(next->nodesBox()->value(), 2);
    QCOMPARE(next->shmEdit()->text(), u"8Gi"_qs);
    QCOMPARE(next->envEdit()->toPlainText(), u"WANDB_MODE=offline"_qs);
    QCOMPARE(next->commandEdit()->toPlainText(), u"python sweep.py --lr 3e-4"_qs);
    QCOMPARE(next->tabs()->currentIndex(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(settled(next) && next->submitButton()->isEnabled(), 10000);
    save(*next, u"newjob-template"_qs);

    // A copy of the job that ran: the server's object, back in the form.
    choose(next->startFromBox(), QStringLiteral("w:") + sweepKey);
    QTRY_COMPARE_WITH_TIMEOUT(next->origin(), u"a copy of Job sweep"_qs, 10000);
    auto *note = next->findChild<QLabel *>(u"jobFormNote"_qs);
    QVERIFY2(note->text() == u"Started from a copy of Job sweep.", qPrintable(note->text()));
    QCOMPARE(next->nameEdit()->text(), u"sweep-2"_qs);
    QCOMPARE(next->nodesBox()->value(), 2);
    QCOMPARE(next->envEdit()->toPlainText(), u"WANDB_MODE=offline"_qs);

    // What the user typed is not thrown away unasked: "No" keeps it.
    next->commandEdit()->setPlainText(u"python sweep.py --lr 1e-3"_qs);
    answerNextModal([](QWidget *modal) {
        auto *box = qobject_cast<QMessageBox *>(modal);
        QVERIFY(box);
        QVERIFY2(box->text().contains(u"A blank form"), qPrintable(box->text()));
        box->button(QMessageBox::No)->click();
    });
    choose(next->startFromBox(), QString());
    QCOMPARE(next->commandEdit()->toPlainText(), u"python sweep.py --lr 1e-3"_qs);
    QCOMPARE(next->startFromBox()->currentData().toString(), QStringLiteral("w:") + sweepKey);
    next->close();

    // A job the form did not make: the YAML tab holds it as it is, and the form says why.
    QString otherKey;
    for (const QString &k : services.store()->workloadKeysIn(u"user-alice"_qs))
        if (const auto wl = services.store()->workload(k);
            wl && wl->job && wl->kind == u"PyTorchJob" && wl->name != u"sweep")
            otherKey = k;
    QVERIFY(!otherKey.isEmpty());
    NewJobDialog *copy = w.newTrainingJobLike(otherKey);
    note = copy->findChild<QLabel *>(u"jobFormNote"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(note->text().contains(u"cannot hold whole"), 10000);
    // Named where they are: the demo's job runs its command without a shell, for one.
    QVERIFY2(note->text().contains(
                 u"spec.pytorchReplicaSpecs.Master.template.spec.containers[0].command,"),
             qPrintable(note->text()));
    QCOMPARE(copy->tabs()->currentIndex(), 1);
    QVERIFY(copy->yamlEdit()->toPlainText().contains(u"kind: PyTorchJob"));
    QTRY_VERIFY_WITH_TIMEOUT(!copy->isChecking(), 10000);
    QVERIFY2(!copy->verdictPanel()->summaryText().contains(u"not a job"),
             qPrintable(copy->verdictPanel()->summaryText()));
    save(*copy, u"newjob-copy-yaml"_qs);
    copy->close();

    // Typing while a copy is read: the text stays, the copy is not applied.
    NewJobDialog *typing = w.newTrainingJobLike(sweepKey);
    typing->commandEdit()->setPlainText(u"python mine.py"_qs);
    note = typing->findChild<QLabel *>(u"jobFormNote"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(note->text().contains(u"you typed meanwhile"), 10000);
    QCOMPARE(typing->commandEdit()->toPlainText(), u"python mine.py"_qs);
    typing->close();

    // A template the form's fields cannot hold as it is (60 days, past the 30 the time limit
    // takes) goes to the YAML tab rather than being cut.
    JobSpec longRun;
    longRun.name = u"long"_qs;
    longRun.image = u"registry.lab.internal/train/llm:2.3"_qs;
    longRun.command = u"python train.py"_qs;
    longRun.hoursLimit = 60 * 24;
    const QString longYaml = ObjectService::toYaml(JobManifest::of(longRun), &error);
    QVERIFY(JobTemplates().save(u"long"_qs, longYaml, &error));
    NewJobDialog *cut = w.newTrainingJob();
    const QString formNs = cut->findChild<QComboBox *>(u"jobNamespace"_qs)->currentText();
    choose(cut->startFromBox(), u"t:long"_qs);
    note = cut->findChild<QLabel *>(u"jobFormNote"_qs);
    QVERIFY2(note->text().contains(u"a value the form's fields cannot hold as it is"),
             qPrintable(note->text()));
    QVERIFY(cut->yamlEdit()->toPlainText().contains(u"activeDeadlineSeconds: 5184000"));
    // The same within the field's range, and naming no namespace (as a hand-written one need
    // not): the form holds it, in the form's namespace.
    longRun.hoursLimit = 48;
    QVERIFY(JobTemplates().save(u"long"_qs, ObjectService::toYaml(JobManifest::of(longRun), &error),
                                &error));
    cut->startFromBox()->setCurrentIndex(0); // as if chosen anew
    emit cut->startFromBox()->activated(0);
    choose(cut->startFromBox(), u"t:long"_qs);
    QVERIFY2(note->text() == u"Started from the template long.", qPrintable(note->text()));
    QCOMPARE(cut->tabs()->currentIndex(), 0);
    QCOMPARE(cut->findChild<QComboBox *>(u"jobNamespace"_qs)->currentText(), formNs);
    cut->close();
    QVERIFY(JobTemplates().remove(u"long"_qs, &error));

    // The template goes when the user says so.
    NewJobDialog *last = w.newTrainingJob();
    choose(last->startFromBox(), u"t:sweep 2×1"_qs);
    answerNextModal([](QWidget *modal) {
        auto *box = qobject_cast<QMessageBox *>(modal);
        QVERIFY(box);
        box->button(QMessageBox::Yes)->click();
    });
    QTest::mouseClick(last->findChild<QPushButton *>(u"jobDeleteTemplate"_qs), Qt::LeftButton);
    QTRY_VERIFY(JobTemplates().names().isEmpty());
    QCOMPARE(last->startFromBox()->findData(u"t:sweep 2×1"_qs), -1);
    QCOMPARE(last->nameEdit()->text(), u"sweep-2"_qs); // the form keeps what it shows
    last->close();
}

QTEST_MAIN(TestNewJob)
#include "tst_newjob.moc"
