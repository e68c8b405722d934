// SPDX-License-Identifier: GPL-3.0-or-later
// The demo scenario: every planted case holds, the truth adds up, the same seed gives the same
// cluster, and the node tools print the real formats.
#include "nodemachine.h"
#include "nodetools.h"
#include "objectfactory.h"
#include "objectstore.h"
#include "podlogs.h"
#include "resourcetypes.h"
#include "simclock.h"
#include "simulation.h"

#include <QTest>

using nlohmann::json;
using namespace sim;

class TestSimScenario : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void plantedCasesListed();
    void stuckTerminating();
    void orphanProcesses();
    void idlePod();
    void noSingleNodeFits();
    void queueFull();
    void preemptedByHigherPriority();
    void priorityAdmission();
    void reclaimWhenTurnedOn();
    void kubeflowGangWaitsForQueue();
    void podStates_data();
    void podStates();
    void logs_data();
    void logs();
    void ncclSaysHowItConnects();
    void notReadyNodeHasPods();
    void diskFull();
    void phantomCard();
    void truthAddsUp();
    void sameSeedSameCluster();
    void nvidiaSmiFormats_data();
    void nvidiaSmiFormats();
    void shellSubset_data();
    void shellSubset();

private:
    struct World
    {
        ResourceTypes types;
        SimClock clock{QDateTime(QDate(2026, 11, 22), QTime(12, 0), Qt::UTC)};
        ObjectStore store{&types, &clock, 1};
        MachineRegistry machines;
        Simulation sim;
        World(quint64 seed)
            : sim(&store, &clock, &machines,
                  SimOptions{QStringLiteral("demo"), seed, 0, 0, 0, 0, 0})
        {
            sim.build();
        }
    };
    const json &plantedObject(const char *id) const;
    json get(const ResourceType *type, const json &ref) const;
    std::unique_ptr<World> m_world;
    json m_truth;
};

void TestSimScenario::initTestCase()
{
    m_world = std::make_unique<World>(1);
    m_truth = m_world->sim.truth();
}

const json &TestSimScenario::plantedObject(const char *id) const
{
    for (const auto &p : m_truth["planted"]) {
        if (p["id"] == id)
            return p["objects"][0];
    }
    static const json none;
    return none;
}

json TestSimScenario::get(const ResourceType *type, const json &ref) const
{
    const auto r = m_world->store.get(type, QString::fromStdString(ref.value("namespace", "")),
                                      QString::fromStdString(ref.value("name", "")));
    return r.ok() ? *r.object.object : json();
}

void TestSimScenario::plantedCasesListed()
{
    QStringList ids;
    for (const auto &p : m_truth["planted"])
        ids << QString::fromStdString(p["id"].get<std::string>());
    ids.sort();
    QCOMPARE(
        ids.join(u','),
        QStringLiteral(
            "crashloop-dangling-symlink,crashloop-link-outside,disk-full,failed-cuda-driver,"
            "failed-data-path,failed-deadline,failed-distributed-env,failed-evicted,"
            "failed-gpu-ecc,"
            "failed-gpu-hardware,"
            "failed-gpu-memory,"
            "failed-memory,failed-mpi-launch,failed-nccl,failed-python-env,failed-stopped-by-admin,"
            "finished-holding-gpus,"
            "idle-gpu-pod,image-pull-unknown-host,mig-node,no-single-node-fits,"
            "node-not-ready,orphan-gpu-processes,pdb-blocks-drain,"
            "phantom-card-memory,preempted,queue-full,shm-too-small,slow-nccl,stuck-terminating,"
            "uninterruptible-process"));
}

void TestSimScenario::stuckTerminating()
{
    const json pod = get(m_world->sim.pods(), plantedObject("stuck-terminating"));
    QVERIFY(pod.is_object());
    const qint64 since =
        QDateTime::fromString(QString::fromStdString(pod["metadata"]["deletionTimestamp"]),
                              Qt::ISODate)
            .toMSecsSinceEpoch();
    QVERIFY(m_world->clock.nowMs() - since > 24 * 3600 * 1000LL);
    // The kubelet lost track of it: nothing of it runs on its node, and its cgroup is gone.
    const std::string uid = pod["metadata"]["uid"];
    for (const auto &n : m_truth["nodes"]) {
        for (const auto &c : n["cards"])
            for (const auto &p : c["processes"])
                QVERIFY(p["formerPodUid"] != uid);
        for (const auto &p : n["pods"])
            QVERIFY(p["uid"] != uid);
    }
    NodeTools tools(&m_world->machines);
    const std::string dir = podCgroupDir("v1-cgroupfs-docker", uid, "Guaranteed");
    const auto out =
        tools.run("g4090-03", "cat /sys/fs/cgroup/cpu,cpuacct" + dir + "/cpuacct.usage",
                  m_world->clock.nowMs());
    QCOMPARE(out.status, 1);
}

void TestSimScenario::orphanProcesses()
{
    const json ref = plantedObject("orphan-gpu-processes");
    QVERIFY(get(m_world->sim.pods(), ref).is_null()); // the pod is gone...
    int orphans = 0;
    int ignoringTerm = 0;
    for (const auto &n : m_truth["nodes"]) {
        for (const auto &c : n["cards"]) {
            for (const auto &p : c["processes"]) {
                if (p["orphan"].get<bool>() && p["formerPodUid"] == ref["uid"]) {
                    ++orphans;
                    ignoringTerm += p["ignoresTerm"].get<bool>() ? 1 : 0;
                    QCOMPARE(n["name"].get<std::string>(), std::string("g4090-04"));
                    QVERIFY(p["podUid"].is_null());
                    QCOMPARE(p["state"].get<std::string>(), std::string("S"));
                }
            }
        }
    }
    QCOMPARE(orphans, 2); // ...and its processes stay, one of them deaf to TERM
    QCOMPARE(ignoringTerm, 1);
}

void TestSimScenario::idlePod()
{
    const json pod = get(m_world->sim.pods(), plantedObject("idle-gpu-pod"));
    QCOMPARE(pod["status"]["phase"].get<std::string>(), std::string("Running"));
    const std::string uid = pod["metadata"]["uid"];
    int cards = 0;
    for (const auto &n : m_truth["nodes"]) {
        for (const auto &c : n["cards"]) {
            if (c["allocatedTo"] == uid) {
                ++cards;
                QCOMPARE(c["utilization"].get<int>(), 0);
            }
        }
    }
    QCOMPARE(cards, 4);
}

void TestSimScenario::noSingleNodeFits()
{
    const json pod = get(m_world->sim.pods(), plantedObject("no-single-node-fits"));
    QVERIFY(!pod["spec"].contains("nodeName"));
    QCOMPARE(podRequests(pod).gpus, qint64(8));
    qint64 freeOnCandidates = 0;
    for (const auto &n : m_truth["nodes"]) {
        QVERIFY2(n["gpus"]["free"].get<int>() < 8, n["name"].get<std::string>().c_str());
        freeOnCandidates += n["gpus"]["free"].get<int>();
    }
    QVERIFY2(freeOnCandidates >= 8, qPrintable(QString::number(freeOnCandidates)));
}

void TestSimScenario::queueFull()
{
    const json job = get(m_world->sim.vcjobs(), plantedObject("queue-full"));
    QCOMPARE(job["status"]["state"]["phase"].get<std::string>(), std::string("Pending"));
    for (const auto &q : m_truth["queues"]) {
        if (q["name"] == job["spec"]["queue"])
            QCOMPARE(QString::fromStdString(q["gpus"]["allocated"].dump()),
                     QString::fromStdString(q["gpus"]["capability"].dump()));
    }
    QVERIFY(m_truth["gpus"]["free"].get<int>() > 0);
}

void TestSimScenario::preemptedByHigherPriority()
{
    // Volcano's preempt action, as its evictor writes it: the Evict event, the pod's
    // DisruptionTarget condition, the pod deleted (its job makes it again); the preemptor
    // nominated to the node, then running there.
    const json &victimJob = plantedObject("preempted");
    QCOMPARE(victimJob["name"].get<std::string>(), std::string("detr-train"));
    const ResourceType *events =
        m_world->store.types()->find({}, QStringLiteral("v1"), QStringLiteral("events"));
    std::string victimUid, node;
    int evictions = 0;
    for (const auto &e : m_world->store.list(events, QStringLiteral("user-carol"))) {
        const json &ev = *e.object;
        if (ev["reason"] != "Evict")
            continue;
        ++evictions;
        QCOMPARE(ev["type"].get<std::string>(), std::string("Warning"));
        QCOMPARE(ev["message"].get<std::string>(),
                 std::string("Pod is evicted, because of preempt"));
        QCOMPARE(ev["involvedObject"]["name"].get<std::string>(),
                 std::string("detr-train-worker-0"));
        victimUid = ev["involvedObject"]["uid"];
    }
    QCOMPARE(evictions, 1);
    for (const auto &p : m_truth["planted"])
        if (p["id"] == "preempted")
            node = p["node"];
    QVERIFY(!node.empty());
    // Made again by its job: the same name, another pod.
    const json again = get(m_world->sim.pods(),
                           json{{"namespace", "user-carol"}, {"name", "detr-train-worker-0"}});
    QVERIFY(again.is_object());
    QVERIFY(again["metadata"]["uid"] != victimUid);
    const json preemptor = get(m_world->sim.pods(), json{{"namespace", "user-wangfang"},
                                                         {"name", "seg-deadline-trainer-0"}});
    QCOMPARE(preemptor["spec"]["priority"].get<int>(), 1000);
    QCOMPARE(preemptor["spec"]["priorityClassName"].get<std::string>(),
             std::string("high-priority"));
    QCOMPARE(preemptor["status"]["nominatedNodeName"].get<std::string>(), node);
    QCOMPARE(preemptor["spec"]["nodeName"].get<std::string>(), node);
    QCOMPARE(preemptor["status"]["phase"].get<std::string>(), std::string("Running"));
    // Made again, it does not go back to the node the preemptor holds.
    QVERIFY(again["spec"].value("nodeName", "") != node);
}

void TestSimScenario::priorityAdmission()
{
    // A class that does not exist is refused in the API server's words; a known one becomes
    // the pod's priority; a number chosen by the client is refused.
    World w(1);
    PodSpecInput in;
    in.ns = "user-alice";
    in.name = "urgent";
    ContainerSpec c;
    c.image = "img";
    in.containers = {c};
    json pod = ObjectFactory::pod(in);
    pod["spec"].erase("priority");
    pod["spec"]["priorityClassName"] = "urgent-now";
    auto refused = w.sim.admit(w.sim.pods(), pod);
    QVERIFY(refused);
    QCOMPARE(refused->code, 403);
    QCOMPARE(refused->message,
             QStringLiteral("pods \"urgent\" is forbidden: no PriorityClass with name urgent-now "
                            "was found"));
    pod["spec"]["priorityClassName"] = "vip";
    QVERIFY(!w.sim.admit(w.sim.pods(), pod));
    QCOMPARE(pod["spec"]["priority"].get<int>(), 100000);
    QCOMPARE(pod["spec"]["preemptionPolicy"].get<std::string>(),
             std::string("PreemptLowerPriority"));
    pod["spec"]["priority"] = 5;
    refused = w.sim.admit(w.sim.pods(), pod);
    QVERIFY(refused);
    QVERIFY2(refused->message.contains(QLatin1String("priority admission controller computed "
                                                     "100000")),
             qPrintable(refused->message));
}

void TestSimScenario::reclaimWhenTurnedOn()
{
    // The demo's Volcano does not reclaim; turned on in its ConfigMap, a queue below its
    // deserved share (urgent: 12 of 16) takes GPUs back from one above it (nlp: 39 of 30),
    // whatever the priorities: the Evict event says "reclaim".
    World w(1);
    const ResourceType *configmaps =
        w.store.types()->find({}, QStringLiteral("v1"), QStringLiteral("configmaps"));
    const ResourceType *events =
        w.store.types()->find({}, QStringLiteral("v1"), QStringLiteral("events"));
    auto evictions = [&] {
        QStringList out;
        for (const auto &e : w.store.list(events))
            if ((*e.object)["reason"] == "Evict")
                out << QString::fromStdString(
                    (*e.object)["message"].get<std::string>() + " " +
                    (*e.object)["involvedObject"]["namespace"].get<std::string>() + "/" +
                    (*e.object)["involvedObject"]["name"].get<std::string>());
        return out;
    };
    const QStringList before = evictions();
    const json victim =
        *w.store.get(w.sim.pods(), u"user-bob"_qs, u"tokenize-corpus-worker-0"_qs).object.object;
    const std::string node = victim["spec"]["nodeName"];
    qint64 used = 0;
    for (const auto &p : w.store.list(w.sim.pods())) {
        const json &o = *p.object;
        if (sub(o, "spec").value("nodeName", "") == node &&
            sub(o, "status").value("phase", "") != "Succeeded" &&
            sub(o, "status").value("phase", "") != "Failed")
            used += podRequests(o).gpus;
    }
    // A queue of its own, below its deserved share (nothing in it yet).
    QVERIFY(
        w.store
            .create(w.store.types()->find(u"scheduling.volcano.sh"_qs, u"v1beta1"_qs, u"queues"_qs),
                    ObjectFactory::queue("urgent", 16, 1))
            .ok());
    Simulation::JobInput in;
    in.user = "dave";
    in.name = "take-back";
    in.queue = "urgent";
    in.nodeSelector = json{{"kubernetes.io/hostname", node}};
    Simulation::TaskInput t;
    t.name = "main";
    t.gpus = int(8 - used + 1);
    t.cpu = "2";
    t.memory = "8Gi";
    in.tasks = {t};
    QVERIFY(!w.sim.submitVolcanoJob(in).is_null());
    for (int i = 0; i < 5; ++i)
        w.sim.step(1000);
    QCOMPARE(evictions(), before); // reclaim is off: it waits

    json cm = *w.store.get(configmaps, u"volcano-system"_qs, u"volcano-scheduler-configmap"_qs)
                   .object.object;
    std::string conf = cm["data"]["volcano-scheduler.conf"];
    conf.replace(conf.find("preempt,"), 8, "preempt, reclaim,");
    cm["data"]["volcano-scheduler.conf"] = conf;
    QVERIFY(w.store.update(configmaps, cm).ok());
    for (int i = 0; i < 60; ++i)
        w.sim.step(1000);
    QStringList now = evictions();
    for (const QString &e : before)
        now.removeOne(e);
    // Turned on, it acts for every queue below its share (others waited too): each eviction
    // is a reclaim, and the one asked for has its node.
    QVERIFY(!now.isEmpty());
    for (const QString &e : std::as_const(now))
        QVERIFY2(e.startsWith(u"Pod is evicted, because of reclaim user-"_qs), qPrintable(e));
    const json taker =
        *w.store.get(w.sim.pods(), u"user-dave"_qs, u"take-back-main-0"_qs).object.object;
    QCOMPARE(taker["spec"].value("nodeName", ""), node);
    QCOMPARE(taker["status"]["phase"].get<std::string>(), std::string("Running"));
}

void TestSimScenario::kubeflowGangWaitsForQueue()
{
    // Volcano says why a gang waits for its queue on every PodGroup, a PyTorchJob's too.
    World w(1);
    const ResourceType *podgroups =
        w.store.types()->find(QStringLiteral("scheduling.volcano.sh"), QStringLiteral("v1beta1"),
                              QStringLiteral("podgroups"));
    Simulation::JobInput in;
    in.user = "erin";
    in.name = "wav2vec-ddp";
    in.queue = "speech"; // 8 GPUs, all held by whisper-ft and two dev environments
    Simulation::TaskInput t;
    t.gpus = 1;
    in.tasks = {t, t};
    QVERIFY(!w.sim.submitPyTorchJob(in).is_null());
    w.sim.step(1000);
    auto pg = [&] {
        return *w.store.get(podgroups, QStringLiteral("user-erin"), QStringLiteral("wav2vec-ddp"))
                    .object.object;
    };
    QCOMPARE(pg()["status"]["phase"].get<std::string>(), std::string("Pending"));
    const json cond = pg()["status"]["conditions"][0];
    QCOMPARE(cond["type"].get<std::string>(), std::string("Unschedulable"));
    QCOMPARE(cond["reason"].get<std::string>(), std::string("NotEnoughResources"));
    const std::string why = cond["message"];
    QVERIFY2(why.rfind("queue resource quota insufficient: queue speech capability "
                       "nvidia.com/gpu 8, allocated ",
                       0) == 0,
             why.c_str());
    QVERIFY(
        !w.store
             .get(w.sim.pods(), QStringLiteral("user-erin"), QStringLiteral("wav2vec-ddp-master-0"))
             .ok());
    bool told = false;
    for (const auto &e :
         w.store.list(w.store.types()->find({}, QStringLiteral("v1"), QStringLiteral("events")),
                      QStringLiteral("user-erin"))) {
        const json &ev = *e.object;
        told |= ev["involvedObject"]["kind"] == "PodGroup" &&
                ev["involvedObject"]["name"] == "wav2vec-ddp" && ev["type"] == "Warning" &&
                ev["reason"] == "Unschedulable" && ev["message"] == why;
    }
    QVERIFY(told);

    // Once whisper-ft's 6 GPUs are back, asr-conformer (4) and this gang (2) are admitted, and
    // the condition goes.
    w.store.remove(w.sim.vcjobs(), QStringLiteral("user-erin"), QStringLiteral("whisper-ft"));
    for (int i = 0; i < 30 && pg()["status"]["phase"] == "Pending"; ++i)
        w.sim.step(1000);
    QCOMPARE(pg()["status"]["phase"].get<std::string>(), std::string("Inqueue"));
    QVERIFY(pg()["status"]["conditions"].empty());
}

void TestSimScenario::podStates_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("reason");
    QTest::addRow("image pull") << QStringLiteral("image-pull-unknown-host")
                                << QStringLiteral("ImagePullBackOff");
    QTest::addRow("crash loop") << QStringLiteral("crashloop-dangling-symlink")
                                << QStringLiteral("CrashLoopBackOff");
    QTest::addRow("link outside") << QStringLiteral("crashloop-link-outside")
                                  << QStringLiteral("CrashLoopBackOff");
}

void TestSimScenario::podStates()
{
    QFETCH(QString, id);
    QFETCH(QString, reason);
    const json pod = get(m_world->sim.pods(), plantedObject(id.toLatin1().constData()));
    const json &cs = pod["status"]["containerStatuses"][0];
    QCOMPARE(QString::fromStdString(cs["state"]["waiting"]["reason"]), reason);
    if (reason == QLatin1String("CrashLoopBackOff"))
        QVERIFY(cs["restartCount"].get<int>() > 10);
}

void TestSimScenario::logs_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("previous");
    QTest::addColumn<QString>("text");
    QTest::addRow("dangling symlink")
        << QStringLiteral("crashloop-dangling-symlink") << false
        << QStringLiteral("/workspace/start.sh: No such file or directory");
    QTest::addRow("previous instance")
        << QStringLiteral("crashloop-dangling-symlink") << true << QStringLiteral("lrwxrwxrwx");
    // bash given the script that the container cannot open, as bash says it.
    QTest::addRow("link outside") << QStringLiteral("crashloop-link-outside") << true
                                  << QStringLiteral(
                                         "bash: /workspace/start.sh: No such file or directory\n");
}

void TestSimScenario::logs()
{
    QFETCH(QString, id);
    QFETCH(bool, previous);
    QFETCH(QString, text);
    const json pod = get(m_world->sim.pods(), plantedObject(id.toLatin1().constData()));
    int code = 0;
    QString message;
    const auto spec = PodLogs::spec(pod, m_world->sim.behaviorOf(pod["metadata"]["uid"]), {},
                                    previous, false, &code, &message);
    QVERIFY2(spec, qPrintable(message));
    QByteArray all;
    for (qint64 i = 0; i < PodLogs::lineCount(*spec, m_world->clock.nowMs()); ++i)
        all += PodLogs::line(*spec, i) + '\n';
    QVERIFY2(all.contains(text.toUtf8()), all.constData());
}

// NCCL's start as its node and its variables make it: RoCE on the second 4090 rack, sockets
// where NCCL_IB_DISABLE=1 (the planted slow job) or where the node has no RDMA device.
void TestSimScenario::ncclSaysHowItConnects()
{
    const json job = plantedObject("slow-nccl");
    QCOMPARE(job.value("kind", ""), "PyTorchJob");
    for (const auto &n : m_world->store.list(m_world->sim.nodes())) {
        const std::string name = (*n.object)["metadata"].value("name", "");
        const bool rdma = (*n.object)["metadata"]["labels"].value(
                              "feature.node.kubernetes.io/rdma.available", "") == "true";
        QVERIFY2(rdma == (name.starts_with("a") || name >= "g4090-06"), name.c_str());
    }
    const auto head = [this](const char *ns, const char *name, bool rdma) {
        const json pod = get(m_world->sim.pods(), json{{"namespace", ns}, {"name", name}});
        int code = 0;
        QString message;
        const auto spec = PodLogs::spec(pod, m_world->sim.behaviorOf(pod["metadata"]["uid"]), {},
                                        false, rdma, &code, &message);
        QByteArray text;
        for (qint64 i = 0; spec && i < 8; ++i)
            text += PodLogs::line(*spec, i) + '\n';
        return text;
    };
    const QByteArray slow = head("user-lina", "yolo-ddp-master-0", true);
    QVERIFY2(slow.contains("NCCL INFO NCCL_IB_DISABLE set by environment to 1."), slow.constData());
    QVERIFY2(slow.contains("NCCL INFO Using network Socket"), slow.constData());
    const QByteArray ib = head("user-carol", "detr-train-worker-1", true);
    QVERIFY2(ib.contains("NET/IB : Using [0]mlx5_0:1/RoCE"), ib.constData());
    QVERIFY2(ib.contains("NCCL INFO Using network IB"), ib.constData());
    const QByteArray none = head("user-carol", "detr-train-worker-1", false);
    QVERIFY2(none.contains("NET/IB : No device found."), none.constData());
    QVERIFY2(none.contains("NCCL INFO Using network Socket"), none.constData());
}

void TestSimScenario::notReadyNodeHasPods()
{
    int pods = 0;
    for (const auto &p : m_world->store.list(m_world->sim.pods()))
        pods += (*p.object)["spec"].value("nodeName", "") == "g4090-10" &&
                (*p.object)["status"]["phase"] == "Running";
    QVERIFY(pods >= 2);
    for (const auto &n : m_truth["nodes"]) {
        if (n["name"] == "g4090-10")
            QVERIFY(!n["ready"].get<bool>());
    }
}

void TestSimScenario::diskFull()
{
    NodeTools tools(&m_world->machines);
    const auto out = tools.run("g4090-07", "df -P /", m_world->clock.nowMs());
    QCOMPARE(out.status, 0);
    QVERIFY2(QByteArray::fromStdString(out.out).contains(" 92% /\n"), out.out.c_str());
}

void TestSimScenario::phantomCard()
{
    for (const auto &n : m_truth["nodes"]) {
        if (n["name"] != "a800-02")
            continue;
        const json &c = n["cards"][7];
        QVERIFY(c["phantom"].get<bool>());
        QVERIFY(c["processes"].empty());
        QCOMPARE(c["memoryUsedMiB"].get<int>(), 30720);
    }
}

void TestSimScenario::truthAddsUp()
{
    int total = 0, allocated = 0, free = 0;
    for (const auto &n : m_truth["nodes"]) {
        total += n["gpus"]["total"].get<int>();
        allocated += n["gpus"]["allocated"].get<int>();
        free += n["gpus"]["free"].get<int>();
        for (const auto &c : n["cards"]) {
            int procMem = 0;
            for (const auto &p : c["processes"])
                procMem += p["memoryMiB"].get<int>();
            QVERIFY(procMem <= c["memoryUsedMiB"].get<int>());
        }
    }
    QCOMPARE(total, 100); // 12 nodes of 8, and a100-01's 4 cards not in MIG mode
    QCOMPARE(m_truth["gpus"]["total"].get<int>(), total);
    QCOMPARE(m_truth["gpus"]["allocated"].get<int>(), allocated);
    QCOMPARE(m_truth["gpus"]["free"].get<int>(), free);
    int byQueue = 0;
    for (const auto &q : m_truth["queues"])
        byQueue += q["gpus"]["allocated"].get<int>();
    QCOMPARE(byQueue, allocated);
    int byUser = 0;
    for (const auto &u : m_truth["users"])
        byUser += u["gpus"]["allocated"].get<int>();
    QCOMPARE(byUser, allocated);
    QCOMPARE(m_truth["users"].size(), size_t(12));
}

void TestSimScenario::sameSeedSameCluster()
{
    World again(1);
    json a = m_truth;
    json b = again.sim.truth();
    QCOMPARE(QString::fromStdString(b.dump()), QString::fromStdString(a.dump()));
    World other(2);
    QVERIFY(other.sim.truth()["nodes"] != a["nodes"]);
}

void TestSimScenario::nvidiaSmiFormats_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("firstLine");
    QTest::addRow("header with units")
        << QStringLiteral("g4090-01")
        << QStringLiteral("nvidia-smi --query-gpu=index,memory.used,power.draw --format=csv") << 0
        << QStringLiteral("index, memory.used [MiB], power.draw [W]");
    QTest::addRow("apps header")
        << QStringLiteral("g4090-04")
        << QStringLiteral(
               "nvidia-smi --query-compute-apps=gpu_uuid,pid,used_memory,process_name --format=csv")
        << 0 << QStringLiteral("gpu_uuid, pid, used_gpu_memory [MiB], process_name");
    QTest::addRow("ecc n/a on GeForce")
        << QStringLiteral("g4090-01")
        << QStringLiteral(
               "nvidia-smi --query-gpu=ecc.errors.uncorrected.volatile.total --format=csv,noheader")
        << 0 << QStringLiteral("[N/A]");
    QTest::addRow("not supported")
        << QStringLiteral("a800-01")
        << QStringLiteral("nvidia-smi --query-gpu=encoder.stats.sessionCount --format=csv,noheader")
        << 0 << QStringLiteral("[Not Supported]");
    QTest::addRow("bad field") << QStringLiteral("a800-01")
                               << QStringLiteral("nvidia-smi --query-gpu=bogus --format=csv") << 2
                               << QStringLiteral("Field \"bogus\" is not a valid field to query.");
    QTest::addRow("xml") << QStringLiteral("a800-01") << QStringLiteral("nvidia-smi -q -x") << 0
                         << QStringLiteral("<?xml version=\"1.0\" ?>");
    QTest::addRow("list") << QStringLiteral("a800-01") << QStringLiteral("nvidia-smi -L") << 0
                          << QStringLiteral("GPU 0: NVIDIA A800-SXM4-80GB (UUID: GPU-");
    QTest::addRow("cpu node") << QStringLiteral("cpu-01") << QStringLiteral("nvidia-smi -L") << 127
                              << QString();
}

void TestSimScenario::nvidiaSmiFormats()
{
    QFETCH(QString, node);
    QFETCH(QString, command);
    QFETCH(int, status);
    QFETCH(QString, firstLine);
    NodeTools tools(&m_world->machines);
    const auto out = tools.run(node.toStdString(), command.toStdString(), m_world->clock.nowMs());
    QCOMPARE(out.status, status);
    const QString first = QString::fromStdString(out.out).section(u'\n', 0, 0);
    QVERIFY2(first.startsWith(firstLine), qPrintable(first));
}

void TestSimScenario::shellSubset_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("out");
    QTest::addColumn<QString>("err");
    QTest::addRow("sequence") << QStringLiteral("echo a; echo 'b c'") << 0
                              << QStringLiteral("a\nb c\n") << QString();
    QTest::addRow("and stops") << QStringLiteral("false && echo no") << 1 << QString() << QString();
    QTest::addRow("or runs") << QStringLiteral("false || echo yes") << 0 << QStringLiteral("yes\n")
                             << QString();
    QTest::addRow("not found") << QStringLiteral("lsblk") << 127 << QString()
                               << QStringLiteral("sh: 1: lsblk: not found\n");
    QTest::addRow("stderr to null")
        << QStringLiteral("cat /nope 2>/dev/null") << 1 << QString() << QString();
    QTest::addRow("stderr to out")
        << QStringLiteral("cat /nope 2>&1") << 1
        << QStringLiteral("cat: /nope: No such file or directory\n") << QString();
    QTest::addRow("no pipes") << QStringLiteral("nproc | wc -l") << 2 << QString()
                              << QStringLiteral("sh: 1: Syntax error: \"|\" unexpected\n");
    QTest::addRow("unterminated quote")
        << QStringLiteral("echo 'x") << 2 << QString()
        << QStringLiteral("sh: 1: Syntax error: Unterminated quoted string\n");
    QTest::addRow("kill missing") << QStringLiteral("kill 1") << 1 << QString()
                                  << QStringLiteral("sh: 1: kill: No such process\n\n");
    QTest::addRow("kill -9 missing") << QStringLiteral("kill -9 1") << 1 << QString()
                                     << QStringLiteral("sh: 1: kill: No such process\n\n");
    QTest::addRow("kill bad signal")
        << QStringLiteral("kill -s FOO 1") << 2 << QString()
        << QStringLiteral("sh: 1: kill: invalid signal number or name: FOO\n");
    QTest::addRow("kill bad option") << QStringLiteral("kill -FOO 1") << 2 << QString()
                                     << QStringLiteral("sh: 1: kill: Illegal option -F\n");
    QTest::addRow("kill no pid")
        << QStringLiteral("kill -s KILL") << 2 << QString()
        << QStringLiteral("sh: 1: kill: Usage: kill [-s sigspec | -signum | -sigspec] [pid | "
                          "job]... or\nkill -l [exitstatus]\n");
    QTest::addRow("stat of no process")
        << QStringLiteral("cat /proc/1/stat 2>&1") << 1
        << QStringLiteral("cat: /proc/1/stat: No such file or directory\n") << QString();
    QTest::addRow("kill bad number") << QStringLiteral("kill x1") << 2 << QString()
                                     << QStringLiteral("sh: 1: kill: Illegal number: x1\n");
}

void TestSimScenario::shellSubset()
{
    QFETCH(QString, command);
    QFETCH(int, status);
    QFETCH(QString, out);
    QFETCH(QString, err);
    NodeTools tools(&m_world->machines);
    const auto r = tools.run("g4090-01", command.toStdString(), m_world->clock.nowMs());
    QCOMPARE(r.status, status);
    QCOMPARE(QString::fromStdString(r.out), out);
    QCOMPARE(QString::fromStdString(r.err), err);
}

QTEST_GUILESS_MAIN(TestSimScenario)
#include "tst_simscenario.moc"
