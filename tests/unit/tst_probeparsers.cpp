// SPDX-License-Identifier: GPL-3.0-or-later
// The node probe's parsers on nvidia-smi, /proc and df output of several GPU models and driver
// versions, and on the ugly cases: [N/A], [Not Supported], [Unknown Error], a CPU node without
// nvidia-smi, a driver that does not answer, cut-off output, a process gone between queries.
#include "probeparsers.h"
#include "probetypes.h"
#include "testpaths.h"

#include <QFile>
#include <QTest>

using namespace gpudesk;

class TestProbeParsers : public QObject
{
    Q_OBJECT
private slots:
    void gpus();
    void gpuMarkers();
    void migOutputs();
    void gpuNodeStates_data();
    void gpuNodeStates();
    void truncated();
    void computeApps();
    void cgroups_data();
    void cgroups();
    void procFiles();
    void df();
    void netDev();

private:
    static QByteArray data(const char *name)
    {
        QFile f(TestPaths::testData(u"/probe/") + QLatin1String(name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing test data)");
    }
};

void TestProbeParsers::gpus()
{
    const auto r = probe::parseGpus(data("gpus-a800-535.csv"), 0);
    QCOMPARE(r.state, NvidiaSmiResult<GpuCardSample>::Ok);
    QCOMPARE(r.rows.size(), 4);
    QCOMPARE(r.skippedLines, 0);
    const GpuCardSample &c = r.rows[3];
    QCOMPARE(c.index, 3);
    QCOMPARE(c.uuid, QStringLiteral("GPU-1e2f3a4b-5c6d-7e8f-9a0b-1c2d3e4f5a6b"));
    QCOMPARE(c.name, QStringLiteral("NVIDIA A800-SXM4-80GB"));
    QCOMPARE(c.busId, QStringLiteral("00000000:57:00.0"));
    QCOMPARE(c.utilization, std::optional<int>(0));
    QCOMPARE(c.memoryUsedMiB, std::optional<qint64>(18734)); // memory held, no work: phantom?
    QCOMPARE(c.memoryTotalMiB, std::optional<qint64>(81920));
    QCOMPARE(c.temperatureC, std::optional<int>(35));
    QCOMPARE(c.powerDrawW, std::optional<double>(65.48));
    QCOMPARE(c.powerLimitW, std::optional<double>(400.0));
    QCOMPARE(c.eccUncorrected, std::optional<qint64>(2));
    QCOMPARE(c.smClockMHz, std::optional<int>(210));
    QCOMPARE(r.rows[0].utilization, std::optional<int>(100));

    const auto consumer = probe::parseGpus(data("gpus-4090-550.csv"), 0);
    QCOMPARE(consumer.rows.size(), 2);
    QCOMPARE(consumer.rows[0].name, QStringLiteral("NVIDIA GeForce RTX 4090"));
    QVERIFY(!consumer.rows[0].eccUncorrected); // [N/A]: no ECC on GeForce
    QCOMPARE(consumer.rows[0].powerDrawW, std::optional<double>(412.77));
}

void TestProbeParsers::migOutputs()
{
    // --query-gpu with mig.mode.current: two cards in MIG mode (no utilization of their own),
    // two not; a 13-field answer (the field not asked) leaves the mode unknown.
    const auto gpus = probe::parseGpus(data("gpus-a100-mig.csv"), 0);
    QCOMPARE(gpus.rows.size(), 4);
    QCOMPARE(gpus.skippedLines, 0);
    QCOMPARE(gpus.rows[0].migEnabled, std::optional<bool>(true));
    QVERIFY(!gpus.rows[0].utilization);
    QCOMPARE(gpus.rows[0].memoryUsedMiB, std::optional<qint64>(11125));
    QCOMPARE(gpus.rows[2].migEnabled, std::optional<bool>(false));
    QCOMPARE(gpus.rows[2].utilization, std::optional<int>(87));
    QCOMPARE(gpus.rows[2].smClockMHz, std::optional<int>(1410)); // not swallowed by the 14th field
    QVERIFY(!probe::parseGpus(data("gpus-a800-535.csv"), 0).rows[0].migEnabled);

    // nvidia-smi -L: instances under their card, in today's form and the R450 one.
    const auto list = probe::parseGpuList(data("list-a100-mig.txt"));
    QCOMPARE(list.size(), 6);
    QCOMPARE(list[0].gpuIndex, 0);
    QCOMPARE(list[0].index, 0);
    QCOMPARE(list[0].profile, QStringLiteral("3g.40gb"));
    QCOMPARE(list[0].slices(), 3);
    QCOMPARE(list[3].profile, QStringLiteral("1g.10gb"));
    QCOMPARE(list[3].uuid, QStringLiteral("MIG-a5b1e9ac-1c96-4ca0-b57c-53878e7531dc"));
    QCOMPARE(list[5].gpuIndex, 1);
    QCOMPARE(list[5].index, 1);
    const auto old = probe::parseGpuList(data("list-a100-mig-r450.txt"));
    QCOMPARE(old.size(), 3);
    QCOMPARE(old[2].profile, QStringLiteral("2g.10gb"));
    QCOMPARE(old[2].uuid, QStringLiteral("MIG-GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f/3/0"));
    QCOMPARE((MigDeviceSample{-1, -1, QStringLiteral("1c.3g.71gb")}.slices()), 3);

    // nvidia-smi -q -x: each instance's ids and memory, which instance each process runs in;
    // a process of a card not in MIG mode (ids N/A) is not an instance's.
    const auto xml = probe::parseMigXml(data("q-a100-mig.xml"));
    QVERIFY2(xml.error.isEmpty(), qPrintable(xml.error));
    QCOMPARE(xml.devices.size(), 6);
    QCOMPARE(xml.devices[1].gpuIndex, 0);
    QCOMPARE(xml.devices[1].gpuInstanceId, 5);
    QCOMPARE(xml.devices[1].memoryTotalMiB, std::optional<qint64>(19968));
    QCOMPARE(xml.devices[1].memoryUsedMiB, std::optional<qint64>(3812));
    QCOMPARE(xml.devices[5].gpuIndex, 1);
    QCOMPARE(xml.devices[5].gpuInstanceId, 2);
    QCOMPARE(xml.processes.size(), 2);
    QCOMPARE(xml.processes[0].pid, 239709);
    QCOMPARE(xml.processes[0].gpuInstanceId, 1);
    QCOMPARE(xml.processes[1].gpuInstanceId, 5);
    // Cut off mid-document: what was read, and why the rest is missing.
    const QByteArray whole = data("q-a100-mig.xml");
    const auto cut = probe::parseMigXml(whole.left(whole.size() / 2));
    QVERIFY(!cut.error.isEmpty());
    QVERIFY(probe::parseMigXml("<html>not it").devices.isEmpty());
}

void TestProbeParsers::gpuMarkers()
{
    // MIG: utilization is not reported per card.
    const auto mig = probe::parseGpus(data("gpus-h100-mig.csv"), 0);
    QCOMPARE(mig.rows.size(), 1);
    QVERIFY(!mig.rows[0].utilization);
    QVERIFY(!mig.rows[0].memoryUtilization);
    QCOMPARE(mig.rows[0].memoryUsedMiB, std::optional<qint64>(13));
    // An old driver without power readings, and a card in trouble.
    const auto old = probe::parseGpus(data("gpus-v100-470.csv"), 0);
    QCOMPARE(old.rows.size(), 2);
    QVERIFY(!old.rows[0].powerDrawW);
    QVERIFY(!old.rows[0].powerLimitW);
    QCOMPARE(old.rows[0].memoryTotalMiB, std::optional<qint64>(32510));
    QVERIFY(!old.rows[1].utilization);
    QVERIFY(!old.rows[1].memoryUsedMiB);
    QVERIFY(!old.rows[1].temperatureC);
    QCOMPARE(old.rows[1].powerLimitW, std::optional<double>(300.0));
}

void TestProbeParsers::gpuNodeStates_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("message");
    QTest::addRow("CPU node") << data("not-found.txt") << 127
                              << int(NvidiaSmiResult<GpuCardSample>::NoNvidiaSmi)
                              << QStringLiteral("nvidia-smi: not found");
    QTest::addRow("driver gone")
        << data("driver-failed.txt") << 9 << int(NvidiaSmiResult<GpuCardSample>::DriverFailed)
        << QStringLiteral("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                          "driver. Make sure that the latest NVIDIA driver is installed and "
                          "running.");
    QTest::addRow("no devices") << data("no-devices.txt") << 6
                                << int(NvidiaSmiResult<GpuCardSample>::NoDevices)
                                << QStringLiteral("No devices were found");
    QTest::addRow("other error") << QByteArray("Unable to determine the device handle for GPU "
                                               "0000:27:00.0: Unknown Error\n")
                                 << 15 << int(NvidiaSmiResult<GpuCardSample>::Failed)
                                 << QStringLiteral("Unable to determine the device handle for "
                                                   "GPU 0000:27:00.0: Unknown Error");
}

void TestProbeParsers::gpuNodeStates()
{
    QFETCH(QByteArray, output);
    QFETCH(int, exitCode);
    QFETCH(int, state);
    QFETCH(QString, message);
    const auto r = probe::parseGpus(output, exitCode);
    QCOMPARE(int(r.state), state);
    QCOMPARE(r.message, message);
    QVERIFY(r.rows.isEmpty());
    const auto apps = probe::parseComputeApps(output, exitCode);
    QCOMPARE(int(apps.state), state);
}

void TestProbeParsers::truncated()
{
    // The connection dropped mid-line: the whole lines are kept, the cut one is not guessed.
    const auto r = probe::parseGpus(data("gpus-truncated.csv"), 0);
    QCOMPARE(r.rows.size(), 1);
    QCOMPARE(r.skippedLines, 1);
    QCOMPARE(r.rows[0].utilization, std::optional<int>(100));
    const auto garbage = probe::parseGpus("index, uuid\n\x01\x02\xff\n, , ,\n", 0);
    QCOMPARE(garbage.rows.size(), 0);
    QCOMPARE(garbage.skippedLines, 3);
}

void TestProbeParsers::computeApps()
{
    const auto r = probe::parseComputeApps(data("apps-a800.csv"), 0);
    QCOMPARE(r.state, NvidiaSmiResult<GpuProcessSample>::Ok);
    QCOMPARE(r.rows.size(), 4);
    QCOMPARE(r.rows[0].pid, 1893221);
    QCOMPARE(r.rows[0].memoryMiB, std::optional<qint64>(76120));
    QCOMPARE(r.rows[0].name, QStringLiteral("/usr/bin/python3"));
    // A process nvidia-smi cannot see into (another PID namespace, or already gone).
    QVERIFY(!r.rows[2].memoryMiB);
    QVERIFY(r.rows[2].name.isEmpty());
    // A command line with commas stays whole.
    QCOMPARE(r.rows[3].name,
             QStringLiteral("/opt/conda/bin/python -m torch.distributed.run --nproc_per_node=8, "
                            "train.py"));
    QCOMPARE(probe::parseComputeApps("", 0).rows.size(), 0); // an idle node prints nothing
}

void TestProbeParsers::cgroups_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("pod");
    QTest::addColumn<QString>("container");
    QTest::addColumn<QString>("runtime");
    QTest::addRow("v2, systemd, containerd")
        << data("cgroup-v2-systemd-containerd.txt")
        << QStringLiteral("0b6d3f2e-91a4-4c2e-8f7d-2a1b3c4d5e6f")
        << QStringLiteral("4f8e2b1c9d7a6e5f3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a")
        << QStringLiteral("containerd");
    QTest::addRow("v1, cgroupfs, docker")
        << data("cgroup-v1-cgroupfs-docker.txt")
        << QStringLiteral("7e1c2d3b-4a5f-6789-abcd-ef0123456789")
        << QStringLiteral("0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0")
        << QString();
    QTest::addRow("v1, systemd, docker, Guaranteed")
        << data("cgroup-v1-systemd-docker-guaranteed.txt")
        << QStringLiteral("5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a")
        << QStringLiteral("aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44")
        << QStringLiteral("docker");
    QTest::addRow("v2, CRI-O") << data("cgroup-v2-crio.txt")
                               << QStringLiteral("3c2b1a09-8f7e-4d6c-5b4a-392817060504")
                               << QStringLiteral("1234567890abcdef1234567890abcdef1234567890abcde"
                                                 "f1234567890abcdef")
                               << QStringLiteral("cri-o");
    QTest::addRow("a host process")
        << data("cgroup-host.txt") << QString() << QString() << QString();
    QTest::addRow("gone between the queries")
        << data("cgroup-gone.txt") << QString() << QString() << QString();
}

void TestProbeParsers::cgroups()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, pod);
    QFETCH(QString, container);
    QFETCH(QString, runtime);
    const CgroupOwner o = probe::parseCgroup(text);
    QCOMPARE(o.podUid, pod);
    QCOMPARE(o.containerId, container);
    QCOMPARE(o.runtime, runtime);
    QCOMPARE(o.isPod(), !pod.isEmpty());
}

void TestProbeParsers::procFiles()
{
    const auto cpu = probe::parseProcStat(data("stat.txt"));
    QVERIFY(cpu);
    QCOMPARE(cpu->user, 184629313ull);
    QCOMPARE(cpu->idle, 1629413780ull);
    QCOMPARE(cpu->busy(), 184629313ull + 2381 + 41260944 + 0 + 2105883 + 0);
    QVERIFY(!probe::parseProcStat("cpu0 1 2 3 4\n"));
    QVERIFY(!probe::parseProcStat("cpu  1 2 x 4\n"));

    const auto mem = probe::parseMeminfo(data("meminfo.txt"));
    QVERIFY(mem);
    QCOMPARE(mem->totalKiB, 1056467324);
    QCOMPARE(mem->availableKiB, 931288140);
    QVERIFY(!probe::parseMeminfo("MemTotal: 100 kB\n")); // no MemAvailable: not guessed

    const auto load = probe::parseLoadavg(data("loadavg.txt"));
    QVERIFY(load);
    QCOMPARE(load->one, 41.27);
    QCOMPARE(load->fifteen, 37.02);
    QVERIFY(!probe::parseLoadavg("41.27\n"));
}

void TestProbeParsers::df()
{
    const QList<DiskUse> disks = probe::parseDf(data("df.txt"));
    QCOMPARE(disks.size(), 3);
    QCOMPARE(disks[0].mountPoint, QStringLiteral("/"));
    QCOMPARE(disks[0].percent, 97);
    QCOMPARE(disks[0].totalKiB, 1921724676);
    QCOMPARE(disks[1].mountPoint, QStringLiteral("/var/lib/containerd"));
    QCOMPARE(disks[2].filesystem, QStringLiteral("nas:/export/ai"));
    QCOMPARE(disks[2].mountPoint, QStringLiteral("/mnt/nas data")); // spaces kept
    QCOMPARE(probe::parseDf("df: /nope: No such file or directory\n").size(), 0);
}

void TestProbeParsers::netDev()
{
    // An A800 node's /proc/net/dev: counters past 2^32, a name as long as Calico makes them.
    const QList<NetInterface> ifs = probe::parseNetDev(data("netdev-a800.txt"));
    QStringList names;
    for (const NetInterface &i : ifs)
        names << i.name;
    QCOMPARE(names, (QStringList{u"lo"_qs, u"eth0"_qs, u"ib0"_qs, u"ib1"_qs, u"docker0"_qs,
                                 u"cali8f3e2a91c0d"_qs}));
    QCOMPARE(ifs[2].rxBytes, 981273641230711LL);
    QCOMPARE(ifs[2].txBytes, 977201132884129LL);
    QCOMPARE(ifs[1].txBytes, 2201879345512LL);
    // As kernels before 2.6 wrote it (no space after the colon); lines that are not an
    // interface's (a complaint, a cut-off line, a field that is not a number) are skipped.
    const QList<NetInterface> odd =
        probe::parseNetDev("eth0:123 1 0 0 0 0 0 0 456 2 0 0 0 0 0 0\n"
                           "cat: /proc/net/dev: No such file or directory\n"
                           "  ib0: 1 2 3\n"
                           "  ib1: 1 2 3 4 5 6 7 8 x 1 2 3 4 5 6 7\n");
    QCOMPARE(odd.size(), 1);
    QCOMPARE(odd[0].name, u"eth0"_qs);
    QCOMPARE(odd[0].rxBytes, 123);
    QCOMPARE(odd[0].txBytes, 456);
}

QTEST_GUILESS_MAIN(TestProbeParsers)
#include "tst_probeparsers.moc"
