// SPDX-License-Identifier: GPL-3.0-or-later
// Who preempted a job: gpudesk sees the simulator's Volcano evict a pod for one of higher
// priority (the demo's planted case, and one made here while it watches), names the preemptor
// from the pods that took the node, says so on the job's Workloads row, keeps it on disk after
// the events are gone, and tells a researcher who may not see the preemptor that she may not.
#include "clusterstore.h"
#include "diagnosisservice.h"
#include "preemptionlog.h"
#include "roles.h"
#include "services.h"
#include "simprocess.h"
#include "workloadsmodel.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestPreemption : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void plantedPreemptionNamed();
    void liveVipPreemption();
    void keptAfterTheEventsAreGone();
    void reclaimNamed();

private:
    static const Preemption *find(const PreemptionLog *log, const QString &ns, const QString &pod);
    QString createJob(const QString &ns, const QString &name, const QString &node, int gpus,
                      const QString &priorityClass,
                      const QString &queue = QStringLiteral("default"));

    QTemporaryDir m_data;
    SimProcess m_sim;
    std::unique_ptr<Services> m_admin;
    QString m_plantedNode;
};

void TestPreemption::initTestCase()
{
    qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    QCoreApplication::setApplicationName(QStringLiteral("gpudesk"));
    QString error;
    QVERIFY2(
        m_sim.start({QStringLiteral("--speed"), QStringLiteral("5"), QStringLiteral("--no-ssh")},
                    &error),
        qPrintable(error));
    for (const QJsonValue &p : m_sim.truth().value(QLatin1String("planted")).toArray())
        if (p[QLatin1String("id")] == QLatin1String("preempted"))
            m_plantedNode = p[QLatin1String("node")].toString();
    QVERIFY(!m_plantedNode.isEmpty());
    m_admin = m_sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(m_admin);
}

const Preemption *TestPreemption::find(const PreemptionLog *log, const QString &ns,
                                       const QString &pod)
{
    for (const Preemption *p : log->records())
        if (p->ns == ns && p->pod == pod)
            return p;
    return nullptr;
}

void TestPreemption::plantedPreemptionNamed()
{
    const PreemptionLog *log = m_admin->diagnoses()->preemptions();
    QVERIFY(log);
    const Preemption *p = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (p = find(log, QStringLiteral("user-carol"), QStringLiteral("detr-train-worker-0"))) &&
            p->named(),
        60000);
    QCOMPARE(p->how, QStringLiteral("preempt"));
    QCOMPARE(p->job, QStringLiteral("detr-train"));
    QCOMPARE(p->user, QStringLiteral("carol"));
    QCOMPARE(p->node, m_plantedNode);
    QCOMPARE(p->byNs, QStringLiteral("user-wangfang"));
    QCOMPARE(p->byPod, QStringLiteral("seg-deadline-trainer-0"));
    QCOMPARE(p->byJob, QStringLiteral("seg-deadline"));
    QCOMPARE(p->byUser, QStringLiteral("wangfang"));
    QCOMPARE(p->byVc, QStringLiteral("cv"));
    QCOMPARE(p->byPriority, 1000);
    QCOMPARE(p->byPriorityClass, QStringLiteral("high-priority"));
    QCOMPARE(p->priority, 0);
    // detr-train started 8 h before the demo's end, the eviction half an hour before it.
    QVERIFY2(p->ranMs > 7 * 3600 * 1000LL && p->ranMs < 8 * 3600 * 1000LL,
             qPrintable(QString::number(p->ranMs)));
    QVERIFY(p->unknownWhy.isEmpty());

    // The job's row says it (it runs again: in the tooltip; the text is the log's).
    WorkloadsModel model(m_admin->store());
    model.setPreemptions(log);
    const QModelIndex row = model.indexOfWorkload(p->workload);
    QVERIFY(row.isValid());
    QCOMPARE(row.data(KeyRole).toString(), p->workload);
    const QString tip =
        model.index(row.row(), WorkloadsModel::Reason).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(QStringLiteral("Preempted by wangfang's seg-deadline (queue cv, "
                                           "priority class high-priority, 1000) ")),
             qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("running on ") + m_plantedNode), qPrintable(tip));
}

QString TestPreemption::createJob(const QString &ns, const QString &name, const QString &node,
                                  int gpus, const QString &priorityClass, const QString &queue)
{
    QJsonObject podSpec{
        {QStringLiteral("nodeSelector"),
         QJsonObject{{QStringLiteral("kubernetes.io/hostname"), node}}},
        {QStringLiteral("restartPolicy"), QStringLiteral("Never")},
        {QStringLiteral("containers"),
         QJsonArray{QJsonObject{
             {QStringLiteral("name"), QStringLiteral("main")},
             {QStringLiteral("image"),
              QStringLiteral("registry.lab.internal/ai/pytorch:2.1.2-cuda12.1-cudnn8")},
             {QStringLiteral("command"),
              QJsonArray{QStringLiteral("sleep"), QStringLiteral("infinity")}},
             {QStringLiteral("resources"),
              QJsonObject{{QStringLiteral("limits"),
                           QJsonObject{{QStringLiteral("nvidia.com/gpu"), QString::number(gpus)},
                                       {QStringLiteral("cpu"), QStringLiteral("4")},
                                       {QStringLiteral("memory"), QStringLiteral("16Gi")}}}}}}}}};
    if (!priorityClass.isEmpty())
        podSpec.insert(QStringLiteral("priorityClassName"), priorityClass);
    const QJsonObject job{
        {QStringLiteral("apiVersion"), QStringLiteral("batch.volcano.sh/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("Job")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("schedulerName"), QStringLiteral("volcano")},
                     {QStringLiteral("minAvailable"), 1},
                     // By default the default queue, which has no capability: nlp's is full,
                     // and a job its queue cannot admit preempts nothing (enqueue comes first).
                     {QStringLiteral("queue"), queue},
                     {QStringLiteral("tasks"),
                      QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("main")},
                                             {QStringLiteral("replicas"), 1},
                                             {QStringLiteral("template"),
                                              QJsonObject{{QStringLiteral("spec"), podSpec}}}}}}}}};
    const SimProcess::Reply r = m_sim.request(
        "POST", QStringLiteral("/apis/batch.volcano.sh/v1alpha1/namespaces/%1/jobs").arg(ns),
        QJsonDocument(job).toJson());
    return r.status == 201 ? QString() : QString::fromUtf8(r.body);
}

void TestPreemption::liveVipPreemption()
{
    // A 4090 node that takes pods, with 2 GPUs free or more.
    QString node;
    int free = 0;
    for (const QJsonValue &n : m_sim.truth().value(QLatin1String("nodes")).toArray()) {
        const QString name = n[QLatin1String("name")].toString();
        if (!name.startsWith(QLatin1String("g4090-")) || name == m_plantedNode ||
            n[QLatin1String("ready")] == false || n[QLatin1String("unschedulable")] == true ||
            name == QLatin1String("g4090-07") /* DiskPressure */)
            continue;
        const int f = n[QLatin1String("gpus")][QLatin1String("free")].toInt();
        if (f >= 2) {
            node = name;
            free = f;
            break;
        }
    }
    QVERIFY2(!node.isEmpty(), "no 4090 node with 2 GPUs free");
    QString error =
        createJob(QStringLiteral("user-alice"), QStringLiteral("alice-sweep"), node, 2, {});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const ClusterStore *store = m_admin->store();
    auto running = [store](const QString &ns, const QString &name) {
        for (const PodInfo &p : store->pods())
            if (p.ns == ns && p.name == name && p.phase == QLatin1String("Running"))
                return true;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(
        running(QStringLiteral("user-alice"), QStringLiteral("alice-sweep-main-0")), 60000);
    // zhangwei's VIP run asks what is free there now (the simulator's random jobs may have
    // come meanwhile) and alice's two GPUs.
    int freeNow = -1;
    for (const QJsonValue &n : m_sim.truth().value(QLatin1String("nodes")).toArray())
        if (n[QLatin1String("name")].toString() == node)
            freeNow = n[QLatin1String("gpus")][QLatin1String("free")].toInt();
    QVERIFY2(freeNow >= 0 && freeNow <= free - 2, qPrintable(QString::number(freeNow)));
    error = createJob(QStringLiteral("user-zhangwei"), QStringLiteral("vip-run"), node, freeNow + 2,
                      QStringLiteral("vip"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const PreemptionLog *log = m_admin->diagnoses()->preemptions();
    const Preemption *p = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (p = find(log, QStringLiteral("user-alice"), QStringLiteral("alice-sweep-main-0"))) &&
            p->named(),
        90000);
    QCOMPARE(p->how, QStringLiteral("preempt")); // Volcano's words: the event names nobody
    QCOMPARE(p->node, node);
    QCOMPARE(p->job, QStringLiteral("alice-sweep"));
    QCOMPARE(p->byJob, QStringLiteral("vip-run"));
    QCOMPARE(p->byUser, QStringLiteral("zhangwei"));
    QCOMPARE(p->byPriorityClass, QStringLiteral("vip"));
    QCOMPARE(p->byPriority, 100000);
    QTRY_VERIFY_WITH_TIMEOUT(
        running(QStringLiteral("user-zhangwei"), QStringLiteral("vip-run-main-0")), 60000);

    // Alice sees that she was preempted, and that her account may not see by whom.
    std::unique_ptr<Services> alice = m_sim.connect(QStringLiteral("sim-alice"));
    QVERIFY(alice);
    const PreemptionLog *hers = alice->diagnoses()->preemptions();
    const Preemption *mine = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (mine = find(hers, QStringLiteral("user-alice"), QStringLiteral("alice-sweep-main-0"))) &&
            !mine->unknownWhy.isEmpty(),
        60000);
    QVERIFY(!mine->named());
    QVERIFY2(mine->unknownWhy.contains(QLatin1String("not visible to you")),
             qPrintable(mine->unknownWhy));
    QVERIFY(PreemptionLog::describe(*mine, mine->at)
                .startsWith(QLatin1String("Preempted by a job of higher priority")));
}

void TestPreemption::keptAfterTheEventsAreGone()
{
    // The window closes; the events expire (deleted here); the next window still knows.
    m_admin.reset();
    const SimProcess::Reply events =
        m_sim.request("GET", QStringLiteral("/api/v1/events?fieldSelector=reason%3DEvict"));
    QCOMPARE(events.status, 200);
    int deleted = 0;
    for (const QJsonValue &e : events.json().value(QLatin1String("items")).toArray()) {
        const QJsonObject meta = e[QLatin1String("metadata")].toObject();
        const SimProcess::Reply r =
            m_sim.request("DELETE", QStringLiteral("/api/v1/namespaces/%1/events/%2")
                                        .arg(meta[QLatin1String("namespace")].toString(),
                                             meta[QLatin1String("name")].toString()));
        QCOMPARE(r.status, 200);
        ++deleted;
    }
    QCOMPARE(deleted, 2);
    m_admin = m_sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(m_admin);
    const PreemptionLog *log = m_admin->diagnoses()->preemptions();
    const Preemption *planted =
        find(log, QStringLiteral("user-carol"), QStringLiteral("detr-train-worker-0"));
    QVERIFY(planted);
    QCOMPARE(planted->byJob, QStringLiteral("seg-deadline"));
    const Preemption *live =
        find(log, QStringLiteral("user-alice"), QStringLiteral("alice-sweep-main-0"));
    QVERIFY(live);
    QCOMPARE(live->byJob, QStringLiteral("vip-run"));
}

void TestPreemption::reclaimNamed()
{
    // Reclaim turned on in Volcano's ConfigMap; a new queue below its deserved share takes
    // GPUs back on bob's tokenize-corpus node from the queues above theirs.
    const QString cmPath =
        QStringLiteral("/api/v1/namespaces/volcano-system/configmaps/volcano-scheduler-configmap");
    QJsonObject cm = m_sim.request("GET", cmPath).json();
    QJsonObject data = cm[QLatin1String("data")].toObject();
    QString conf = data[QLatin1String("volcano-scheduler.conf")].toString();
    QVERIFY(conf.contains(QLatin1String("preempt,")));
    conf.replace(QLatin1String("preempt,"), QLatin1String("preempt, reclaim,"));
    data[QLatin1String("volcano-scheduler.conf")] = conf;
    cm[QLatin1String("data")] = data;
    QCOMPARE(m_sim.request("PUT", cmPath, QJsonDocument(cm).toJson()).status, 200);
    const QJsonObject queue{
        {QStringLiteral("apiVersion"), QStringLiteral("scheduling.volcano.sh/v1beta1")},
        {QStringLiteral("kind"), QStringLiteral("Queue")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("urgent")}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("weight"), 1},
                     {QStringLiteral("reclaimable"), true},
                     {QStringLiteral("capability"),
                      QJsonObject{{QStringLiteral("nvidia.com/gpu"), QStringLiteral("16")}}},
                     {QStringLiteral("deserved"),
                      QJsonObject{{QStringLiteral("nvidia.com/gpu"), QStringLiteral("16")}}}}}};
    QCOMPARE(m_sim
                 .request("POST", QStringLiteral("/apis/scheduling.volcano.sh/v1beta1/queues"),
                          QJsonDocument(queue).toJson())
                 .status,
             201);
    const QJsonObject victim =
        m_sim
            .request("GET",
                     QStringLiteral("/api/v1/namespaces/user-bob/pods/tokenize-corpus-worker-0"))
            .json();
    const QString node = victim[QLatin1String("spec")][QLatin1String("nodeName")].toString();
    QVERIFY(!node.isEmpty());
    int free = 0;
    for (const QJsonValue &n : m_sim.truth().value(QLatin1String("nodes")).toArray())
        if (n[QLatin1String("name")].toString() == node)
            free = n[QLatin1String("gpus")][QLatin1String("total")].toInt() -
                   n[QLatin1String("gpus")][QLatin1String("allocated")].toInt();
    const QString error = createJob(QStringLiteral("user-dave"), QStringLiteral("take-back"), node,
                                    free + 1, {}, QStringLiteral("urgent"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const PreemptionLog *log = m_admin->diagnoses()->preemptions();
    const Preemption *p = nullptr;
    auto reclaimed = [log] {
        for (const Preemption *r : log->records())
            if (r->how == QLatin1String("reclaim") && r->byJob == QLatin1String("take-back"))
                return r;
        return static_cast<const Preemption *>(nullptr);
    };
    QTRY_VERIFY_WITH_TIMEOUT((p = reclaimed()), 90000);
    QCOMPARE(p->node, node);
    QCOMPARE(p->byVc, QStringLiteral("urgent"));
    QCOMPARE(p->byUser, QStringLiteral("dave"));
    QVERIFY(!p->vc.isEmpty());
    QVERIFY(p->vc != QLatin1String("urgent"));
    QVERIFY2(PreemptionLog::describe(*p, p->at).startsWith(
                 QLatin1String("Reclaimed for dave's take-back (queue urgent, below "
                               "its deserved share)")),
             qPrintable(PreemptionLog::describe(*p, p->at)));
}

QTEST_GUILESS_MAIN(TestPreemption)
#include "tst_preemption.moc"
