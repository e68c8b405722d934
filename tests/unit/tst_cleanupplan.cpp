// SPDX-License-Identifier: GPL-3.0-or-later
// The plan the cleanup makes of findings: its steps, their guards and groups, what is collateral
// and how it is confirmed, GPUs counted once, a node's Ready condition read again; the model of
// the steps and the audit log read back from its file (QAbstractItemModelTester on each).
#include "auditlog.h"
#include "auditmodel.h"
#include "findingsfixture.h"
#include "operationplanner.h"
#include "operationstepsmodel.h"
#include "stepguard.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;
using namespace gpudesk::findingstest;

class TestCleanupPlan : public QObject, public FindingsFixture
{
    Q_OBJECT
private slots:
    void init() { setUpStores(); }
    void cleanupPlan();
    void drainPlan();
    void nodeRemediesAreNotBatched();
    void notReadyPlanGuardsEveryStep();
    void guardReadsTheNodeAgain_data();
    void guardReadsTheNodeAgain();
    void auditLogRoundTrip();
};

void TestCleanupPlan::cleanupPlan()
{
    PodInfo stuck = pod(u"uid-old"_qs, u"old-train"_qs, 2);
    stuck.deleting = true;
    stuck.deletionTime = T0 - 3600 * 1000;
    PodInfo idle = pod(u"uid-idle"_qs, u"idle-0"_qs, 4);
    m_cluster->replacePods({stuck, idle});
    const QList<NodeProcess> procs{proc(200, 1, u"uid-gone"_qs), proc(201, 3, u"uid-gone"_qs),
                                   proc(300, 0, u"uid-idle"_qs)};
    for (qint64 t = T0; t <= T0 + 10 * Minute; t += 2000)
        sample(t, procs);
    FindingsOptions o;
    o.idleForMs = 5 * Minute;
    const QList<Finding> f = find(o);
    QCOMPARE(f.size(), 3);

    OperationContext ctx;
    ctx.store = m_cluster.get();
    ctx.telemetry = m_telemetry.get();
    const OperationPlan plan = OperationPlanner(ctx).cleanup(f);
    QCOMPARE(plan.action, u"cleanup"_qs);
    QCOMPARE(plan.steps.size(), 4);         // two kills, a force delete, a delete
    QVERIFY(plan.needsTypedConfirmation()); // forceful steps
    QCOMPARE(plan.confirmationWord(), u"4"_qs);
    int kills = 0;
    for (const PlanStep &s : plan.steps) {
        switch (s.kind) {
        case PlanStep::Kind::KillProcess:
            ++kills;
            QVERIFY(s.forceful);
            QCOMPARE(s.target.node, u"g1"_qs);
            QCOMPARE(s.target.podUid, u"uid-gone"_qs);
            QCOMPARE(s.target.startTime, 1000 + s.target.pid);
            QVERIFY(s.detail.contains(u"kill -s TERM %1"_qs.arg(s.target.pid)));
            QCOMPARE(s.eventReason, u"GpudeskKilledProcess"_qs);
            // An orphan's kill: only while no pod of its uid is back.
            QCOMPARE(s.guard, PlanStep::Guard::PodStillGone);
            break;
        case PlanStep::Kind::ForceDelete:
            QCOMPARE(s.target.uid, u"uid-old"_qs);
            QCOMPARE(s.gracePeriodSeconds, std::optional<qint64>(0));
            // The node is Ready and shows no container of it: what the force rests on.
            QCOMPARE(s.guard, PlanStep::Guard::StillTerminatingContainersGone);
            QCOMPARE(s.target.apiPath, u"/api/v1/namespaces/user-bob/pods/old-train"_qs);
            QVERIFY(s.why.startsWith(findingClassTitle(FindingClass::StuckTerminating)));
            break;
        case PlanStep::Kind::Delete:
            QCOMPARE(s.target.uid, u"uid-idle"_qs);
            QCOMPARE(s.guard, PlanStep::Guard::StillIdle);
            QCOMPARE(s.target.holds.size(), 1);
            QCOMPARE(s.target.holds[0].cards, QList<int>{0});
            QCOMPARE(s.target.gpus, 4);
            QVERIFY(!s.forceful);
            break;
        default:
            QFAIL("unexpected step");
        }
    }
    QCOMPARE(kills, 2);
    QCOMPARE(plan.gpus(), 2 + 4 + 2);
    // One group per finding: the orphan's two kills stand or fall together, apart from the rest.
    QCOMPARE(plan.steps[0].group, plan.steps[1].group);
    QCOMPARE(QSet<int>({plan.steps[0].group, plan.steps[2].group, plan.steps[3].group}).size(), 3);
    QVERIFY(plan.collateral().isEmpty());

    OperationStepsModel steps;
    QAbstractItemModelTester tester(&steps, QAbstractItemModelTester::FailureReportingMode::QtTest);
    steps.setPlan(plan);
    QCOMPARE(steps.rowCount(), 4);
    QCOMPARE(steps.index(0, OperationStepsModel::Check).data().toString(), u"Checking…"_qs);
    steps.setChecked(0, PlanStep::DryRun::Refused, u"pods \"x\" is forbidden"_qs);
    QCOMPARE(steps.index(0, OperationStepsModel::Check).data().toString(),
             u"Refused: pods \"x\" is forbidden"_qs);
    StepOutcome done;
    done.result = StepOutcome::Result::Done;
    done.verification = QStringLiteral("PID 200 is gone; GPU 1 holds 0 MiB");
    steps.setOutcome(0, done);
    QCOMPARE(steps.index(0, OperationStepsModel::Verification).data().toString(),
             done.verification);
}

void TestCleanupPlan::drainPlan()
{
    PodInfo a = pod(u"uid-a"_qs, u"a-0"_qs, 1);
    a.owner = {QStringLiteral("Job"), QStringLiteral("job-a"), QStringLiteral("job-a-uid")};
    PodInfo ds = pod(u"uid-ds"_qs, u"dcgm-exporter-x"_qs, 0);
    ds.owner = {QStringLiteral("DaemonSet"), QStringLiteral("dcgm-exporter"), u"ds-uid"_qs};
    PodInfo done = pod(u"uid-done"_qs, u"done-0"_qs, 0);
    done.phase = QStringLiteral("Succeeded");
    PodInfo bare = pod(u"uid-bare"_qs, u"dev-bob"_qs, 1);
    m_cluster->replacePods({a, ds, done, bare});
    OperationContext ctx;
    ctx.store = m_cluster.get();
    ctx.telemetry = m_telemetry.get();
    const OperationPlan plan = OperationPlanner(ctx).drain(u"g1"_qs, u"because"_qs);
    QCOMPARE(plan.steps.size(), 3); // cordon, two evictions
    QCOMPARE(plan.steps[0].kind, PlanStep::Kind::Patch);
    QCOMPARE(plan.steps[0].body, QByteArrayLiteral(R"({"spec":{"unschedulable":true}})"));
    QCOMPARE(plan.steps[0].expectPointer, u"/spec/unschedulable"_qs);
    for (int i = 1; i < 3; ++i) {
        QCOMPARE(plan.steps[i].kind, PlanStep::Kind::Evict);
        QCOMPARE(plan.steps[i].after, QList<int>{0});
    }
    QVERIFY(plan.notes.join(u'\n').contains(u"dcgm-exporter-x left in place: a DaemonSet pod"_qs));
    // The user chose the node, not its pods: each eviction is collateral, listed by owner and
    // GPUs, and the node's name — not a count — confirms.
    QVERIFY(!plan.steps[0].collateral);
    QVERIFY(plan.steps[1].collateral && plan.steps[2].collateral);
    QCOMPARE(plan.collateral().size(), 2);
    QVERIFY2(plan.collateral().join(u'\n').contains(u"bob: Evict pod user-bob/a-0"_qs) &&
                 plan.collateral().join(u'\n').contains(u"1 GPU(s)"_qs),
             qPrintable(plan.collateral().join(u'\n')));
    QVERIFY(plan.needsTypedConfirmation());
    QCOMPARE(plan.confirmationWord(), u"g1"_qs);
    const QString bareStep = plan.steps[1].target.name == u"dev-bob"_qs ? plan.steps[1].description
                                                                        : plan.steps[2].description;
    QVERIFY(bareStep.contains(u"nothing will start it again"_qs));
    // A cordoned node is not cordoned again.
    NodeInfo n = *m_cluster->node(u"g1"_qs);
    n.unschedulable = true;
    m_cluster->replaceNodes({n});
    const OperationPlan again = OperationPlanner(ctx).drain(u"g1"_qs, u"because"_qs);
    QCOMPARE(again.steps.size(), 2);
    QVERIFY(again.steps[0].after.isEmpty());
}

void TestCleanupPlan::nodeRemediesAreNotBatched()
{
    // Issue 33: Select all → Stop evicted another user's running 5-GPU job because a different
    // card of its node held memory with no process.
    PodInfo healthy = pod(u"uid-eval"_qs, u"qwen-eval-0"_qs, 3);
    healthy.owner = {QStringLiteral("Job"), QStringLiteral("qwen-eval"), u"job-uid"_qs};
    m_cluster->replacePods({healthy});
    const QList<NodeProcess> procs{proc(400, 0, u"uid-eval"_qs)};
    NodeSample s;
    s.node = QStringLiteral("g1");
    s.time = T0;
    s.processes = procs;
    for (int i = 0; i < 4; ++i) {
        GpuCardSample c;
        c.index = i;
        c.uuid = QStringLiteral("GPU-%1").arg(i);
        c.utilization = 90;
        c.memoryUsedMiB = i == 0 ? 20000 : (i == 3 ? 30720 : 0);
        s.cards << c;
    }
    m_telemetry->apply(s);
    const QList<Finding> f = find();
    const Finding *phantom = of(f, FindingClass::PhantomMemory);
    QVERIFY(phantom);
    QCOMPARE(phantom->remedy, Remedy::Drain);
    OperationContext ctx;
    ctx.store = m_cluster.get();
    ctx.telemetry = m_telemetry.get();
    const OperationPlan batch = OperationPlanner(ctx).cleanup(f);
    QVERIFY(batch.steps.isEmpty());
    QVERIFY2(batch.notes.join(u'\n').contains(
                 u"not in this plan — its remedy drains the node, and it would evict 1 pod(s) of "
                 "1 user(s) holding 3 GPUs"_qs),
             qPrintable(batch.notes.join(u'\n')));
    // Named, the drain is planned: the cordon and the eviction both collateral, the node's name
    // typed to confirm.
    const OperationPlan named = OperationPlanner(ctx).cleanup(f, {u"g1"_qs});
    QCOMPARE(named.steps.size(), 2);
    QVERIFY(named.steps[0].collateral && named.steps[1].collateral);
    QCOMPARE(named.steps[1].target.name, u"qwen-eval-0"_qs);
    QCOMPARE(named.confirmationWord(), u"g1"_qs);
    QCOMPARE(named.collateral().size(), 2);
}

void TestCleanupPlan::notReadyPlanGuardsEveryStep()
{
    // A pod on a node NotReady for an hour whose processes still run: kills, then a force
    // delete — each guarded by the node still NotReady since the same moment, the kills reading
    // their pod (the same uid) first; one group.
    PodInfo p = pod(u"uid-nr"_qs, u"train-0"_qs, 2);
    m_cluster->replacePods({p});
    sample(T0, {proc(500, 0, u"uid-nr"_qs), proc(501, 1, u"uid-nr"_qs)});
    const qint64 since = T0 - 3600 * 1000;
    NodeInfo n = *m_cluster->node(u"g1"_qs);
    n.ready = false;
    n.conditions = {{u"Ready"_qs, u"Unknown"_qs, u"NodeStatusUnknown"_qs, QString(), since}};
    m_cluster->replaceNodes({n});
    const QList<Finding> f = find();
    const Finding *nr = of(f, FindingClass::OnNotReadyNode);
    QVERIFY(nr);
    QCOMPARE(nr->remedy, Remedy::KillThenForceDelete);
    OperationContext ctx;
    ctx.store = m_cluster.get();
    ctx.telemetry = m_telemetry.get();
    const OperationPlan plan = OperationPlanner(ctx).cleanup({*nr});
    QCOMPARE(plan.steps.size(), 3);
    for (const PlanStep &s : plan.steps) {
        QCOMPARE(s.guard, PlanStep::Guard::NodeStillNotReady);
        QCOMPARE(s.guardSince, since);
        QCOMPARE(s.group, 0);
    }
    QCOMPARE(plan.steps[0].kind, PlanStep::Kind::KillProcess);
    QCOMPARE(plan.steps[0].guardPath, u"/api/v1/namespaces/user-bob/pods/train-0"_qs);
    QCOMPARE(plan.steps[0].target.podUid, u"uid-nr"_qs);
    QCOMPARE(plan.steps[2].kind, PlanStep::Kind::ForceDelete);
    QCOMPARE(plan.steps[2].after, (QList<int>{0, 1}));
    // The pod's two GPUs, counted once: the kills free what the delete frees.
    QCOMPARE(plan.gpus(), 2);
}

void TestCleanupPlan::guardReadsTheNodeAgain_data()
{
    QTest::addColumn<QByteArray>("node");
    QTest::addColumn<QString>("verdict"); // "" when the step may act
    // Planned when the node went NotReady at 03:00:00.
    auto node = [](const char *status, const char *at) -> QByteArray {
        return QByteArray(R"({"kind":"Node","status":{"conditions":[{"type":"MemoryPressure",)"
                          R"("status":"False"},{"type":"Ready","status":")") +
               status + R"(","lastTransitionTime":")" + at + R"("}]}})";
    };
    QTest::addRow("still NotReady since then")
        << node("Unknown", "2026-11-27T03:00:00Z") << QString();
    QTest::addRow("NotReady, False") << node("False", "2026-11-27T03:00:00Z") << QString();
    QTest::addRow("Ready again") << node("True", "2026-11-27T03:05:00Z")
                                 << u"its node is Ready again: not acted on"_qs;
    QTest::addRow("back, then NotReady again")
        << node("Unknown", "2026-11-27T03:04:10Z")
        << u"its node was Ready again since the plan (NotReady again since "_qs;
    QTest::addRow("no conditions") << QByteArray(R"({"kind":"Node","status":{}})")
                                   << u"its node reports no Ready condition: not acted on"_qs;
    QTest::addRow("not JSON") << QByteArray("<html>") << u"its node reports no Ready condition"_qs;
}

void TestCleanupPlan::guardReadsTheNodeAgain()
{
    QFETCH(QByteArray, node);
    QFETCH(QString, verdict);
    const qint64 since =
        QDateTime::fromString(u"2026-11-27T03:00:00Z"_qs, Qt::ISODate).toMSecsSinceEpoch();
    const QString got = StepGuard::nodeStillNotReady(node, since);
    if (verdict.isEmpty())
        QCOMPARE(got, QString());
    else
        QVERIFY2(got.startsWith(verdict), qPrintable(got));
}

void TestCleanupPlan::auditLogRoundTrip()
{
    QTemporaryDir dir;
    AuditLog log(dir.filePath(u"sub/audit.jsonl"_qs));
    OperationPlan plan;
    plan.action = QStringLiteral("node.cordon");
    plan.title = QStringLiteral("Cordon 1 node(s)");
    plan.context = QStringLiteral("lab");
    PlanStep s;
    s.kind = PlanStep::Kind::Patch;
    s.target.kind = QStringLiteral("Node");
    s.target.name = QStringLiteral("g1");
    s.description = QStringLiteral("Cordon g1");
    s.body = R"({"spec":{"unschedulable":true}})";
    s.detail = u"PATCH /api/v1/nodes/g1 "_qs + QString::fromUtf8(s.body);
    plan.steps << s;
    QString error;
    // A log an older gpudesk left readable by every local user is narrowed on the next write.
    QVERIFY(QDir().mkpath(dir.filePath(u"sub"_qs)));
    QFile old(log.path());
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.close();
    QVERIFY(old.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther |
                               QFile::ReadGroup));
    QVERIFY(log.append(AuditLog::started(u"op-1"_qs, u"admin@lab"_qs, plan), &error));
    // The admin's alone (issue 33: audit.jsonl was readable by every local user).
    QCOMPARE(QFileInfo(log.path()).permissions() &
                 (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
             QFile::Permissions());
    StepOutcome o;
    o.result = StepOutcome::Result::Done;
    o.verification = QStringLiteral("/spec/unschedulable is true on the server");
    QVERIFY(log.append(AuditLog::ended(u"op-1"_qs, u"admin@lab"_qs, plan, {o}, false), &error));
    QFile raw(log.path());
    QVERIFY(raw.open(QIODevice::Append));
    raw.write("not json\n"); // a torn line is skipped, not fatal
    raw.close();
    const QList<QJsonObject> records = log.read();
    QCOMPARE(records.size(), 2);
    QCOMPARE(records[0].value(u"event"_qs).toString(), u"started"_qs);
    QCOMPARE(records[0].value(u"who"_qs).toString(), u"admin@lab"_qs);
    const QJsonObject step = records[0].value(u"plan"_qs).toArray().first().toObject();
    QCOMPARE(step.value(u"does"_qs).toString(), u"Cordon g1"_qs);
    // The request's body is JSON in the record, not a string of escaped JSON inside the line.
    QCOMPARE(step.value(u"request"_qs).toString(), u"PATCH /api/v1/nodes/g1"_qs);
    QCOMPARE(step.value(u"body"_qs)
                 .toObject()
                 .value(u"spec"_qs)
                 .toObject()
                 .value(u"unschedulable"_qs)
                 .toBool(),
             true);
    QCOMPARE(
        records[1].value(u"results"_qs).toArray().first().toObject().value(u"result"_qs).toString(),
        u"done"_qs);

    AuditModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecords(records);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, AuditModel::Outcome).data().toString(), u"1 done"_qs); // newest first
    QCOMPARE(model.index(1, AuditModel::Outcome).data().toString(), u"started: 1 step(s)"_qs);
    QCOMPARE(model.index(0, AuditModel::Action).data().toString(), plan.title);

    // A log that cannot be written says so (and the operation does not run).
    AuditLog blocked(dir.filePath(u"sub/audit.jsonl/x"_qs));
    QVERIFY(!blocked.append(QJsonObject(), &error));
    QVERIFY(error.contains(u"Cannot write the audit log"_qs));
}
QTEST_GUILESS_MAIN(TestCleanupPlan)
#include "tst_cleanupplan.moc"
