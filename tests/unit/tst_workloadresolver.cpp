// SPDX-License-Identifier: GPL-3.0-or-later
// Why a workload waits, and whether it is stuck: a Volcano job held by a full queue (its pod
// group's condition), a gang that cannot be placed while its job still says "Created", a pod
// stuck Terminating, a pod "Running" on a NotReady node, and a job too big for any one node that
// would fit as distributed training. The same store the window and the report read, with a fixed
// clock.
#include "clusterstore.h"
#include "roles.h"
#include "workloadresolver.h"
#include "workloadsmodel.h"
#include "workloadstable.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace gpudesk;

namespace {

constexpr qint64 kNow = 1'790'000'000'000; // a fixed "now"
constexpr qint64 kMinute = 60 * 1000;
constexpr qint64 kHour = 60 * kMinute;

NodeInfo node(const QString &name, int gpus, const QStringList &taints = {}, bool ready = true,
              bool cordoned = false)
{
    NodeInfo n;
    n.uid = name;
    n.name = name;
    n.ready = ready;
    n.unschedulable = cordoned;
    n.gpuAllocatable = n.gpuCapacity = gpus;
    n.taints = taints;
    if (!ready)
        n.conditions = {{QStringLiteral("Ready"), QStringLiteral("False"),
                         QStringLiteral("NodeStatusUnknown"),
                         QStringLiteral("Kubelet stopped posting node status."), kNow - 3 * kHour}};
    return n;
}

PodInfo pod(const QString &name, const QString &nodeName, int gpus, const QString &status)
{
    PodInfo p;
    p.uid = QStringLiteral("uid-") + name;
    p.ns = QStringLiteral("user-bob");
    p.name = name;
    p.nodeName = nodeName;
    p.phase = status == QLatin1String("Running") ? status : QStringLiteral("Pending");
    p.status = status;
    p.gpuRequest = gpus;
    p.created = kNow - 2 * kHour;
    return p;
}

// The names of the rows a table shows, in its order.
QStringList namesShown(const WorkloadsTable &table)
{
    QStringList out;
    for (int r = 0; r < table.rowCount(); ++r)
        out << table.index(r, WorkloadsModel::Name).data().toString();
    return out;
}

Delta deltaOf(Resource r)
{
    Delta d;
    d.resource = r;
    d.relist = true;
    return d;
}

} // namespace

class TestWorkloadResolver : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void queueFullJob_data();
    void queueFullJob();
    void gangPendingJobOverridesCreated();
    void stuckTerminating();
    void runningOnNotReadyNode();
    void distributedAdvice_data();
    void distributedAdvice();
    void tableFiltersStuckWithFailed();
    void statesThatLie();

private:
    void setNodes(const QList<NodeInfo> &nodes) { m_store->replaceNodes(nodes); }
    void setPods(const QList<PodInfo> &pods) { m_store->replacePods(pods); }
    std::unique_ptr<ClusterStore> m_store;
};

void TestWorkloadResolver::init()
{
    m_store = std::make_unique<ClusterStore>(nullptr, [] { return kNow; });
    setNodes({node(QStringLiteral("g-01"), 8)});
}

void TestWorkloadResolver::queueFullJob_data()
{
    QTest::addColumn<qint64>("heldFor");
    QTest::addColumn<bool>("stuck");
    QTest::addRow("held 2 minutes: queued") << 2 * kMinute << false;
    QTest::addRow("held 2 hours: stuck") << 2 * kHour << true;
}

void TestWorkloadResolver::queueFullJob()
{
    QFETCH(qint64, heldFor);
    QFETCH(bool, stuck);
    // A Volcano job whose pod group the queue has not admitted: no pods yet, no message of its
    // own; the pod group's condition says why, and its minResources are what it waits for.
    JobInfo job;
    job.uid = QStringLiteral("job-asr");
    job.kind = Resource::VolcanoJobs;
    job.ns = QStringLiteral("user-chenjie");
    job.name = QStringLiteral("asr-conformer");
    job.vc = QStringLiteral("speech");
    job.status = QStringLiteral("Pending");
    job.created = kNow - heldFor;
    Delta jobs = deltaOf(Resource::VolcanoJobs);
    jobs.items<JobInfo>() = {job};
    m_store->apply(jobs);
    PodGroupInfo pg;
    pg.uid = QStringLiteral("pg-asr");
    pg.ns = job.ns;
    pg.name = QStringLiteral("asr-conformer-pg");
    pg.vc = job.vc;
    pg.phase = QStringLiteral("Pending");
    pg.minMember = 2;
    pg.minGpus = 4;
    pg.owner = {QStringLiteral("Job"), job.name, job.uid};
    const QString why = QStringLiteral("queue resource quota insufficient: queue speech "
                                       "capability nvidia.com/gpu 8, allocated 8, requested 4");
    pg.conditions = {{QStringLiteral("Unschedulable"), QStringLiteral("True"),
                      QStringLiteral("NotEnoughResources"), why, kNow - heldFor}};
    Delta groups = deltaOf(Resource::PodGroups);
    groups.items<PodGroupInfo>() = {pg};
    m_store->apply(groups);
    m_store->flush();

    const auto w = m_store->workload(job.uid);
    QVERIFY(w);
    QCOMPARE(w->status, QStringLiteral("Pending"));
    QCOMPARE(w->message, why);
    QCOMPARE(w->stuck, stuck);
    QVERIFY(w->podGroup && w->podGroup->name == pg.name);
    QCOMPARE(m_store->totals().pendingDemand, 4);
    const WorkloadCounts c = m_store->workloadCounts();
    // Waiting either way; stuck said apart, not counted as failed (issue 34).
    QCOMPARE(c.waiting, 1);
    QCOMPARE(c.failed, 0);
    QCOMPARE(c.stuck, stuck ? 1 : 0);
    // Admitted: no longer waiting for the queue, no longer counted as pending demand twice.
    pg.phase = QStringLiteral("Inqueue");
    pg.conditions.clear();
    groups.items<PodGroupInfo>() = {pg};
    m_store->apply(groups);
    m_store->flush();
    QCOMPARE(m_store->totals().pendingDemand, 0);
    QCOMPARE(m_store->workload(job.uid)->message, QString());
}

void TestWorkloadResolver::gangPendingJobOverridesCreated()
{
    // A PyTorchJob whose conditions still say Created while both its pods have failed to be
    // scheduled for an hour: its status comes from the pods.
    JobInfo job;
    job.uid = QStringLiteral("job-llama");
    job.kind = Resource::PyTorchJobs;
    job.ns = QStringLiteral("user-bob");
    job.name = QStringLiteral("llama");
    job.status = QStringLiteral("Created");
    job.created = kNow - kHour;
    Delta jobs = deltaOf(Resource::PyTorchJobs);
    jobs.items<JobInfo>() = {job};
    m_store->apply(jobs);
    const QString unschedulable = QStringLiteral(
        "0/15 nodes are available: 15 Insufficient nvidia.com/gpu. preemption: 0/15 nodes are "
        "available: 15 No preemption victims found for incoming pod.");
    QList<PodInfo> pods;
    for (const char *name : {"llama-master-0", "llama-worker-0"}) {
        PodInfo p = pod(QLatin1String(name), {}, 8, QStringLiteral("Pending"));
        p.owner = {QStringLiteral("PyTorchJob"), job.name, job.uid};
        p.message = unschedulable;
        p.created = kNow - kHour;
        pods.append(p);
    }
    setPods(pods);
    m_store->flush();
    const auto w = m_store->workload(job.uid);
    QCOMPARE(w->status, QStringLiteral("Pending"));
    QCOMPARE(w->message, unschedulable);
    QVERIFY(w->stuck);
    // Once it runs, its own word is kept.
    job.status = QStringLiteral("Running");
    jobs.items<JobInfo>() = {job};
    m_store->apply(jobs);
    m_store->flush();
    QCOMPARE(m_store->workload(job.uid)->status, QStringLiteral("Running"));
}

void TestWorkloadResolver::stuckTerminating()
{
    PodInfo p =
        pod(QStringLiteral("old-train"), QStringLiteral("g-01"), 2, QStringLiteral("Terminating"));
    p.phase = QStringLiteral("Running");
    p.deleting = true;
    p.gracePeriodSecs = 30;
    p.deletionTime = kNow - 46 * kHour; // when the grace period ended
    PodInfo slow =
        pod(QStringLiteral("slow-exit"), QStringLiteral("g-01"), 1, QStringLiteral("Terminating"));
    slow.deleting = true;
    slow.deletionTime = kNow - kMinute; // within the margin: still going away normally
    setPods({p, slow});
    m_store->flush();
    const auto w = m_store->workload(p.uid);
    QCOMPARE(w->status, QStringLiteral("Terminating"));
    QCOMPARE(w->message, QStringLiteral("Terminating for 46 h: its grace period of 30 s ended 46 h "
                                        "ago and the node has not confirmed that its containers "
                                        "stopped."));
    QVERIFY(w->stuck);
    QVERIFY(!m_store->workload(slow.uid)->stuck);
    QVERIFY(m_store->workload(slow.uid)->message.isEmpty());
}

void TestWorkloadResolver::runningOnNotReadyNode()
{
    setNodes({node(QStringLiteral("g-10"), 8, {}, false)});
    setPods(
        {pod(QStringLiteral("llm-serve"), QStringLiteral("g-10"), 4, QStringLiteral("Running"))});
    m_store->flush();
    const auto w = m_store->workload(QStringLiteral("uid-llm-serve"));
    QCOMPARE(w->status, QStringLiteral("Running")); // kubectl's word stays
    QCOMPARE(w->message, QStringLiteral("Node g-10 has been NotReady for 3 h: what this pod does "
                                        "now is not known."));
}

void TestWorkloadResolver::distributedAdvice_data()
{
    QTest::addColumn<QStringList>("tolerations");
    QTest::addColumn<int>("wanted");
    QTest::addColumn<QString>("advice");
    const QString a800 = QStringLiteral("gpudesk.io/reserved|Equal|a800|NoSchedule");
    QTest::addRow("8 wanted, 7 free at most: 2 × 4")
        << QStringList() << 8
        << QStringLiteral("No single node it may run on has 8 GPUs free (at most 7, on g-02); as "
                          "distributed training it fits now: 2 × 4 GPUs.");
    QTest::addRow("6 wanted: 2 × 3 (the 3-free node too)")
        << QStringList() << 6 << QString(); // a node has 7 free: it fits as it is
    QTest::addRow("tolerates the reserved A800 node: it fits whole")
        << QStringList{a800} << 8 << QString();
    QTest::addRow("14 wanted: 2 × 7")
        << QStringList() << 14
        << QStringLiteral("No single node it may run on has 14 GPUs free (at most 7, on g-02); "
                          "as distributed training it fits now: 2 × 7 GPUs.");
    QTest::addRow("16 wanted, 17 free but not in equal parts: no advice")
        << QStringList() << 16 << QString();
    QTest::addRow("more than the nodes have together: no advice")
        << QStringList() << 24 << QString();
}

void TestWorkloadResolver::distributedAdvice()
{
    QFETCH(QStringList, tolerations);
    QFETCH(int, wanted);
    QFETCH(QString, advice);
    // Free: 8 on the tainted A800, 7 + 7 + 3 on the 4090s, 8 on a cordoned one (not usable).
    setNodes({node(QStringLiteral("a800-01"), 8,
                   {QStringLiteral("gpudesk.io/reserved=a800:NoSchedule")}),
              node(QStringLiteral("g-02"), 8), node(QStringLiteral("g-03"), 8),
              node(QStringLiteral("g-04"), 8), node(QStringLiteral("g-09"), 8, {}, true, true)});
    PodInfo single = pod(QStringLiteral("sft-single-node"), {}, wanted, QStringLiteral("Pending"));
    single.tolerations = tolerations;
    single.message = QStringLiteral("0/5 nodes are available: 1 node(s) had untolerated taint "
                                    "{gpudesk.io/reserved: a800}, 1 node(s) were unschedulable, 3 "
                                    "Insufficient nvidia.com/gpu.");
    setPods({single, pod(QStringLiteral("a"), QStringLiteral("g-02"), 1, QStringLiteral("Running")),
             pod(QStringLiteral("b"), QStringLiteral("g-03"), 1, QStringLiteral("Running")),
             pod(QStringLiteral("c"), QStringLiteral("g-04"), 5, QStringLiteral("Running"))});
    m_store->flush();
    const auto w = m_store->workload(single.uid);
    QVERIFY(w->stuck); // unschedulable for two hours
    if (advice.isEmpty()) {
        QCOMPARE(w->message, single.message);
    } else {
        QCOMPARE(w->message.section(u'\n', 0, 0), advice);
        QCOMPARE(w->message.section(u'\n', 1), single.message); // the scheduler's words follow
    }
}

void TestWorkloadResolver::tableFiltersStuckWithFailed()
{
    // What the Workloads page's "failed or stuck" shows: the stuck Terminating pod, not the one
    // going away normally; the stuck row is red.
    PodInfo p =
        pod(QStringLiteral("old-train"), QStringLiteral("g-01"), 2, QStringLiteral("Terminating"));
    p.deleting = true;
    p.deletionTime = kNow - 46 * kHour;
    PodInfo slow =
        pod(QStringLiteral("slow-exit"), QStringLiteral("g-01"), 1, QStringLiteral("Terminating"));
    slow.deleting = true;
    slow.deletionTime = kNow - kMinute;
    setPods({p, slow,
             pod(QStringLiteral("fine"), QStringLiteral("g-01"), 1, QStringLiteral("Running"))});
    m_store->flush();
    WorkloadsModel model(m_store.get(), nullptr, [] { return kNow; });
    WorkloadsTable table(&model);
    QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    table.setStatusClass(workloadstatus::Problem);
    QCOMPARE(namesShown(table), QStringList{QStringLiteral("old-train")});
    QCOMPARE(table.index(0, 0).data(SeverityRole).toInt(), 2);
    QVERIFY(table.index(0, WorkloadsModel::Reason)
                .data()
                .toString()
                .startsWith(QLatin1String("Terminating for 46 h")));
}

// Issue 37: a job whose own word is not what its pods do — told in its Reason, first, and
// filtered with the problems — and jobs whose word holds, left alone.
void TestWorkloadResolver::statesThatLie()
{
    Delta jobs = deltaOf(Resource::PyTorchJobs);
    const auto addJob = [&](const QString &name, const QString &status) {
        JobInfo j;
        j.uid = u"job-"_qs + name;
        j.kind = Resource::PyTorchJobs;
        j.ns = QStringLiteral("user-bob");
        j.name = name;
        j.status = status;
        j.created = kNow - kHour;
        jobs.items<JobInfo>() << j;
        return j.uid;
    };
    const auto podOf = [](const QString &name, const QString &job, int gpus,
                          const QString &status) {
        PodInfo p = pod(name, QStringLiteral("g-01"), gpus, status);
        p.owner = {QStringLiteral("PyTorchJob"), job, u"job-"_qs + job};
        if (status == QLatin1String("Error") || status == QLatin1String("Completed"))
            p.phase = status == QLatin1String("Error") ? u"Failed"_qs : u"Succeeded"_qs;
        if (status == QLatin1String("CrashLoopBackOff"))
            p.phase = u"Running"_qs;
        return p;
    };
    // A worker failed the job; the master runs on and holds its 8 GPUs.
    const QString failed = addJob(u"llama"_qs, u"Failed"_qs);
    // Running by its word while a worker crash-loops.
    const QString looping = addJob(u"bert"_qs, u"Running"_qs);
    // Honest ones: failed with every pod over, one going away, running with its pods running.
    const QString over = addJob(u"gpt"_qs, u"Failed"_qs);
    const QString fine = addJob(u"vit"_qs, u"Running"_qs);
    m_store->apply(jobs);
    PodInfo master = podOf(u"llama-master-0"_qs, u"llama"_qs, 8, u"Running"_qs);
    PodInfo worker = podOf(u"llama-worker-0"_qs, u"llama"_qs, 8, u"Error"_qs);
    PodInfo crashing = podOf(u"bert-worker-1"_qs, u"bert"_qs, 4, u"CrashLoopBackOff"_qs);
    crashing.restarts = 7;
    PodInfo going = podOf(u"gpt-master-0"_qs, u"gpt"_qs, 8, u"Terminating"_qs);
    going.phase = u"Running"_qs;
    going.deleting = true;
    going.deletionTime = kNow + kMinute;
    setPods({master, worker, crashing, podOf(u"bert-master-0"_qs, u"bert"_qs, 4, u"Running"_qs),
             podOf(u"gpt-worker-0"_qs, u"gpt"_qs, 8, u"Error"_qs), going,
             podOf(u"vit-master-0"_qs, u"vit"_qs, 2, u"Running"_qs)});
    m_store->flush();
    QCOMPARE(m_store->workload(failed)->stateLie,
             u"Says Failed, but 1 pod(s) of it still run: llama-master-0, holding 8 GPU(s): they "
             "are not free until those pods are stopped."_qs);
    QCOMPARE(m_store->workload(looping)->stateLie,
             u"Says Running, but 1 pod(s) crash-loop (bert-worker-1; restarted up to 7 times): "
             "the job makes no progress."_qs);
    QCOMPARE(m_store->workload(over)->stateLie, QString());
    QCOMPARE(m_store->workload(fine)->stateLie, QString());

    // The table: both liars are problems whatever their status says, their Reason the lie.
    WorkloadsModel model(m_store.get(), nullptr, [] { return kNow; });
    WorkloadsTable table(&model);
    QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    table.setStatusClass(workloadstatus::Problem);
    QStringList shown = namesShown(table);
    shown.sort();
    QCOMPARE(shown, QStringList({u"bert"_qs, u"gpt"_qs, u"llama"_qs})); // gpt: its own Failed
    for (int r = 0; r < table.rowCount(); ++r) {
        const QString name = table.index(r, WorkloadsModel::Name).data().toString();
        const QString reason = table.index(r, WorkloadsModel::Reason).data().toString();
        QCOMPARE(reason.startsWith(u"Says "_qs), name != u"gpt"_qs);
        QCOMPARE(table.index(r, 0).data(SeverityRole).toInt(), 2);
    }
    // And counted so, in the Overview's and the report's counts: three failed (the honest gpt,
    // both liars), one running (vit), the same for their user.
    const WorkloadCounts counts = WorkloadResolver::countsIn(*m_store, u"user-bob"_qs);
    QCOMPARE(counts.failed, 3);
    QCOMPARE(counts.running, 1);
    QCOMPARE(counts.total(), 4);
    QCOMPARE(WorkloadResolver::counts(*m_store).failed, 3);

    // The master stopped: the failed job tells the truth again.
    master.phase = u"Failed"_qs;
    master.status = u"Error"_qs;
    setPods({master, worker});
    m_store->flush();
    QCOMPARE(m_store->workload(failed)->stateLie, QString());
    QCOMPARE(WorkloadResolver::countsIn(*m_store, u"user-bob"_qs).failed, 2); // llama and gpt
}

QTEST_GUILESS_MAIN(TestWorkloadResolver)
#include "tst_workloadresolver.moc"
