// SPDX-License-Identifier: GPL-3.0-or-later
// Tunnels through the simulator's port-forward (TLS, WebSocket, the channel protocol) to an echo
// server on loopback, against the same echo server reached directly: throughput, the round trip
// a tunnel adds, and the UI thread's stalls while 50 tunnels carry traffic at once.
#include "kubeclient.h"
#include "kubeconfig.h"
#include "simprocess.h"
#include "stallmeter.h"
#include "tunnelsservice.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <atomic>

#include <cstdio>

using namespace gpudesk;

namespace {

// Echoes every byte back, on a thread of its own (as the program in a pod runs apart).
class EchoServer : public QObject
{
public:
    quint16 start() // on its thread
    {
        m_server = new QTcpServer(this);
        m_server->listen(QHostAddress::LocalHost, 0);
        connect(m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server->nextPendingConnection()) {
                s->setSocketOption(QAbstractSocket::LowDelayOption, 1);
                connect(s, &QTcpSocket::readyRead, s, [s] { s->write(s->readAll()); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
        return m_server->serverPort();
    }

private:
    QTcpServer *m_server = nullptr;
};

// Waits on the event loop (the tunnel runs on it) until `done` or `ms`.
bool waitUntil(const std::function<bool()> &done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return done();
}

// Connected on the event loop, not by blocking on it (the stall figures would be the bench's).
QTcpSocket *connectTo(quint16 port)
{
    auto *s = new QTcpSocket;
    s->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    s->connectToHost(QHostAddress::LocalHost, port);
    return s;
}

// Megabytes a second through `port`: `total` bytes sent and echoed back.
double throughput(quint16 port, qint64 total)
{
    std::unique_ptr<QTcpSocket> s(connectTo(port));
    const QByteArray block(256 << 10, 'x');
    qint64 sent = 0, received = 0;
    QObject::connect(s.get(), &QTcpSocket::readyRead, s.get(),
                     [&] { received += s->readAll().size(); });
    QObject::connect(s.get(), &QTcpSocket::bytesWritten, s.get(), [&] {
        while (sent < total && s->bytesToWrite() < (4 << 20)) {
            s->write(block);
            sent += block.size();
        }
    });
    waitUntil([&] { return s->state() == QAbstractSocket::ConnectedState; }, 5000);
    QElapsedTimer t;
    t.start();
    s->write(block);
    sent += block.size();
    waitUntil([&] { return received >= total; }, 120000);
    return double(received) / 1e6 / (double(t.nsecsElapsed()) / 1e9);
}

// The median round trip of one small message, in milliseconds.
double roundTrip(quint16 port, int count)
{
    std::unique_ptr<QTcpSocket> s(connectTo(port));
    waitUntil([&] { return s->state() == QAbstractSocket::ConnectedState; }, 5000);
    std::vector<double> ms;
    for (int i = 0; i < count; ++i) {
        QElapsedTimer t;
        t.start();
        s->write("ping");
        qint64 got = 0;
        waitUntil(
            [&] {
                got += s->readAll().size();
                return got >= 4;
            },
            5000);
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// The 50 connections' traffic, on a thread of its own (the browsers and ssh clients are other
// processes): each sends its share a piece at a time as its socket drains and counts the echo.
class Load : public QObject
{
public:
    void start(const QList<quint16> &ports, qint64 share, std::atomic<int> *finished)
    {
        static const QByteArray piece(64 << 10, 'y');
        for (quint16 port : ports) {
            QTcpSocket *s = connectTo(port);
            s->setParent(this);
            auto got = std::make_shared<qint64>(0), sent = std::make_shared<qint64>(0);
            QObject::connect(s, &QTcpSocket::readyRead, s, [s, got, share, finished] {
                const bool before = *got >= share;
                *got += s->readAll().size();
                if (!before && *got >= share)
                    ++*finished;
            });
            auto more = [s, sent, share] {
                while (*sent < share && s->bytesToWrite() < (256 << 10)) {
                    s->write(piece);
                    *sent += piece.size();
                }
            };
            QObject::connect(s, &QTcpSocket::connected, s, more);
            QObject::connect(s, &QTcpSocket::bytesWritten, s, more);
        }
    }
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QThread echoThread;
    EchoServer echo;
    echo.moveToThread(&echoThread);
    echoThread.start();
    quint16 echoPort = 0;
    QMetaObject::invokeMethod(
        &echo, [&] { echoPort = echo.start(); }, Qt::BlockingQueuedConnection);

    SimProcess sim;
    QString error;
    if (!sim.start({QStringLiteral("--no-ssh"), QStringLiteral("--speed"), QStringLiteral("0"),
                    QStringLiteral("--service-backend"),
                    QStringLiteral("jupyter=127.0.0.1:%1").arg(echoPort)},
                   &error)) {
        std::fprintf(stderr, "gpudesk-sim did not start: %s\n", qPrintable(error));
        return 1;
    }
    const auto config = KubeConfig::load({sim.kubeconfig()}, &error);
    const auto endpoint =
        config ? config->endpoint(QStringLiteral("sim-alice"), &error) : std::nullopt;
    if (!endpoint) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    TunnelsService tunnels;
    auto live = [&tunnels](int id) { return tunnels.tunnel(id).state == TunnelInfo::State::Live; };
    const int one = tunnels.open(
        *endpoint,
        {QStringLiteral("user-alice"), QStringLiteral("dev-alice"), QStringLiteral("echo"), 8888},
        &error);
    if (one == 0 || !waitUntil([&] { return live(one); }, 20000)) {
        std::fprintf(stderr, "the tunnel did not come up: %s\n",
                     qPrintable(error + tunnels.tunnel(one).reason));
        return 1;
    }
    const quint16 port = tunnels.tunnel(one).localPort;

    const qint64 total = 256LL << 20;
    const double direct = throughput(echoPort, total);
    const double tunnelled = throughput(port, total);
    std::printf("throughput, 256 MiB echoed: direct %.0f MB/s, through the tunnel %.0f MB/s\n",
                direct, tunnelled);
    const double rttDirect = roundTrip(echoPort, 500);
    const double rttTunnel = roundTrip(port, 500);
    std::printf("round trip (median of 500): direct %.3f ms, tunnel %.3f ms, added %.3f ms\n",
                rttDirect, rttTunnel, rttTunnel - rttDirect);

    // 50 tunnels, each with a connection echoing 4 MiB, while a 5 ms timer measures the UI
    // thread's stalls (against the same timer with the tunnels idle).
    QList<int> ids;
    QList<quint16> ports;
    for (int i = 0; i < 50; ++i) {
        ids << tunnels.open(*endpoint,
                            {QStringLiteral("user-alice"), QStringLiteral("dev-alice"),
                             QStringLiteral("echo"), 8888},
                            &error);
        ports << tunnels.tunnel(ids.last()).localPort;
    }
    waitUntil([&] { return std::all_of(ids.begin(), ids.end(), live); }, 60000);
    StallMeter idle;
    idle.start();
    QTimer quiet;
    quiet.setSingleShot(true);
    quiet.start(2000);
    waitUntil([&] { return !quiet.isActive(); }, 3000);
    idle.stop();

    QThread loadThread;
    Load load;
    load.moveToThread(&loadThread);
    loadThread.start();
    std::atomic<int> finished = 0;
    const qint64 share = 4 << 20;
    StallMeter busy;
    busy.start();
    QElapsedTimer t;
    t.start();
    QMetaObject::invokeMethod(&load, [&] { load.start(ports, share, &finished); });
    const bool all = waitUntil([&] { return finished == 50; }, 120000);
    busy.stop();
    std::printf("50 tunnels, 4 MiB echoed through each (%s in %.1f s): UI thread stalls, longest "
                "%.1f ms (idle %.1f ms), 99th percentile %.1f ms (idle %.1f ms)\n",
                all ? "all" : "NOT all", double(t.elapsed()) / 1000.0, busy.longest(),
                idle.longest(), busy.percentile(0.99), idle.percentile(0.99));
    QMetaObject::invokeMethod(
        &load, [&] { qDeleteAll(load.children()); }, Qt::BlockingQueuedConnection);
    loadThread.quit();
    loadThread.wait();
    echoThread.quit();
    echoThread.wait();
    return 0;
}
