// SPDX-License-Identifier: GPL-3.0-or-later
// Findings from the stores as they are (every class, its evidence, its remedy, "since" from
// gpudesk's samples and from Prometheus), the plan the cleanup makes of them (steps, guards,
// confirmations), and the models that show findings, steps and the audit log
// (QAbstractItemModelTester on each), with the audit log read back from its file.
#include "auditlog.h"
#include "auditmodel.h"
#include "clusterstore.h"
#include "devenvsmodel.h"
#include "findings.h"
#include "findingsmodel.h"
#include "operationplanner.h"
#include "operationstepsmodel.h"
#include "stepguard.h"
#include "telemetrystore.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestFindings : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void orphansAndHostProcesses();
    void uninterruptibleIsNotAnOrphan();
    void stuckTerminating_data();
    void stuckTerminating();
    void idleFromSamples();
    void idleFromPrometheus();
    void idleDevEnvironments();
    void notReadyAndFinished();
    void notReadyWaitsForTheToleration_data();
    void notReadyWaitsForTheToleration();
    void phantomMemory();
    void researcherSeesNoOrphans();
    void classesFilter();
    void modelKeepsRows();
    void cleanupPlan();
    void drainPlan();
    void nodeRemediesAreNotBatched();
    void notReadyPlanGuardsEveryStep();
    void guardReadsTheNodeAgain_data();
    void guardReadsTheNodeAgain();
    void auditLogRoundTrip();

private:
    void sample(qint64 time, const QList<NodeProcess> &procs, const QList<int> &util = {});
    QList<Finding> find(FindingsOptions o = {}, const QHash<QString, ExternalIdle> &external = {});
    const Finding *of(const QList<Finding> &f, FindingClass c);

    std::unique_ptr<ClusterStore> m_cluster;
    std::unique_ptr<TelemetryStore> m_telemetry;
    qint64 m_now = 0;
};

namespace {

constexpr qint64 T0 = 1'800'000'000'000;
constexpr qint64 Minute = 60 * 1000;

PodInfo pod(const QString &uid, const QString &name, int gpus, const QString &node = u"g1"_qs)
{
    PodInfo p;
    p.uid = uid;
    p.ns = QStringLiteral("user-bob");
    p.name = name;
    p.nodeName = node;
    p.phase = QStringLiteral("Running");
    p.status = QStringLiteral("Running");
    p.qosClass = QStringLiteral("Guaranteed");
    p.gpuRequest = gpus;
    p.created = T0 - 8 * 3600 * 1000;
    return p;
}

NodeProcess proc(qint64 pid, int card, const QString &podUid, char state = 'S')
{
    NodeProcess p;
    p.pid = pid;
    p.cardIndex = card;
    p.gpuUuid = QStringLiteral("GPU-%1").arg(card);
    p.memoryMiB = 20000;
    p.name = QStringLiteral("python train.py");
    p.owner.podUid = podUid;
    p.state = state;
    p.startTicks = 1000 + pid;
    return p;
}

} // namespace

void TestFindings::init()
{
    m_now = T0;
    m_cluster = std::make_unique<ClusterStore>(nullptr, [this] { return m_now; });
    m_telemetry = std::make_unique<TelemetryStore>(m_cluster.get());
    m_telemetry->setClock([this] { return m_now; });
    NodeInfo n;
    n.name = QStringLiteral("g1");
    n.uid = QStringLiteral("node-uid-g1");
    n.ready = true;
    n.gpuAllocatable = 4;
    m_cluster->replaceNodes({n});
    m_cluster->replaceNamespaces(
        {{.name = QStringLiteral("user-bob"), .user = QStringLiteral("bob"), .vc = u"cv"_qs}});
}

void TestFindings::sample(qint64 time, const QList<NodeProcess> &procs, const QList<int> &util)
{
    NodeSample s;
    s.node = QStringLiteral("g1");
    s.time = time;
    s.cgroupLayout = CgroupLayout::V2Systemd;
    for (int i = 0; i < 4; ++i) {
        GpuCardSample c;
        c.index = i;
        c.uuid = QStringLiteral("GPU-%1").arg(i);
        c.utilization = util.value(i, 0);
        c.memoryUsedMiB = 0;
        c.memoryTotalMiB = 81920;
        for (const NodeProcess &p : procs)
            if (p.cardIndex == i)
                c.memoryUsedMiB = *c.memoryUsedMiB + p.memoryMiB.value_or(0);
        s.cards << c;
    }
    s.processes = procs;
    for (const auto &[uid, p] : m_cluster->pods().asKeyValueRange())
        if (p.phase == QLatin1String("Running") && p.gpuRequest > 0) {
            s.podsAsked << uid;
            if (std::any_of(procs.cbegin(), procs.cend(),
                            [&](const NodeProcess &np) { return np.owner.podUid == uid; }))
                s.pods << PodUsage{uid, 1.0, 1 << 30, 1 << 30};
        }
    m_now = time;
    m_telemetry->apply(s);
}

QList<Finding> TestFindings::find(FindingsOptions o, const QHash<QString, ExternalIdle> &external)
{
    return computeFindings(FindingsInput::capture(*m_cluster, m_telemetry.get(), o, external));
}

const Finding *TestFindings::of(const QList<Finding> &f, FindingClass c)
{
    for (const Finding &x : f)
        if (x.cls == c)
            return &x;
    return nullptr;
}

void TestFindings::orphansAndHostProcesses()
{
    m_cluster->replacePods({pod(u"uid-live"_qs, u"train-0"_qs, 1)});
    const QList<NodeProcess> procs{proc(100, 0, u"uid-live"_qs), proc(200, 1, u"uid-gone"_qs),
                                   proc(201, 2, u"uid-gone"_qs), proc(300, 3, QString())};
    sample(T0, procs, {90});
    sample(T0 + 2000, procs, {90});
    const QList<Finding> f = find();
    QCOMPARE(f.size(), 2);
    // One finding per dead pod (its processes together), one for the host processes.
    const Finding &dead = f[0].podUid == u"uid-gone"_qs ? f[0] : f[1];
    const Finding &host = f[0].podUid == u"uid-gone"_qs ? f[1] : f[0];
    QCOMPARE(dead.cls, FindingClass::OrphanProcess);
    QCOMPARE(dead.node, u"g1"_qs);
    QCOMPARE(dead.cards, (QList<int>{1, 2}));
    QCOMPARE(dead.gpus, 2);
    QCOMPARE(dead.processes.size(), 2);
    QCOMPARE(dead.processes[0].startTicks, 1200);
    QCOMPARE(dead.since, T0); // first seen of no pod
    QVERIFY(dead.sinceAtLeast);
    QVERIFY(dead.evidence.contains(u"PID 200, 201 on GPU 1, 2 belongs to pod uid-gone"_qs));
    QCOMPARE(dead.remedy, Remedy::KillProcesses);
    QCOMPARE(host.podUid, QString());
    QVERIFY(host.evidence.contains(u"runs in no container"_qs));
    QVERIFY(host.remedyNote.contains(u"ask its owner"_qs));
}

void TestFindings::uninterruptibleIsNotAnOrphan()
{
    FindingsOptions o;
    o.uninterruptibleForMs = 5 * Minute;
    // A live pod's process in D for a minute is ordinary I/O: nothing to find.
    m_cluster->replacePods({pod(u"uid-live"_qs, u"train-0"_qs, 1)});
    sample(T0, {proc(100, 0, u"uid-live"_qs, 'D')}, {90});
    sample(T0 + Minute, {proc(100, 0, u"uid-live"_qs, 'D')}, {90});
    QVERIFY(find(o).isEmpty());
    // A process whose pod is gone, asleep in D: no kill can end it now, so none is offered,
    // however short its stay in D so far.
    const QList<NodeProcess> procs{proc(200, 1, u"uid-gone"_qs, 'D')};
    sample(T0 + 2 * Minute, procs);
    QVERIFY(!of(find(o), FindingClass::OrphanProcess));
    // Kept: `of` points into the list it is given.
    const QList<Finding> found = find(o);
    const Finding *now = of(found, FindingClass::Uninterruptible);
    QVERIFY(now);
    QVERIFY2(now->evidence.contains(u"whose pod is gone, is in uninterruptible sleep (D)"_qs),
             qPrintable(now->evidence));
    // Out of D, it is an orphan a kill can end; the clock starts again.
    sample(T0 + 3 * Minute, {proc(200, 1, u"uid-gone"_qs, 'S')});
    QVERIFY(of(find(o), FindingClass::OrphanProcess));
    QVERIFY(!of(find(o), FindingClass::Uninterruptible));
    sample(T0 + 8 * Minute, procs);
    sample(T0 + 14 * Minute, procs);
    const QList<Finding> f = find(o);
    QCOMPARE(f.size(), 1);
    QCOMPARE(f[0].cls, FindingClass::Uninterruptible);
    QCOMPARE(f[0].since, T0 + 8 * Minute);
    QCOMPARE(f[0].remedy, Remedy::Drain);
    QVERIFY(f[0].evidence.contains(u"uninterruptible sleep (D) for 6m"_qs));
}

void TestFindings::stuckTerminating_data()
{
    QTest::addColumn<bool>("nodeReady");
    QTest::addColumn<bool>("processRuns");
    QTest::addColumn<bool>("sampled");
    QTest::addColumn<int>("remedy");
    QTest::addColumn<QString>("evidence");
    QTest::addRow("containers gone") << true << false << true << int(Remedy::ForceDeletePod)
                                     << u"the node runs no container of it any more"_qs;
    QTest::addRow("node NotReady")
        << false << true << true << int(Remedy::ForceDeletePod) << u"its node is NotReady"_qs;
    QTest::addRow("process still runs") << true << true << true << int(Remedy::KillThenForceDelete)
                                        << u"PID 100 of it still runs on GPU 0"_qs;
    QTest::addRow("not sampled") << true << true << false << int(Remedy::None)
                                 << u"still Terminating"_qs;
}

void TestFindings::stuckTerminating()
{
    QFETCH(bool, nodeReady);
    QFETCH(bool, processRuns);
    QFETCH(bool, sampled);
    QFETCH(int, remedy);
    QFETCH(QString, evidence);
    PodInfo p = pod(u"uid-old"_qs, u"old-train"_qs, 2);
    p.deleting = true;
    p.gracePeriodSecs = 30;
    p.deletionTime = T0 - 46 * 3600 * 1000 + 30000;
    p.status = QStringLiteral("Terminating");
    m_cluster->replacePods({p});
    if (!nodeReady) {
        NodeInfo n = *m_cluster->node(u"g1"_qs);
        n.ready = false;
        m_cluster->replaceNodes({n});
    }
    if (sampled)
        sample(T0, processRuns ? QList<NodeProcess>{proc(100, 0, u"uid-old"_qs)}
                               : QList<NodeProcess>{});
    const QList<Finding> f = find();
    const Finding *s = of(f, FindingClass::StuckTerminating);
    QVERIFY(s);
    QCOMPARE(f.size(), 1); // not also "on a NotReady node"
    QCOMPARE(int(s->remedy), remedy);
    QVERIFY2(s->evidence.contains(evidence), qPrintable(s->evidence));
    QVERIFY(s->evidence.startsWith(u"deleted 46h ago with a grace period of 30 s"_qs));
    QCOMPARE(s->since, T0 - 46 * 3600 * 1000);
    QCOMPARE(s->gpus, 2);
    QCOMPARE(s->user, u"bob"_qs);
    // Within its grace period and margin, a Terminating pod is just going.
    p.deletionTime = T0 - 60000;
    m_cluster->replacePods({p});
    QVERIFY(!of(find(), FindingClass::StuckTerminating));
}

void TestFindings::idleFromSamples()
{
    m_cluster->replacePods(
        {pod(u"uid-busy"_qs, u"busy-0"_qs, 1), pod(u"uid-idle"_qs, u"idle-0"_qs, 1),
         pod(u"uid-none"_qs, u"nothing-0"_qs, 2), pod(u"uid-cpu"_qs, u"cpu-0"_qs, 0)});
    const QList<NodeProcess> procs{proc(1, 0, u"uid-busy"_qs), proc(2, 2, u"uid-idle"_qs)};
    for (qint64 t = T0; t <= T0 + 20 * Minute; t += 2000) {
        // The idle pod's card woke once, 15 minutes in: busy then, idle since.
        const bool wake = t == T0 + 5 * Minute;
        sample(t, procs, {97, 0, wake ? 60 : 4, 0});
    }
    FindingsOptions o;
    o.idleForMs = 10 * Minute;
    QList<Finding> f = find(o);
    QCOMPARE(f.size(), 2);
    const Finding &idle = f[0].pod == u"idle-0"_qs ? f[0] : f[1];
    const Finding &none = f[0].pod == u"idle-0"_qs ? f[1] : f[0];
    QCOMPARE(idle.cls, FindingClass::IdleGpus);
    QCOMPARE(idle.since, T0 + 5 * Minute); // its last busy sample
    QVERIFY(!idle.sinceAtLeast);
    QCOMPARE(idle.cards, QList<int>{2});
    QVERIFY2(idle.evidence.contains(u"under 5 % utilization for 15m"_qs),
             qPrintable(idle.evidence));
    QCOMPARE(idle.remedy, Remedy::DeletePod); // a bare pod
    QCOMPARE(none.gpus, 2);
    QVERIFY(none.sinceAtLeast); // never busy while sampled: at least since the first sample
    QCOMPARE(none.since, T0);
    QVERIFY2(none.evidence.contains(u"no process on any GPU for ≥ 20m"_qs),
             qPrintable(none.evidence));
    // Twenty minutes is not an hour.
    o.idleForMs = 60 * Minute;
    QVERIFY(find(o).isEmpty());
}

void TestFindings::idleDevEnvironments()
{
    // Two dev environments of one GPU each: dev-bob's card woke 10 minutes in, nb-bob's never.
    PodInfo dev = pod(u"uid-dev"_qs, u"dev-bob-x7k2p"_qs, 1);
    dev.devEnv = QStringLiteral("dev-bob");
    PodInfo nb = pod(u"uid-nb"_qs, u"nb-bob-q9w4e"_qs, 1);
    nb.devEnv = QStringLiteral("nb-bob");
    m_cluster->replacePods({dev, nb});
    const QList<NodeProcess> procs{proc(1, 1, u"uid-dev"_qs)};
    for (qint64 t = T0; t <= T0 + 90 * Minute; t += 20000)
        sample(t, procs, {0, t == T0 + 10 * Minute ? 60 : 2, 0, 0});
    DevEnvsModel model(m_cluster.get());
    model.setClock([this] { return m_now; });
    model.setTelemetry(m_telemetry.get());
    model.setIdleAfterMs(60 * Minute);
    const QString devKey = DevEnvsModel::keyOf(u"user-bob"_qs, u"dev-bob"_qs);
    const QString nbKey = DevEnvsModel::keyOf(u"user-bob"_qs, u"nb-bob"_qs);
    FindingsOptions o;
    o.idleForMs = 60 * Minute;
    auto idleOf = [&](const QHash<QString, JupyterUse> &jupyter) {
        FindingsInput in = FindingsInput::capture(*m_cluster, m_telemetry.get(), o, {});
        in.jupyter = jupyter;
        QHash<QString, Finding> out;
        for (const Finding &f : computeFindings(in))
            if (f.cls == FindingClass::IdleGpus)
                out.insert(f.podUid, f);
        return out;
    };
    auto jupyterAt = [&](qint64 lastActivity, bool busy) {
        JupyterUse use;
        use.checked = m_now;
        use.kernels = 1;
        use.busy = busy;
        use.lastActivity = lastActivity;
        model.setJupyterUse(devKey, u"uid-dev"_qs, use);
        return QHash<QString, JupyterUse>{{u"uid-dev"_qs, use}};
    };

    // GPUs alone: both idle for over an hour, nb-bob since before the first sample.
    QHash<QString, Finding> f = idleOf({});
    QCOMPARE(f.size(), 2);
    QCOMPARE(f[u"uid-dev"_qs].since, T0 + 10 * Minute);
    QVERIFY(f[u"uid-nb"_qs].sinceAtLeast);
    QCOMPARE(f[u"uid-dev"_qs].remedy, Remedy::DeletePod);
    QVERIFY2(f[u"uid-dev"_qs].remedyNote.contains(u"home volume is kept"_qs),
             qPrintable(f[u"uid-dev"_qs].remedyNote));
    QVERIFY2(f[u"uid-dev"_qs].evidence.startsWith(u"dev environment dev-bob: "_qs),
             qPrintable(f[u"uid-dev"_qs].evidence));
    DevEnvsModel::Idle nbIdle = model.idle(nbKey);
    QVERIFY(nbIdle.known && nbIdle.flagged && nbIdle.atLeast);
    const int idleCol = DevEnvsModel::IdleFor;
    QCOMPARE(model.index(model.rowOf(nbKey), idleCol).data().toString(), u"≥ 90m"_qs);
    QCOMPARE(model.index(model.rowOf(nbKey), 0).data(SeverityRole).toInt(), 1);

    // Someone typed in a notebook 20 minutes ago: dev-bob is in use, whatever its GPU does.
    f = idleOf(jupyterAt(T0 + 70 * Minute, false));
    QVERIFY(!f.contains(u"uid-dev"_qs));
    QVERIFY(f.contains(u"uid-nb"_qs));
    DevEnvsModel::Idle devIdle = model.idle(devKey);
    QCOMPARE(devIdle.since, T0 + 70 * Minute);
    QVERIFY(!devIdle.flagged && !devIdle.atLeast);
    QCOMPARE(model.index(model.rowOf(devKey), idleCol).data().toString(), u"20m"_qs);
    QVERIFY2(
        model.index(model.rowOf(devKey), idleCol)
            .data(Qt::ToolTipRole)
            .toString()
            .contains(u"1 kernel"_qs),
        qPrintable(model.index(model.rowOf(devKey), idleCol).data(Qt::ToolTipRole).toString()));

    // The notebook was last used 70 minutes ago: idle since then, and listed with it.
    f = idleOf(jupyterAt(T0 + 20 * Minute, false));
    QCOMPARE(f[u"uid-dev"_qs].since, T0 + 20 * Minute);
    QVERIFY2(f[u"uid-dev"_qs].evidence.contains(u"no Jupyter kernel or terminal in use since"_qs),
             qPrintable(f[u"uid-dev"_qs].evidence));
    devIdle = model.idle(devKey);
    QVERIFY(devIdle.flagged);
    QCOMPARE(devIdle.since, T0 + 20 * Minute);
    QVERIFY2(model.why(devKey).startsWith(u"Idle for 70m"_qs), qPrintable(model.why(devKey)));

    // A kernel executing now: not idle at all.
    f = idleOf(jupyterAt(T0 + 20 * Minute, true));
    QVERIFY(!f.contains(u"uid-dev"_qs));
    QVERIFY(model.idle(devKey).busy);
    QCOMPARE(model.index(model.rowOf(devKey), idleCol).data().toString(), u"in use"_qs);
    // An answer about another pod of the environment (before it was recreated) does not count.
    model.setJupyterUse(devKey, u"uid-old"_qs, JupyterUse{});
    QVERIFY(!model.jupyterUse(devKey));
    QCOMPARE(model.idle(devKey).since, T0 + 10 * Minute);
    // The Cleanup page's finding dates nb-bob further back (Prometheus knew): the page says so.
    model.setIdleFindings({{u"uid-nb"_qs, {T0 - 3 * 60 * Minute, false}}});
    nbIdle = model.idle(nbKey);
    QVERIFY(nbIdle.flagged && !nbIdle.atLeast);
    QCOMPARE(nbIdle.since, T0 - 3 * 60 * Minute);
    QCOMPARE(model.index(model.rowOf(nbKey), idleCol).data().toString(), u"4h30m"_qs);
}

void TestFindings::idleFromPrometheus()
{
    m_cluster->replacePods({pod(u"uid-a"_qs, u"a-0"_qs, 4), pod(u"uid-b"_qs, u"b-0"_qs, 1)});
    for (qint64 t = T0; t <= T0 + 10 * Minute; t += 2000)
        sample(t, {proc(1, 0, u"uid-a"_qs), proc(2, 1, u"uid-b"_qs)});
    QCOMPARE(undatedIdlePods(*m_cluster, *m_telemetry).size(), 2);
    FindingsOptions o;
    o.idleForMs = 6 * 3600 * 1000LL;
    QVERIFY(find(o).isEmpty()); // ten minutes of own samples
    QHash<QString, ExternalIdle> ext;
    // DCGM says: a idle for as long as its series goes back (7 h), b busy 3 h ago.
    ext.insert(u"uid-a"_qs, {T0 - 7 * 3600 * 1000LL, 0});
    ext.insert(u"uid-b"_qs, {T0 - 24 * 3600 * 1000LL, T0 - 3 * 3600 * 1000LL});
    QList<Finding> f = find(o, ext);
    QCOMPARE(f.size(), 1);
    QCOMPARE(f[0].pod, u"a-0"_qs);
    QCOMPARE(f[0].since, T0 - 7 * 3600 * 1000LL);
    QVERIFY(f[0].sinceAtLeast);
    QVERIFY(f[0].sinceSource.contains(u"Prometheus"_qs));
    o.idleForMs = 2 * 3600 * 1000LL;
    f = find(o, ext);
    QCOMPARE(f.size(), 2);
    const Finding &b = f[0].pod == u"b-0"_qs ? f[0] : f[1];
    QCOMPARE(b.since, T0 - 3 * 3600 * 1000LL);
    QVERIFY(!b.sinceAtLeast);
    // A pod younger than the series is idle since it started, exactly.
    PodInfo young = pod(u"uid-a"_qs, u"a-0"_qs, 4);
    young.created = T0 - 4 * 3600 * 1000LL;
    m_cluster->replacePods({young, pod(u"uid-b"_qs, u"b-0"_qs, 1)});
    f = find(o, ext);
    const Finding &a = f[0].pod == u"a-0"_qs ? f[0] : f[1];
    QCOMPARE(a.since, young.created);
    QVERIFY(!a.sinceAtLeast);
}

void TestFindings::notReadyAndFinished()
{
    PodInfo owned = pod(u"uid-log"_qs, u"eval-logger-0"_qs, 1);
    owned.owner = {QStringLiteral("Job"), QStringLiteral("eval"), QStringLiteral("job-uid")};
    m_cluster->replacePods({owned});
    Delta jobs;
    jobs.resource = Resource::VolcanoJobs;
    JobInfo j;
    j.uid = QStringLiteral("job-uid");
    j.kind = Resource::VolcanoJobs;
    j.ns = QStringLiteral("user-bob");
    j.name = QStringLiteral("eval");
    j.status = QStringLiteral("Completed");
    jobs.items<JobInfo>() = {j};
    jobs.relist = true;
    m_cluster->apply(jobs);
    m_cluster->flush();
    QList<Finding> f = find();
    QCOMPARE(f.size(), 1);
    QCOMPARE(f[0].cls, FindingClass::FinishedHoldingGpus);
    QCOMPARE(f[0].evidence,
             u"Job eval is Completed, but this pod still runs and holds 1 GPU(s)"_qs);
    QCOMPARE(f[0].remedy, Remedy::DeletePod);
    // Its node goes NotReady: that says more.
    NodeInfo n = *m_cluster->node(u"g1"_qs);
    n.ready = false;
    n.conditions = {
        {u"Ready"_qs, u"Unknown"_qs, u"NodeStatusUnknown"_qs, QString(), T0 - 3 * 3600 * 1000}};
    m_cluster->replaceNodes({n});
    f = find();
    QCOMPARE(f.size(), 1);
    QCOMPARE(f[0].cls, FindingClass::OnNotReadyNode);
    QCOMPARE(f[0].since, T0 - 3 * 3600 * 1000);
    QCOMPARE(f[0].remedy, Remedy::ForceDeletePod);
}

void TestFindings::notReadyWaitsForTheToleration_data()
{
    QTest::addColumn<qint64>("notReadyForMs");
    QTest::addColumn<qint64>("tolerationSecs"); // as decoded: 300 when the pod names none
    QTest::addColumn<bool>("ready");
    QTest::addColumn<bool>("found");
    // Issue 33: a kubelet's blip of 16 s had the nightly cleanup kill five running pods.
    QTest::addRow("a 16 s blip") << 16'000LL << 300LL << false << false;
    QTest::addRow("just under 300 s") << 299'000LL << 300LL << false << false;
    QTest::addRow("past the default 300 s") << 301'000LL << 300LL << false << true;
    QTest::addRow("the pod tolerates an hour") << 301'000LL << 3600LL << false << false;
    QTest::addRow("… and the hour has passed") << 3601'000LL << 3600LL << false << true;
    QTest::addRow("it tolerates for ever") << 3 * 3600'000LL << -1LL << false << false;
    QTest::addRow("Ready again") << 3 * 3600'000LL << 300LL << true << false;
}

void TestFindings::notReadyWaitsForTheToleration()
{
    QFETCH(qint64, notReadyForMs);
    QFETCH(qint64, tolerationSecs);
    QFETCH(bool, ready);
    QFETCH(bool, found);
    PodInfo p = pod(u"uid-nr"_qs, u"train-0"_qs, 2);
    p.notReadyTolerationSecs = tolerationSecs;
    m_cluster->replacePods({p});
    NodeInfo n = *m_cluster->node(u"g1"_qs);
    n.ready = ready;
    n.conditions = {{u"Ready"_qs, ready ? u"True"_qs : u"Unknown"_qs, u"NodeStatusUnknown"_qs,
                     QString(), T0 - notReadyForMs}};
    m_cluster->replaceNodes({n});
    const QList<Finding> f = find();
    QCOMPARE(of(f, FindingClass::OnNotReadyNode) != nullptr, found);
}

void TestFindings::phantomMemory()
{
    NodeSample s;
    s.node = QStringLiteral("g1");
    s.time = T0;
    for (int i = 0; i < 2; ++i) {
        GpuCardSample c;
        c.index = i;
        c.uuid = QStringLiteral("GPU-%1").arg(i);
        c.utilization = 0;
        c.memoryUsedMiB = i == 1 ? 30720 : 0;
        s.cards << c;
    }
    m_telemetry->apply(s);
    const QList<Finding> f = find();
    QCOMPARE(f.size(), 1);
    QCOMPARE(f[0].cls, FindingClass::PhantomMemory);
    QCOMPARE(f[0].cards, QList<int>{1});
    QCOMPARE(f[0].evidence, u"GPU 1: 30720 MiB held with no process listed by nvidia-smi"_qs);
    QCOMPARE(f[0].since, 0); // dated by the service when first found
}

void TestFindings::researcherSeesNoOrphans()
{
    // Pods listed in one namespace only: a process of a pod not seen may be anybody's.
    Delta d;
    d.resource = Resource::Pods;
    d.relist = true;
    d.scope = QStringLiteral("user-bob");
    d.items<PodInfo>();
    m_cluster->apply(d);
    m_cluster->flush();
    QVERIFY(!m_cluster->podsComplete());
    sample(T0, {proc(200, 1, u"uid-someone"_qs)});
    QVERIFY(find().isEmpty());
}

void TestFindings::classesFilter()
{
    m_cluster->replacePods({pod(u"uid-none"_qs, u"nothing-0"_qs, 2)});
    for (qint64 t = T0; t <= T0 + 10 * Minute; t += 2000)
        sample(t, {proc(200, 1, u"uid-gone"_qs)});
    FindingsOptions o;
    o.idleForMs = 5 * Minute;
    QCOMPARE(find(o).size(), 2);
    o.classes = {FindingClass::IdleGpus};
    const QList<Finding> f = find(o);
    QCOMPARE(f.size(), 1);
    QCOMPARE(f[0].cls, FindingClass::IdleGpus);
    QCOMPARE(findingClassFromId(u"idle-gpus"_qs), FindingClass::IdleGpus);
    QCOMPARE(findingClassId(FindingClass::Uninterruptible), u"uninterruptible-process"_qs);
    QVERIFY(!findingClassFromId(u"zombie"_qs));
}

void TestFindings::modelKeepsRows()
{
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Finding a;
    a.key = QStringLiteral("orphan|g1|x");
    a.gpus = 2;
    a.node = QStringLiteral("g1");
    Finding b = a;
    b.key = QStringLiteral("idle|y");
    b.cls = FindingClass::IdleGpus;
    b.pod = QStringLiteral("idle-0");
    b.ns = QStringLiteral("user-bob");
    model.setFindings({a, b});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.gpus(), 4);
    const int rowB = model.rowOf(b.key);
    QCOMPARE(model.index(rowB, FindingsModel::Target).data().toString(), u"user-bob/idle-0"_qs);
    // b stays, a goes, c comes: b keeps its identity (and a view its selection).
    Finding c = a;
    c.key = QStringLiteral("phantom|g1|3");
    c.cls = FindingClass::PhantomMemory;
    b.gpus = 3;
    model.setFindings({b, c});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.finding(b.key)->gpus, 3);
    QVERIFY(!model.finding(a.key));
    QCOMPARE(model.index(model.rowOf(c.key), FindingsModel::Class).data().toString(),
             findingClassTitle(FindingClass::PhantomMemory));
    model.setFindings({});
    QCOMPARE(model.rowCount(), 0);
}

void TestFindings::cleanupPlan()
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

void TestFindings::drainPlan()
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

void TestFindings::nodeRemediesAreNotBatched()
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

void TestFindings::notReadyPlanGuardsEveryStep()
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

void TestFindings::guardReadsTheNodeAgain_data()
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

void TestFindings::guardReadsTheNodeAgain()
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

void TestFindings::auditLogRoundTrip()
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
    QCOMPARE(records[0].value(u"plan"_qs).toArray().first().toObject().value(u"does"_qs).toString(),
             u"Cordon g1"_qs);
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

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
