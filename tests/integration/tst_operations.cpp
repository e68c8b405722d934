// SPDX-License-Identifier: GPL-3.0-or-later
// Operations against simulators of their own (they change the cluster): dry runs that change
// nothing; a delete verified gone and freed, with its Event and audit record; a target replaced
// since the plan skipped; a refusal of one item (a researcher's 403) that does not end the
// batch; cancel in the middle of 200 deletions leaving each item done or untouched; cordon and
// uncordon; a drain that a PodDisruptionBudget stops for one pod; a Volcano job aborted by a
// Command; orphan processes ended TERM-then-KILL over SSH, a reused PID left alone; an
// operation that outlives a context switch.
#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "contextconnection.h"
#include "findingsservice.h"
#include "operation.h"
#include "operationsservice.h"
#include "services.h"
#include "simprocess.h"
#include "telemetrystore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace gpudesk;

class TestOperations : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void dryRunChangesNothing();
    void deleteIsVerifiedAndAudited();
    void replacedTargetIsSkipped();
    void refusalIsPerItem();
    void cancelInTheMiddleOf200();
    void cordonAndUncordon();
    void drainStopsAtDisruptionBudget();
    void volcanoJobAbortedByCommand();
    void orphansEndedOverSsh();
    void reusedPidIsLeftAlone();
    void nodeBackBeforeTheRun_data();
    void nodeBackBeforeTheRun();
    void readOnlyAccountSendsNoSignal();
    void outlivesContextSwitch();

private:
    // Services connected to `context` of the simulator, synced (and sampling when `ssh`).
    // The first orphan-process finding once its processes' start times are read.
    static std::optional<Finding> waitForOrphan(Services &s);
    // The pods of g4090-10 — NotReady for 3 hours, its kubelet gone, their processes still
    // running — once at least three of them have their processes' start times read.
    static QList<Finding> waitForNotReady(Services &s);
    // The PIDs the truth has running on `node`'s cards.
    static QSet<qint64> pidsOn(const SimProcess &sim, const QString &node);
    // The uids of the pods on `node` the API has, not deleting.
    static QSet<QString> podsOn(const SimProcess &sim, const QString &node);
    // Checks the plan, runs it, waits for the end.
    Operation *run(Services &s, const OperationPlan &plan, int timeoutMs = 120000);
    static QString podUid(const SimProcess &sim, const QString &ns, const QString &name);

    QTemporaryDir m_data; // the audit log goes here (XDG_DATA_HOME)
};

void TestOperations::initTestCase()
{
    qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    QCoreApplication::setApplicationName(QStringLiteral("gpudesk"));
    QCoreApplication::setOrganizationName(QStringLiteral("gpudesk"));
}

std::optional<Finding> TestOperations::waitForOrphan(Services &s)
{
    FindingsService *f = s.findings();
    FindingsOptions o;
    o.classes = {FindingClass::OrphanProcess};
    f->setOptions(o);
    const bool read = QTest::qWaitFor(
        [f] {
            return f->hasResult() && !f->findings().isEmpty() &&
                   !f->findings().first().processes.isEmpty() &&
                   f->findings().first().processes.first().startTicks >= 0;
        },
        30000);
    return read ? std::optional<Finding>(f->findings().first()) : std::nullopt;
}

QList<Finding> TestOperations::waitForNotReady(Services &s)
{
    FindingsService *f = s.findings();
    FindingsOptions o;
    o.classes = {FindingClass::OnNotReadyNode};
    f->setOptions(o);
    auto killable = [f] {
        QList<Finding> out;
        for (const Finding &x : f->findings())
            if (x.node == QLatin1String("g4090-10") && x.remedy == Remedy::KillThenForceDelete &&
                std::all_of(x.processes.cbegin(), x.processes.cend(),
                            [](const FindingProcess &p) { return p.startTicks >= 0; }))
                out << x;
        return out;
    };
    if (!QTest::qWaitFor([&] { return f->hasResult() && killable().size() >= 3; }, 60000))
        return {};
    return killable();
}

QSet<qint64> TestOperations::pidsOn(const SimProcess &sim, const QString &node)
{
    QSet<qint64> out;
    for (const QJsonValue &n : sim.truth()[QStringLiteral("nodes")].toArray())
        if (n[QStringLiteral("name")].toString() == node)
            for (const QJsonValue &c : n[QStringLiteral("cards")].toArray())
                for (const QJsonValue &p : c[QStringLiteral("processes")].toArray())
                    out.insert(p[QStringLiteral("pid")].toInteger());
    return out;
}

QSet<QString> TestOperations::podsOn(const SimProcess &sim, const QString &node)
{
    QSet<QString> out;
    for (const QJsonValue &p :
         sim.request("GET", QStringLiteral("/api/v1/pods?fieldSelector=spec.nodeName%3D") + node)
             .json()[QStringLiteral("items")]
             .toArray())
        if (!p[QStringLiteral("metadata")].toObject().contains(u"deletionTimestamp"_qs))
            out.insert(p[QStringLiteral("metadata")][QStringLiteral("uid")].toString());
    return out;
}

Operation *TestOperations::run(Services &s, const OperationPlan &plan, int timeoutMs)
{
    Operation *op = s.operations()->prepare(plan);
    if (op->state() != Operation::State::Ready) {
        QSignalSpy checked(op, &Operation::checked);
        if (!checked.wait(60000))
            return nullptr;
    }
    QSignalSpy finished(op, &Operation::finished);
    QString error;
    if (!op->start(&error)) {
        qWarning() << error;
        return nullptr;
    }
    if (op->state() != Operation::State::Finished && !finished.wait(timeoutMs))
        return nullptr;
    return op;
}

QString TestOperations::podUid(const SimProcess &sim, const QString &ns, const QString &name)
{
    return sim.request("GET", QStringLiteral("/api/v1/namespaces/%1/pods/%2").arg(ns, name))
        .json()
        .value(QStringLiteral("metadata"))
        .toObject()
        .value(QStringLiteral("uid"))
        .toString();
}

void TestOperations::dryRunChangesNothing()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({QStringLiteral("--no-ssh")}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    const QString uid = podUid(sim, QStringLiteral("user-frank"), QStringLiteral("idle-inference"));
    QVERIFY(!uid.isEmpty());
    const QString rv =
        sim.request("GET", QStringLiteral("/api/v1/namespaces/user-frank/pods/idle-inference"))
            .json()[QStringLiteral("metadata")][QStringLiteral("resourceVersion")]
            .toString();
    OperationPlan plan = s->operations()->planner().deleteWorkloads({uid}, QStringLiteral("test"));
    plan.steps += s->operations()->planner().cordon({QStringLiteral("g4090-01")}, true).steps;
    QCOMPARE(plan.steps.size(), 2);
    Operation *op = s->operations()->prepare(plan);
    QSignalSpy checked(op, &Operation::checked);
    QVERIFY(op->state() == Operation::State::Ready || checked.wait(30000));
    for (const PlanStep &st : op->plan().steps)
        QVERIFY2(st.dryRun == PlanStep::DryRun::Accepted, qPrintable(st.dryRunMessage));
    // Nothing changed: the same pod at the same version, the node still schedulable.
    const QJsonObject pod =
        sim.request("GET", QStringLiteral("/api/v1/namespaces/user-frank/pods/idle-inference"))
            .json();
    QCOMPARE(pod[QStringLiteral("metadata")][QStringLiteral("uid")].toString(), uid);
    QCOMPARE(pod[QStringLiteral("metadata")][QStringLiteral("resourceVersion")].toString(), rv);
    QVERIFY(
        !pod[QStringLiteral("metadata")].toObject().contains(QStringLiteral("deletionTimestamp")));
    QVERIFY(!sim.request("GET", QStringLiteral("/api/v1/nodes/g4090-01"))
                 .json()[QStringLiteral("spec")][QStringLiteral("unschedulable")]
                 .toBool());
    // A plan never run leaves no audit record.
    QVERIFY(
        !QFile::exists(s->operations()->audit().path()) ||
        !QFile(s->operations()->audit().path()).size() ||
        !s->operations()->audit().read().last()[QStringLiteral("operation")].toString().startsWith(
            op->id()));
}

void TestOperations::deleteIsVerifiedAndAudited()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"), true);
    QVERIFY(s);
    const QString uid = podUid(sim, QStringLiteral("user-frank"), QStringLiteral("idle-inference"));
    // Its node sampled, so that "freed" can be checked on its cards.
    const QString node = s->store()->pod(uid)->nodeName;
    QTRY_VERIFY_WITH_TIMEOUT(s->telemetry()->isFresh(node), 30000);
    const OperationPlan plan =
        s->operations()->planner().deleteWorkloads({uid}, QStringLiteral("idle for 7 hours"));
    Operation *op = run(*s, plan);
    QVERIFY(op);
    const StepOutcome &o = op->outcomes().first();
    QVERIFY2(
        o.result == StepOutcome::Result::Done,
        qPrintable(StepOutcome::resultName(o.result) + u' ' + o.message + u' ' + o.verification));
    QVERIFY2(o.verification.contains(QLatin1String("gone from the API")),
             qPrintable(o.verification));
    QVERIFY2(o.verification.contains(QStringLiteral("free: ")) && o.verification.contains(node),
             qPrintable(o.verification));
    QCOMPARE(sim.request("GET", QStringLiteral("/api/v1/namespaces/user-frank/pods/idle-inference"))
                 .status,
             404);
    // The truth agrees: nothing of it on its node's cards.
    for (const QJsonValue &n : sim.truth()[QStringLiteral("nodes")].toArray())
        for (const QJsonValue &p : n[QStringLiteral("pods")].toArray())
            QVERIFY(p[QStringLiteral("name")].toString() != QLatin1String("idle-inference"));
    // Its owner reads what happened, and who did it.
    const QJsonArray events =
        sim.request("GET", QStringLiteral("/api/v1/namespaces/user-frank/events"))
            .json()[QStringLiteral("items")]
            .toArray();
    bool told = false;
    QStringList reasons;
    for (const QJsonValue &e : events)
        reasons << e[QStringLiteral("reason")].toString();
    for (const QJsonValue &e : events)
        if (e[QStringLiteral("reason")].toString() == QLatin1String("GpudeskDeleted") &&
            e[QStringLiteral("involvedObject")][QStringLiteral("uid")].toString() == uid) {
            told = true;
            QVERIFY2(e[QStringLiteral("message")].toString().contains(s->operations()->who()),
                     qPrintable(e[QStringLiteral("message")].toString()));
            QVERIFY(e[QStringLiteral("message")].toString().contains(
                QLatin1String("idle for 7 hours")));
        }
    QVERIFY2(told, qPrintable(o.message + u'|' + reasons.join(u',')));
    // The audit log: a start and an end record of this operation.
    QList<QJsonObject> records;
    for (const QJsonObject &r : s->operations()->audit().read())
        if (r[QStringLiteral("operation")].toString() == op->id())
            records << r;
    QCOMPARE(records.size(), 2);
    QCOMPARE(records[0][QStringLiteral("event")].toString(), QStringLiteral("started"));
    QCOMPARE(records[0][QStringLiteral("who")].toString(), s->operations()->who());
    QCOMPARE(records[0][QStringLiteral("context")].toString(), QStringLiteral("sim-admin"));
    QCOMPARE(records[1][QStringLiteral("results")][0][QStringLiteral("result")].toString(),
             QStringLiteral("done"));
    QCOMPARE(records[1][QStringLiteral("results")][0][QStringLiteral("verification")].toString(),
             o.verification);
}

void TestOperations::replacedTargetIsSkipped()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({QStringLiteral("--no-ssh")}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    const QString path = QStringLiteral("/api/v1/namespaces/user-frank/pods/idle-inference");
    const QString uid = podUid(sim, QStringLiteral("user-frank"), QStringLiteral("idle-inference"));
    const OperationPlan plan =
        s->operations()->planner().deleteWorkloads({uid}, QStringLiteral("test"));
    // Between the plan and the run, someone replaces the pod with a new one of the same name.
    QJsonObject pod = sim.request("GET", path).json();
    QCOMPARE(sim.request("DELETE", path, R"({"gracePeriodSeconds":0})").status, 200);
    QJsonObject meta{{QStringLiteral("name"), QStringLiteral("idle-inference")},
                     {QStringLiteral("namespace"), QStringLiteral("user-frank")}};
    pod[QStringLiteral("metadata")] = meta;
    pod.remove(QStringLiteral("status"));
    QCOMPARE(sim.request("POST", QStringLiteral("/api/v1/namespaces/user-frank/pods"),
                         QJsonDocument(pod).toJson())
                 .status,
             201);
    const QString newUid =
        podUid(sim, QStringLiteral("user-frank"), QStringLiteral("idle-inference"));
    QVERIFY(newUid != uid);
    Operation *op = run(*s, plan);
    QVERIFY(op);
    QCOMPARE(op->outcomes().first().result, StepOutcome::Result::Skipped);
    QVERIFY2(op->outcomes().first().message.contains(QStringLiteral("replaced since the plan")),
             qPrintable(op->outcomes().first().message));
    QCOMPARE(podUid(sim, QStringLiteral("user-frank"), QStringLiteral("idle-inference")), newUid);
}

void TestOperations::refusalIsPerItem()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({QStringLiteral("--no-ssh")}, &error), qPrintable(error));
    auto admin = sim.connect(QStringLiteral("sim-admin"));
    auto alice = sim.connect(QStringLiteral("sim-alice"));
    QVERIFY(admin && alice);
    // Her own dev environment, and bob's: she may delete only hers.
    const QString hers = podUid(sim, QStringLiteral("user-alice"), QStringLiteral("dev-alice"));
    const QString bobs = podUid(sim, QStringLiteral("user-bob"), QStringLiteral("dev-bob"));
    QVERIFY(!hers.isEmpty() && !bobs.isEmpty());
    OperationPlan plan =
        alice->operations()->planner().deleteWorkloads({hers}, QStringLiteral("mine"));
    // Bob's pod is not in her store; its step as an admin's planner would write it.
    const OperationPlan other =
        admin->operations()->planner().deleteWorkloads({bobs}, QStringLiteral("not mine"));
    plan.steps.prepend(other.steps.first());
    QCOMPARE(plan.steps.size(), 2);
    Operation *op = run(*alice, plan);
    QVERIFY(op);
    QCOMPARE(op->outcomes()[0].result, StepOutcome::Result::Refused);
    QVERIFY2(op->outcomes()[0].message.contains(QStringLiteral("forbidden")),
             qPrintable(op->outcomes()[0].message));
    // Her dry run had said so too.
    QCOMPARE(op->plan().steps[0].dryRun, PlanStep::DryRun::Refused);
    QCOMPARE(op->outcomes()[1].result, StepOutcome::Result::Done);
    QCOMPARE(sim.request("GET", QStringLiteral("/api/v1/namespaces/user-bob/pods/dev-bob")).status,
             200);
    QCOMPARE(
        sim.request("GET", QStringLiteral("/api/v1/namespaces/user-alice/pods/dev-alice")).status,
        404);
}

void TestOperations::cancelInTheMiddleOf200()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({QStringLiteral("--no-ssh")}, &error), qPrintable(error));
    // 200 small pods, quick to end (a grace period of 1 s), in a namespace of their own: a
    // user's quota (50 pods in the demo) would refuse most of them.
    QCOMPARE(sim.request("POST", QStringLiteral("/api/v1/namespaces"),
                         R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"batch"}})")
                 .status,
             201);
    for (int i = 0; i < 200; ++i) {
        const QJsonObject pod{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Pod")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("batch-%1").arg(i)}}},
            {QStringLiteral("spec"),
             QJsonObject{
                 {QStringLiteral("terminationGracePeriodSeconds"), 1},
                 {QStringLiteral("containers"),
                  QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("main")},
                                         {QStringLiteral("image"), QStringLiteral("busybox")}}}}}}};
        QCOMPARE(sim.request("POST", QStringLiteral("/api/v1/namespaces/batch/pods"),
                             QJsonDocument(pod).toJson())
                     .status,
                 201);
    }
    auto s = sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    QStringList keys;
    for (const PodInfo &p : s->store()->pods())
        if (p.name.startsWith(QLatin1String("batch-")))
            keys << p.uid;
    QCOMPARE(keys.size(), 200);
    const OperationPlan plan =
        s->operations()->planner().deleteWorkloads(keys, QStringLiteral("batch"));
    QCOMPARE(plan.steps.size(), 200);
    QVERIFY(plan.needsTypedConfirmation());
    Operation *op = s->operations()->prepare(plan);
    QSignalSpy checked(op, &Operation::checked);
    QVERIFY(op->state() == Operation::State::Ready || checked.wait(60000));
    QSignalSpy finished(op, &Operation::finished);
    // Cancelled once the server has answered a fifth of the requests (a step's slot is free
    // once its request is answered, while its effect is still awaited).
    connect(op, &Operation::requestAnswered, op, [op](int answered) {
        if (answered >= 40)
            op->cancel();
    });
    QString e;
    QVERIFY(op->start(&e));
    QVERIFY(finished.wait(120000));
    QVERIFY(op->isCancelled());
    int done = 0, cancelled = 0;
    for (int i = 0; i < 200; ++i) {
        const StepOutcome &o = op->outcomes()[i];
        const QString path =
            QStringLiteral("/api/v1/namespaces/batch/pods/") + op->plan().steps[i].target.name;
        const int status = sim.request("GET", path).status;
        if (o.result == StepOutcome::Result::Done) {
            ++done;
            QCOMPARE(status, 404); // done: gone
        } else {
            QVERIFY2(o.result == StepOutcome::Result::Cancelled, // else untouched
                     qPrintable(StepOutcome::resultName(o.result) + u' ' + o.message));
            QCOMPARE(status, 200);
            QVERIFY(!sim.request("GET", path)
                         .json()[QStringLiteral("metadata")]
                         .toObject()
                         .contains(QStringLiteral("deletionTimestamp")));
            ++cancelled;
        }
    }
    QVERIFY2(done >= 40 && cancelled > 0,
             qPrintable(QStringLiteral("%1 / %2").arg(done).arg(cancelled)));
    QCOMPARE(op->summary(), QStringLiteral("%1 done, %2 not run").arg(done).arg(cancelled));
}

void TestOperations::cordonAndUncordon()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({QStringLiteral("--no-ssh")}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    Operation *op = run(*s, s->operations()->planner().cordon({QStringLiteral("g4090-01")}, true));
    QVERIFY(op);
    QVERIFY2(
        op->outcomes().first().result == StepOutcome::Result::Done,
        qPrintable(op->outcomes().first().message + u'|' + op->outcomes().first().verification));
    QCOMPARE(op->outcomes().first().verification,
             QStringLiteral("/spec/unschedulable is true on the server"));
    QTRY_VERIFY(s->store()->node(QStringLiteral("g4090-01"))->unschedulable);
    op = run(*s, s->operations()->planner().cordon({QStringLiteral("g4090-01")}, false));
    QVERIFY(op);
    QCOMPARE(op->outcomes().first().result, StepOutcome::Result::Done);
    QTRY_VERIFY(!s->store()->node(QStringLiteral("g4090-01"))->unschedulable);
    QVERIFY(!sim.request("GET", QStringLiteral("/api/v1/nodes/g4090-01"))
                 .json()[QStringLiteral("spec")]
                 .toObject()
                 .contains(QStringLiteral("unschedulable")));
}

void TestOperations::drainStopsAtDisruptionBudget()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({QStringLiteral("--no-ssh")}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    // g4090-09 is cordoned; a small inference pod there is protected by a budget of 1. A
    // second pod, unguarded, is bound there directly (as a DaemonSet's would be).
    QCOMPARE(sim.request("POST", QStringLiteral("/api/v1/namespaces/user-sunmin/pods"),
                         R"({"metadata":{"name":"scratch"},"spec":{"nodeName":"g4090-09",)"
                         R"("containers":[{"name":"main","image":"busybox"}]}})")
                 .status,
             201);
    // (Besides erin's clip-finetune, failed there two days ago: a finished pod, not drained.)
    const auto running = [&] {
        const auto pods = s->store()->podsOnNode(QStringLiteral("g4090-09"));
        return std::count_if(pods.cbegin(), pods.cend(),
                             [](const PodInfo *p) { return !p->finished(); });
    };
    QTRY_COMPARE_WITH_TIMEOUT(running(), 2, 10000);
    const OperationPlan plan =
        s->operations()->planner().drain(QStringLiteral("g4090-09"), QStringLiteral("test"));
    QVERIFY(!plan.steps.isEmpty());
    Operation *op = run(*s, plan);
    QVERIFY(op);
    int refused = 0, done = 0;
    for (int i = 0; i < op->plan().steps.size(); ++i) {
        const StepOutcome &o = op->outcomes()[i];
        if (o.result == StepOutcome::Result::Refused) {
            ++refused;
            QVERIFY2(
                o.message.contains(QStringLiteral("Cannot evict pod as it would violate the pod's "
                                                  "disruption budget.")) &&
                    o.message.contains(QStringLiteral("needs 1 healthy pods")),
                qPrintable(o.message));
            QCOMPARE(op->plan().steps[i].dryRun, PlanStep::DryRun::Refused);
        } else {
            QVERIFY2(o.result == StepOutcome::Result::Done, qPrintable(o.message + o.verification));
            ++done;
        }
    }
    QCOMPARE(refused, 1);
    QVERIFY(done >= 1);
    // The unguarded pod was evicted and is gone; the guarded one still runs.
    QCOMPARE(
        sim.request("GET", QStringLiteral("/api/v1/namespaces/user-sunmin/pods/scratch")).status,
        404);
    QCOMPARE(sim.request("GET", QStringLiteral("/api/v1/namespaces/user-sunmin/pods/embed-serve"))
                 .status,
             200);
}

void TestOperations::volcanoJobAbortedByCommand()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({QStringLiteral("--no-ssh")}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    QString key;
    for (const QString &k : s->store()->jobKeys())
        if (const JobInfo *j = s->store()->job(k);
            j->kind == Resource::VolcanoJobs && j->name == QLatin1String("qwen-eval"))
            key = k;
    QVERIFY(!key.isEmpty());
    QVERIFY(!s->store()->podsOfWorkload(key).isEmpty());
    const OperationPlan plan =
        s->operations()->planner().stopWorkloads({key}, QStringLiteral("test"));
    QCOMPARE(plan.steps.size(), 1);
    QCOMPARE(plan.steps.first().kind, PlanStep::Kind::Create);
    Operation *op = run(*s, plan);
    QVERIFY(op);
    const StepOutcome &o = op->outcomes().first();
    QVERIFY2(o.result == StepOutcome::Result::Done, qPrintable(o.message + u'|' + o.verification));
    QVERIFY(o.verification.contains(QStringLiteral("its pods are gone")));
    QTRY_COMPARE(s->store()->job(key)->status, QStringLiteral("Aborted"));
}

void TestOperations::orphansEndedOverSsh()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"), true);
    QVERIFY(s);
    const auto found = waitForOrphan(*s);
    QVERIFY(found);
    const Finding orphan = *found;
    QCOMPARE(orphan.node, QStringLiteral("g4090-04"));
    const OperationPlan plan = s->operations()->planner().cleanup({orphan});
    QCOMPARE(plan.steps.size(), orphan.processes.size());
    Operation *op = run(*s, plan);
    QVERIFY(op);
    bool escalated = false;
    for (const StepOutcome &r : op->outcomes()) {
        QVERIFY2(r.result == StepOutcome::Result::Done,
                 qPrintable(r.message + u'|' + r.verification));
        QVERIFY2(r.verification.contains(QStringLiteral("is gone; GPU")),
                 qPrintable(r.verification));
        escalated |= r.message == QStringLiteral("sent TERM, then KILL");
    }
    QVERIFY(escalated); // one of them ignored TERM
    // The truth: no orphan left on the node, its cards free.
    for (const QJsonValue &fd : sim.truth()[QStringLiteral("findings")].toArray())
        QVERIFY(fd[QStringLiteral("class")].toString() != QLatin1String("orphan-process"));
    // The node's Events say which process ended and why.
    bool told = false;
    for (const QJsonValue &e :
         sim.request("GET", QStringLiteral("/api/v1/namespaces/default/events"))
             .json()[QStringLiteral("items")]
             .toArray())
        told |=
            e[QStringLiteral("reason")].toString() == QLatin1String("GpudeskKilledProcess") &&
            e[QStringLiteral("involvedObject")][QStringLiteral("kind")].toString() ==
                QLatin1String("Node") &&
            e[QStringLiteral("involvedObject")][QStringLiteral("name")].toString() == orphan.node &&
            e[QStringLiteral("message")].toString().startsWith(
                QStringLiteral("PID %1 on GPU ").arg(orphan.processes.first().pid)) &&
            e[QStringLiteral("message")].toString().contains(s->operations()->who());
    QVERIFY(told);
}

void TestOperations::reusedPidIsLeftAlone()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"), true);
    QVERIFY(s);
    const auto found = waitForOrphan(*s);
    QVERIFY(found);
    Finding orphan = *found;
    // As if the process had ended and its PID gone to another started later.
    orphan.processes = {orphan.processes.first()};
    orphan.processes.first().startTicks += 12345;
    Operation *op = run(*s, s->operations()->planner().cleanup({orphan}));
    QVERIFY(op);
    QCOMPARE(op->outcomes().first().result, StepOutcome::Result::Skipped);
    QVERIFY2(
        op->outcomes().first().message.contains(QStringLiteral("now belongs to another process")),
        qPrintable(op->outcomes().first().message));
    // Still there.
    bool still = false;
    for (const QJsonValue &fd : sim.truth()[QStringLiteral("findings")].toArray())
        for (const QJsonValue &pid : fd[QStringLiteral("pids")].toArray())
            still |= pid.toInteger() == orphan.processes.first().pid;
    QVERIFY(still);
}

void TestOperations::nodeBackBeforeTheRun_data()
{
    QTest::addColumn<bool>("flap");
    QTest::addColumn<QString>("why");
    QTest::addRow("Ready again") << false << u"its node is Ready again"_qs;
    // Back for a moment, then NotReady again: its pods' toleration starts over.
    QTest::addRow("back, then NotReady again") << true << u"its node was Ready again since"_qs;
}

void TestOperations::nodeBackBeforeTheRun()
{
    // Issue 33: with the node Ready again between plan and confirmation, the force deletes were
    // skipped — but their kills had already sent TERM to healthy pods.
    QFETCH(bool, flap);
    QFETCH(QString, why);
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"), true);
    QVERIFY(s);
    const QList<Finding> found = waitForNotReady(*s);
    QVERIFY(found.size() >= 3);
    const OperationPlan plan = s->operations()->planner().cleanup(found);
    const auto kills = std::count_if(plan.steps.cbegin(), plan.steps.cend(), [](const PlanStep &p) {
        return p.kind == PlanStep::Kind::KillProcess;
    });
    QVERIFY(kills >= 3);
    Operation *op = s->operations()->prepare(plan);
    QSignalSpy checked(op, &Operation::checked);
    QVERIFY(op->state() == Operation::State::Ready || checked.wait(60000));
    for (const PlanStep &p : op->plan().steps)
        QVERIFY2(p.dryRun == PlanStep::DryRun::Accepted, qPrintable(p.dryRunMessage));
    const QSet<qint64> pids = pidsOn(sim, QStringLiteral("g4090-10"));
    const QSet<QString> pods = podsOn(sim, QStringLiteral("g4090-10"));
    QVERIFY(!pids.isEmpty() && !pods.isEmpty());

    // While the admin reads the plan, the node's kubelet comes back.
    QCOMPARE(sim.request("POST", u"/sim/node?name=g4090-10&ready=true"_qs).status, 200);
    if (flap)
        QCOMPARE(sim.request("POST", u"/sim/node?name=g4090-10&ready=false"_qs).status, 200);
    QSignalSpy finished(op, &Operation::finished);
    QVERIFY(op->start(&error));
    QVERIFY(op->state() == Operation::State::Finished || finished.wait(120000));
    for (int i = 0; i < op->plan().steps.size(); ++i) {
        const StepOutcome &o = op->outcomes()[i];
        const QString line = op->plan().steps[i].description + u": " + o.message;
        QVERIFY2(o.result == StepOutcome::Result::Skipped, qPrintable(line));
        // A kill or force delete says why itself; a delete after skipped kills says so.
        QVERIFY2(o.message.contains(why) || o.message.contains(u"did not succeed"_qs) ||
                     o.message.contains(u"for the same finding"_qs),
                 qPrintable(line));
    }
    // No healthy pod touched: every process still runs, every pod is still there.
    QCOMPARE(pidsOn(sim, QStringLiteral("g4090-10")) & pids, pids);
    QCOMPARE(podsOn(sim, QStringLiteral("g4090-10")) & pods, pods);
}

void TestOperations::readOnlyAccountSendsNoSignal()
{
    // Issue 33: an account that may only read had its force deletes refused (403) in the
    // plan's check, and the run still sent TERM to their pods' processes.
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({}, &error), qPrintable(error));
    auto admin = sim.connect(QStringLiteral("sim-admin"), true);
    QVERIFY(admin);
    const QList<Finding> found = waitForNotReady(*admin);
    QVERIFY(found.size() >= 3);
    const QString file = sim.addReader(&error);
    QVERIFY2(!file.isEmpty(), qPrintable(error));
    auto reader = sim.connect(QStringLiteral("sim-reader"), true, file);
    QVERIFY(reader);
    // The reader sees what the admin sees, and plans the same.
    const OperationPlan plan = reader->operations()->planner().cleanup(found);
    QVERIFY(plan.steps.size() >= 6);
    Operation *op = reader->operations()->prepare(plan);
    QSignalSpy checked(op, &Operation::checked);
    QVERIFY(op->state() == Operation::State::Ready || checked.wait(60000));
    int refused = 0;
    for (const PlanStep &p : op->plan().steps) {
        if (p.kind == PlanStep::Kind::ForceDelete) {
            QVERIFY2(p.dryRun == PlanStep::DryRun::Refused &&
                         p.dryRunMessage.contains(u"forbidden"_qs),
                     qPrintable(p.dryRunMessage));
            ++refused;
        } else {
            // Its SSH is as good as anyone's: the kills alone would go through.
            QVERIFY2(p.dryRun == PlanStep::DryRun::Accepted, qPrintable(p.dryRunMessage));
        }
    }
    QCOMPARE(refused, int(found.size()));
    const QSet<qint64> pids = pidsOn(sim, QStringLiteral("g4090-10"));
    QSignalSpy finished(op, &Operation::finished);
    QVERIFY(op->start(&error));
    QVERIFY(op->state() == Operation::State::Finished || finished.wait(120000));
    for (int i = 0; i < op->plan().steps.size(); ++i) {
        const PlanStep &p = op->plan().steps[i];
        const StepOutcome &o = op->outcomes()[i];
        const QString line = p.description + u": " + o.message;
        if (p.kind == PlanStep::Kind::KillProcess) {
            QVERIFY2(o.result == StepOutcome::Result::Skipped &&
                         o.message.contains(u"was refused by the server's check"_qs),
                     qPrintable(line));
        } else {
            QVERIFY2(o.result == StepOutcome::Result::Refused &&
                         o.message.startsWith(u"refused by the server's check, so not sent"_qs),
                     qPrintable(line));
        }
    }
    // No signal reached them: every process still runs.
    QCOMPARE(pidsOn(sim, QStringLiteral("g4090-10")) & pids, pids);
}

void TestOperations::outlivesContextSwitch()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({QStringLiteral("--no-ssh")}, &error), qPrintable(error));
    auto s = sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(s);
    const QString uid = podUid(sim, QStringLiteral("user-frank"), QStringLiteral("idle-inference"));
    Operation *op = s->operations()->prepare(
        s->operations()->planner().deleteWorkloads({uid}, QStringLiteral("test")));
    QSignalSpy checked(op, &Operation::checked);
    QVERIFY(op->state() == Operation::State::Ready || checked.wait(30000));
    QSignalSpy finished(op, &Operation::finished);
    QString e;
    QVERIFY(op->start(&e));
    // The window moves to another context while the pod is still terminating.
    s->session()->connectTo(QStringLiteral("sim-alice"));
    QVERIFY(s->session()->connection()->context() == QLatin1String("sim-alice"));
    QVERIFY(finished.wait(120000));
    const StepOutcome &o = op->outcomes().first();
    QVERIFY2(o.result == StepOutcome::Result::Done, qPrintable(o.message + u'|' + o.verification));
    QVERIFY(o.verification.contains(QStringLiteral("gone from the API")));
    QCOMPARE(sim.request("GET", QStringLiteral("/api/v1/namespaces/user-frank/pods/idle-inference"))
                 .status,
             404);
}

QTEST_GUILESS_MAIN(TestOperations)
#include "tst_operations.moc"
