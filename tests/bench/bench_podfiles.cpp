// SPDX-License-Identifier: GPL-3.0-or-later
// The NAS's files through a dev environment pod over the API's exec (issue 38: a researcher
// without SSH to the nodes): a download (`tail -c +1`) and an upload (`dd oflag=append`) of the
// same incompressible file by PodFileClient, on its worker thread as NasFiles runs it, against
// `kubectl exec … tail -c +1` of the same file into a local one. The API server is a gpudesk-sim
// on loopback whose dev-alice pod mounts alice's NAS folder. Prints figures; not a test.
//   bench_podfiles [MiB]   (256 unless given)
#include "benchsim.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "podfileclient.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>

using namespace gpudesk;

namespace {

QByteArray md5(const QString &path)
{
    QFile f(path);
    QCryptographicHash h(QCryptographicHash::Md5);
    return f.open(QIODevice::ReadOnly) && h.addData(&f) ? h.result().toHex() : QByteArray();
}

struct Run
{
    bool ok = false;
    qint64 ms = 0;
    QString error;
};

// One copy on a thread of its own with a client of its own, as NasFiles does it.
Run onWorker(const ClusterEndpoint &endpoint, bool down, const QString &remote,
             const QString &local)
{
    Run run;
    QThread *t = QThread::create([&] {
        KubeClient client(endpoint);
        PodFileClient files(
            &client, QStringLiteral("user-alice"), QStringLiteral("dev-alice"),
            QStringLiteral("devenv"),
            {{QStringLiteral("/mnt/user/alice"), QStringLiteral("/mnt/user/alice")}});
        const std::atomic<bool> cancel{false};
        QElapsedTimer timer;
        timer.start();
        run.ok = down ? files.download(remote, local, {}, cancel, &run.error)
                      : files.upload(local, remote, {}, cancel, &run.error);
        run.ms = timer.elapsed();
    });
    t->start();
    while (!t->wait(5))
        QCoreApplication::processEvents();
    delete t;
    return run;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 mib = argc > 1 ? QByteArray(argv[1]).toLongLong() : 256;
    QTemporaryDir dir;
    QProcess sim;
    const bool ready = startBenchSim(sim, dir.path(), {QStringLiteral("--no-ssh")});
    const QString kubeconfig = dir.filePath(QStringLiteral("kubeconfig"));
    QString error;
    const auto config = KubeConfig::load({kubeconfig}, &error);
    const auto endpoint =
        config ? config->endpoint(QStringLiteral("sim-alice"), &error) : std::nullopt;
    if (!ready || !endpoint) {
        std::fprintf(stderr, "gpudesk-sim did not start: %s\n", qPrintable(error));
        return 1;
    }
    QProcess kubectl;
    kubectl.start(QStringLiteral("kubectl"),
                  {QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--context"),
                   QStringLiteral("sim-admin"), QStringLiteral("get"), QStringLiteral("--raw"),
                   QStringLiteral("/sim/truth")});
    kubectl.waitForFinished(120000);
    const QString root = QJsonDocument::fromJson(kubectl.readAllStandardOutput())
                             .object()[u"nas"][u"root"]
                             .toString();
    QFile file(root + QStringLiteral("/user/alice/bench.bin"));
    if (root.isEmpty() || !file.open(QIODevice::WriteOnly)) {
        std::fprintf(stderr, "no NAS root\n");
        return 1;
    }
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (qint64 i = 0; i < mib; ++i) {
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()),
                                              block.size() / 4);
        file.write(block);
    }
    file.close();
    const QByteArray want = md5(file.fileName());
    const double mb = double(mib << 20) / 1e6;
    std::printf("%lld MiB through dev-alice's exec (WebSocket v5.channel.k8s.io, loopback):\n",
                mib);
    const auto say = [mb](const char *what, const Run &r, bool same) {
        std::printf("  %-40s %s %.1f MB in %lld ms = %.1f MB/s\n", what,
                    r.ok && same ? "same bytes," : "FAILED", mb, qlonglong(r.ms),
                    r.ms > 0 ? mb * 1e3 / double(r.ms) : 0.0);
        if (!r.ok)
            std::fprintf(stderr, "%s\n", qPrintable(r.error));
    };
    const QString local = dir.filePath(QStringLiteral("copy.bin"));
    Run down = onWorker(*endpoint, true, QStringLiteral("/mnt/user/alice/bench.bin"), local);
    say("PodFileClient download (tail -c +1)", down, md5(local) == want);
    Run up = onWorker(*endpoint, false, QStringLiteral("/mnt/user/alice/bench-up.bin"), local);
    say("PodFileClient upload (dd oflag=append)", up,
        md5(root + QStringLiteral("/user/alice/bench-up.bin")) == want);

    QProcess kc;
    kc.setStandardOutputFile(dir.filePath(QStringLiteral("kubectl.bin")));
    QElapsedTimer timer;
    timer.start();
    kc.start(QStringLiteral("kubectl"),
             {QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--context"),
              QStringLiteral("sim-alice"), QStringLiteral("exec"), QStringLiteral("dev-alice"),
              QStringLiteral("--"), QStringLiteral("tail"), QStringLiteral("-c"),
              QStringLiteral("+1"), QStringLiteral("/mnt/user/alice/bench.bin")});
    Run viaKubectl;
    viaKubectl.ok = kc.waitForFinished(600000) && kc.exitCode() == 0;
    viaKubectl.ms = timer.elapsed();
    say("kubectl exec tail -c +1 (the same file)", viaKubectl,
        md5(dir.filePath(QStringLiteral("kubectl.bin"))) == want);
    sim.terminate();
    sim.waitForFinished(30000);
    return down.ok && up.ok ? 0 : 1;
}
