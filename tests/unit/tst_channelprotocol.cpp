// SPDX-License-Identifier: GPL-3.0-or-later
// The client's side of the Kubernetes channel protocols: frames as the API server reads them,
// the kubelet's exit Status in every shape it comes in, port announcements.
#include "channelprotocol.h"

#include <QTest>

using namespace gpudesk;

class TestChannelProtocol : public QObject
{
    Q_OBJECT
private slots:
    void frames();
    void execStatus_data();
    void execStatus();
    void portPrefix();
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

QTEST_GUILESS_MAIN(TestChannelProtocol)
#include "tst_channelprotocol.moc"
