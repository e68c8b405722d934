// SPDX-License-Identifier: GPL-3.0-or-later
// The probe's command templates and its answer: sections split, GPUs, processes and /proc
// parsed, CPU use from two samples, cgroups joined once per PID, exited processes dropped, a
// CPU node, a cut-off answer; shell quoting and jump-host validation; the node's cgroup layout
// and each pod's own CPU and memory from its cgroup files (v1 and v2, systemd and cgroupfs).
#include "nodecommands.h"
#include "nodeprobe.h"
#include "testpaths.h"

#include <QFile>
#include <QTest>

using namespace gpudesk;

namespace {

QByteArray data(const QString &name)
{
    QFile f(TestPaths::testData(u"/probe/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestNodeProbe : public QObject
{
    Q_OBJECT
private slots:
    void shellQuote_data();
    void shellQuote();
    void cgroupCommandOnlyNumbers();
    void pidStat();
    void proxyJumpValidated();
    void gpuNode();
    void cpuNode();
    void migNode();
    void cutOff();
    void cgroupsReadOncePerPid();
    void podUsageCommandPaths();
    void podUsageFromSimulator_data();
    void podUsageFromSimulator();
    void podUsageBrokenAnswers();
};

void TestNodeProbe::shellQuote_data()
{
    QTest::addColumn<QByteArray>("word");
    QTest::addColumn<QByteArray>("quoted");
    QTest::addRow("plain") << QByteArray("abc") << QByteArray("'abc'");
    QTest::addRow("space") << QByteArray("a b") << QByteArray("'a b'");
    QTest::addRow("quote") << QByteArray("it's") << QByteArray("'it'\\''s'");
    QTest::addRow("substitution") << QByteArray("$(rm -rf /)") << QByteArray("'$(rm -rf /)'");
    QTest::addRow("empty") << QByteArray() << QByteArray("''");
}

void TestNodeProbe::shellQuote()
{
    QFETCH(QByteArray, word);
    QFETCH(QByteArray, quoted);
    QCOMPARE(nodecmd::shellQuote(word), quoted);
}

void TestNodeProbe::cgroupCommandOnlyNumbers()
{
    QCOMPARE(nodecmd::cgroupCommand({42, -1, 0, 7}),
             QByteArray("echo @@gpudesk pid 42; cat '/proc/42/cgroup' 2>&1; "
                        "echo @@gpudesk pidstat 42; cat '/proc/42/stat' 2>&1; "
                        "echo @@gpudesk pid 7; cat '/proc/7/cgroup' 2>&1; "
                        "echo @@gpudesk pidstat 7; cat '/proc/7/stat' 2>&1; "));
    QVERIFY(nodecmd::cgroupCommand({}).isEmpty());
    QCOMPARE(nodecmd::pidStatCommand({-3, 4242}),
             QByteArray("echo @@gpudesk pidstat 4242; cat '/proc/4242/stat' 2>&1; "));
    // Signals: a fixed word and a positive number above init, nothing else.
    QCOMPARE(nodecmd::signalCommand(4242, nodecmd::Signal::Term),
             QByteArray("kill -s TERM 4242 2>&1"));
    QCOMPARE(nodecmd::signalCommand(4242, nodecmd::Signal::Kill),
             QByteArray("kill -s KILL 4242 2>&1"));
    QVERIFY(nodecmd::signalCommand(1, nodecmd::Signal::Kill).isEmpty());
    QVERIFY(nodecmd::signalCommand(0, nodecmd::Signal::Kill).isEmpty());
    QVERIFY(nodecmd::signalCommand(-1, nodecmd::Signal::Kill).isEmpty());
    const QByteArray check = nodecmd::processCheckCommand(4242, true);
    QVERIFY(check.startsWith("echo @@gpudesk pidstat 4242; cat '/proc/4242/stat' 2>&1; "));
    QVERIFY(check.contains("echo @@gpudesk pid 4242; cat '/proc/4242/cgroup' 2>&1; "));
    QVERIFY(check.contains("--query-compute-apps=gpu_uuid,pid,used_memory,process_name"));
    QVERIFY(check.endsWith("echo @@gpudesk end; "));
    QVERIFY(nodecmd::processCheckCommand(0, true).isEmpty());
}

void TestNodeProbe::pidStat()
{
    // A command name with spaces and parentheses, as /proc prints it.
    const auto st = probe::parsePidStat(
        "4242 (python (train) x) D 1 4242 4242 0 -1 4194560 84513 0 12 0 9011 411 0 0 20 0 37 0 "
        "8123456 23456789504 1234567 18446744073709551615 1 1 0 0 0 0 0 16781312 17642 0 0 0 17 "
        "3 0 0 0 0 0\n");
    QVERIFY(st);
    QCOMPARE(st->pid, 4242);
    QCOMPARE(st->state, 'D');
    QCOMPARE(st->startTicks, 8123456);
    QVERIFY(!probe::parsePidStat("cat: /proc/4242/stat: No such file or directory\n"));
    QVERIFY(!probe::parsePidStat("4242 (cut) S 1 2"));
    QVERIFY(!probe::parsePidStat(""));

    // The probe reads the state of the processes the last sample listed, and the cgroup read
    // of a new process brings its stat along.
    NodeProbe probe(QStringLiteral("g4090-04"));
    NodeSample s = probe.parseProbe(data(QStringLiteral("probe-sim-g4090.txt")), 1000);
    QVERIFY(!probe.command({}).contains("pidstat"));
    probe.applyCgroups("@@gpudesk pid 112292\n"
                       "12:pids:/kubepods/podbb0c57a4-1b1b-4e8a-b964-caa927b32a66/"
                       "04d8b2ff88f804b4da2826a969cbd39894635bfff10ee2a17943b85121d72f5a\n"
                       "@@gpudesk pidstat 112292\n"
                       "112292 (python) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 777 19\n",
                       &s);
    QCOMPARE(s.processes[0].pid, 112292);
    QCOMPARE(s.processes[0].state, 'S');
    QCOMPARE(s.processes[0].startTicks, 777);
    QCOMPARE(s.processes[1].state, char(0)); // not read: unknown, not "running"
    const QByteArray next = probe.command({});
    QVERIFY(next.contains("echo @@gpudesk pidstat 112292; cat '/proc/112292/stat' 2>&1; "));
    QVERIFY(next.indexOf("pidstat") < next.indexOf("@@gpudesk end"));
    // That answer: the same process now in D state.
    QByteArray answer = data(QStringLiteral("probe-sim-g4090.txt"));
    answer.replace("@@gpudesk end",
                   "@@gpudesk pidstat 112292\n"
                   "112292 (python) D 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 777 19\n"
                   "@@gpudesk end");
    NodeSample s2 = probe.parseProbe(answer, 3000);
    probe.applyCgroups(QByteArray(), &s2);
    QCOMPARE(s2.processes[0].state, 'D');
    QCOMPARE(s2.processes[0].startTicks, 777);
}

void TestNodeProbe::proxyJumpValidated()
{
    QString error;
    QCOMPARE(nodecmd::proxyJumpCommand(QStringLiteral("ops@bastion:2200"),
                                       QStringLiteral("10.0.0.5"), 22,
                                       QStringLiteral("/home/me/.ssh/config"), &error),
             QByteArray("exec ssh -o BatchMode=yes -F '/home/me/.ssh/config' -W '[10.0.0.5]:22' "
                        "'ops@bastion:2200'"));
    QCOMPARE(nodecmd::proxyJumpCommand(QStringLiteral("a,b@c"), QStringLiteral("n1"), 2222,
                                       QString(), &error),
             QByteArray("exec ssh -o BatchMode=yes -J 'a' -W '[n1]:2222' 'b@c'"));
    QVERIFY(nodecmd::proxyJumpCommand(QStringLiteral("evil;reboot"), QStringLiteral("n1"), 22,
                                      QString(), &error)
                .isEmpty());
    QVERIFY(error.contains(QLatin1String("evil;reboot")));
    QVERIFY(nodecmd::proxyJumpCommand(QStringLiteral("ok"), QStringLiteral("n1 x"), 22, QString(),
                                      &error)
                .isEmpty());
}

void TestNodeProbe::gpuNode()
{
    // Recorded from the simulator's g4090-04 (the node with the planted orphan processes).
    NodeProbe probe(QStringLiteral("g4090-04"));
    NodeSample s = probe.parseProbe(data(QStringLiteral("probe-sim-g4090.txt")), 1000);
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(s.gpuState, NvidiaSmiResult<GpuCardSample>::Ok);
    QCOMPARE(s.cards.size(), 8);
    QCOMPARE(s.cards[1].uuid, QStringLiteral("GPU-6ebd9622-fbb9-78b8-cd7f-807110740758"));
    QCOMPARE(s.cards[1].utilization, 91);
    QCOMPARE(s.cards[1].memoryUsedMiB, 24564);
    QVERIFY(!s.cards[1].eccUncorrected.has_value()); // [N/A] on GeForce cards
    QCOMPARE(s.processes.size(), 9);
    QCOMPARE(s.processes[0].pid, 112292);
    QCOMPARE(s.processes[0].cardIndex, 1); // joined by uuid
    QCOMPARE(s.processes[0].memoryMiB, 21125);
    QVERIFY(!s.cpuPercent.has_value()); // needs a second sample
    QCOMPARE(s.cpuCount, 64);
    QVERIFY(s.memory && s.memory->totalKiB == 536870912);
    QVERIFY(s.load && s.load->one > 0);
    QCOMPARE(s.disks.size(), 2); // "/" once, though df was asked for two paths on it
    QCOMPARE(s.disks[1].mountPoint, QStringLiteral("/var/lib/docker"));
    QCOMPARE(s.disks[1].percent, 55);

    // The PIDs needing a cgroup are all of them, the first time.
    QCOMPARE(probe.unknownPids(s).size(), 9);

    // A later sample 10 s on: CPU use is the busy share of the /proc/stat difference.
    QByteArray later = data(QStringLiteral("probe-sim-g4090.txt"));
    const qsizetype at = later.indexOf("\ncpu  ") + 1;
    const qsizetype eol = later.indexOf('\n', at);
    // user +360, system +0, idle +360 ticks: 50 % busy.
    QList<QByteArray> f = later.mid(at, eol - at).simplified().split(' ');
    f[1] = QByteArray::number(f[1].toULongLong() + 360);
    f[4] = QByteArray::number(f[4].toULongLong() + 360);
    later.replace(at, eol - at, f.join(' '));
    s = probe.parseProbe(later, 11000);
    QVERIFY(s.cpuPercent.has_value());
    QCOMPARE(qRound(*s.cpuPercent), 50);
}

void TestNodeProbe::migNode()
{
    // A node with cards in MIG mode: the first sample finds the mode, the next asks for the
    // instances (nvidia-smi -L and -q -x) and places each process in its instance.
    NodeProbe probe(QStringLiteral("a100-01"));
    auto answer = [&](bool withMig) {
        QByteArray out = "@@gpudesk gpus\n" + data(QStringLiteral("gpus-a100-mig.csv")) +
                         "@@gpudesk apps\n" + data(QStringLiteral("apps-a100-mig.csv"));
        if (withMig)
            out += "@@gpudesk miglist\n" + data(QStringLiteral("list-a100-mig.txt")) +
                   "@@gpudesk migxml\n" + data(QStringLiteral("q-a100-mig.xml"));
        out += "@@gpudesk end\n";
        return out; // not `out + …`: a string builder would outlive `out`
    };
    QVERIFY(!probe.command({}).contains("nvidia-smi -q -x"));
    QVERIFY(probe.command({}).contains(",mig.mode.current "));
    NodeSample first = probe.parseProbe(answer(false), 1000);
    QVERIFY(first.ok());
    QVERIFY(first.hasMig());
    QVERIFY(first.migDevices.isEmpty());
    QVERIFY(probe.command({}).contains("nvidia-smi -L 2>&1; "));
    QVERIFY(probe.command({}).contains("nvidia-smi -q -x 2>&1; "));
    const NodeSample s = probe.parseProbe(answer(true), 3000);
    QCOMPARE(s.migDevices.size(), 6);
    const MigDeviceSample &d = s.migDevices[1];
    QCOMPARE(d.profile, QStringLiteral("2g.20gb"));
    QCOMPARE(d.gpuInstanceId, 5);
    QCOMPARE(d.memoryUsedMiB, std::optional<qint64>(3812));
    QCOMPARE(d.uuid, QStringLiteral("MIG-08bce7f3-bac7-4715-b56f-91541f15fe37"));
    QHash<qint64, std::pair<int, int>> placed;
    for (const NodeProcess &p : s.processes)
        placed.insert(p.pid, {p.cardIndex, p.migDevice});
    QCOMPARE(placed.value(239709), (std::pair<int, int>{0, 0}));  // GI 1 → device 0 (3g.40gb)
    QCOMPARE(placed.value(239811), (std::pair<int, int>{0, 1}));  // GI 5 → device 1 (2g.20gb)
    QCOMPARE(placed.value(240117), (std::pair<int, int>{2, -1})); // a whole card
    // A driver older than MIG refuses the field: asked again without it, the node not broken.
    NodeProbe old(QStringLiteral("v100-01"));
    const NodeSample refused = old.parseProbe(
        "@@gpudesk gpus\nField \"mig.mode.current\" is not a valid field to query.\n\n"
        "@@gpudesk failed\n@@gpudesk end\n",
        1000);
    QVERIFY(refused.gpuMessage.contains(QLatin1String("without mig.mode.current")));
    QVERIFY(!old.command({}).contains("mig.mode.current"));
}

void TestNodeProbe::cpuNode()
{
    NodeProbe probe(QStringLiteral("cpu-01"));
    const NodeSample s = probe.parseProbe(data(QStringLiteral("probe-sim-cpu.txt")), 1000);
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(s.gpuState, NvidiaSmiResult<GpuCardSample>::NoNvidiaSmi);
    QVERIFY(s.cards.isEmpty());
    QVERIFY(s.processes.isEmpty());
    QVERIFY(s.memory.has_value());
    QVERIFY(s.cpuCount > 0);
}

void TestNodeProbe::cutOff()
{
    const QByteArray full = data(QStringLiteral("probe-sim-g4090.txt"));
    NodeProbe probe(QStringLiteral("g4090-04"));
    const NodeSample s = probe.parseProbe(full.left(full.indexOf("@@gpudesk stat") + 40), 1000);
    QVERIFY(!s.ok());
    QVERIFY(s.error.contains(QLatin1String("cut off")));
    const NodeSample empty = probe.parseProbe(QByteArray("garbage\n\x01\x02"), 1000);
    QVERIFY(!empty.ok());
}

void TestNodeProbe::cgroupsReadOncePerPid()
{
    NodeProbe probe(QStringLiteral("g4090-04"));
    NodeSample s = probe.parseProbe(data(QStringLiteral("probe-sim-g4090.txt")), 1000);
    // The orphan (its pod was deleted; the cgroup still names it), a live pod's process, one
    // that exited between the two commands, and the rest never answered (left unknown).
    const QByteArray cgroups =
        "@@gpudesk pid 112292\n"
        "12:pids:/kubepods/podbb0c57a4-1b1b-4e8a-b964-caa927b32a66/"
        "04d8b2ff88f804b4da2826a969cbd39894635bfff10ee2a17943b85121d72f5a\n"
        "@@gpudesk pid 398412\n"
        "0::/kubepods.slice/kubepods-besteffort.slice/"
        "kubepods-besteffort-pod5c9fb486_f8df_46db_a1ed_29730eba3c23.slice/"
        "cri-containerd-e63e265675a8006cab2647464a1b495c66619c0df9de8d9901e16f00589d7982.scope\n"
        "@@gpudesk pid 112299\n"
        "cat: /proc/112299/cgroup: No such file or directory\n";
    probe.applyCgroups(cgroups, &s);
    QCOMPARE(s.exitedProcesses, 1);
    QCOMPARE(s.processes.size(), 8);
    QCOMPARE(s.processes[0].owner.podUid, QStringLiteral("bb0c57a4-1b1b-4e8a-b964-caa927b32a66"));
    QCOMPARE(s.processes[0].owner.runtime, QString());
    const NodeProcess &live = s.processes[1];
    QCOMPARE(live.pid, 398412);
    QCOMPARE(live.owner.podUid, QStringLiteral("5c9fb486-f8df-46db-a1ed-29730eba3c23"));
    QCOMPARE(live.owner.runtime, QStringLiteral("containerd"));

    // Next sample: only the PIDs not read yet are asked for.
    NodeSample next = probe.parseProbe(data(QStringLiteral("probe-sim-g4090.txt")), 3000);
    const QList<qint64> unknown = probe.unknownPids(next);
    QVERIFY(!unknown.contains(112292));
    QVERIFY(!unknown.contains(398412));
    QVERIFY(unknown.contains(112299)); // listed again by nvidia-smi, so asked again
    QCOMPARE(unknown.size(), 7);
    probe.applyCgroups(QByteArray(), &next);
    QCOMPARE(next.processes[0].owner.podUid,
             QStringLiteral("bb0c57a4-1b1b-4e8a-b964-caa927b32a66")); // remembered
}

void TestNodeProbe::podUsageCommandPaths()
{
    using nodecmd::PodRef;
    const QString uid = QStringLiteral("80b22dfd-1a0f-4f64-9ca0-d14873ae8048");
    const QByteArray v2 = nodecmd::podUsageCommand(CgroupLayout::V2Systemd,
                                                   {PodRef{uid, QStringLiteral("Burstable")}});
    const QByteArray dir = "/sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/"
                           "kubepods-burstable-pod80b22dfd_1a0f_4f64_9ca0_d14873ae8048.slice/";
    QCOMPARE(v2, "echo @@gpudesk pod 80b22dfd-1a0f-4f64-9ca0-d14873ae8048; cat '" + dir +
                     "cpu.stat' '" + dir + "memory.current' '" + dir + "memory.stat' 2>&1; ");
    const QByteArray v1 = nodecmd::podUsageCommand(
        CgroupLayout::V1Cgroupfs,
        {PodRef{uid, QStringLiteral("Guaranteed")}, PodRef{uid, QStringLiteral("BestEffort")}});
    QVERIFY(v1.contains(QByteArray("'/sys/fs/cgroup/cpu,cpuacct/kubepods/pod" + uid.toLatin1() +
                                   "/cpuacct.usage'")));
    QVERIFY(v1.contains(QByteArray("'/sys/fs/cgroup/memory/kubepods/besteffort/pod" +
                                   uid.toLatin1() + "/memory.usage_in_bytes'")));
    // Nothing but a uid's characters and the three QoS classes reach the command.
    QVERIFY(nodecmd::podUsageCommand(
                CgroupLayout::V2Systemd,
                {PodRef{QStringLiteral("x'; rm -rf /; '"), QStringLiteral("Guaranteed")},
                 PodRef{uid, QStringLiteral("Guaranteed'; reboot")}})
                .isEmpty());
    QVERIFY(
        nodecmd::podUsageCommand(CgroupLayout::Unknown, {PodRef{uid, QStringLiteral("Guaranteed")}})
            .isEmpty());
    // Until the layout is known, a sample asks for it instead of the pods.
    NodeProbe probe(QStringLiteral("n"));
    const QByteArray first = probe.command({PodRef{uid, QStringLiteral("Guaranteed")}});
    QVERIFY(first.contains("layout v1-cgroupfs"));
    QVERIFY(!first.contains(QByteArray("pod " + uid.toLatin1())));
}

void TestNodeProbe::podUsageFromSimulator_data()
{
    // Two answers of the simulator's nodes 120 node-seconds apart (its clock ran at 60x), and
    // what /sim/truth said of each pod then: CPU cores and working set in MiB.
    QTest::addColumn<QString>("layoutName");
    QTest::addColumn<int>("layout");
    QTest::addColumn<QStringList>("uids");
    QTest::addColumn<QList<double>>("cores");
    QTest::addColumn<QList<qint64>>("workingSetMiB");
    QTest::addRow("v2 systemd")
        << QStringLiteral("v2-systemd") << int(CgroupLayout::V2Systemd)
        << QStringList{QStringLiteral("4fee8aab-67ae-4387-8ca0-dbdb58dbcfa5"),
                       QStringLiteral("8b6c7677-280d-491e-9c0c-fd53c9ef7ccd")}
        << QList<double>{14.4, 14.4} << QList<qint64>{137625, 137625};
    QTest::addRow("v1 cgroupfs")
        << QStringLiteral("v1-cgroupfs") << int(CgroupLayout::V1Cgroupfs)
        << QStringList{QStringLiteral("80b22dfd-1a0f-4f64-9ca0-d14873ae8048"),
                       QStringLiteral("a2c5d2d4-5d7b-40f4-8752-6b810a007a15"),
                       QStringLiteral("d0b3a164-fa0c-4a16-bf12-8bb75adffb24")}
        << QList<double>{0.2, 23.52, 7.2} << QList<qint64>{34406, 137625, 68812};
    QTest::addRow("v1 systemd")
        << QStringLiteral("v1-systemd") << int(CgroupLayout::V1Systemd)
        << QStringList{QStringLiteral("49b3e38a-9b1e-4232-a3e4-e05b88729d31"),
                       QStringLiteral("b01ff349-f5ad-45b5-b647-8546d6050af6"),
                       QStringLiteral("f47b12e0-8042-4789-8ecb-094c80143f78")}
        << QList<double>{7.2, 14.4, 0.2} << QList<qint64>{68812, 137625, 68812};
}

void TestNodeProbe::podUsageFromSimulator()
{
    QFETCH(QString, layoutName);
    QFETCH(int, layout);
    QFETCH(QStringList, uids);
    QFETCH(QList<double>, cores);
    QFETCH(QList<qint64>, workingSetMiB);
    NodeProbe probe(QStringLiteral("n"));
    // The layout answer: the first existing marker file wins, cat's complaints do not.
    const NodeSample l =
        probe.parseProbe(data(QStringLiteral("layout-sim-%1.txt").arg(layoutName)), 1000);
    QCOMPARE(int(l.cgroupLayout), layout);
    const QByteArray cmd = probe.command({nodecmd::PodRef{uids[0], QStringLiteral("Guaranteed")}});
    QVERIFY(cmd.contains(QByteArray("pod " + uids[0].toLatin1())));
    QVERIFY(!cmd.contains("layout "));

    const NodeSample a =
        probe.parseProbe(data(QStringLiteral("pods-sim-%1-1.txt").arg(layoutName)), 3000);
    QVERIFY(a.ok());
    QCOMPARE(a.pods.size(), uids.size());
    for (const PodUsage &u : a.pods)
        QVERIFY2(!u.cpuCores, "no rate from a single sample");
    const NodeSample b =
        probe.parseProbe(data(QStringLiteral("pods-sim-%1-2.txt").arg(layoutName)), 5000);
    QCOMPARE(b.pods.size(), uids.size());
    QVERIFY(*b.uptimeSecs > *a.uptimeSecs + 100);
    for (qsizetype i = 0; i < uids.size(); ++i) {
        const PodUsage &u = b.pods[i];
        QCOMPARE(u.uid, uids[i]);
        QVERIFY(u.cpuCores);
        QVERIFY2(qAbs(*u.cpuCores - cores[i]) < 1e-3,
                 qPrintable(QStringLiteral("%1: %2 cores").arg(u.uid).arg(*u.cpuCores)));
        QCOMPARE(u.workingSetBytes >> 20, workingSetMiB[i]);
        QVERIFY(u.memoryBytes > u.workingSetBytes); // page cache on top
    }
}

void TestNodeProbe::podUsageBrokenAnswers()
{
    using probe::parsePodCgroup;
    // A pod not (or no longer) running there, an answer cut short, garbage, an unknown layout.
    QVERIFY(!parsePodCgroup("cat: /sys/fs/cgroup/kubepods.slice/x/cpu.stat: No such file or "
                            "directory\n",
                            CgroupLayout::V2Systemd));
    QVERIFY(!parsePodCgroup("usage_usec 100\nuser_usec 90\n", CgroupLayout::V2Systemd));
    QVERIFY(!parsePodCgroup("12345\n", CgroupLayout::V1Cgroupfs));
    QVERIFY(!parsePodCgroup("12x45\n6789\n", CgroupLayout::V1Cgroupfs));
    QVERIFY(!parsePodCgroup("100\n200\n", CgroupLayout::Unknown));
    const auto v2 = parsePodCgroup(
        "usage_usec 2500000\nuser_usec 2000000\n1048576000\nanon 1\ninactive_file 48576000\n",
        CgroupLayout::V2Cgroupfs);
    QVERIFY(v2);
    QCOMPARE(v2->cpuUsageNs, quint64(2500000000));
    QCOMPARE(v2->memoryBytes, qint64(1048576000));
    QCOMPARE(v2->workingSetBytes, qint64(1000000000));
    // v1: the pod's own inactive_file is not its children's; total_inactive_file is.
    const auto v1 = parsePodCgroup("7000\n5000\ninactive_file 0\ntotal_inactive_file 1000\n",
                                   CgroupLayout::V1Systemd);
    QVERIFY(v1);
    QCOMPARE(v1->cpuUsageNs, quint64(7000));
    QCOMPARE(v1->workingSetBytes, qint64(4000));
    // A pod that vanished between samples is simply not listed; the others still are.
    NodeProbe probe(QStringLiteral("n"));
    probe.parseProbe(data(QStringLiteral("layout-sim-v2-systemd.txt")), 1000);
    QByteArray answer = data(QStringLiteral("pods-sim-v2-systemd-1.txt"));
    answer.truncate(answer.indexOf("@@gpudesk pod 8b6c7677"));
    answer += "@@gpudesk pod 8b6c7677-280d-491e-9c0c-fd53c9ef7ccd\ncat: "
              "/sys/fs/cgroup/kubepods.slice/x/cpu.stat: No such file or directory\n"
              "@@gpudesk end\n";
    const NodeSample s = probe.parseProbe(answer, 2000);
    QVERIFY(s.ok());
    QCOMPARE(s.pods.size(), 1);
    QCOMPARE(s.pods[0].uid, QStringLiteral("4fee8aab-67ae-4387-8ca0-dbdb58dbcfa5"));
}

QTEST_GUILESS_MAIN(TestNodeProbe)
#include "tst_nodeprobe.moc"
