// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of gpudesk-sim's scale scenario: how fast it serves a 100,000-pod list (so that client
// benchmarks measure the client), how fast a paged list is, and whether 500 node SSH endpoints
// answer. Prints figures; it is not a test.
//   bench_sim [--nodes N] [--pods P] [--ssh-nodes S]
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QThread>

#include <libssh/libssh.h>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

struct Fetch
{
    qint64 bytes = 0;
    qint64 ms = 0;
    QByteArray body;
};

// One GET over TLS with a raw socket, reading and counting bytes without decoding them.
Fetch get(const QString &host, quint16 port, const QSslConfiguration &tls, const QByteArray &token,
          const QByteArray &path, bool keepBody)
{
    Fetch f;
    QSslSocket s;
    s.setSslConfiguration(tls);
    s.setPeerVerifyName(QStringLiteral("localhost"));
    QElapsedTimer t;
    t.start();
    s.connectToHostEncrypted(host, port);
    if (!s.waitForEncrypted(10000)) {
        std::fprintf(stderr, "TLS failed: %s\n", qPrintable(s.errorString()));
        return f;
    }
    s.write("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token +
            "\r\nAccept: application/json\r\nConnection: close\r\n\r\n");
    while (s.waitForReadyRead(30000)) {
        const QByteArray chunk = s.readAll();
        f.bytes += chunk.size();
        if (keepBody)
            f.body += chunk;
    }
    f.ms = t.elapsed();
    return f;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    const QCommandLineOption nodesOpt(QStringLiteral("nodes"), QStringLiteral("nodes"),
                                      QStringLiteral("n"), QStringLiteral("1000"));
    const QCommandLineOption podsOpt(QStringLiteral("pods"), QStringLiteral("pods"),
                                     QStringLiteral("n"), QStringLiteral("100000"));
    const QCommandLineOption sshOpt(QStringLiteral("ssh-nodes"),
                                    QStringLiteral("nodes with SSH for the sweep"),
                                    QStringLiteral("n"), QStringLiteral("500"));
    p.addOptions({nodesOpt, podsOpt, sshOpt});
    p.addHelpOption();
    p.process(app);
    const int nodes = p.value(nodesOpt).toInt();
    const int pods = p.value(podsOpt).toInt();
    const int sshNodes = p.value(sshOpt).toInt();

    QTemporaryDir dir;
    const QString simBin = QCoreApplication::applicationDirPath() + QStringLiteral("/gpudesk-sim");
    QProcess sim;
    sim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QElapsedTimer startTimer;
    startTimer.start();
    sim.start(simBin, {QStringLiteral("--state-dir"), dir.path(), QStringLiteral("--scenario"),
                       QStringLiteral("scale"), QStringLiteral("--nodes"), QString::number(nodes),
                       QStringLiteral("--pods"), QString::number(pods), QStringLiteral("--speed"),
                       QStringLiteral("0")});
    // The simulator prints "ready" once it listens.
    QByteArray out;
    while (!out.contains("ready") && sim.waitForReadyRead(600000))
        out += sim.readAllStandardOutput();
    if (!out.contains("ready")) {
        std::fprintf(stderr, "gpudesk-sim did not start\n%s\n", out.constData());
        return 1;
    }
    const qint64 startMs = startTimer.elapsed();
    QFile tf(dir.path() + QStringLiteral("/tokens.json"));
    QFile pf(dir.path() + QStringLiteral("/ports.json"));
    tf.open(QIODevice::ReadOnly);
    pf.open(QIODevice::ReadOnly);
    const QByteArray token = QJsonDocument::fromJson(tf.readAll())
                                 .object()
                                 .value(QStringLiteral("admin"))
                                 .toString()
                                 .toUtf8();
    const QJsonObject ports = QJsonDocument::fromJson(pf.readAll()).object();
    const quint16 port = quint16(ports.value(QStringLiteral("api")).toInt());
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setCaCertificates(QSslCertificate::fromPath(dir.path() + QStringLiteral("/ca.crt")));

    std::printf("gpudesk-sim scale scenario: %d nodes, %d pods, started in %.1f s\n", nodes, pods,
                double(startMs) / 1000.0);
    for (int run = 1; run <= 3; ++run) {
        const Fetch f = get(QStringLiteral("127.0.0.1"), port, tls, token, "/api/v1/pods", false);
        std::printf("  full list run %d: %.1f MB in %lld ms = %.0f MB/s\n", run,
                    double(f.bytes) / 1e6, static_cast<long long>(f.ms),
                    double(f.bytes) / 1e6 / (double(f.ms) / 1000.0));
    }
    QElapsedTimer paged;
    paged.start();
    QByteArray cont;
    int pages = 0;
    qint64 pagedBytes = 0;
    do {
        const QByteArray path =
            "/api/v1/pods?limit=500" + (cont.isEmpty() ? QByteArray() : "&continue=" + cont);
        const Fetch f = get(QStringLiteral("127.0.0.1"), port, tls, token, path, true);
        pagedBytes += f.bytes;
        const qsizetype at = f.body.indexOf("\"continue\":\"");
        cont = at < 0 ? QByteArray() : f.body.mid(at + 12, f.body.indexOf('"', at + 12) - at - 12);
        ++pages;
    } while (!cont.isEmpty());
    std::printf("  paged list (limit=500): %d pages, %.1f MB in %lld ms\n", pages,
                double(pagedBytes) / 1e6, static_cast<long long>(paged.elapsed()));

    // SSH: one exec on each of the first S nodes, 16 at a time, with OpenSSH's config written by
    // the sim.
    std::vector<std::pair<std::string, int>> targets;
    for (auto it = ports.value(QStringLiteral("nodes")).toObject().begin();
         it != ports.value(QStringLiteral("nodes")).toObject().end() &&
         int(targets.size()) < sshNodes;
         ++it)
        targets.emplace_back(it.key().toStdString(), it.value().toInt());
    ssh_init();
    std::atomic<int> next{0}, ok{0};
    const std::string key = QString(dir.path() + QStringLiteral("/ssh/id_ed25519")).toStdString();
    QElapsedTimer sweep;
    sweep.start();
    std::vector<std::thread> workers;
    for (int w = 0; w < 16; ++w) {
        workers.emplace_back([&] {
            ssh_key priv = nullptr;
            ssh_pki_import_privkey_file(key.c_str(), nullptr, nullptr, nullptr, &priv);
            for (int i = next++; i < int(targets.size()); i = next++) {
                ssh_session s = ssh_new();
                const int port = targets[size_t(i)].second;
                ssh_options_set(s, SSH_OPTIONS_HOST, "127.0.0.1");
                ssh_options_set(s, SSH_OPTIONS_PORT, &port);
                ssh_options_set(s, SSH_OPTIONS_USER, "root");
                if (ssh_connect(s) == SSH_OK &&
                    ssh_userauth_publickey(s, nullptr, priv) == SSH_AUTH_SUCCESS) {
                    ssh_channel ch = ssh_channel_new(s);
                    if (ssh_channel_open_session(ch) == SSH_OK &&
                        ssh_channel_request_exec(
                            ch,
                            "nvidia-smi --query-gpu=index,utilization.gpu --format=csv,noheader") ==
                            SSH_OK) {
                        char buf[4096];
                        int total = 0, n;
                        while ((n = ssh_channel_read(ch, buf, sizeof buf, 0)) > 0)
                            total += n;
                        if (total > 0)
                            ++ok;
                    }
                    ssh_channel_free(ch);
                }
                ssh_disconnect(s);
                ssh_free(s);
            }
            ssh_key_free(priv);
        });
    }
    for (auto &t : workers)
        t.join();
    std::printf("  SSH: %d of %zu node endpoints answered nvidia-smi in %lld ms (16 at a time, new "
                "session each)\n",
                ok.load(), targets.size(), static_cast<long long>(sweep.elapsed()));
    sim.terminate();
    sim.waitForFinished(20000);
    return ok.load() == int(targets.size()) ? 0 : 1;
}
