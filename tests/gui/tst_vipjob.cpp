// SPDX-License-Identifier: GPL-3.0-or-later
// A VIP job (issue 36 §4), in the window as the admin against the demo cluster running in real
// time. The New Job form's VIP tab: the machines chosen, the jobs there listed with their owners
// and GPUs. "Wait": each machine reserved (a taint only the VIP job tolerates), the job created
// and left pending while the jobs there run; once they end it runs there, and the reservation is
// released from the Nodes page's plan. "Stop now": the jobs there stopped after the VIP job's
// name is typed, each told in an Event that names the VIP job and who stopped it (read back in
// gpudesk's own store), and the VIP job runs on the machine at the cluster's highest priority.
#include "clusterstore.h"
#include "newjobdialog.h"
#include "nodesmodel.h"
#include "operationrun.h"
#include "operationsservice.h"
#include "verdictpanel.h"
#include "vipjob.h"
#include "vipmachinesbox.h"
#include "vipplanner.h"
#include "windowfixture.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTranslator>
#include <QTreeWidget>

class TestVipJob : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void waitThenStopNow();

private:
    // The 8-GPU machines whose GPUs only jobs and bare pods hold (gpudesk can stop them all),
    // with no job on two of them: the busiest first.
    static QStringList busyMachines(const ClusterStore &store)
    {
        QList<std::pair<int, QString>> found;
        QStringList seen; // jobs on a machine found already
        for (const NodeInfo &n : store.nodes()) {
            if (n.gpuAllocatable != 8 || !n.ready || n.unschedulable || !n.taints.isEmpty())
                continue;
            const QList<VipJob::Occupant> there = VipJob::occupants(store, {n.name});
            bool ok = !there.isEmpty();
            int gpus = 0;
            for (const VipJob::Occupant &o : there) {
                ok = ok && o.stoppable && !seen.contains(o.workloadKey);
                gpus += o.gpus;
            }
            if (!ok)
                continue;
            for (const VipJob::Occupant &o : there)
                seen << o.workloadKey;
            found.append({gpus, n.name});
        }
        std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        QStringList out;
        for (const auto &f : found)
            out << f.second;
        return out;
    }
    // A user's namespace with `gpus` of GPU quota left (its pods counted: the quota's own
    // status may lag).
    static QString roomyNamespace(const ClusterStore &store, int gpus)
    {
        const QString k = QStringLiteral("requests.nvidia.com/gpu");
        for (const NamespaceInfo &ns : store.users()) {
            qint64 used = 0;
            for (const PodInfo *p : store.podsIn(ns.name))
                used += p->finished() ? 0 : p->gpuRequest;
            for (const ResourceQuotaInfo *q : store.quotasIn(ns.name))
                if (q->hard.contains(k) && q->hard.value(k) - used >= gpus)
                    return ns.name;
        }
        return {};
    }
    // The VIP job's pods in `ns` and the nodes they are bound to ("" pending).
    static QMap<QString, QString> podsOf(const QString &dir, const QString &ns, const QString &job)
    {
        QMap<QString, QString> out;
        for (const QJsonValue &p :
             adminGet(dir, QStringLiteral("/api/v1/namespaces/%1/pods").arg(ns))[u"items"]
                 .toArray())
            if (p[u"metadata"][u"name"].toString().startsWith(job + u'-') &&
                p[u"metadata"][u"deletionTimestamp"].isUndefined())
                out[p[u"metadata"][u"name"].toString()] = p[u"spec"][u"nodeName"].toString();
        return out;
    }
    static bool run(Services &services, const OperationPlan &plan)
    {
        Operation *op = services.operations()->prepare(plan);
        if (!QTest::qWaitFor([op] { return op->state() == Operation::State::Ready; }, 30000))
            return false;
        QString error;
        if (!op->start(&error))
            return false;
        return QTest::qWaitFor([op] { return op->state() == Operation::State::Finished; },
                               120000) &&
               op->count(StepOutcome::Result::Done) + op->count(StepOutcome::Result::Unverified) ==
                   int(plan.steps.size());
    }
    // The form filled for a 1-node PyTorchJob of 4 GPUs in `ns`, VC default.
    static void fill(NewJobDialog &form, const QString &name, const QString &ns)
    {
        form.nameEdit()->setText(name);
        form.findChild<QComboBox *>(u"jobNamespace"_qs)->setCurrentText(ns);
        form.imageBox()->setCurrentText(u"registry.lab.internal/train/llm:2.3"_qs);
        form.commandEdit()->setPlainText(u"torchrun --nproc_per_node=4 train.py"_qs);
        form.kindBox()->setCurrentIndex(form.kindBox()->findData(int(JobSpec::PyTorch)));
        form.gpusBox()->setValue(4);
        form.nodesBox()->setValue(1);
        form.vcBox()->setCurrentIndex(0); // default
    }
};

void TestVipJob::waitThenStopNow()
{
    SimWindow s;
    if (!openSimWindow(s, QStringLiteral("1")))
        return;
    MainWindow &w = *s.window;
    Services &services = *s.services;
    const ClusterStore &store = *services.store();
    const QStringList busy = busyMachines(store);
    QString seen;
    for (const NodeInfo &n : store.nodes())
        for (const VipJob::Occupant &o : VipJob::occupants(store, {n.name}))
            seen += QStringLiteral("%1: %2 %3/%4 vc %5 %6 GPUs%7; ")
                        .arg(n.name, o.kind, o.ns, o.name, o.vc)
                        .arg(o.gpus)
                        .arg(o.stoppable ? QString() : u" (not stoppable)"_qs);
    QVERIFY2(busy.size() >= 2, qPrintable(seen));
    // Waiting needs a machine without the 4 GPUs free; stopping, any other.
    const auto full = std::find_if(busy.cbegin(), busy.cend(),
                                   [&](const QString &n) { return store.nodeGpus(n).free < 4; });
    QVERIFY(full != busy.cend());
    const QString waitNode = *full;
    const QString stopNode = busy[0] == waitNode ? busy[1] : busy[0];
    const QString ns = roomyNamespace(store, 8);
    QVERIFY(!ns.isEmpty());
    const QList<VipJob::Occupant> waitFor = VipJob::occupants(store, {waitNode});
    const QList<VipJob::Occupant> toStop = VipJob::occupants(store, {stopNode});

    // Wait: the machine chosen on the VIP tab, what runs there listed with owner and GPUs.
    NewJobDialog *form = w.newTrainingJob();
    fill(*form, u"vip-wait"_qs, ns);
    VipMachinesBox *vip = form->vipBox();
    form->tabs()->setCurrentWidget(vip);
    // To wait, the cluster's highest class that never preempts: it evicts no one.
    QTRY_VERIFY_WITH_TIMEOUT(vip->priorityClass() == u"vip-waiting", 10000);
    vip->choose({waitNode});
    QVERIFY(vip->isOn());
    QCOMPARE(vip->nodes(), QStringList{waitNode});
    QCOMPARE(vip->occupantsView()->topLevelItemCount(), int(waitFor.size()));
    QTreeWidgetItem *first = vip->occupantsView()->topLevelItem(0);
    QCOMPARE(first->text(0), waitFor[0].kind + u' ' + waitFor[0].ns + u'/' + waitFor[0].name);
    QCOMPARE(first->text(1), waitFor[0].user);
    QCOMPARE(first->text(3), QString::number(waitFor[0].gpus));
    // What is submitted is what the YAML shows: pinned there, tolerating the reservation, at
    // the cluster's highest class.
    QTRY_VERIFY_WITH_TIMEOUT(!form->isChecking(), 10000);
    const QString yaml = form->yamlEdit()->toPlainText();
    QVERIFY2(yaml.contains(u"priorityClassName: vip-waiting") &&
                 yaml.contains(u"key: vip.gpudesk.io/"_qs + ns) &&
                 yaml.contains(u"- "_qs + waitNode),
             qPrintable(yaml));
    QVERIFY2(form->verdict().kind == StartVerdict::Waits, qPrintable(form->verdict().summary()));
    QVERIFY(form->submitButton()->isEnabled());
    save(*form, u"newjob-vip"_qs);
    QTest::mouseClick(form->submitButton(), Qt::LeftButton);
    Operation *made = gpudesk::testing::runShown(&w);
    QVERIFY(made);
    const OperationPlan &waitPlan = made->plan();
    QCOMPARE(waitPlan.action, u"job.vip.wait"_qs);
    QCOMPARE(waitPlan.steps.size(), qsizetype(2)); // the reservation, then the job
    QCOMPARE(waitPlan.steps[1].after, QList<int>{0});
    QVERIFY(waitPlan.notes.join(u'\n').contains(waitFor[0].ns + u'/' + waitFor[0].name));
    QCOMPARE(made->count(StepOutcome::Result::Done), 2);

    // The machine is reserved; the job waits for it while what ran there runs on.
    const QJsonArray taints =
        adminGet(s.dir.path(), u"/api/v1/nodes/"_qs + waitNode)[u"spec"][u"taints"].toArray();
    bool reserved = false;
    for (const QJsonValue &t : taints)
        reserved |= t[u"key"].toString() == u"vip.gpudesk.io/"_qs + ns &&
                    t[u"value"].toString() == u"vip-wait" &&
                    t[u"effect"].toString() == u"NoSchedule";
    QVERIFY2(reserved, QJsonDocument(taints).toJson().constData());
    QTRY_VERIFY_WITH_TIMEOUT(NodesModel::statusText(*store.node(waitNode)).contains(u"Reserved"),
                             30000);
    w.showPage(MainWindow::Nodes);
    save(w, u"nodes-vip-reserved"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(!podsOf(s.dir.path(), ns, u"vip-wait"_qs).isEmpty(), 60000);
    QVERIFY(podsOf(s.dir.path(), ns, u"vip-wait"_qs).first().isEmpty());
    for (const VipJob::Occupant &o : waitFor)
        QVERIFY2(store.workload(o.workloadKey), qPrintable(o.name));

    // Stop now, on the other machine: the VIP job's name typed, each job stopped and told.
    NewJobDialog *now = w.newTrainingJob();
    fill(*now, u"vip-now"_qs, ns);
    now->vipBox()->choose({stopNode});
    now->vipBox()->stopNowButton()->setChecked(true);
    // Stopping, it waits for no one: the highest class.
    QTRY_COMPARE_WITH_TIMEOUT(now->vipBox()->priorityClass(), u"vip"_qs, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!now->isChecking() && now->submitButton()->isEnabled(), 10000);
    QTest::mouseClick(now->submitButton(), Qt::LeftButton);
    Operation *stopped = gpudesk::testing::runShown(&w, [](QWidget &done) {
        done.resize(1100, 700);
        save(done, u"newjob-vip-stopped"_qs);
    });
    QVERIFY(stopped);
    const OperationPlan &stopPlan = stopped->plan();
    QCOMPARE(stopPlan.action, u"job.vip.stop"_qs);
    QCOMPARE(stopPlan.confirmationWord(), u"vip-now"_qs);
    QCOMPARE(stopPlan.steps.size(), toStop.size() + 1);
    QCOMPARE(stopPlan.collateral().size(), toStop.size());
    QCOMPARE(stopped->outcomes().constLast().result, StepOutcome::Result::Done);
    for (const VipJob::Occupant &o : toStop) {
        // The owner reads in gpudesk who stopped the job, and for what.
        QTRY_VERIFY2_WITH_TIMEOUT(
            [&] {
                for (const EventInfo *e : store.eventsFor(o.workloadKey))
                    if (e->reason == u"GpudeskStopped" && e->message.contains(u"sim-admin") &&
                        e->message.contains(u"for the VIP job "_qs + ns + u"/vip-now"))
                        return true;
                return false;
            }(),
            qPrintable(o.name), 30000);
    }
    // It runs there, at the highest priority.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto pods = podsOf(s.dir.path(), ns, u"vip-now"_qs);
            return !pods.isEmpty() && pods.first() == stopNode;
        }(),
        90000);
    const QJsonObject pod =
        adminGet(s.dir.path(), QStringLiteral("/api/v1/namespaces/%1/pods/%2")
                                   .arg(ns, podsOf(s.dir.path(), ns, u"vip-now"_qs).firstKey()));
    QCOMPARE(pod[u"spec"][u"priority"].toInt(), 100000);

    // The jobs on the reserved machine end (stopped here): the waiting VIP job takes it.
    QStringList keys;
    for (const VipJob::Occupant &o : waitFor)
        keys << o.workloadKey;
    QVERIFY(run(services,
                services.operations()->planner().stopWorkloads(keys, u"ended for the test"_qs)));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto pods = podsOf(s.dir.path(), ns, u"vip-wait"_qs);
            return !pods.isEmpty() && pods.first() == waitNode;
        }(),
        90000);

    // Released: the taint goes, and pods may land there again.
    const OperationPlan release = VipPlanner(services.operations()->planner()).release({waitNode});
    QCOMPARE(release.steps.size(), qsizetype(1));
    QVERIFY2(release.steps[0].description.contains(ns + u"/vip-wait"),
             qPrintable(release.steps[0].description));
    QVERIFY(run(services, release));
    QTRY_VERIFY_WITH_TIMEOUT(!NodesModel::statusText(*store.node(waitNode)).contains(u"Reserved"),
                             30000);
    for (const QJsonValue &t :
         adminGet(s.dir.path(), u"/api/v1/nodes/"_qs + waitNode)[u"spec"][u"taints"].toArray())
        QVERIFY(!t[u"key"].toString().startsWith(u"vip.gpudesk.io/"));

    // A VIP job's YAML, edited, with the VIP tab then turned off: refused, not sent as a
    // plain job at the highest class.
    NewJobDialog *edited = w.newTrainingJob();
    fill(*edited, u"vip-edited"_qs, ns);
    edited->vipBox()->choose({stopNode});
    QTRY_VERIFY_WITH_TIMEOUT(!edited->isChecking(), 10000);
    edited->yamlEdit()->setPlainText(edited->yamlEdit()->toPlainText() + u"\n"_qs);
    edited->vipBox()->enableBox()->setChecked(false);
    QTRY_VERIFY_WITH_TIMEOUT(
        edited->verdictPanel()->summaryText().contains(u"still makes a VIP job"), 10000);
    QVERIFY(!edited->submitButton()->isEnabled());
    edited->close();

    {
        // The tab as a reader of Chinese sees it.
        QTranslator zh;
        QVERIFY(zh.load(u"gpudesk_zh_CN"_qs, TestPaths::qmDir()));
        QApplication::installTranslator(&zh);
        NewJobDialog *chinese = w.newTrainingJob();
        fill(*chinese, u"vip-zh"_qs, ns);
        chinese->tabs()->setCurrentWidget(chinese->vipBox());
        chinese->vipBox()->choose({busy.value(2, stopNode)});
        QTRY_VERIFY_WITH_TIMEOUT(!chinese->isChecking(), 10000);
        QVERIFY2(chinese->vipBox()->enableBox()->text().contains(u"VIP"),
                 qPrintable(chinese->vipBox()->enableBox()->text()));
        save(*chinese, u"newjob-vip-zh_CN"_qs);
        chinese->close();
        QApplication::removeTranslator(&zh);
    }
}

QTEST_MAIN(TestVipJob)
#include "tst_vipjob.moc"
