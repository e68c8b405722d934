// SPDX-License-Identifier: GPL-3.0-or-later
// New training job (issue 36), in the window against the demo cluster running in real time: a
// one-node job of 16 GPUs never starts and the form offers 2 × 8; switched, the verdict follows;
// a small job starts, is pinned to the nodes the check proposes, submitted through the plan, and
// the server has it — its pods on those nodes, an Event naming who submitted it. The YAML tab
// takes over from the form when edited, and what is not a job is said there.
#include "jobchecker.h"
#include "newjobdialog.h"
#include "operationrun.h"
#include "verdictpanel.h"
#include "windowfixture.h"

#include <QComboBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QSpinBox>
#include <QTabWidget>

class TestNewJob : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void initTestCase() { loadSimConfig(); }
    void submitKnowingItStarts();

private:
    static QJsonObject adminGet(const QString &dir, const QString &path)
    {
        QString error;
        const auto config = KubeConfig::load({dir + QStringLiteral("/kubeconfig")}, &error);
        const auto ep =
            config ? config->endpoint(QStringLiteral("sim-admin"), &error) : std::nullopt;
        if (!ep)
            return {};
        KubeClient admin(*ep);
        QJsonObject out;
        bool done = false;
        admin.get(path, &admin, [&](const KubeReply &r) {
            out = QJsonDocument::fromJson(r.body).object();
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 10000))
            qWarning("GET %s: no answer", qPrintable(path));
        return out;
    }
};

void TestNewJob::submitKnowingItStarts()
{
    QTemporaryDir dir;
    QProcess sim;
    startOwnSim(sim, dir.path(), false, QStringLiteral("1"));
    Services services({dir.filePath(QStringLiteral("kubeconfig"))});
    QString error;
    QVERIFY(services.session()->loadConfig(&error));
    services.session()->connectTo(QStringLiteral("sim-admin"));
    MainWindow w(&services);
    w.resize(1500, 900);
    w.show();
    QSignalSpy synced(services.session()->connection()->sync(), &ClusterSync::synced);
    QVERIFY(synced.wait(30000));
    services.store()->flush();

    // From the Workloads page's button, as the user finds it.
    w.showPage(MainWindow::Workloads);
    auto *button = w.page(MainWindow::Workloads)->findChild<QPushButton *>(u"newTrainingJob"_qs);
    QVERIFY(button);
    QTest::mouseClick(button, Qt::LeftButton);
    NewJobDialog *form = w.findChild<NewJobDialog *>(u"newJobDialog"_qs);
    QVERIFY(form);
    const QPointer<NewJobDialog> formAlive(form); // it deletes itself once the job is made
    form->nameEdit()->setText(u"llm-16"_qs);
    form->findChild<QComboBox *>(u"jobNamespace"_qs)->setCurrentText(u"user-alice"_qs);
    form->imageBox()->setCurrentText(u"registry.lab.internal/train/llm:2.3"_qs);
    form->commandEdit()->setPlainText(u"torchrun --nproc_per_node=16 train.py"_qs);
    form->gpusBox()->setValue(16);

    // One pod of 16 GPUs: never — no node has more than 8 — and 2 × 8 offered.
    auto verdictIs = [form](StartVerdict::Kind k) {
        return !form->isChecking() && form->verdict().kind == k;
    };
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
        dir.path(), u"/apis/kubeflow.org/v1/namespaces/user-alice/pytorchjobs/small-2x1"_qs);
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
                 adminGet(dir.path(), u"/api/v1/namespaces/user-alice/pods"_qs)[u"items"].toArray())
                if (p[u"metadata"][u"name"].toString().startsWith(u"small-2x1-") &&
                    proposed.contains(p[u"spec"][u"nodeName"].toString()))
                    ++bound;
            return bound == 2;
        }(),
        60000);
    bool event = false;
    for (const QJsonValue &e :
         adminGet(dir.path(), u"/api/v1/namespaces/user-alice/events"_qs)[u"items"].toArray())
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
    QVERIFY(!again->findChild<QLabel *>(u"jobFormNote"_qs)->isHidden()); // on the Form tab
    again->close();
}

QTEST_MAIN(TestNewJob)
#include "tst_newjob.moc"
