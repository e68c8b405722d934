// SPDX-License-Identifier: GPL-3.0-or-later
// The probe's command templates and its answer: sections split, GPUs, processes and /proc
// parsed, CPU use from two samples, cgroups joined once per PID, exited processes dropped, a
// CPU node, a cut-off answer; shell quoting and jump-host validation.
#include "nodecommands.h"
#include "nodeprobe.h"

#include <QFile>
#include <QTest>

using namespace gpudesk;

namespace {

QByteArray data(const QString &name)
{
    QFile f(QStringLiteral(GPUDESK_TEST_DATA "/probe/") + name);
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
    void proxyJumpValidated();
    void gpuNode();
    void cpuNode();
    void cutOff();
    void cgroupsReadOncePerPid();
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
                        "echo @@gpudesk pid 7; cat '/proc/7/cgroup' 2>&1; "));
    QVERIFY(nodecmd::cgroupCommand({}).isEmpty());
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

QTEST_GUILESS_MAIN(TestNodeProbe)
#include "tst_nodeprobe.moc"
