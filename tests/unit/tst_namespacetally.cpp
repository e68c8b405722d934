// SPDX-License-Identifier: GPL-3.0-or-later
// NamespaceTally keeps each namespace's figures from the store's changes (issue 39): after every
// change of a long random run — jobs, their pods, bare pods, a ReplicaSet's pods, finished ones,
// pods unscheduled or being deleted, dev environments, whole namespaces emptied — its figures
// equal what the store holds then, counted afresh: the jobs as WorkloadResolver::countsIn counts
// them, the GPUs, dev environments and newest creation by a plain walk of the namespace's pods
// and jobs.
#include "clusterstore.h"
#include "namespacetally.h"
#include "workloadresolver.h"

#include <QRandomGenerator>
#include <QTest>

using namespace gpudesk;

namespace {

constexpr qint64 kNow = 1'790'000'000'000;
constexpr qint64 kHour = 60 * 60 * 1000;

const QStringList kNamespaces{QStringLiteral("user-alice"), QStringLiteral("user-bob"),
                              QStringLiteral("user-carol")};

// The figures a fresh count of the store gives.
NamespaceTally::Figures counted(const ClusterStore &store, const QString &ns)
{
    NamespaceTally::Figures f;
    f.counts = WorkloadResolver::countsIn(store, ns);
    for (const PodInfo *p : store.podsIn(ns)) {
        f.lastActivity = std::max(f.lastActivity, p->created);
        if (p->finished())
            continue;
        if (!p->nodeName.isEmpty())
            f.gpusInUse += p->gpuRequest;
        if (!p->devEnv.isEmpty())
            ++f.devEnvs;
    }
    for (const QString &key : store.jobKeys())
        if (const JobInfo *j = store.job(key); j && j->ns == ns)
            f.lastActivity = std::max(f.lastActivity, j->created);
    return f;
}

NodeInfo gpuNode()
{
    NodeInfo node;
    node.uid = node.name = u"g-01"_qs;
    node.ready = true;
    node.gpuAllocatable = node.gpuCapacity = 8;
    return node;
}

QString describe(const NamespaceTally::Figures &f)
{
    return QStringLiteral("running %1 waiting %2 failed %3 finished %4 stuck %5 gpus %6 devenvs "
                          "%7 newest %8")
        .arg(f.counts.running)
        .arg(f.counts.waiting)
        .arg(f.counts.failed)
        .arg(f.counts.finished)
        .arg(f.counts.stuck)
        .arg(f.gpusInUse)
        .arg(f.devEnvs)
        .arg(f.lastActivity);
}

} // namespace

class TestNamespaceTally : public QObject
{
    Q_OBJECT
private slots:
    void followsRandomChanges();
    void waitingBecomesStuckWithTime();

private:
    PodInfo randomPod(QRandomGenerator &rng, const QStringList &jobs) const;
};

PodInfo TestNamespaceTally::randomPod(QRandomGenerator &rng, const QStringList &jobs) const
{
    static const QStringList statuses{
        u"Running"_qs,          u"Pending"_qs,     u"Error"_qs,
        u"Completed"_qs,        u"Terminating"_qs, u"CrashLoopBackOff"_qs,
        u"ContainerCreating"_qs};
    PodInfo p;
    p.uid = u"pod-"_qs + QString::number(rng.bounded(60));
    p.name = p.uid;
    p.ns = kNamespaces.at(rng.bounded(kNamespaces.size()));
    const int owner = rng.bounded(4);
    if (owner == 0 && !jobs.isEmpty()) {
        // A job's pod: in the job's namespace (the job may be gone: its pods outlive it).
        const QString job = jobs.at(rng.bounded(jobs.size()));
        p.ns = job.section(u'/', 0, 0);
        p.owner = {QStringLiteral("PyTorchJob"), job, job};
    } else if (owner == 1) {
        p.owner = {QStringLiteral("ReplicaSet"), u"rs"_qs, p.ns + u"/rs"_qs};
    }
    p.status = statuses.at(rng.bounded(statuses.size()));
    p.phase = p.status == QLatin1String("Error")       ? u"Failed"_qs
              : p.status == QLatin1String("Completed") ? u"Succeeded"_qs
              : p.status == QLatin1String("Pending")   ? u"Pending"_qs
                                                       : u"Running"_qs;
    p.nodeName = p.phase == QLatin1String("Pending") && rng.bounded(2) ? QString() : u"g-01"_qs;
    p.deleting = p.status == QLatin1String("Terminating");
    p.deletionTime = p.deleting ? kNow - rng.bounded(3) * kHour : 0;
    p.gpuRequest = rng.bounded(5);
    p.devEnv = rng.bounded(5) == 0 ? u"dev"_qs : QString();
    p.created = kNow - rng.bounded(100) * kHour;
    return p;
}

void TestNamespaceTally::followsRandomChanges()
{
    ClusterStore store(nullptr, [] { return kNow; });
    store.replaceNodes({gpuNode()});
    NamespaceTally tally;
    tally.rebuild(store);
    int applied = 0;
    connect(&store, &ClusterStore::updated, this, [&](const StoreChanges &changes) {
        tally.apply(store, changes.workloads);
        ++applied;
    });
    QRandomGenerator rng(39);
    QStringList jobs; // ns/name: a job's uid is its key
    static const QStringList jobStates{u"Pending"_qs, u"Running"_qs, u"Failed"_qs, u"Completed"_qs,
                                       u"Created"_qs};
    int checks = 0;
    for (int step = 0; step < 3000; ++step) {
        Delta d;
        const int what = rng.bounded(10);
        if (what < 2) {
            JobInfo j;
            j.ns = kNamespaces.at(rng.bounded(kNamespaces.size()));
            j.name = u"job-"_qs + QString::number(rng.bounded(12));
            j.uid = j.ns + u'/' + j.name;
            j.kind = Resource::PyTorchJobs;
            j.status = jobStates.at(rng.bounded(jobStates.size()));
            j.created = kNow - rng.bounded(100) * kHour;
            d.resource = Resource::PyTorchJobs;
            d.items<JobInfo>() = {j};
            if (!jobs.contains(j.uid))
                jobs.append(j.uid);
        } else if (what == 2 && !jobs.isEmpty()) {
            d.resource = Resource::PyTorchJobs;
            d.removed = {jobs.takeAt(rng.bounded(jobs.size()))};
        } else if (what == 3) {
            d.resource = Resource::Pods;
            d.removed = {u"pod-"_qs + QString::number(rng.bounded(60))};
        } else {
            d.resource = Resource::Pods;
            for (int n = 1 + rng.bounded(3); n > 0; --n)
                d.items<PodInfo>().append(randomPod(rng, jobs));
        }
        store.apply(d);
        // Several changes in one update at times, as a busy store sends them.
        if (rng.bounded(3) != 0)
            continue;
        store.flush();
        for (const QString &ns : kNamespaces) {
            const NamespaceTally::Figures fresh = counted(store, ns);
            const NamespaceTally::Figures kept = tally.figures(ns);
            if (describe(kept) != describe(fresh))
                QFAIL(qPrintable(u"step %1, %2: kept %3, counted %4"_qs.arg(step).arg(ns).arg(
                    describe(kept), describe(fresh))));
            ++checks;
        }
    }
    QVERIFY(applied > 500);
    QCOMPARE(checks, applied * int(kNamespaces.size()));
    // The run reached every kind of figure it checks (a generator that never made one would
    // pass without proving anything).
    int stuck = 0, devEnvs = 0, finished = 0, failed = 0;
    for (const QString &ns : kNamespaces) {
        const NamespaceTally::Figures f = counted(store, ns);
        stuck += f.counts.stuck;
        devEnvs += f.devEnvs;
        finished += f.counts.finished;
        failed += f.counts.failed;
    }
    QVERIFY(stuck > 0);
    QVERIFY(devEnvs > 0);
    QVERIFY(finished > 0);
    QVERIFY(failed > 0);
    // Everything removed: nothing is left in any namespace.
    Delta pods;
    pods.resource = Resource::Pods;
    pods.relist = true;
    store.apply(pods);
    Delta none;
    none.resource = Resource::PyTorchJobs;
    none.relist = true;
    store.apply(none);
    store.flush();
    for (const QString &ns : kNamespaces)
        QCOMPARE(describe(tally.figures(ns)), describe(NamespaceTally::Figures()));
}

void TestNamespaceTally::waitingBecomesStuckWithTime()
{
    // A pod stuck Terminating only with time: the tally's review takes it again.
    qint64 now = kNow;
    ClusterStore store(nullptr, [&now] { return now; });
    store.replaceNodes({gpuNode()});
    PodInfo p;
    p.uid = p.name = u"going"_qs;
    p.ns = kNamespaces.first();
    p.nodeName = u"g-01"_qs;
    p.phase = u"Running"_qs;
    p.status = u"Terminating"_qs;
    p.deleting = true;
    p.deletionTime = now;
    p.created = now - kHour;
    store.replacePods({p});
    store.flush();
    NamespaceTally tally;
    tally.rebuild(store);
    QCOMPARE(tally.figures(p.ns).counts.stuck, 0);
    QCOMPARE(WorkloadResolver::countsIn(store, p.ns).stuck, 0);
    now += 2 * kHour;
    QCOMPARE(WorkloadResolver::countsIn(store, p.ns).stuck, 1);
    QCOMPARE(tally.reviewWaiting(store), QSet<QString>{p.ns});
    QCOMPARE(tally.figures(p.ns).counts.stuck, 1);
    QCOMPARE(tally.reviewWaiting(store), QSet<QString>()); // stuck now: not looked at again
}

QTEST_GUILESS_MAIN(TestNamespaceTally)
#include "tst_namespacetally.moc"
