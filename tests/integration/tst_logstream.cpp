// SPDX-License-Identifier: GPL-3.0-or-later
// A followed log against servers that misbehave: a line that never ends is shown cut and the
// stream goes on; a stream gone quiet is opened again from its last line while the server
// answers (nothing lost, nothing repeated); a server that answers nothing is said to be so.
#include "kubeclient.h"
#include "logstream.h"
#include "scriptedendpoint.h"

#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

using namespace gpudesk;

namespace {

const QByteArray kLogPath = "/api/v1/namespaces/user-bob/pods/train-0/log";

QByteArray line(int n, const QByteArray &text)
{
    return "2026-11-23T10:00:00.00000000" + QByteArray::number(n) + "Z " + text + '\n';
}

} // namespace

class TestLogStream : public QObject
{
    Q_OBJECT
private slots:
    void longLineIsCut();
    void quietStreamResumesFromItsLastLine();
    void silentServerIsSaid();
};

void TestLogStream::longLineIsCut()
{
    // 3 MiB without a newline, then the line's end and one more line; the stream stays open.
    ScriptedServer server([](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (!r.target.startsWith(kLogPath))
            return;
        ScriptedServer::startChunked(s, 200, "text/plain");
        ScriptedServer::chunk(s, line(1, "first"));
        ScriptedServer::chunk(s, "2026-11-23T10:00:00.000000002Z ");
        for (int i = 0; i < 3; ++i)
            ScriptedServer::chunk(s, QByteArray(1 << 20, 'x'));
        ScriptedServer::chunk(s, "yyy\n" + line(3, "after"));
    });
    KubeClient client(endpointOf(server));
    LogStream stream(&client, QStringLiteral("user-bob"), QStringLiteral("train-0"));
    QList<LogLine> got;
    connect(&stream, &LogStream::lines, this, [&](const QList<LogLine> &l) { got += l; });
    LogStream::Options o;
    o.quietCheckMs = 0;
    stream.start(o);
    QTRY_COMPARE_WITH_TIMEOUT(got.size(), 3, 10000);
    QCOMPARE(got[0].text, QByteArray("first"));
    QCOMPARE(got[1].timestamp, QByteArray("2026-11-23T10:00:00.000000002Z"));
    QVERIFY(got[1].text.startsWith("xxxxxxxx"));
    QVERIFY(got[1].text.endsWith("[line cut at 1 MiB by gpudesk; a download keeps it whole]"));
    QVERIFY2(got[1].text.size() < LogStream::MaxLineBytes + 100,
             qPrintable(QString::number(got[1].text.size())));
    QVERIFY(!got[1].text.contains("yyy"));
    QCOMPARE(got[2].text, QByteArray("after"));
    QCOMPARE(stream.state(), LogStream::Streaming);
}

void TestLogStream::quietStreamResumesFromItsLastLine()
{
    // The first stream sends two lines and falls silent, as one a proxy dropped without a word.
    // Asked again from the last line's time, the server sends that line again and a new one.
    int opened = 0;
    ScriptedServer server([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (r.target.startsWith("/version")) {
            ScriptedServer::respond(s, 200, R"({"major":"1","minor":"29"})");
            return;
        }
        if (!r.target.startsWith(kLogPath))
            return;
        ScriptedServer::startChunked(s, 200, "text/plain");
        // The traceback came on stderr, stamped before the last line on stdout (the runtime
        // reads the two pipes apart): it is shown once, in the first answer, not in the replay.
        if (++opened == 1)
            ScriptedServer::chunk(s, line(1, "epoch 1") + line(3, "epoch 2") +
                                         line(2, "Traceback (most recent call last):"));
        else if (opened == 2)
            ScriptedServer::chunk(s, line(1, "epoch 1") + line(3, "epoch 2") +
                                         line(2, "Traceback (most recent call last):") +
                                         line(4, "epoch 3"));
    });
    KubeClient client(endpointOf(server));
    LogStream stream(&client, QStringLiteral("user-bob"), QStringLiteral("train-0"));
    QList<LogLine> got;
    connect(&stream, &LogStream::lines, this, [&](const QList<LogLine> &l) { got += l; });
    QSignalSpy states(&stream, &LogStream::stateChanged);
    LogStream::Options o;
    o.quietCheckMs = 500;
    stream.start(o);
    QTRY_COMPARE_WITH_TIMEOUT(got.size(), 4, 10000);
    QCOMPARE(got[0].text, QByteArray("epoch 1"));
    QCOMPARE(got[1].text, QByteArray("epoch 2"));
    QCOMPARE(got[2].text, QByteArray("Traceback (most recent call last):"));
    QCOMPARE(got[3].text, QByteArray("epoch 3"));
    QCOMPARE(server.count("/version"), 1);
    QCOMPARE(server.count(kLogPath), 2);
    QVERIFY(server.requests().last().target.contains("sinceTime=2026-11-23T10"));
    for (const QList<QVariant> &s : states)
        QCOMPARE(s.first().value<LogStream::State>(), LogStream::Streaming);
}

void TestLogStream::silentServerIsSaid()
{
    // One line, then nothing; the server accepts the check's connection and never answers.
    ScriptedServer server([](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (r.target.startsWith(kLogPath)) {
            ScriptedServer::startChunked(s, 200, "text/plain");
            ScriptedServer::chunk(s, line(1, "loading data"));
        }
    });
    KubeClient client(endpointOf(server));
    LogStream stream(&client, QStringLiteral("user-bob"), QStringLiteral("train-0"));
    QSignalSpy states(&stream, &LogStream::stateChanged);
    LogStream::Options o;
    o.quietCheckMs = 500;
    stream.start(o);
    QTRY_COMPARE_WITH_TIMEOUT(stream.state(), LogStream::Reconnecting, 10000);
    const QString message = states.last().at(1).toString();
    QVERIFY2(message.startsWith(QLatin1String("No log line for 0.5 s, and ")) &&
                 message.contains(server.url()) &&
                 message.contains(QLatin1String("did not answer a check within 5 s")) &&
                 message.contains(QLatin1String("the API server is not responding")),
             qPrintable(message));
}

QTEST_GUILESS_MAIN(TestLogStream)
#include "tst_logstream.moc"
