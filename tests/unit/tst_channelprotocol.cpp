// SPDX-License-Identifier: GPL-3.0-or-later
// The client's side of the Kubernetes channel protocols: frames as the API server reads them,
// the kubelet's exit Status in every shape it comes in, port announcements.
#include "channelprotocol.h"
#include "kubeclient.h"
#include "podwebsocket.h"

#include <QSignalSpy>
#include <QTest>
#include <QWebSocket>
#include <QWebSocketServer>

using namespace gpudesk;

class TestChannelProtocol : public QObject
{
    Q_OBJECT
private slots:
    void frames();
    void execStatus_data();
    void execStatus();
    void portPrefix();
    void messagesAreBounded_data();
    void messagesAreBounded();
};

void TestChannelProtocol::frames()
{
    QCOMPARE(channel::frame(channel::Stdin, "ls\n"), QByteArray("\x00ls\n", 4));
    // v5's close signal is two bytes, 255 then the channel (a QByteArray{255, 0} would be empty).
    QCOMPARE(channel::closeFrame(channel::Stdin), QByteArray("\xff\x00", 2));
    QCOMPARE(channel::resizeFrame(120, 40), QByteArray("\x04{\"Height\":40,\"Width\":120}"));
}

void TestChannelProtocol::execStatus_data()
{
    QTest::addColumn<QByteArray>("status");
    QTest::addColumn<bool>("parsed");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error");
    QTest::newRow("success") << QByteArray(R"({"metadata":{},"status":"Success"})") << true << 0
                             << QString();
    QTest::newRow("exit code")
        << QByteArray(R"({"metadata":{},"status":"Failure","message":"command terminated with )"
                      R"(non-zero exit code: error executing command [sh -c exit 3], exit code 3",)"
                      R"("reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode",)"
                      R"("message":"3"}]}})")
        << true << 3 << QString();
    QTest::newRow("cannot start")
        << QByteArray(R"({"status":"Failure","message":"exec: \"x\": executable file not found",)"
                      R"("reason":"InternalError","code":500})")
        << true << -1 << QStringLiteral("exec: \"x\": executable file not found");
    QTest::newRow("exit code without its cause")
        << QByteArray(R"({"status":"Failure","reason":"NonZeroExitCode","message":"m"})") << true
        << -1 << QStringLiteral("m");
    QTest::newRow("failure without message")
        << QByteArray(R"({"status":"Failure"})") << true << -1
        << QStringLiteral("the command failed without saying why");
    QTest::newRow("not JSON") << QByteArray("\x01garbage") << false << 0 << QString();
    QTest::newRow("not a status") << QByteArray(R"({"kind":"Pod"})") << false << 0 << QString();
}

void TestChannelProtocol::execStatus()
{
    QFETCH(QByteArray, status);
    QFETCH(bool, parsed);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    const auto end = channel::parseExecStatus(status);
    QCOMPARE(end.has_value(), parsed);
    if (!parsed)
        return;
    QCOMPARE(end->exitCode, exitCode);
    QCOMPARE(end->error, error);
}

void TestChannelProtocol::portPrefix()
{
    QCOMPARE(channel::portPrefix(QByteArray("\xb8\x22", 2)), std::optional<quint16>(8888));
    QCOMPARE(channel::portPrefix(QByteArray("\x16\x00rest", 6)), std::optional<quint16>(22));
    QVERIFY(!channel::portPrefix(QByteArray("\x16", 1)));
}

void TestChannelProtocol::messagesAreBounded_data()
{
    QTest::addColumn<qint64>("frameBytes"); // how the hostile server cuts its message
    QTest::addColumn<qint64>("messageBytes");
    QTest::addColumn<bool>("delivered");
    QTest::addRow("a kubelet's 32 KiB read") << qint64(32 << 10) << qint64(32 << 10) << true;
    QTest::addRow("exactly the bound") << qint64(1 << 20) << qint64(1 << 20) << true;
    // Issue 33: a frame over 1 MiB was never read — the tunnel stalled, reconnected into the
    // same stall every 60 s; 1 GiB in 512 KiB fragments was taken whole (2.13 GB).
    QTest::addRow("one frame of 2 MiB") << qint64(4 << 20) << qint64(2 << 20) << false;
    QTest::addRow("64 MiB in 512 KiB fragments") << qint64(512 << 10) << qint64(64 << 20) << false;
}

void TestChannelProtocol::messagesAreBounded()
{
    QFETCH(qint64, frameBytes);
    QFETCH(qint64, messageBytes);
    QFETCH(bool, delivered);
    // The outermost edge only: Qt's own WebSocket server plays a hostile API server.
    QWebSocketServer server(QStringLiteral("hostile"), QWebSocketServer::NonSecureMode);
    server.setSupportedSubprotocols({QStringLiteral("v4.channel.k8s.io")});
    QVERIFY(server.listen(QHostAddress::LocalHost));
    connect(&server, &QWebSocketServer::newConnection, &server, [&] {
        QWebSocket *peer = server.nextPendingConnection();
        peer->setParent(&server);
        peer->setOutgoingFrameSize(quint64(frameBytes));
        peer->sendBinaryMessage(QByteArray(messageBytes, 'x'));
    });
    ClusterEndpoint ep;
    ep.server = QStringLiteral("http://127.0.0.1:%1").arg(server.serverPort());
    ep.token = QStringLiteral("t");
    KubeClient client(ep);
    PodWebSocket ws(&client, QStringLiteral("/api/v1/namespaces/n/pods/p/exec?command=sh"),
                    {QStringLiteral("v4.channel.k8s.io")});
    QSignalSpy messages(&ws, &PodWebSocket::message);
    QSignalSpy failed(&ws, &PodWebSocket::failed);
    ws.open();
    if (delivered) {
        QVERIFY(messages.wait(20000));
        QCOMPARE(messages.first().first().toByteArray().size(), messageBytes);
        QVERIFY(failed.isEmpty());
        return;
    }
    QVERIFY(failed.wait(20000));
    QVERIFY(messages.isEmpty());
    const QString error = failed.first().first().toString();
    QVERIFY2(error.contains(u"more than 1024 KiB in one message"_qs), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestChannelProtocol)
#include "tst_channelprotocol.moc"
