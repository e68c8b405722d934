// SPDX-License-Identifier: GPL-3.0-or-later
// Credentials that are not a plain token, against the test simulator: exec plugins (v1 and
// v1beta1, renewed before expiry, renewed after a 401, failures with the plugin's stderr, a
// plugin that is not installed), a tokenFile re-read after a 401, and proxy-url through a real
// tinyproxy.
#include "kubeclient.h"
#include "kubeconfig.h"
#include "testpaths.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestCredentials : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void execV1RenewsBeforeExpiry();
    void execRenewsAfter401();
    void execFailureShowsStderr();
    void execPluginNotInstalled();
    void execExpiredAnswerBacksOff();
    void execPluginEndsWithItsChildren();
    void tokenFileReReadOn401();
    void proxyUrl();
    void cleanupTestCase();

private:
    // A kubeconfig for the simulator with `user` as the user entry (YAML, indented 4).
    ClusterEndpoint endpoint(const QString &user, const QString &clusterExtra = {});
    QString pluginUser(const QString &mode, int ttl, const QString &api);
    static KubeReply getNodes(KubeClient &client);
    static QString ensure(KubeClient &client);

    QTemporaryDir m_dir;
    QString m_sim;
    QString m_server;
    QString m_caData;
    QProcess m_proxy;
    int m_file = 0;
};

void TestCredentials::initTestCase()
{
    m_sim = qEnvironmentVariable("GPUDESK_SIM_STATE");
    QVERIFY2(!m_sim.isEmpty(), "GPUDESK_SIM_STATE names the simulator's state directory");
    QFile f(m_sim + QStringLiteral("/kubeconfig"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    m_server = QRegularExpression(QStringLiteral("server: (\\S+)")).match(text).captured(1);
    m_caData = QRegularExpression(QStringLiteral("certificate-authority-data: (\\S+)"))
                   .match(text)
                   .captured(1);
    QVERIFY(!m_server.isEmpty() && !m_caData.isEmpty());
}

void TestCredentials::cleanupTestCase()
{
    if (m_proxy.state() != QProcess::NotRunning) {
        m_proxy.terminate();
        m_proxy.waitForFinished(5000);
    }
}

ClusterEndpoint TestCredentials::endpoint(const QString &user, const QString &clusterExtra)
{
    const QString file = m_dir.filePath(QStringLiteral("kubeconfig-%1").arg(++m_file));
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QStringLiteral("apiVersion: v1\nkind: Config\ncurrent-context: t\n"
                           "clusters:\n- name: sim\n  cluster:\n    server: %1\n"
                           "    certificate-authority-data: %2\n%3"
                           "contexts:\n- name: t\n  context: {cluster: sim, user: u}\n"
                           "users:\n- name: u\n  user:\n%4")
                .arg(m_server, m_caData, clusterExtra, user)
                .toUtf8());
    f.close();
    QString error;
    const auto cfg = KubeConfig::load({file}, &error);
    const auto ep = cfg ? cfg->endpoint({}, &error) : std::nullopt;
    if (!ep)
        qWarning() << error;
    return ep.value_or(ClusterEndpoint{});
}

QString TestCredentials::pluginUser(const QString &mode, int ttl, const QString &api)
{
    return QStringLiteral("    exec:\n"
                          "      apiVersion: %1\n"
                          "      command: %2\n"
                          "      interactiveMode: Never\n"
                          "      env:\n"
                          "      - {name: SIM_TOKENS, value: %3}\n"
                          "      - {name: SIM_USER, value: admin}\n"
                          "      - {name: PLUGIN_LOG, value: %4}\n"
                          "      - {name: PLUGIN_MODE, value: %5}\n"
                          "      - {name: PLUGIN_TTL, value: \"%6\"}\n"
                          "      - {name: PLUGIN_API, value: %1}\n")
        .arg(api, TestPaths::testData(u"/exec/sim-plugin"), m_sim + QStringLiteral("/tokens.json"),
             m_dir.filePath(QStringLiteral("plugin-%1.log").arg(m_file + 1)), mode)
        .arg(ttl);
}

QString TestCredentials::ensure(KubeClient &client)
{
    QString result = QStringLiteral("(no answer)");
    bool done = false;
    client.ensureCredentials(&client, [&](const QString &e) {
        result = e;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 20000))
        return QStringLiteral("(timed out)");
    return result;
}

KubeReply TestCredentials::getNodes(KubeClient &client)
{
    KubeReply out;
    bool done = false;
    client.get(QStringLiteral("/api/v1/nodes?limit=1"), &client, [&](const KubeReply &r) {
        out = r;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 20000))
        out.error = QStringLiteral("(timed out)");
    return out;
}

void TestCredentials::execV1RenewsBeforeExpiry()
{
    const QString api = QStringLiteral("client.authentication.k8s.io/v1");
    const ClusterEndpoint ep = endpoint(pluginUser(QStringLiteral("ok"), 4, api));
    QVERIFY(ep.exec.isSet());
    const QString log = ep.exec.env.value(2).second;
    KubeClient client(ep);
    QCOMPARE(ensure(client), QString());
    QCOMPARE(client.execRuns(), 1);
    const KubeReply r = getNodes(client);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY(r.body.contains("\"kind\":\"NodeList\""));

    // The plugin saw what kubectl gives it: not interactive, and its own apiVersion.
    QFile f(log);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray first = f.readLine();
    QVERIFY2(first.startsWith("run 1 {") && first.contains("\"interactive\":false") &&
                 first.contains(QByteArray("\"apiVersion\":\"" + api.toUtf8() + '"')),
             first.constData());

    // A second client for the same user takes the cached credential: no second run.
    KubeClient again(ep);
    QCOMPARE(ensure(again), QString());
    QCOMPARE(again.execRuns(), 0);

    // Renewed before its 4 s are up, without a request failing first.
    QSignalSpy renewed(&client, &KubeClient::credentialsChanged);
    QVERIFY(renewed.wait(6000));
    QCOMPARE(client.execRuns(), 2);
    const KubeReply after = getNodes(client);
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
}

void TestCredentials::execRenewsAfter401()
{
    // The first credential is revoked at the server: the 401 renews it and the GET is retried.
    const ClusterEndpoint ep =
        endpoint(pluginUser(QStringLiteral("stale-first"), 3600,
                            QStringLiteral("client.authentication.k8s.io/v1beta1")));
    KubeClient client(ep);
    QCOMPARE(ensure(client), QString());
    QCOMPARE(client.execRuns(), 1);
    const KubeReply r = getNodes(client);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.httpStatus, 200);
    QCOMPARE(client.execRuns(), 2);
}

void TestCredentials::execFailureShowsStderr()
{
    const ClusterEndpoint ep = endpoint(
        pluginUser(QStringLiteral("fail"), 60, QStringLiteral("client.authentication.k8s.io/v1")));
    KubeClient client(ep);
    QSignalSpy failed(&client, &KubeClient::credentialsFailed);
    const QString error = ensure(client);
    QVERIFY2(error.contains(QStringLiteral("failed (exit code 3)")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("error: the refresh token has expired\nrun 'kubelogin "
                                           "login' in a terminal to sign in again")),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("user \"u\" in ") + ep.exec.file), qPrintable(error));
    QCOMPARE(failed.size(), 1);
}

void TestCredentials::execExpiredAnswerBacksOff()
{
    // Issue 33: a plugin answering with an already expired token (a clock ahead of the identity
    // provider's is enough) was run again at once, ~400 times a second. An error, said once,
    // and no run again within the back-off.
    const ClusterEndpoint ep = endpoint(
        pluginUser(QStringLiteral("ok"), -600, QStringLiteral("client.authentication.k8s.io/v1")));
    KubeClient client(ep);
    QSignalSpy failed(&client, &KubeClient::credentialsFailed);
    // The back-off counts from the first run's answer, which comes after this: measured from
    // here, the second run can never look early (from after the answer, a loaded machine's
    // slow first steps made it look a second early).
    QElapsedTimer since;
    since.start();
    const QString error = ensure(client);
    QVERIFY2(error.contains(u"answered with a credential that expired at"_qs) &&
                 error.contains(u"check the clock"_qs),
             qPrintable(error));
    QCOMPARE(client.execRuns(), 1);
    // Asked again, and a request made: the same answer, no second run, nothing said twice.
    QCOMPARE(ensure(client), error);
    const KubeReply r = getNodes(client);
    QVERIFY(!r.error.isEmpty());
    QCOMPARE(client.execRuns(), 1);
    QCOMPARE(failed.size(), 1);
    // Past the back-off (5 s) it is run once more — a new answer may be good —, not before.
    QString later;
    QTRY_VERIFY_WITH_TIMEOUT((later = ensure(client), client.execRuns() == 2), 15000);
    QVERIFY2(since.elapsed() >= KubeClient::ExecBackoffFirstMs,
             qPrintable(QString::number(since.elapsed())));
    QVERIFY2(later.contains(u"answered with a credential that expired at"_qs), qPrintable(later));
    // This plugin's expiry moves with its clock: a new text, said once more.
    QCOMPARE(failed.size(), 2);
}

void TestCredentials::execPluginEndsWithItsChildren()
{
    // Issue 33: a plugin stopped at its limit left its children running. Stopped — here by its
    // client going away mid-run, the limit's path too —, its whole process group ends.
    const ClusterEndpoint ep = endpoint(
        pluginUser(QStringLiteral("hang"), 60, QStringLiteral("client.authentication.k8s.io/v1")));
    const QString childFile = ep.exec.env.value(2).second + QStringLiteral(".child");
    auto client = std::make_unique<KubeClient>(ep);
    client->ensureCredentials(client.get(), [](const QString &) {});
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(childFile) && QFileInfo(childFile).size() > 0, 20000);
    QFile f(childFile);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const qint64 child = f.readAll().trimmed().toLongLong();
    QVERIFY(child > 0);
    auto alive = [child] {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(child));
        if (!stat.open(QIODevice::ReadOnly))
            return false;
        const QByteArray s = stat.readAll();
        const qsizetype close = s.lastIndexOf(')');
        return close > 0 && s.mid(close + 2, 1) != "Z";
    };
    QVERIFY(alive());
    client.reset();
    QTRY_VERIFY_WITH_TIMEOUT(!alive(), 10000);
}

void TestCredentials::execPluginNotInstalled()
{
    const ClusterEndpoint ep =
        endpoint(QStringLiteral("    exec:\n"
                                "      apiVersion: client.authentication.k8s.io/v1beta1\n"
                                "      command: gpudesk-test-no-such-plugin\n"
                                "      installHint: Install it with 'apt install lab-login'.\n"));
    KubeClient client(ep);
    const QString error = ensure(client);
    QVERIFY2(error.contains(QStringLiteral("gpudesk-test-no-such-plugin of user \"u\"")) &&
                 error.contains(QStringLiteral("was not found on PATH. Install it with 'apt "
                                               "install lab-login'.")),
             qPrintable(error));
}

void TestCredentials::tokenFileReReadOn401()
{
    const QString tokenFile = m_dir.filePath(QStringLiteral("token"));
    QFile tf(tokenFile);
    QVERIFY(tf.open(QIODevice::WriteOnly));
    tf.write("rotated-away\n");
    tf.close();
    const ClusterEndpoint ep = endpoint(QStringLiteral("    tokenFile: %1\n").arg(tokenFile));
    QCOMPARE(ep.token, QStringLiteral("rotated-away"));
    KubeClient client(ep);
    KubeReply r = getNodes(client);
    QCOMPARE(r.httpStatus, 401); // the file still holds the old token: nothing to retry with

    // The token is rotated on disk (as a projected service-account token is).
    QFile tokens(m_sim + QStringLiteral("/tokens.json"));
    QVERIFY(tokens.open(QIODevice::ReadOnly));
    const QString admin = QRegularExpression(QStringLiteral("\"admin\"\\s*:\\s*\"([^\"]+)\""))
                              .match(QString::fromUtf8(tokens.readAll()))
                              .captured(1);
    QVERIFY(!admin.isEmpty());
    QVERIFY(tf.open(QIODevice::WriteOnly | QIODevice::Truncate));
    tf.write(admin.toUtf8() + '\n');
    tf.close();
    r = getNodes(client);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.httpStatus, 200);
}

void TestCredentials::proxyUrl()
{
    const QString tinyproxy =
        QStandardPaths::findExecutable(QStringLiteral("tinyproxy"), {QStringLiteral("/usr/bin")});
    QVERIFY2(!tinyproxy.isEmpty(), "tinyproxy is installed by scripts/install-deps");
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    const QString conf = m_dir.filePath(QStringLiteral("tinyproxy.conf"));
    QFile cf(conf);
    QVERIFY(cf.open(QIODevice::WriteOnly));
    cf.write(QStringLiteral("Port %1\nListen 127.0.0.1\nTimeout 60\nAllow 127.0.0.1\n"
                            "LogLevel Connect\nMaxClients 20\n")
                 .arg(port)
                 .toUtf8());
    cf.close();
    m_proxy.setProcessChannelMode(QProcess::MergedChannels);
    m_proxy.start(tinyproxy, {QStringLiteral("-d"), QStringLiteral("-c"), conf});
    QVERIFY(m_proxy.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, port);
            return s.waitForConnected(200);
        }(),
        10000);

    QFile tokens(m_sim + QStringLiteral("/tokens.json"));
    QVERIFY(tokens.open(QIODevice::ReadOnly));
    const QString admin = QRegularExpression(QStringLiteral("\"admin\"\\s*:\\s*\"([^\"]+)\""))
                              .match(QString::fromUtf8(tokens.readAll()))
                              .captured(1);
    const ClusterEndpoint ep =
        endpoint(QStringLiteral("    token: %1\n").arg(admin),
                 QStringLiteral("    proxy-url: http://127.0.0.1:%1\n").arg(port));
    QCOMPARE(ep.proxyUrl, QStringLiteral("http://127.0.0.1:%1").arg(port));
    KubeClient client(ep);
    const KubeReply r = getNodes(client);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY(r.body.contains("\"kind\":\"NodeList\""));
    // It went through the proxy: tinyproxy logged the tunnel to the API server's port.
    const QString apiPort = QUrl(m_server).authority().section(u':', -1);
    QTRY_VERIFY_WITH_TIMEOUT(m_proxy.peek(1 << 20).contains(
                                 QStringLiteral("CONNECT 127.0.0.1:%1").arg(apiPort).toUtf8()),
                             5000);

    // With the proxy gone, the error says so instead of reaching the server directly.
    m_proxy.terminate();
    QVERIFY(m_proxy.waitForFinished(5000));
    const KubeReply down = getNodes(client);
    QVERIFY(!down.error.isEmpty());
    // The proxy is named as what failed, from the setting that names it; the server was not
    // reached and is not blamed.
    QVERIFY2(down.error.startsWith(QStringLiteral("The proxy http://127.0.0.1:%1 (proxy-url of "
                                                  "context ")
                                       .arg(port)),
             qPrintable(down.error));
    QVERIFY2(down.error.contains(QLatin1String("refused the connection")), qPrintable(down.error));
    QVERIFY(down.connectionFailed);
}

QTEST_GUILESS_MAIN(TestCredentials)
#include "tst_credentials.moc"
