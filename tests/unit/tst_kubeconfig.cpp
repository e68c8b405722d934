// SPDX-License-Identifier: GPL-3.0-or-later
// kubeconfig as kubectl reads it: merging with first-wins, relative paths, and every broken case
// answered with a message that names the field and the file.
#include "execcredential.h"
#include "kubeconfig.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using gpudesk::ExecCredentialRunner;
using gpudesk::KubeConfig;

class TestKubeConfig : public QObject
{
    Q_OBJECT
private slots:
    void mergeFirstWins();
    void resolves_data();
    void resolves();
    void errors_data();
    void errors();
    void unreadableFiles();
    void filesWithoutEndAreRefused();
    void execPlugin();
    void execErrors_data();
    void execErrors();
    void proxyUrl();
    void execCredentials_data();
    void execCredentials();
    void execInfo();
    void endlessPluginIsStopped();

private:
    static QString data(const char *name)
    {
        return TestPaths::testData(u"/kubeconfig/") + QLatin1String(name);
    }
};

void TestKubeConfig::mergeFirstWins()
{
    QString error;
    const auto cfg = KubeConfig::load({data("a.yaml"), data("b.yaml")}, &error);
    QVERIFY2(cfg, qPrintable(error));
    QCOMPARE(cfg->currentContext(), QStringLiteral("lab")); // from the first file
    QCOMPARE(cfg->contexts(), (QStringList{QStringLiteral("lab"), QStringLiteral("insecure"),
                                           QStringLiteral("other"), QStringLiteral("missing-cert"),
                                           QStringLiteral("dangling"), QStringLiteral("typo"),
                                           QStringLiteral("noscheme"), QStringLiteral("notpem")}));
    const auto ep = cfg->endpoint({}, &error);
    QVERIFY2(ep, qPrintable(error));
    QCOMPARE(ep->server, QStringLiteral("https://10.0.0.1:6443")); // not the shadowed one
    QCOMPARE(ep->token, QStringLiteral("first-file-token"));
}

void TestKubeConfig::resolves_data()
{
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<bool>("insecure");
    QTest::addColumn<bool>("hasCa");
    QTest::addRow("relative CA path, namespace, tls name")
        << QStringLiteral("lab") << QStringLiteral("https://10.0.0.1:6443")
        << QStringLiteral("first-file-token") << QStringLiteral("ops") << false << true;
    QTest::addRow("insecure with token file")
        << QStringLiteral("insecure") << QStringLiteral("https://10.0.0.2:6443")
        << QStringLiteral("token-from-file") << QString() << true << false;
}

void TestKubeConfig::resolves()
{
    QFETCH(QString, context);
    QFETCH(QString, server);
    QFETCH(QString, token);
    QFETCH(QString, ns);
    QFETCH(bool, insecure);
    QFETCH(bool, hasCa);
    QString error;
    const auto cfg = KubeConfig::load({data("a.yaml")}, &error);
    QVERIFY(cfg);
    const auto ep = cfg->endpoint(context, &error);
    QVERIFY2(ep, qPrintable(error));
    QCOMPARE(ep->server, server);
    QCOMPARE(ep->token, token);
    QCOMPARE(ep->defaultNamespace, ns);
    QCOMPARE(ep->insecureSkipVerify, insecure);
    QCOMPARE(!ep->caPem.isEmpty(), hasCa);
    if (context == QLatin1String("lab"))
        QCOMPARE(ep->tlsServerName, QStringLiteral("api.lab.internal"));
}

void TestKubeConfig::errors_data()
{
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("message");
    QTest::addRow("unknown context")
        << QStringLiteral("nope") << QStringLiteral("context \"nope\" is not in the kubeconfig");
    QTest::addRow("bad base64")
        << QStringLiteral("other")
        << QStringLiteral(
               "b.yaml: certificate-authority-data of cluster \"other\" is not valid base64");
    QTest::addRow("missing client certificate")
        << QStringLiteral("missing-cert")
        << QStringLiteral("client-certificate of user \"certuser\" names /nonexistent/client.crt");
    QTest::addRow("dangling cluster")
        << QStringLiteral("dangling")
        << QStringLiteral("context \"dangling\" names cluster \"nowhere\", which is not defined");
    QTest::addRow("server with a mistyped scheme")
        << QStringLiteral("typo")
        << QStringLiteral("b.yaml: server of cluster \"typo\" is \"htps://10.0.0.4:6443\"; "
                          "expected https://host[:port]");
    QTest::addRow("server without a scheme")
        << QStringLiteral("noscheme")
        << QStringLiteral("b.yaml: server of cluster \"noscheme\" is \"10.0.0.5:6443\"");
    QTest::addRow("certificate authority that decodes but is not PEM")
        << QStringLiteral("notpem")
        << QStringLiteral("b.yaml: certificate-authority-data of cluster \"notpem\" is not a PEM "
                          "certificate");
}

void TestKubeConfig::errors()
{
    QFETCH(QString, context);
    QFETCH(QString, message);
    QString error;
    const auto cfg = KubeConfig::load({data("b.yaml")}, &error);
    QVERIFY(cfg);
    QVERIFY(!cfg->endpoint(context, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY(!error.contains(QLatin1String("hunter2")));
}

void TestKubeConfig::unreadableFiles()
{
    QString error;
    QVERIFY(!KubeConfig::load({data("broken.yaml")}, &error));
    QVERIFY2(error.contains(QStringLiteral("broken.yaml is not valid YAML (line")),
             qPrintable(error));
    QVERIFY(!KubeConfig::load({data("does-not-exist.yaml")}, &error));
    QVERIFY2(error.contains(QStringLiteral("cannot read kubeconfig")), qPrintable(error));
    // In a $KUBECONFIG list, a missing file is skipped as kubectl skips it.
    QVERIFY(KubeConfig::load({data("does-not-exist.yaml"), data("a.yaml")}, &error));
}

void TestKubeConfig::filesWithoutEndAreRefused()
{
    // A file without an end (or a mistake of gigabytes) is refused after its bound, not read.
    QString error;
    QVERIFY(!KubeConfig::load({QStringLiteral("/dev/zero")}, &error));
    QCOMPARE(error, QStringLiteral("cannot read kubeconfig /dev/zero: larger than 16384 KiB, more "
                                   "than such a file holds"));

    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("config")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("apiVersion: v1\nkind: Config\n"
            "clusters:\n"
            "- name: zero-ca\n  cluster: {server: https://10.0.0.1:6443, certificate-authority: "
            "/dev/zero}\n"
            "- name: ok\n  cluster: {server: https://10.0.0.1:6443}\n"
            "users:\n- name: zero-token\n  user: {tokenFile: /dev/zero}\n"
            "contexts:\n"
            "- name: ca\n  context: {cluster: zero-ca, user: zero-token}\n"
            "- name: token\n  context: {cluster: ok, user: zero-token}\n");
    f.close();
    const auto cfg = KubeConfig::load({f.fileName()}, &error);
    QVERIFY2(cfg, qPrintable(error));
    QVERIFY(!cfg->endpoint(QStringLiteral("ca"), &error));
    QVERIFY2(error.endsWith(QStringLiteral("config: certificate-authority of cluster \"zero-ca\" "
                                           "names /dev/zero, which cannot be read: larger than "
                                           "1024 KiB, more than such a file holds")),
             qPrintable(error));
    QVERIFY(!cfg->endpoint(QStringLiteral("token"), &error));
    QVERIFY2(error.endsWith(QStringLiteral("config: tokenFile of user \"zero-token\" names "
                                           "/dev/zero, which cannot be read: larger than 1024 KiB, "
                                           "more than such a file holds")),
             qPrintable(error));
}

void TestKubeConfig::execPlugin()
{
    QString error;
    const auto cfg = KubeConfig::load({data("exec.yaml")}, &error);
    QVERIFY2(cfg, qPrintable(error));
    auto ep = cfg->endpoint(QStringLiteral("exec-v1"), &error);
    QVERIFY2(ep, qPrintable(error));
    const auto &e = ep->exec;
    QVERIFY(e.isSet());
    QCOMPARE(e.apiVersion, QStringLiteral("client.authentication.k8s.io/v1"));
    // A command with a slash is relative to the kubeconfig, as kubectl resolves it.
    QCOMPARE(e.command, TestPaths::testData(u"/kubeconfig/plugins/get-token"));
    QCOMPARE(e.args, (QStringList{QStringLiteral("get-token"),
                                  QStringLiteral("--oidc-issuer-url=https://sso.lab.internal")}));
    QCOMPARE(e.env.size(), 1);
    QCOMPARE(e.env.first().first, QStringLiteral("LAB_PROFILE"));
    QCOMPARE(e.env.first().second, QStringLiteral("research"));
    QCOMPARE(e.interactiveMode, QStringLiteral("IfAvailable"));
    QVERIFY(e.provideClusterInfo);
    QCOMPARE(e.installHint, QStringLiteral("Install kubelogin from the lab's wiki."));
    QCOMPARE(e.user, QStringLiteral("oidc"));
    QVERIFY(ep->token.isEmpty());

    ep = cfg->endpoint(QStringLiteral("exec-beta"), &error);
    QVERIFY2(ep, qPrintable(error));
    QCOMPARE(ep->exec.command, QStringLiteral("aws")); // a bare name stays for PATH lookup
    QVERIFY(ep->exec.interactiveMode.isEmpty());       // optional before v1
}

void TestKubeConfig::execErrors_data()
{
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("message");
    QTest::addRow("v1 without interactiveMode")
        << QStringLiteral("exec-no-mode")
        << QStringLiteral("exec.yaml: exec of user \"no-mode\": interactiveMode must be set");
    QTest::addRow("v1alpha1") << QStringLiteral("exec-bad-version")
                              << QStringLiteral("exec of user \"alpha\": apiVersion "
                                                "\"client.authentication.k8s.io/v1alpha1\" is "
                                                "not supported");
    QTest::addRow("no command") << QStringLiteral("exec-no-command")
                                << QStringLiteral("exec of user \"no-command\" has no command");
    QTest::addRow("ftp proxy") << QStringLiteral("ftp-proxy")
                               << QStringLiteral("proxy-url of cluster \"ftp-proxy\" is "
                                                 "\"ftp://127.0.0.1:21\"");
    // Its password stays out of the message.
    QTest::addRow("https proxy") << QStringLiteral("https-proxy")
                                 << QStringLiteral("exec.yaml: proxy-url of cluster \"tls-proxy\" "
                                                   "is \"https://proxy.lab.internal:3128\", an "
                                                   "https:// proxy; gpudesk reaches proxies over "
                                                   "http:// or socks5:// only");
    QTest::addRow("expired client certificate")
        << QStringLiteral("expired-cert")
        << QStringLiteral("exec.yaml: client-certificate of user \"expired\" expired on "
                          "2025-01-01T00:00:00Z");
}

void TestKubeConfig::execErrors()
{
    QFETCH(QString, context);
    QFETCH(QString, message);
    QString error;
    const auto cfg = KubeConfig::load({data("exec.yaml")}, &error);
    QVERIFY(cfg);
    QVERIFY(!cfg->endpoint(context, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY(!error.contains(QLatin1String("hunter2")));
}

void TestKubeConfig::proxyUrl()
{
    QString error;
    const auto cfg = KubeConfig::load({data("exec.yaml")}, &error);
    QVERIFY(cfg);
    const auto ep = cfg->endpoint(QStringLiteral("proxied"), &error);
    QVERIFY2(ep, qPrintable(error));
    QCOMPARE(ep->proxyUrl, QStringLiteral("socks5://user:secret@127.0.0.1:1081"));
}

void TestKubeConfig::execCredentials_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("apiVersion");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("expiry"); // ISO, "" for none
    QTest::addColumn<QString>("error");
    const QString v1 = QStringLiteral("client.authentication.k8s.io/v1");
    const QString beta = QStringLiteral("client.authentication.k8s.io/v1beta1");
    QTest::addRow("aws eks get-token")
        << "eks-v1beta1.json" << beta
        << "k8s-aws-v1."
           "aHR0cHM6Ly9zdHMuZXUtd2VzdC0xLmFtYXpvbmF3cy5jb20vP0FjdGlvbj1HZXRDYWxsZXJJZGVudGl0eQ"
        << "2026-11-22T10:14:00.000Z" << QString();
    QTest::addRow("gke-gcloud-auth-plugin, fractional seconds")
        << "gke-v1beta1.json" << beta << "ya29.a0AfB_byC-example-token"
        << "2026-11-22T11:02:45.123Z" << QString();
    QTest::addRow("no expiry") << "no-expiry-v1.json" << v1 << "static-token" << QString()
                               << QString();
    QTest::addRow("answers another version")
        << "wrong-version.json" << v1 << QString() << QString()
        << "it answered apiVersion \"client.authentication.k8s.io/v1beta1\"";
    QTest::addRow("certificate without key") << "half-cert.json" << v1 << QString() << QString()
                                             << "only one of clientCertificateData and "
                                                "clientKeyData";
    QTest::addRow("bad time") << "bad-time.json" << v1 << QString() << QString()
                              << "expirationTimestamp \"tomorrow\" is not an RFC 3339 time";
    QTest::addRow("empty status") << "empty-status.json" << v1 << QString() << QString()
                                  << "neither a token nor clientCertificateData";
    QTest::addRow("device-code prompt on stdout")
        << "not-json.txt" << v1 << QString() << QString() << "its output is not JSON";
}

void TestKubeConfig::execCredentials()
{
    QFETCH(QString, file);
    QFETCH(QString, apiVersion);
    QFETCH(QString, token);
    QFETCH(QString, expiry);
    QFETCH(QString, error);
    QFile f(TestPaths::testData(u"/exec/") + file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QString why;
    const auto c = ExecCredentialRunner::parse(f.readAll(), apiVersion, &why);
    if (!error.isEmpty()) {
        QVERIFY(!c);
        QVERIFY2(why.contains(error), qPrintable(why));
        return;
    }
    QVERIFY2(c, qPrintable(why));
    QCOMPARE(c->token, token);
    QCOMPARE(c->expiry.isValid() ? c->expiry.toUTC().toString(Qt::ISODateWithMs) : QString(),
             expiry);
}

void TestKubeConfig::execInfo()
{
    QString error;
    const auto cfg = KubeConfig::load({data("exec.yaml")}, &error);
    QVERIFY(cfg);
    const auto ep = cfg->endpoint(QStringLiteral("exec-v1"), &error);
    QVERIFY(ep);
    ExecCredentialRunner runner(ep->exec, QStringLiteral("https://10.0.0.1:6443"), "PEM");
    const QJsonObject info = QJsonDocument::fromJson(runner.execInfo()).object();
    QCOMPARE(info.value(QStringLiteral("kind")).toString(), QStringLiteral("ExecCredential"));
    QCOMPARE(info.value(QStringLiteral("apiVersion")).toString(), ep->exec.apiVersion);
    const QJsonObject spec = info.value(QStringLiteral("spec")).toObject();
    QCOMPARE(spec.value(QStringLiteral("interactive")).toBool(true), false);
    const QJsonObject cluster = spec.value(QStringLiteral("cluster")).toObject();
    QCOMPARE(cluster.value(QStringLiteral("server")).toString(),
             QStringLiteral("https://10.0.0.1:6443"));
    QCOMPARE(cluster.value(QStringLiteral("certificate-authority-data")).toString(),
             QStringLiteral("UEVN"));
}

void TestKubeConfig::endlessPluginIsStopped()
{
    // A plugin that prints without end (here `yes`) is stopped at the bound, its output dropped.
    gpudesk::ExecConfig config;
    config.apiVersion = QStringLiteral("client.authentication.k8s.io/v1");
    config.command = QStringLiteral("yes");
    config.interactiveMode = QStringLiteral("Never");
    config.user = QStringLiteral("flood");
    config.file = QStringLiteral("/k");
    ExecCredentialRunner runner(config, QStringLiteral("https://10.0.0.1:6443"), {});
    QSignalSpy failed(&runner, &ExecCredentialRunner::failed);
    QSignalSpy finished(&runner, &ExecCredentialRunner::finished);
    runner.start();
    QVERIFY(failed.wait(20000));
    QCOMPARE(failed.first().first().toString(),
             QStringLiteral("The credential plugin yes of user \"flood\" in /k printed more than "
                            "1024 KiB, which no credential needs: stopped it."));
    QCOMPARE(finished.size(), 0);
}

QTEST_GUILESS_MAIN(TestKubeConfig)
#include "tst_kubeconfig.moc"
