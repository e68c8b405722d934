// SPDX-License-Identifier: GPL-3.0-or-later
// Exec and port-forward over WebSocket into a dev environment of a simulator of this test's own,
// whose jupyter and ssh ports lead to the test peers' real Jupyter server and OpenSSH sshd:
// commands and their exit codes; a tunnel that reaches Jupyter's API with its token (and is
// refused without); a dropped stream re-established within 2 s; a recreated pod reached on the
// same local port; pings that keep a stream alive past the kubelet's idle timeout; ssh through
// `gpudesk --stdio-forward` as its ProxyCommand; `gpudesk --exec` on a pseudo-terminal; what
// Jupyter says of its kernels and terminals, asked through exec and port-forward.
#include "jupyterprobe.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "podexec.h"
#include "simprocess.h"
#include "testpaths.h"
#include "tunnel.h"
#include "tunnelsservice.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QHostInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

using namespace gpudesk;

class TestTunnels : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void execCommands();
    void execRefusals();
    void execTerminalUnderPty();
    void jupyterProbeSeesUse();
    void tunnelReachesJupyter();
    void droppedStreamComesBack();
    void recreatedPodSameLocalPort();
    void pingsOutliveIdleTimeout();
    void frozenServerCutsStreamsThenBack();
    void sshThroughStdioForward();
    void unreachableTargetsSayWhy();
    void serviceRunsTunnelsOnItsThread();

private:
    static QString peerFile(const QString &name);
    // The tunnel listening and live, `socket` connected through it and answered once.
    void listenAndAnswer(Tunnel &tunnel, QTcpSocket &socket);
    std::unique_ptr<KubeClient> client(const QString &context) const;
    struct Run
    {
        int exitCode = -2;
        QString error;
        QByteArray out;
        QByteArray err;
        QString protocol;
    };
    Run exec(const QString &ns, const QString &pod, const QStringList &command,
             const QByteArray &stdinData = {}) const;
    // One HTTP/1.1 request on `socket` (kept alive); the response's status line and body.
    static QByteArray httpGet(QTcpSocket &socket, const QByteArray &path, const QByteArray &token);

    SimProcess m_sim;
    std::unique_ptr<KubeClient> m_alice;
    QByteArray m_token;
};

QString TestTunnels::peerFile(const QString &name)
{
    QFile f(qEnvironmentVariable("GPUDESK_PEERS") + u'/' + name);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

void TestTunnels::initTestCase()
{
    const QString jupyterPort = peerFile(QStringLiteral("jupyter/port"));
    const QString sshPort = peerFile(QStringLiteral("sshd/port"));
    QVERIFY2(!jupyterPort.isEmpty() && !sshPort.isEmpty(), "the test peers are not running");
    m_token = peerFile(QStringLiteral("jupyter/token")).toUtf8();
    QString error;
    QVERIFY2(m_sim.start({QStringLiteral("--no-ssh"), QStringLiteral("--service-backend"),
                          QStringLiteral("jupyter=127.0.0.1:") + jupyterPort,
                          QStringLiteral("--service-backend"),
                          QStringLiteral("ssh=127.0.0.1:") + sshPort,
                          QStringLiteral("--jupyter-token-file"),
                          qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/jupyter/token")},
                         &error),
             qPrintable(error));
    m_alice = client(QStringLiteral("sim-alice"));
    QVERIFY(m_alice);
}

std::unique_ptr<KubeClient> TestTunnels::client(const QString &context) const
{
    QString error;
    const auto config = KubeConfig::load({m_sim.kubeconfig()}, &error);
    const auto endpoint = config ? config->endpoint(context, &error) : std::nullopt;
    return endpoint ? std::make_unique<KubeClient>(*endpoint) : nullptr;
}

TestTunnels::Run TestTunnels::exec(const QString &ns, const QString &pod,
                                   const QStringList &command, const QByteArray &stdinData) const
{
    PodExec::Options options;
    options.stdin = !stdinData.isEmpty();
    PodExec e(m_alice.get(), ns, pod, command, options);
    Run run;
    QObject::connect(&e, &PodExec::started, &e, [&] {
        run.protocol = e.protocol();
        if (options.stdin) {
            e.writeStdin(stdinData);
            e.closeStdin();
        }
    });
    QObject::connect(&e, &PodExec::finished, &e, [&](int code, const QString &error) {
        run.exitCode = code;
        run.error = error;
    });
    QSignalSpy done(&e, &PodExec::finished);
    e.start();
    if (!done.wait(15000))
        run.error = QStringLiteral("no end in 15 s");
    run.out = e.stdoutData();
    run.err = e.stderrData();
    return run;
}

void TestTunnels::execCommands()
{
    const QString ns = QStringLiteral("user-alice"), pod = QStringLiteral("dev-alice");
    Run r = exec(ns, pod, {QStringLiteral("hostname")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.error));
    QCOMPARE(r.out, QByteArray("dev-alice\n"));
    QCOMPARE(r.protocol, QStringLiteral("v5.channel.k8s.io"));
    // An argument with a '+' and spaces arrives whole (a '+' is a space in a query string).
    r = exec(ns, pod, {QStringLiteral("echo"), QStringLiteral("1+1 = 2")});
    QCOMPARE(r.out, QByteArray("1+1 = 2\n"));
    r = exec(ns, pod, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("exit 3")});
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.error.isEmpty());
    r = exec(ns, pod, {QStringLiteral("no-such-tool")});
    QCOMPARE(r.exitCode, -1);
    QVERIFY2(r.error.contains(QLatin1String("executable file not found")), qPrintable(r.error));
    // Jupyter's own listing names the real server's token.
    r = exec(ns, pod,
             {QStringLiteral("jupyter"), QStringLiteral("server"), QStringLiteral("list"),
              QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject server = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(server.value(QLatin1String("token")).toString().toUtf8(), m_token);
    QCOMPARE(server.value(QLatin1String("port")).toInt(), 8888);
    // stdin, and its end through v5's close signal.
    r = exec(ns, pod, {QStringLiteral("cat")}, QByteArray("through stdin\n"));
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QByteArray("through stdin\n"));
}

void TestTunnels::execRefusals()
{
    // alice may not exec into bob's namespace: the 403 said so, not a bare status code.
    Run r =
        exec(QStringLiteral("user-bob"), QStringLiteral("dev-bob"), {QStringLiteral("hostname")});
    QCOMPARE(r.exitCode, -1);
    QVERIFY2(r.error.contains(QLatin1String("403")) && r.error.contains(QLatin1String("dev-bob")),
             qPrintable(r.error));
    r = exec(QStringLiteral("user-alice"), QStringLiteral("no-such-pod"),
             {QStringLiteral("hostname")});
    QVERIFY2(r.error.contains(QLatin1String("not in user-alice")), qPrintable(r.error));
}

QByteArray TestTunnels::httpGet(QTcpSocket &socket, const QByteArray &path, const QByteArray &token)
{
    QByteArray request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (!token.isEmpty())
        request += "Authorization: token " + token + "\r\n";
    socket.write(request + "\r\n");
    QByteArray response;
    QElapsedTimer t;
    t.start();
    // Until the body's Content-Length is in; the tunnel works on this thread's event loop,
    // which the signal spy's wait runs.
    QSignalSpy readable(&socket, &QTcpSocket::readyRead);
    while (t.elapsed() < 15000) {
        const qsizetype head = response.indexOf("\r\n\r\n");
        if (head >= 0) {
            const qsizetype at = response.toLower().indexOf("content-length:");
            const qsizetype length =
                at < 0 ? 0
                       : response.mid(at + 15, response.indexOf("\r\n", at) - at - 15)
                             .trimmed()
                             .toLongLong();
            if (response.size() >= head + 4 + length)
                return response.left(response.indexOf("\r\n")) + "\n" + response.mid(head + 4);
        }
        if (socket.bytesAvailable() == 0 && !readable.wait(15000 - int(t.elapsed())))
            break;
        response += socket.readAll();
    }
    return response;
}

void TestTunnels::execTerminalUnderPty()
{
    // `gpudesk --exec` on a terminal of its own, as a terminal emulator would run it: a shell
    // prompt, a command's answer, the window's size followed, and the shell's exit status.
    const QByteArray bin = TestPaths::gpudeskBin().toLocal8Bit();
    const QByteArray kubeconfig = m_sim.kubeconfig().toUtf8();
    winsize size{};
    size.ws_row = 40;
    size.ws_col = 120;
    int master = -1;
    pid_t child = -1;
    // Whatever ends the test, no gpudesk is left behind on a terminal of its own.
    const auto reap = qScopeGuard([&] {
        if (child > 0 && ::waitpid(child, nullptr, WNOHANG) == 0) {
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
        }
        if (master >= 0)
            ::close(master);
    });
    auto spawn = [&] {
        child = forkpty(&master, nullptr, nullptr, &size);
        if (child == 0) {
            ::execl(bin.constData(), bin.constData(), "--kubeconfig", kubeconfig.constData(),
                    "--exec", "sim-alice/user-alice/dev-alice", static_cast<char *>(nullptr));
            ::_exit(127);
        }
    };
    spawn();
    QVERIFY(child > 0);
    QByteArray seen;
    // Reads the terminal until `needle` has been printed since `from`, for up to 15 s.
    auto waitFor = [&](const QByteArray &needle, qsizetype from) {
        QDeadlineTimer deadline(15000);
        while (seen.indexOf(needle, from) < 0 && !deadline.hasExpired()) {
            pollfd p{master, POLLIN, 0};
            if (::poll(&p, 1, int(deadline.remainingTime())) <= 0)
                break;
            char buf[4096];
            const ssize_t n = ::read(master, buf, sizeof buf);
            if (n <= 0)
                break;
            seen.append(buf, n);
        }
        return seen.indexOf(needle, from) >= 0;
    };
    auto type = [&](const QByteArray &line) {
        QCOMPARE(::write(master, line.constData(), size_t(line.size())), ssize_t(line.size()));
    };
    QVERIFY2(waitFor("a shell in dev-alice", 0), seen.constData());
    QVERIFY2(waitFor("# ", 0), seen.constData());
    qsizetype from = seen.size();
    type("hostname\r");
    QVERIFY2(waitFor("hostname\r\ndev-alice\r\n", from), seen.constData());
    from = seen.size();
    type("stty size\r");
    QVERIFY2(waitFor("\r\n40 120\r\n", from), seen.constData());
    // The window grows: the kernel signals gpudesk, which tells the pod's terminal. The prompt
    // is asked again until the new size has reached it (the signal and the typing race).
    size.ws_row = 50;
    size.ws_col = 160;
    QCOMPARE(::ioctl(master, TIOCSWINSZ, &size), 0);
    bool resized = false;
    for (int i = 0; i < 20 && !resized; ++i) {
        from = seen.size();
        type("stty size\r");
        QVERIFY2(waitFor("\r\n# ", from), seen.constData());
        resized = seen.indexOf("\r\n50 160\r\n", from) >= 0;
    }
    QVERIFY2(resized, seen.constData());
    type("exit\r");
    int status = 0;
    QDeadlineTimer deadline(15000);
    pid_t done = 0;
    while ((done = ::waitpid(child, &status, WNOHANG)) == 0 && !deadline.hasExpired())
        waitFor("never printed", seen.size()); // drains the terminal while the child ends
    QCOMPARE(done, child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    ::close(master);
    master = -1;

    // Its window closed under it (SIGHUP, as a terminal emulator does): the terminal is given
    // back as it was (canonical, echoing) and the status says the signal.
    seen.clear();
    spawn();
    QVERIFY(child > 0);
    QVERIFY2(waitFor("# ", 0), seen.constData());
    termios mode{};
    QCOMPARE(::tcgetattr(master, &mode), 0);
    QVERIFY2(!(mode.c_lflag & ICANON) && !(mode.c_lflag & ECHO), "not in raw mode");
    QCOMPARE(::kill(child, SIGHUP), 0);
    deadline.setRemainingTime(15000);
    while ((done = ::waitpid(child, &status, WNOHANG)) == 0 && !deadline.hasExpired())
        waitFor("never printed", seen.size());
    QCOMPARE(done, child);
    QVERIFY(WIFEXITED(status));
    QVERIFY2(
        WEXITSTATUS(status) == 128 + SIGHUP,
        qPrintable(
            QStringLiteral("exit %1: %2").arg(WEXITSTATUS(status)).arg(QString::fromUtf8(seen))));
    QCOMPARE(::tcgetattr(master, &mode), 0);
    QVERIFY2((mode.c_lflag & ICANON) && (mode.c_lflag & ECHO), "the terminal was left raw");

    // A target that is not one: exit 2 and the form it takes, at once.
    QProcess bad;
    bad.start(TestPaths::gpudeskBin(), {QStringLiteral("--kubeconfig"), m_sim.kubeconfig(),
                                        QStringLiteral("--exec"), QStringLiteral("dev-alice")});
    QVERIFY(bad.waitForFinished(10000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().contains("CONTEXT/NAMESPACE/ENVIRONMENT"));
    // bob's environment: alice may not exec there, and is told so.
    QProcess refused;
    refused.start(TestPaths::gpudeskBin(),
                  {QStringLiteral("--kubeconfig"), m_sim.kubeconfig(), QStringLiteral("--exec"),
                   QStringLiteral("sim-alice/user-bob/dev-bob")});
    refused.closeWriteChannel();
    QVERIFY(refused.waitForFinished(15000));
    QCOMPARE(refused.exitCode(), 1);
    const QByteArray why = refused.readAllStandardError();
    QVERIFY2(why.contains("403") || why.contains("forbidden") || why.contains("Forbidden"),
             why.constData());
}

void TestTunnels::jupyterProbeSeesUse()
{
    const QString ns = QStringLiteral("user-alice"), pod = QStringLiteral("dev-alice");
    auto probe = [&] {
        JupyterProbe p(m_alice.get(), ns, pod, 8888);
        QSignalSpy done(&p, &JupyterProbe::finished);
        p.start();
        [&] { QVERIFY(done.wait(JupyterProbe::TimeoutMs + 5000)); }();
        return done.isEmpty() ? JupyterUse{} : done.first().first().value<JupyterUse>();
    };
    // A terminal opened in the real server (as a user's browser would): the probe sees it and
    // when it was last used; closed, it is gone.
    const QString port = peerFile(QStringLiteral("jupyter/port"));
    QTcpSocket direct;
    direct.connectToHost(QHostAddress::LocalHost, quint16(port.toUInt()));
    QVERIFY(direct.waitForConnected(5000));
    direct.write("POST /api/terminals HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: token " +
                 m_token + "\r\nContent-Length: 0\r\n\r\n");
    QByteArray answer;
    while (!answer.contains("}") && direct.waitForReadyRead(10000))
        answer += direct.readAll();
    QVERIFY2(answer.startsWith("HTTP/1.1 200"), answer.constData());
    const QString name = QJsonDocument::fromJson(answer.mid(answer.indexOf("\r\n\r\n") + 4))
                             .object()
                             .value(QLatin1String("name"))
                             .toString();
    QVERIFY(!name.isEmpty());
    const qint64 opened = QDateTime::currentMSecsSinceEpoch();
    const JupyterUse use = probe();
    QVERIFY2(use.error.isEmpty(), qPrintable(use.error));
    QVERIFY(use.checked > 0);
    QVERIFY2(use.terminals >= 1, qPrintable(QString::number(use.terminals)));
    QVERIFY2(qAbs(use.lastActivity - opened) < 60000,
             qPrintable(QStringLiteral("%1 vs %2").arg(use.lastActivity).arg(opened)));
    QVERIFY(!use.busy);
    direct.write("DELETE /api/terminals/" + name.toUtf8() +
                 " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: token " + m_token + "\r\n\r\n");
    answer.clear();
    while (!answer.contains("\r\n\r\n") && direct.waitForReadyRead(10000))
        answer += direct.readAll();
    QVERIFY2(answer.startsWith("HTTP/1.1 204"), answer.constData());
    // jupyter-server answers the DELETE once the terminal's process is signalled; the list
    // drops it when the process has ended, a moment later: asked again until it has.
    QTRY_COMPARE_WITH_TIMEOUT(probe().terminals, use.terminals - 1, 15000);

    // Where alice may not exec, the probe says why instead of a figure.
    JupyterProbe refused(m_alice.get(), QStringLiteral("user-bob"), QStringLiteral("dev-bob"),
                         8888);
    QSignalSpy done(&refused, &JupyterProbe::finished);
    refused.start();
    QVERIFY(done.wait(JupyterProbe::TimeoutMs + 5000));
    const JupyterUse no = done.first().first().value<JupyterUse>();
    QVERIFY2(no.error.contains(QLatin1String("403")), qPrintable(no.error));
    QCOMPARE(no.checked, 0);
}

void TestTunnels::tunnelReachesJupyter()
{
    Tunnel tunnel(m_alice.get(), QStringLiteral("user-alice"), QStringLiteral("dev-alice"), 8888);
    QString error;
    QVERIFY2(tunnel.listen(0, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(tunnel.state(), Tunnel::State::Live, 10000);
    QCOMPARE(tunnel.pod(), QStringLiteral("dev-alice"));
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, tunnel.localPort());
    QVERIFY(s.waitForConnected(5000));
    const QByteArray ok = httpGet(s, "/api/status", m_token);
    QVERIFY2(ok.startsWith("HTTP/1.1 200"), ok.constData());
    QVERIFY2(QJsonDocument::fromJson(ok.mid(ok.indexOf('\n') + 1))
                 .object()
                 .contains(QLatin1String("started")),
             ok.constData());
    const QByteArray refused = httpGet(s, "/api/status", {});
    QVERIFY2(refused.startsWith("HTTP/1.1 403"), refused.constData());
    QVERIFY(tunnel.bytesIn() > 0 && tunnel.bytesOut() > 0);
}

void TestTunnels::listenAndAnswer(Tunnel &tunnel, QTcpSocket &socket)
{
    QString error;
    QVERIFY2(tunnel.listen(0, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(tunnel.state(), Tunnel::State::Live, 10000);
    socket.connectToHost(QHostAddress::LocalHost, tunnel.localPort());
    QVERIFY(socket.waitForConnected(5000));
    QVERIFY(httpGet(socket, "/api/status", m_token).startsWith("HTTP/1.1 200"));
}

void TestTunnels::droppedStreamComesBack()
{
    Tunnel tunnel(m_alice.get(), QStringLiteral("user-alice"), QStringLiteral("dev-alice"), 8888);
    // A connection that has been answered: the drop ends it, the tunnel says so and is back.
    QTcpSocket answered;
    listenAndAnswer(tunnel, answered);
    if (QTest::currentTestFailed())
        return;
    QSignalSpy states(&tunnel, &Tunnel::stateChanged);
    QSignalSpy cut(&answered, &QTcpSocket::disconnected);
    QElapsedTimer sinceDrop;
    sinceDrop.start();
    const auto dropped = m_sim.request(
        "POST", QStringLiteral("/sim/streams/drop?namespace=user-alice&name=dev-alice"));
    QCOMPARE(dropped.status, 200);
    QVERIFY(dropped.json().value(QLatin1String("dropped")).toInt() >= 1);
    // (It may have gone while the request above waited for its answer.)
    QVERIFY(cut.count() > 0 || cut.wait(5000));
    QTRY_VERIFY(!states.isEmpty());
    QCOMPARE(states.first().first().value<Tunnel::State>(), Tunnel::State::Reconnecting);
    QVERIFY2(!tunnel.reason().isEmpty(), "a reconnecting tunnel says why");
    QTRY_COMPARE_WITH_TIMEOUT(tunnel.state(), Tunnel::State::Live, 2000);
    QVERIFY2(sinceDrop.elapsed() < 2000, qPrintable(QString::number(sinceDrop.elapsed())));
    // A connection that was open but not yet answered is carried over to a new stream: the
    // request sent after the drop is answered on the same local connection.
    const auto streams = [this] {
        return m_sim.request("GET", QStringLiteral("/sim/streams"))
            .json()
            .value(QLatin1String("streams"))
            .toArray()
            .size();
    };
    QTRY_COMPARE(streams(), 0);
    QTcpSocket waiting;
    waiting.connectToHost(QHostAddress::LocalHost, tunnel.localPort());
    QVERIFY(waiting.waitForConnected(5000));
    QTRY_COMPARE(streams(), 1); // this connection's stream, open in the simulator
    QCOMPARE(m_sim
                 .request("POST",
                          QStringLiteral("/sim/streams/drop?namespace=user-alice&name=dev-alice"))
                 .json()
                 .value(QLatin1String("dropped"))
                 .toInt(),
             1);
    const QByteArray after = httpGet(waiting, "/api/status", m_token);
    QVERIFY2(after.startsWith("HTTP/1.1 200"), after.constData());
}

void TestTunnels::recreatedPodSameLocalPort()
{
    Tunnel tunnel(m_alice.get(), QStringLiteral("user-alice"), QStringLiteral("dev-alice"), 8888);
    QString error;
    QVERIFY2(tunnel.listen(0, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(tunnel.state(), Tunnel::State::Live, 10000);
    const QString before = tunnel.pod();
    QCOMPARE(before, QStringLiteral("dev-alice"));
    const quint16 port = tunnel.localPort();
    const auto made = m_sim.request(
        "POST", QStringLiteral("/sim/pods/recreate?namespace=user-alice&name=") + before);
    QCOMPARE(made.status, 200);
    const QString after = made.json().value(QLatin1String("name")).toString();
    QVERIFY(!after.isEmpty() && after != before);
    // The same local port, answered by the new pod once it runs.
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(s.waitForConnected(5000));
    const QByteArray ok = httpGet(s, "/api/status", m_token);
    QVERIFY2(ok.startsWith("HTTP/1.1 200"), ok.constData());
    QCOMPARE(tunnel.pod(), after);
    QCOMPARE(tunnel.localPort(), port);
}

void TestTunnels::pingsOutliveIdleTimeout()
{
    // The kubelet's idle timeout cut to 2 s: a quiet stream without pings is closed by it…
    QCOMPARE(m_sim.request("POST", QStringLiteral("/sim/streams/idle-timeout?seconds=2")).status,
             200);
    Tunnel quiet(m_alice.get(), QStringLiteral("user-alice"), QStringLiteral("dev-alice"), 8888);
    quiet.setPingInterval(3600 * 1000);
    QString error;
    QVERIFY2(quiet.listen(0, &error), qPrintable(error));
    QTcpSocket a;
    a.connectToHost(QHostAddress::LocalHost, quiet.localPort());
    QVERIFY(a.waitForConnected(5000));
    QVERIFY(httpGet(a, "/api/status", m_token).startsWith("HTTP/1.1 200"));
    QSignalSpy aCut(&a, &QTcpSocket::disconnected);
    QVERIFY2(aCut.wait(8000), "the simulator's idle timeout did not close a quiet stream");
    // …one that pings twice a second is not, well past the timeout.
    Tunnel pinging(m_alice.get(), QStringLiteral("user-alice"), QStringLiteral("dev-alice"), 8888);
    pinging.setPingInterval(500);
    QVERIFY2(pinging.listen(0, &error), qPrintable(error));
    QTcpSocket b;
    b.connectToHost(QHostAddress::LocalHost, pinging.localPort());
    QVERIFY(b.waitForConnected(5000));
    QVERIFY(httpGet(b, "/api/status", m_token).startsWith("HTTP/1.1 200"));
    QSignalSpy bCut(&b, &QTcpSocket::disconnected);
    QVERIFY2(!bCut.wait(6000), "a pinged stream was closed as idle");
    QVERIFY(httpGet(b, "/api/status", m_token).startsWith("HTTP/1.1 200"));
    QCOMPARE(
        m_sim.request("POST", QStringLiteral("/sim/streams/idle-timeout?seconds=14400")).status,
        200);
}

void TestTunnels::frozenServerCutsStreamsThenBack()
{
    // The API server freezes (SIGSTOP: its connections stay open, nothing answers) under a
    // tunnel in use. Without pings the browser would wait for ever; with them the stream is
    // given up within two intervals, the tunnel says why, and it serves again once the server
    // thaws.
    Tunnel tunnel(m_alice.get(), QStringLiteral("user-alice"), QStringLiteral("dev-alice"), 8888);
    constexpr int pingMs = 500;
    tunnel.setPingInterval(pingMs);
    QTcpSocket answered;
    listenAndAnswer(tunnel, answered);
    if (QTest::currentTestFailed())
        return;
    QSignalSpy cut(&answered, &QTcpSocket::disconnected);
    const auto pid = pid_t(m_sim.pid());
    QCOMPARE(::kill(pid, SIGSTOP), 0);
    auto thaw = qScopeGuard([pid] { ::kill(pid, SIGCONT); }); // the later tests need it
    QElapsedTimer frozen;
    frozen.start();
    QVERIFY2(cut.wait(15000), "a stream on a frozen server was kept open");
    qInfo("the stream on the frozen server given up after %lld ms", frozen.elapsed());
    // Two intervals without a pong and the next ping's tick: 2.5 s, and a loaded machine's
    // scheduling on top.
    QVERIFY2(frozen.elapsed() < 2 * pingMs + 1000 + pingMs + 2500,
             qPrintable(QString::number(frozen.elapsed())));
    QTRY_COMPARE(tunnel.state(), Tunnel::State::Reconnecting);
    QVERIFY2(tunnel.reason().contains(QLatin1String("stopped answering")),
             qPrintable(tunnel.reason()));
    thaw.dismiss();
    QCOMPARE(::kill(pid, SIGCONT), 0);
    QTRY_COMPARE_WITH_TIMEOUT(tunnel.state(), Tunnel::State::Live, 30000);
    QTcpSocket again;
    again.connectToHost(QHostAddress::LocalHost, tunnel.localPort());
    QVERIFY(again.waitForConnected(5000));
    const QByteArray ok = httpGet(again, "/api/status", m_token);
    QVERIFY2(ok.startsWith("HTTP/1.1 200"), ok.constData());
}

void TestTunnels::sshThroughStdioForward()
{
    // OpenSSH's own client, its ProxyCommand gpudesk: the peers' real sshd answers as dev-alice
    // (its host key pinned under that name).
    QTemporaryDir dir;
    const QString peers = qEnvironmentVariable("GPUDESK_PEERS");
    QFile hostKey(peers + QStringLiteral("/sshd/host_ed25519.pub"));
    QVERIFY(hostKey.open(QIODevice::ReadOnly));
    QFile known(dir.filePath(QStringLiteral("known_hosts")));
    QVERIFY(known.open(QIODevice::WriteOnly));
    known.write("dev-alice " + hostKey.readAll().split(' ').mid(0, 2).join(' ') + "\n");
    known.close();
    QFile config(dir.filePath(QStringLiteral("config")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(QStringLiteral("Host dev-alice\n  User %1\n  IdentityFile %2/sshd/client_ed25519\n"
                                "  IdentitiesOnly yes\n  UserKnownHostsFile %3\n"
                                "  StrictHostKeyChecking yes\n  BatchMode yes\n"
                                "  ProxyCommand %4 --kubeconfig %5 --stdio-forward "
                                "sim-alice/user-alice/dev-alice:22\n")
                     .arg(peerFile(QStringLiteral("sshd/user")), peers, known.fileName(),
                          TestPaths::gpudeskBin(), m_sim.kubeconfig())
                     .toUtf8());
    config.close();
    QProcess ssh;
    ssh.start(QStringLiteral("ssh"), {QStringLiteral("-F"), config.fileName(),
                                      QStringLiteral("dev-alice"), QStringLiteral("hostname")});
    QVERIFY(ssh.waitForFinished(30000));
    QCOMPARE(ssh.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(ssh.readAllStandardOutput()).trimmed(), QHostInfo::localHostName());
    // A wrong target fails at once with a sentence and exit code 2, not a hang.
    QProcess bad;
    bad.start(TestPaths::gpudeskBin(),
              {QStringLiteral("--kubeconfig"), m_sim.kubeconfig(),
               QStringLiteral("--stdio-forward"), QStringLiteral("sim-alice/dev-alice")});
    QVERIFY(bad.waitForFinished(10000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().contains("CONTEXT/NAMESPACE/ENVIRONMENT:PORT"));
}

void TestTunnels::unreachableTargetsSayWhy()
{
    QString error;
    // bob's environment is not alice's to reach: failed, with the API's 403, not retried.
    Tunnel forbidden(m_alice.get(), QStringLiteral("user-bob"), QStringLiteral("dev-bob"), 8888);
    QVERIFY(forbidden.listen(0, &error));
    QTRY_COMPARE_WITH_TIMEOUT(forbidden.state(), Tunnel::State::Failed, 10000);
    QVERIFY2(forbidden.reason().contains(QLatin1String("forbidden"), Qt::CaseInsensitive),
             qPrintable(forbidden.reason()));
    // No such environment: waiting for it, and saying so.
    Tunnel missing(m_alice.get(), QStringLiteral("user-alice"), QStringLiteral("no-such-env"),
                   8888);
    QVERIFY(missing.listen(0, &error));
    QTRY_COMPARE_WITH_TIMEOUT(missing.state(), Tunnel::State::Reconnecting, 10000);
    QVERIFY2(missing.reason().contains(QLatin1String("no environment or pod no-such-env")),
             qPrintable(missing.reason()));
    // A port nothing listens on in the pod: the kubelet's refusal, in its words.
    Tunnel closedPort(m_alice.get(), QStringLiteral("user-alice"), QStringLiteral("dev-alice"),
                      8080);
    QVERIFY(closedPort.listen(0, &error));
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, closedPort.localPort());
    QVERIFY(s.waitForConnected(5000));
    s.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(closedPort.state(), Tunnel::State::Reconnecting, 10000);
    QVERIFY2(closedPort.reason().contains(QLatin1String("connection refused")),
             qPrintable(closedPort.reason()));
}

void TestTunnels::serviceRunsTunnelsOnItsThread()
{
    QString error;
    const auto config = KubeConfig::load({m_sim.kubeconfig()}, &error);
    const auto endpoint =
        config ? config->endpoint(QStringLiteral("sim-alice"), &error) : std::nullopt;
    QVERIFY2(endpoint, qPrintable(error));
    TunnelsService service;
    QSignalSpy changed(&service, &TunnelsService::tunnelChanged);
    const int id = service.open(*endpoint,
                                {QStringLiteral("user-alice"), QStringLiteral("dev-alice"),
                                 QStringLiteral("jupyter"), 8888},
                                &error);
    QVERIFY2(id > 0, qPrintable(error));
    QVERIFY(service.tunnel(id).localPort > 0);
    QTRY_COMPARE_WITH_TIMEOUT(service.tunnel(id).state, TunnelInfo::State::Live, 10000);
    QCOMPARE(service.tunnel(id).pod.isEmpty(), false);
    QCOMPARE(service.tunnel(id).context, QStringLiteral("sim-alice"));
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, service.tunnel(id).localPort);
    QVERIFY(s.waitForConnected(5000));
    QVERIFY(httpGet(s, "/api/status", m_token).startsWith("HTTP/1.1 200"));
    // The figures reach the service from the tunnels' thread.
    QTRY_VERIFY(service.tunnel(id).bytesIn > 0 && service.tunnel(id).bytesOut > 0);
    QCOMPARE(service.openCount(), 1);
    // A port already taken is refused with why, and no tunnel is left behind.
    const int clash = service.open(*endpoint,
                                   {QStringLiteral("user-alice"), QStringLiteral("dev-alice"),
                                    QStringLiteral("jupyter"), 8888, service.tunnel(id).localPort},
                                   &error);
    QCOMPARE(clash, 0);
    QVERIFY2(error.contains(QString::number(service.tunnel(id).localPort)), qPrintable(error));
    QCOMPARE(service.openCount(), 1);
    QSignalSpy gone(&s, &QTcpSocket::disconnected);
    service.close(id);
    QCOMPARE(service.openCount(), 0);
    QVERIFY(gone.count() > 0 || gone.wait(5000));
}

QTEST_GUILESS_MAIN(TestTunnels)
#include "tst_tunnels.moc"
