// SPDX-License-Identifier: GPL-3.0-or-later
// The submit check's warnings about the network: NCCL_SOCKET_IFNAME against the interfaces the
// pods will have (their own, or the nodes' as sampled over SSH with hostNetwork), and NCCL told
// not to use the cards' direct path. On the small cluster of startcheckcluster.h.
#include "startcheckcluster.h"
#include "telemetrystore.h"

#include <QTest>

using namespace gpudesk;
using namespace gpudesk::startcheckcluster;

class TestStartWarnings : public QObject, public ClusterFixture
{
    Q_OBJECT

private slots:
    void init() { makeStore(); }

    // NCCL_SOCKET_IFNAME against what the pods will have: their own lo and eth0 (and Multus's
    // networks) in their network namespace; the nodes' interfaces, as sampled, with hostNetwork.
    void networkWarnings()
    {
        const auto env = [](const QString &name, const QString &value) {
            return QJsonArray{
                QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("value"), value}}};
        };
        const auto ifnameJob = [&](const QString &ifname, const QJsonObject &extra = {}) {
            return pyTorchJob(QStringLiteral("n"), 1, 2, QStringLiteral("nlp"), extra,
                              container(2, env(QStringLiteral("NCCL_SOCKET_IFNAME"), ifname)));
        };
        const QString code = QStringLiteral("env-socket-ifname");
        StartVerdict v = verdictOf(ifnameJob(QStringLiteral("ib")));
        const StartReason *r = reason(v, code);
        QVERIFY2(r, qPrintable(codes(v)));
        QCOMPARE(r->numbers.value(QStringLiteral("interfaces")).toStringList(),
                 (QStringList{u"lo"_qs, u"eth0"_qs}));
        QVERIFY2(r->message.contains(u"without hostNetwork a pod has lo, eth0"),
                 qPrintable(r->message));
        QCOMPARE(v.kind, StartVerdict::Starts); // a warning, not a block
        // As NCCL reads the list: entries as written (" eth" is no prefix of eth0), ":port"
        // dropped, an empty list matching all.
        for (const char *fine :
             {"eth", "=eth0", "^lo,docker", "eth0,ib", "eth:1234", "=", "ib,eth"})
            QVERIFY2(!verdictOf(ifnameJob(QLatin1String(fine))).has(code), fine);
        for (const char *bad : {"lo", "^eth", "=eth", "ens,bond", " eth", "ib, eth0", "ib, eth"})
            QVERIFY2(verdictOf(ifnameJob(QLatin1String(bad))).has(code), bad);
        // One pod needs no other: the loopback serves it; nothing at all does not.
        const auto onePod = [&](const QString &ifname) {
            return pyTorchJob(QStringLiteral("one"), 0, 2, QStringLiteral("nlp"), {},
                              container(2, env(QStringLiteral("NCCL_SOCKET_IFNAME"), ifname)));
        };
        QVERIFY(!verdictOf(onePod(QStringLiteral("lo"))).has(code));
        QVERIFY(verdictOf(onePod(QStringLiteral("ib"))).has(code));

        // Multus: an interface named after '@', the next one numbered.
        const QJsonObject pod{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Pod")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("m")},
                         {QStringLiteral("namespace"), QStringLiteral("user-alice")},
                         {QStringLiteral("annotations"),
                          QJsonObject{{QStringLiteral("k8s.v1.cni.cncf.io/networks"),
                                       QStringLiteral("rdma-net@ib0, default/sriov")}}}}},
            {QStringLiteral("spec"),
             podSpec(container(2, env(QStringLiteral("NCCL_SOCKET_IFNAME"), QStringLiteral("ib"))),
                     {})}};
        JobRequest multus;
        QString error;
        QVERIFY(JobRequestDecoder::decode(QJsonDocument(pod).toJson(), &multus, &error));
        QCOMPARE(multus.roles.value(0).extraInterfaces, (QStringList{u"ib0"_qs, u"net2"_qs}));
        QVERIFY(!StartCheck::check(CapacitySnapshot::of(*m_store, multus), multus).has(code));

        // hostNetwork: the nodes' interfaces, as the latest samples list them.
        TelemetryStore telemetry(m_store.get());
        const auto sample = [&](const QString &node, const QStringList &names) {
            NodeSample s;
            s.node = node;
            s.time = kNow;
            for (const QString &n : names)
                s.interfaces.append({n, 0, 0});
            telemetry.apply(s);
        };
        sample(QStringLiteral("g4090-01"), {u"lo"_qs, u"eth0"_qs});
        sample(QStringLiteral("g4090-02"), {u"lo"_qs, u"eth0"_qs, u"ib0"_qs});
        // g4090-03 not sampled: not counted either way.
        const QJsonObject host{{QStringLiteral("hostNetwork"), true},
                               {QStringLiteral("nodeSelector"),
                                QJsonObject{{QStringLiteral("nvidia.com/gpu.product"), k4090}}}};
        const auto hostVerdict = [&](const QString &ifname, const TelemetryStore *t) {
            JobRequest job;
            QString e;
            if (!JobRequestDecoder::decode(ifnameJob(ifname, host), &job, &e))
                qFatal("%s", qPrintable(e));
            if (!job.roles.value(0).hostNetwork)
                qFatal("hostNetwork was not read");
            return StartCheck::check(CapacitySnapshot::of(*m_store, job, t), job);
        };
        const StartVerdict hv = hostVerdict(QStringLiteral("ib"), &telemetry);
        r = reason(hv, code);
        QVERIFY2(r, qPrintable(codes(hv)));
        QCOMPARE(r->numbers.value(QStringLiteral("nodes")).toStringList(),
                 QStringList{u"g4090-01"_qs});
        QCOMPARE(r->numbers.value(QStringLiteral("nodesKnown")).toInt(), 2);
        QCOMPARE(r->numbers.value(QStringLiteral("interfaces")).toStringList(),
                 (QStringList{u"lo"_qs, u"eth0"_qs}));
        QVERIFY2(r->message.contains(u"on 1 of the node(s) the job may run on (g4090-01; "
                                     u"g4090-01 has lo, eth0)"),
                 qPrintable(r->message));
        QVERIFY(!hostVerdict(QStringLiteral("eth"), &telemetry).has(code));
        QVERIFY(!hostVerdict(QStringLiteral("=ib0,eth0"), &telemetry).has(code));
        // Nodes never sampled: only the loopback is said to be wrong.
        QVERIFY(!hostVerdict(QStringLiteral("ib"), nullptr).has(code));
        QVERIFY(hostVerdict(QStringLiteral("lo"), nullptr).has(code));

        // NCCL told not to use the cards' direct path on cards that have one.
        const StartVerdict p2p = verdictOf(
            pyTorchJob(QStringLiteral("p"), 0, 2, QStringLiteral("nlp"), {},
                       container(2, env(QStringLiteral("NCCL_P2P_DISABLE"), QStringLiteral("1")))));
        r = reason(p2p, QStringLiteral("env-p2p-disabled"));
        QVERIFY2(r && r->message.contains(u"NVIDIA A800-SXM4-80GB cards talk directly"),
                 qPrintable(codes(p2p)));
    }
};

QTEST_GUILESS_MAIN(TestStartWarnings)
#include "tst_startwarnings.moc"
