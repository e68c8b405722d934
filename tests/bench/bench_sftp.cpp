// SPDX-License-Identifier: GPL-3.0-or-later
// A NAS download over SFTP (issue 38): one read in flight at a time against SftpClient's
// pipelined reads, on loopback and through a relay that holds every chunk for a while each way
// (a WAN's round trip). The node is a gpudesk-sim node (its SSH endpoint and SFTP subsystem);
// the file is a real one in the simulator's NAS tree. Prints figures; not a test.
//   bench_sftp [MiB]   (256 unless given; a tenth of it, 8 at least, through the delays)
#include "benchsim.h"
#include "sftpclient.h"
#include "sshconfig.h"
#include "sshconnection.h"
#include "sshtargets.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QProcess>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>

#include <atomic>
#include <cstdio>
#include <thread>

using namespace gpudesk;

namespace {

// Forwards both ways, each chunk written on `delayMs` after it came: a round trip of twice that.
class DelayRelay : public QObject
{
public:
    DelayRelay(quint16 upstream, int delayMs) : m_upstream(upstream), m_delay(delayMs)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *client = m_server.nextPendingConnection()) {
                auto *up = new QTcpSocket(client);
                up->connectToHost(QHostAddress::LocalHost, m_upstream);
                // Written on as they come, as a router would: no Nagle delay on top of ours.
                client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
                up->setSocketOption(QAbstractSocket::LowDelayOption, 1);
                forward(client, up);
                forward(up, client);
                connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    quint16 port() const { return m_server.serverPort(); }

private:
    void forward(QTcpSocket *from, QTcpSocket *to)
    {
        QPointer<QTcpSocket> target(to);
        connect(from, &QTcpSocket::readyRead, this, [this, from, target] {
            const QByteArray data = from->readAll();
            QTimer::singleShot(m_delay, Qt::PreciseTimer, this, [target, data] {
                if (target)
                    target->write(data);
            });
        });
    }

    QTcpServer m_server;
    quint16 m_upstream;
    int m_delay;
};

struct Run
{
    bool ok = false;
    QString error;
    qint64 bytes = 0;
    qint64 ms = 0;
};

// The download on a thread of its own (as the app's worker), the relay's loop on this one.
Run download(SshTarget target, const QString &remote, const QString &local, int readAhead)
{
    QFile::remove(local);
    Run run;
    std::atomic<bool> finished{false};
    std::thread worker([&] {
        std::atomic<bool> cancel{false};
        SshConnection c(target);
        const SshStatus s = c.connect(SshTrust(), cancel);
        if (!s.usable()) {
            run.error = s.message;
        } else {
            SftpClient sftp(&c);
            if (sftp.open(&run.error)) {
                sftp.setReadAhead(readAhead);
                QElapsedTimer t;
                t.start();
                run.ok = sftp.download(remote, local, {}, cancel, &run.error);
                run.ms = t.elapsed();
                run.bytes = QFileInfo(local).size();
            }
        }
        finished = true;
    });
    while (!finished)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    worker.join();
    return run;
}

QByteArray md5(const QString &path)
{
    QFile f(path);
    QCryptographicHash h(QCryptographicHash::Md5);
    return f.open(QIODevice::ReadOnly) && h.addData(&f) ? h.result().toHex() : QByteArray();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 mib = argc > 1 ? QByteArray(argv[1]).toLongLong() : 256;
    QTemporaryDir dir;
    QProcess sim;
    if (!startBenchSim(sim, dir.path())) {
        std::fprintf(stderr, "gpudesk-sim did not start\n");
        return 1;
    }
    QProcess kubectl;
    kubectl.start(QStringLiteral("kubectl"),
                  {QStringLiteral("--kubeconfig"), dir.filePath(QStringLiteral("kubeconfig")),
                   QStringLiteral("--context"), QStringLiteral("sim-admin"), QStringLiteral("get"),
                   QStringLiteral("--raw"), QStringLiteral("/sim/truth")});
    kubectl.waitForFinished(120000);
    const QString root = QJsonDocument::fromJson(kubectl.readAllStandardOutput())
                             .object()[u"nas"][u"root"]
                             .toString();
    QString error;
    const auto config = SshConfig::load(dir.filePath(QStringLiteral("ssh_config")), &error);
    if (root.isEmpty() || !config) {
        std::fprintf(stderr, "no NAS root or SSH config: %s\n", qPrintable(error));
        return 1;
    }
    const SshTarget direct = resolveSshTarget(*config, {}, QStringLiteral("g4090-01"), QString());

    // Incompressible bytes (SSH may compress), a whole number of chunks and a bit more; a tenth
    // of it for the runs through the delays (one read a round trip takes minutes for more).
    const auto make = [&root](const QString &name, qint64 mebibytes) {
        QFile file(root + QStringLiteral("/user/alice/") + name);
        if (!file.open(QIODevice::WriteOnly))
            return QByteArray();
        QByteArray block(1 << 20, Qt::Uninitialized);
        for (qint64 i = 0; i < mebibytes; ++i) {
            QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()),
                                                  block.size() / 4);
            file.write(block);
        }
        file.write("tail", 4);
        file.close();
        return md5(file.fileName());
    };
    const qint64 small = std::max<qint64>(8, mib / 10);
    const QByteArray wantBig = make(QStringLiteral("bench-big.bin"), mib);
    const QByteArray wantSmall = make(QStringLiteral("bench-small.bin"), small);
    const QString local = dir.filePath(QStringLiteral("copy.bin"));
    std::printf("SFTP download from a simulated node (g4090-01): one read in flight at a time "
                "against %d; %lld MiB on loopback, %lld MiB through a delaying relay:\n",
                SftpClient::DefaultReadAhead, mib, small);
    for (int delay : {0, 1, 10}) {
        SshTarget t = direct;
        DelayRelay relay(quint16(direct.port), delay);
        if (delay > 0) {
            relay.listen();
            t.port = relay.port();
            // The node's key, known at the relay's port too.
            QFile known(direct.knownHostsFile);
            known.open(QIODevice::ReadOnly);
            const QByteArray at =
                QStringLiteral("[%1]:%2 ").arg(direct.host).arg(direct.port).toUtf8();
            QByteArray relayed;
            for (const QByteArray &line : known.readAll().split('\n'))
                if (line.startsWith(at))
                    relayed += QStringLiteral("[%1]:%2 ").arg(direct.host).arg(t.port).toUtf8() +
                               line.mid(at.size()) + '\n';
            t.knownHostsFile = dir.filePath(QStringLiteral("known_hosts_relay_%1").arg(delay));
            QFile out(t.knownHostsFile);
            out.open(QIODevice::WriteOnly);
            out.write(relayed);
        }
        const QString remote = delay > 0 ? QStringLiteral("/mnt/user/alice/bench-small.bin")
                                         : QStringLiteral("/mnt/user/alice/bench-big.bin");
        for (int readAhead : {1, SftpClient::DefaultReadAhead}) {
            const Run r = download(t, remote, local, readAhead);
            const bool same = r.ok && md5(local) == (delay > 0 ? wantSmall : wantBig);
            std::printf("  round trip %2d ms, read-ahead %2d: %s %.1f MB in %lld ms = %.1f MB/s\n",
                        2 * delay, readAhead, same ? "same bytes," : "FAILED", r.bytes / 1e6,
                        qlonglong(r.ms), r.ms > 0 ? r.bytes / 1e3 / double(r.ms) : 0.0);
            if (!same) {
                std::fprintf(stderr, "%s\n", qPrintable(r.error));
                return 1;
            }
        }
    }
    sim.terminate();
    sim.waitForFinished(30000);
    return 0;
}
