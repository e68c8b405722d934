// SPDX-License-Identifier: GPL-3.0-or-later
// kubeconfig as kubectl reads it: merging with first-wins, relative paths, and every broken case
// answered with a message that names the field and the file.
#include "kubeconfig.h"

#include <QTest>

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

private:
    static QString data(const char *name)
    {
        return QStringLiteral(GPUDESK_TEST_DATA "/kubeconfig/") + QLatin1String(name);
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
                                           QStringLiteral("dangling")}));
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

QTEST_GUILESS_MAIN(TestKubeConfig)
#include "tst_kubeconfig.moc"
