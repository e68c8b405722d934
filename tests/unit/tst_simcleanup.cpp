// SPDX-License-Identifier: GPL-3.0-or-later
// The demo's cleanup findings as /sim/truth lists them, and what the node shells and the API do
// to them: /proc/PID/stat, kill (TERM, KILL, D state, a live pod's container), force deletes;
// the MIG node's nvidia-smi; DCGM-exporter's metrics and history.
#include "nodetools.h"
#include "simworld.h"

#include <QRegularExpression>
#include <QTest>

using nlohmann::json;
using namespace sim;

class TestSimCleanup : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void findings();
    void procPidStat();
    void killOrphans();
    void uninterruptible();
    void killLivePod_data();
    void killLivePod();
    void cleanupFreesGpus();
    void migNvidiaSmi_data();
    void migNvidiaSmi();
    void migTruth();
    void dcgmMetrics();
    void dcgmHistory();

private:
    // The node and PIDs of the processes a finding lists.
    static std::pair<std::string, std::vector<int>> processesOf(const json &truth, const char *cls,
                                                                const char *pod);
    std::unique_ptr<SimWorld> m_world;
};

void TestSimCleanup::initTestCase()
{
    m_world = std::make_unique<SimWorld>();
}

std::pair<std::string, std::vector<int>>
TestSimCleanup::processesOf(const json &truth, const char *cls, const char *pod)
{
    for (const auto &f : truth["findings"]) {
        if (f["class"] == cls && f["pod"] == pod)
            return {f["node"].get<std::string>(), f["pids"].get<std::vector<int>>()};
    }
    return {};
}

void TestSimCleanup::findings()
{
    const QStringList expected{
        QStringLiteral("stuck-terminating g4090-03 user-liuyang/old-train 2"),
        QStringLiteral("on-notready-node g4090-10 user-erin/dev-erin 1"),
        QStringLiteral("on-notready-node g4090-10 user-lina/yolo-ddp-worker-0 2"),
        QStringLiteral("on-notready-node g4090-10 user-sunmin/llm-serve 4"),
        QStringLiteral("on-notready-node g4090-10 user-wangfang/mmdet-train 1"),
        QStringLiteral("finished-holding-gpus g4090-08 user-carol/distill-vit-evaluator-0 1"),
        // Crash-looping since its launch script's link leads nowhere: its card idle for hours.
        QStringLiteral("idle-gpus g4090-02 user-zhangwei/seg-train 1"),
        QStringLiteral("idle-gpus g4090-04 user-frank/idle-inference 4"),
        QStringLiteral("orphan-process g4090-04 user-zhangwei/bert-pretrain-worker-0 2"),
        QStringLiteral("uninterruptible-process g4090-09 user-sunmin/feature-cache-0 1"),
        QStringLiteral("phantom-memory a800-02 -/- 1"),
    };
    QCOMPARE(m_world->findings().join(u'\n'), expected.join(u'\n'));
    const json truth = m_world->sim.truth();
    for (const auto &f : truth["findings"]) {
        QVERIFY(f["since"].is_string());
        QVERIFY(!f["detail"].get<std::string>().empty());
        if (f["class"] == "idle-gpus") {
            // At 0 % since it started: seven hours ago; seg-train crash-loops since five.
            const qint64 since =
                QDateTime::fromString(QString::fromStdString(f["idleSince"]), Qt::ISODate)
                    .toMSecsSinceEpoch();
            const qint64 hours = f["pod"] == "seg-train" ? 5 : 7;
            QVERIFY(qAbs(m_world->clock.nowMs() - since - hours * 3600 * 1000LL) < 5 * 60 * 1000);
        }
    }
}

void TestSimCleanup::procPidStat()
{
    const json truth = m_world->sim.truth();
    const auto [node, pids] = processesOf(truth, "orphan-process", "bert-pretrain-worker-0");
    QCOMPARE(pids.size(), size_t(2));
    NodeTools tools(&m_world->machines);
    const qint64 now = m_world->clock.nowMs();
    const auto stat = tools.run(node, "cat /proc/" + std::to_string(pids[0]) + "/stat", now);
    QCOMPARE(stat.status, 0);
    const QStringList f = QString::fromStdString(stat.out).trimmed().split(u' ');
    QCOMPARE(f.size(), 52); // Linux 5.x
    QCOMPARE(f[0].toInt(), pids[0]);
    QCOMPARE(f[1], QStringLiteral("(python)"));
    QCOMPARE(f[2], QStringLiteral("S"));
    QCOMPARE(f[3], QStringLiteral("1")); // its parent went with the pod: init adopted it
    // starttime (field 22) is in clock ticks since boot: it started 30 hours ago.
    const double uptime = QString::fromStdString(tools.run(node, "cat /proc/uptime", now).out)
                              .section(u' ', 0, 0)
                              .toDouble();
    const double age = uptime - f[21].toDouble() / 100.0;
    QVERIFY2(qAbs(age - 30 * 3600) < 120, qPrintable(QString::number(age)));
    // The TERM-deaf one has SIGTERM in SigIgn (field 34 sigignore), the other catches it.
    const auto deaf = tools.run(node, "cat /proc/" + std::to_string(pids[1]) + "/stat", now);
    const QStringList g = QString::fromStdString(deaf.out).trimmed().split(u' ');
    const quint64 term = 1ULL << 14;
    QVERIFY(bool(f[32].toULongLong() & term) != bool(g[32].toULongLong() & term));
}

void TestSimCleanup::killOrphans()
{
    SimWorld w;
    const json truth = w.sim.truth();
    const auto [node, pids] = processesOf(truth, "orphan-process", "bert-pretrain-worker-0");
    NodeTools tools(&w.machines);
    const qint64 now = w.clock.nowMs();
    auto listed = [&] {
        return QString::fromStdString(
            tools.run(node, "nvidia-smi --query-compute-apps=pid --format=csv,noheader", now).out);
    };
    // TERM: one ends at once, the one that traps TERM stays.
    for (int pid : pids)
        QCOMPARE(tools.run(node, "kill -s TERM " + std::to_string(pid), now).status, 0);
    int left = 0;
    for (int pid : pids)
        left += listed().contains(QString::number(pid)) ? 1 : 0;
    QCOMPARE(left, 1);
    // KILL ends it; a second kill finds no such process, as dash says it.
    for (int pid : pids)
        tools.run(node, "kill -9 " + std::to_string(pid), now);
    for (int pid : pids)
        QVERIFY(!listed().contains(QString::number(pid)));
    const auto again = tools.run(node, "kill -9 " + std::to_string(pids[0]), now);
    QCOMPARE(again.status, 1);
    QCOMPARE(QString::fromStdString(again.err), QStringLiteral("sh: 1: kill: No such process\n\n"));
    QVERIFY(!w.findings().join(u'\n').contains(QLatin1String("orphan-process")));
}

void TestSimCleanup::uninterruptible()
{
    SimWorld w;
    const auto [node, pids] =
        processesOf(w.sim.truth(), "uninterruptible-process", "feature-cache-0");
    QCOMPARE(node, std::string("g4090-09"));
    QCOMPARE(pids.size(), size_t(1));
    NodeTools tools(&w.machines);
    const qint64 now = w.clock.nowMs();
    const std::string pid = std::to_string(pids[0]);
    QCOMPARE(tools.run(node, "kill -TERM " + pid, now).status, 0);
    QCOMPARE(tools.run(node, "kill -s KILL " + pid, now).status, 0); // delivered, pending
    const auto stat = tools.run(node, "cat /proc/" + pid + "/stat", now);
    QCOMPARE(QString::fromStdString(stat.out).section(u' ', 2, 2), QStringLiteral("D"));
    w.run(3);
    QVERIFY(w.findings().join(u'\n').contains(
        QLatin1String("uninterruptible-process g4090-09 user-sunmin/feature-cache-0 1")));
    // Listed under its own class only, not as an orphan.
    QVERIFY(!w.findings().join(u'\n').contains(QLatin1String("orphan-process g4090-09")));
}

void TestSimCleanup::killLivePod_data()
{
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("pod");
    QTest::addColumn<QString>("signal");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<bool>("restarts");
    // restartPolicy Always: the kubelet starts it again; Never: the pod fails.
    QTest::addRow("dev env, TERM") << QStringLiteral("user-alice") << QStringLiteral("dev-alice")
                                   << QStringLiteral("-s TERM") << 143 << true;
    QTest::addRow("bare pod, KILL")
        << QStringLiteral("user-frank") << QStringLiteral("idle-inference") << QStringLiteral("-9")
        << 137 << false;
}

void TestSimCleanup::killLivePod()
{
    QFETCH(QString, ns);
    QFETCH(QString, pod);
    QFETCH(QString, signal);
    QFETCH(int, exitCode);
    QFETCH(bool, restarts);
    SimWorld w;
    const json before = w.get(w.sim.pods(), ns.toLatin1().constData(), pod.toLatin1().constData());
    const std::string uid = before["metadata"]["uid"];
    const std::string node = before["spec"]["nodeName"];
    auto pidsOf = [&] {
        std::vector<int> out;
        const auto machine = w.machines.snapshot(node);
        for (const auto &p : machine->processes)
            if (p.podUid == uid)
                out.push_back(p.pid);
        return out;
    };
    const auto pids = pidsOf();
    QVERIFY(!pids.empty());
    NodeTools tools(&w.machines);
    QCOMPARE(tools
                 .run(node, "kill " + signal.toStdString() + " " + std::to_string(pids[0]),
                      w.clock.nowMs())
                 .status,
             0);
    QVERIFY(pidsOf().empty()); // the container's processes end with it
    w.sim.handleContainerExits();
    const json after = w.get(w.sim.pods(), ns.toLatin1().constData(), pod.toLatin1().constData());
    const json &cs = after["status"]["containerStatuses"][0];
    if (restarts) {
        QCOMPARE(cs["restartCount"].get<int>(), 1);
        QCOMPARE(cs["lastState"]["terminated"]["exitCode"].get<int>(), exitCode);
        QVERIFY(cs["state"].contains("running"));
        const auto again = pidsOf();
        QVERIFY(!again.empty());
        QVERIFY(again[0] != pids[0]); // a new process
    } else {
        QCOMPARE(cs["state"]["terminated"]["exitCode"].get<int>(), exitCode);
        QCOMPARE(after["status"]["phase"].get<std::string>(), std::string("Failed"));
        w.run(1);
        QVERIFY(pidsOf().empty());
    }
}

void TestSimCleanup::cleanupFreesGpus()
{
    // What gpudesk's cleanup does: TERM then KILL the orphans, force-delete the pod the node no
    // longer runs, delete the idle pod; then the truth shows their GPUs free.
    SimWorld w;
    const json truth = w.sim.truth();
    const auto [orphanNode, orphanPids] =
        processesOf(truth, "orphan-process", "bert-pretrain-worker-0");
    NodeTools tools(&w.machines);
    for (const char *sig : {"TERM", "KILL"})
        for (int pid : orphanPids)
            tools.run(orphanNode, std::string("kill -s ") + sig + " " + std::to_string(pid),
                      w.clock.nowMs());
    const json stuck = w.get(w.sim.pods(), "user-liuyang", "old-train");
    DeleteOptions force;
    force.gracePeriodSeconds = 0;
    force.preconditionUid = QString::fromStdString(stuck["metadata"]["uid"].get<std::string>());
    QVERIFY(w.store
                .requestDelete(w.sim.pods(), QStringLiteral("user-liuyang"),
                               QStringLiteral("old-train"), force)
                .ok());
    const json idle = w.get(w.sim.pods(), "user-frank", "idle-inference");
    DeleteOptions graceful;
    graceful.preconditionUid = QString::fromStdString(idle["metadata"]["uid"].get<std::string>());
    QVERIFY(w.store
                .requestDelete(w.sim.pods(), QStringLiteral("user-frank"),
                               QStringLiteral("idle-inference"), graceful)
                .ok());
    w.run(5); // the idle pod's container stops, then its kubelet removes it
    const QString after = w.findings().join(u'\n');
    QVERIFY2(!after.contains(QLatin1String("orphan-process")), qPrintable(after));
    QVERIFY2(!after.contains(QLatin1String("stuck-terminating")), qPrintable(after));
    QVERIFY2(!after.contains(QLatin1String("idle-inference")), qPrintable(after));
    const json now = w.sim.truth();
    QCOMPARE(now["gpus"]["allocated"].get<int>(), truth["gpus"]["allocated"].get<int>() - 6);
    const std::set<std::string> freedPods{stuck["metadata"]["uid"], idle["metadata"]["uid"]};
    for (const auto &n : now["nodes"]) {
        if (n["name"] != "g4090-03" && n["name"] != "g4090-04")
            continue;
        for (const auto &c : n["cards"]) {
            if (!c["allocatedTo"].is_null())
                continue;
            QVERIFY2(c["processes"].empty(), c.dump().c_str());
            QVERIFY2(c["memoryUsedMiB"].get<int>() < 100, c.dump().c_str());
        }
    }
}

void TestSimCleanup::migNvidiaSmi_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("pattern"); // every line matches
    QTest::addRow("list") << QStringLiteral("nvidia-smi -L")
                          << QStringLiteral(
                                 "^(GPU \\d: NVIDIA A100-SXM4-80GB \\(UUID: GPU-[0-9a-f-]{36}\\)|"
                                 "  MIG (3g\\.40gb|2g\\.20gb|1g\\.10gb)     Device  \\d: "
                                 "\\(UUID: MIG-[0-9a-f-]{36}\\))$");
    QTest::addRow("mig cards report no utilization")
        << QStringLiteral("nvidia-smi --query-gpu=index,utilization.gpu,utilization.memory,"
                          "mig.mode.current --format=csv,noheader,nounits")
        << QStringLiteral("^([0-3], \\[N/A\\], \\[N/A\\], Enabled|[4-7], \\d+, \\d+, Disabled)$");
    QTest::addRow("apps on the parent card")
        << QStringLiteral("nvidia-smi --query-compute-apps=gpu_uuid,pid,used_memory,process_name "
                          "--format=csv,noheader,nounits")
        << QStringLiteral("^GPU-[0-9a-f-]{36}, \\d+, \\d+, \\S+$");
}

void TestSimCleanup::migNvidiaSmi()
{
    QFETCH(QString, command);
    QFETCH(QString, pattern);
    NodeTools tools(&m_world->machines);
    const auto out = tools.run("a100-01", command.toStdString(), m_world->clock.nowMs());
    QCOMPARE(out.status, 0);
    const QRegularExpression re(pattern);
    const QStringList lines = QString::fromStdString(out.out).split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty());
    for (const QString &l : lines)
        QVERIFY2(re.match(l).hasMatch(), qPrintable(l));
    if (command.endsWith(QLatin1String("-L")))
        QCOMPARE(lines.size(), 8 + 4 * 4);
}

void TestSimCleanup::migTruth()
{
    const json truth = m_world->sim.truth();
    for (const auto &n : truth["nodes"]) {
        if (n["name"] != "a100-01")
            continue;
        QCOMPARE(n["migAllocatable"].dump(),
                 std::string(R"({"1g.10gb":8,"2g.20gb":4,"3g.40gb":4})"));
        QCOMPARE(n["migAllocated"].dump(), std::string(R"({"1g.10gb":1,"2g.20gb":1,"3g.40gb":1})"));
        QCOMPARE(n["gpus"]["total"].get<int>(), 4);
        const json &c0 = n["cards"][0];
        QCOMPARE(c0["migMode"].get<std::string>(), std::string("Enabled"));
        QCOMPARE(c0["migDevices"].size(), size_t(4));
        std::string layout;
        for (const auto &d : c0["migDevices"])
            layout += d["profile"].get<std::string>() + ":" + std::to_string(d["gi"].get<int>()) +
                      ":" + std::to_string(d["memoryMiB"].get<int>()) + " ";
        QCOMPARE(layout, std::string("3g.40gb:1:40192 2g.20gb:5:19968 1g.10gb:13:9728 "
                                     "1g.10gb:14:9728 "));
        // Each MIG pod's process runs in its own instance, named in -q -x.
        int busyInstances = 0;
        for (const auto &d : c0["migDevices"])
            busyInstances += d["processes"].empty() ? 0 : 1;
        QCOMPARE(busyInstances, 3);
        QCOMPARE(n["cards"][4]["migMode"].get<std::string>(), std::string("Disabled"));
        NodeTools tools(&m_world->machines);
        const std::string xml =
            tools.run("a100-01", "nvidia-smi -q -x", m_world->clock.nowMs()).out;
        QVERIFY(xml.find("<gpu_instance_id>13</gpu_instance_id>") != std::string::npos);
        QVERIFY(xml.find("<current_mig>Enabled</current_mig>") != std::string::npos);
        return;
    }
    QFAIL("no a100-01 in the truth");
}

void TestSimCleanup::dcgmMetrics()
{
    const QString text = QString::fromStdString(m_world->sim.dcgmMetrics());
    for (const char *family : {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED",
                               "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE"})
        QCOMPARE(text.count(QStringLiteral("# TYPE %1 gauge\n").arg(QLatin1String(family))), 1);
    // dcgm-exporter 3.x's labels, in its order; pod attributes where a pod holds the card.
    static const QRegularExpression idle(
        QStringLiteral(
            "^DCGM_FI_DEV_GPU_UTIL\\{gpu=\"\\d\",UUID=\"GPU-[0-9a-f-]{36}\",device=\"nvidia\\d\","
            "modelName=\"NVIDIA GeForce RTX 4090\",Hostname=\"g4090-\\d\\d\","
            "DCGM_FI_DRIVER_VERSION=\"550.54.15\",container=\"pytorch\",namespace=\"user-frank\","
            "pod=\"idle-inference\"\\} 0$"),
        QRegularExpression::MultilineOption);
    int idleCards = 0;
    for (auto it = idle.globalMatch(text); it.hasNext(); it.next())
        ++idleCards;
    QCOMPARE(idleCards, 4);
    QVERIFY(text.contains(
        QLatin1String(",GPU_I_PROFILE=\"3g.40gb\",GPU_I_ID=\"1\",Hostname=\"a100-01\"")));
    QVERIFY(text.contains(QLatin1String("container=\"\",namespace=\"\",pod=\"\"} ")));
}

void TestSimCleanup::dcgmHistory()
{
    const qint64 end = m_world->clock.nowSecs();
    const qint64 start = end - 7 * 3600 + 600;
    auto produce = m_world->sim.dcgmHistory(start, end, 300);
    QByteArray all;
    for (QByteArray piece = produce(); !piece.isEmpty(); piece = produce())
        all += piece;
    QVERIFY(all.endsWith("# EOF\n"));
    QCOMPARE(all.count("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"), 1);
    int idleSamples = 0, busySamples = 0;
    for (const QByteArray &line : all.split('\n')) {
        if (!line.startsWith("DCGM_FI_DEV_GPU_UTIL{"))
            continue;
        // Labels hold spaces (the model's name): value and timestamp follow the last brace.
        const QList<QByteArray> parts = line.mid(line.lastIndexOf('}') + 1).trimmed().split(' ');
        QCOMPARE(parts.size(), 2);
        const qint64 t = parts[1].toLongLong();
        QVERIFY(t >= start && t <= end);
        if (line.contains("pod=\"idle-inference\"")) {
            QCOMPARE(parts[0], QByteArray("0"));
            ++idleSamples;
        } else if (line.contains("pod=\"vit-large-trainer-0\"")) {
            QVERIFY2(parts[0].toInt() > 50, line.constData());
            ++busySamples;
        }
    }
    const int samples = int((end - start) / 300) + 1;
    QCOMPARE(idleSamples, 4 * samples);
    QCOMPARE(busySamples, 8 * samples);
}

QTEST_GUILESS_MAIN(TestSimCleanup)
#include "tst_simcleanup.moc"
