// SPDX-License-Identifier: GPL-3.0-or-later
// The connection probe against gpudesk-sim: what it reports equals /sim/truth; RBAC and bad
// credentials give the API server's own messages.
#include "clusterprobe.h"
#include "kubeclient.h"
#include "kubeconfig.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace gpudesk;

class TestClusterProbe : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void summaryMatchesTruth_data();
    void summaryMatchesTruth();
    void badToken();
    void refusedConnection();

private:
    std::optional<KubeConfig> m_config;
    QString m_state;
};

void TestClusterProbe::initTestCase()
{
    m_state = qEnvironmentVariable("GPUDESK_SIM_STATE");
    QVERIFY2(!m_state.isEmpty(), "GPUDESK_SIM_STATE names the simulator's state directory");
    QString error;
    m_config = KubeConfig::load({m_state + QStringLiteral("/kubeconfig")}, &error);
    QVERIFY2(m_config, qPrintable(error));
}

void TestClusterProbe::summaryMatchesTruth_data()
{
    QTest::addColumn<QString>("context");
    QTest::addRow("admin") << QStringLiteral("sim-admin");
    QTest::addRow("researcher (may list nodes)") << QStringLiteral("sim-alice");
}

void TestClusterProbe::summaryMatchesTruth()
{
    QFETCH(QString, context);
    QString error;
    const auto ep = m_config->endpoint(context, &error);
    QVERIFY2(ep, qPrintable(error));
    KubeClient client(*ep);
    QVERIFY(client.verifiesTls());
    ClusterProbe probe(&client);
    QSignalSpy done(&probe, &ClusterProbe::finished);
    QSignalSpy failed(&probe, &ClusterProbe::failed);
    probe.start();
    QVERIFY(done.wait(20000));
    QCOMPARE(failed.count(), 0);
    const auto summary = done.at(0).at(0).value<ClusterSummary>();

    // The truth, read with the admin credentials.
    const auto admin = m_config->endpoint(QStringLiteral("sim-admin"), &error);
    KubeClient truthClient(*admin);
    KubeReply truth;
    bool got = false;
    truthClient.get(QStringLiteral("/sim/truth"), this, [&](const KubeReply &r) {
        truth = r;
        got = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(got, 10000);
    QVERIFY2(truth.error.isEmpty(), qPrintable(truth.error));
    const auto t = nlohmann::json::parse(truth.body.toStdString());
    int ready = 0;
    for (const auto &n : t["nodes"])
        ready += n["ready"].get<bool>() ? 1 : 0;
    QCOMPARE(summary.nodes, int(t["nodes"].size()));
    QCOMPARE(summary.readyNodes, ready);
    QCOMPARE(summary.gpus, t["gpus"]["total"].get<int>());
    QCOMPARE(summary.serverVersion, QStringLiteral("v1.29.4-gpudesk-sim"));
}

void TestClusterProbe::badToken()
{
    QString error;
    auto ep = m_config->endpoint(QStringLiteral("sim-admin"), &error);
    ep->token = QStringLiteral("wrong");
    KubeClient client(*ep);
    ClusterProbe probe(&client);
    QSignalSpy failed(&probe, &ClusterProbe::failed);
    probe.start();
    QVERIFY(failed.wait(20000));
    QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("Unauthorized"));
}

void TestClusterProbe::refusedConnection()
{
    QString error;
    auto ep = m_config->endpoint(QStringLiteral("sim-admin"), &error);
    ep->server = QStringLiteral("https://127.0.0.1:1"); // nothing listens there
    KubeClient client(*ep);
    ClusterProbe probe(&client);
    QSignalSpy failed(&probe, &ClusterProbe::failed);
    probe.start();
    QVERIFY(failed.wait(20000));
    QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("refused")),
             qPrintable(failed.at(0).at(0).toString()));
}

QTEST_GUILESS_MAIN(TestClusterProbe)
#include "tst_clusterprobe.moc"
