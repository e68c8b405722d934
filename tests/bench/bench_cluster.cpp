// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of gpudesk's cluster view at scale, against `gpudesk-sim --scenario scale` (2,000
// nodes, 16,000 GPUs, 100,000 pods by default): in the same run,
//  1. `kubectl get nodes,pods -A -o json > /dev/null` — wall time and peak RSS;
//  2. `gpudesk --report` — wall time to a complete sync and written report, and peak RSS,
//     beside the raw fetch of the same lists (rawfetch.h) in the same run;
//  3. the window (offscreen, Workloads page shown) synced in this process, then the simulator
//     churns N pod events a second for S seconds: the UI thread's longest stall, measured by a
//     5 ms timer that records how late it fires.
// Prints figures; it is not a test.
//   bench_cluster [--nodes N] [--gpus-per-node G] [--pods P] [--events E] [--seconds S]
//                 [--no-kubectl] [--window-only]
#include "allocatorpolicy.h"
#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "mainwindow.h"
#include "services.h"

#include "rawfetch.h"
#include "rss.h"
#include "stallmeter.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <vector>

using namespace gpudesk;

namespace {

struct ChildRun
{
    qint64 ms = 0;
    long maxRssKb = 0;
    int exitCode = -1;
};

// Runs a program with stdout to /dev/null; wall time and peak RSS from wait4.
ChildRun runChild(const QStringList &args)
{
    std::vector<QByteArray> storage;
    for (const QString &a : args)
        storage.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (auto &s : storage)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    QElapsedTimer t;
    t.start();
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int devnull = ::open("/dev/null", O_WRONLY);
        ::dup2(devnull, 1);
        ::execvp(argv[0], argv.data());
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    ChildRun r;
    r.ms = t.elapsed();
    r.maxRssKb = usage.ru_maxrss;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// With GPUDESK_BENCH_SLOW_MS=N, every event the UI thread takes N ms or more to handle is
// printed with its receiver: where the stalls come from.
class TracingApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_slowMs <= 0 || m_depth > 0)
            return QApplication::notify(receiver, event);
        ++m_depth;
        QElapsedTimer t;
        t.start();
        const double cpuBefore = threadCpuMs();
        const int type = event->type();
        const QByteArray what = QByteArray(receiver->metaObject()->className()) + " \"" +
                                receiver->objectName().toUtf8() + '"';
        const bool r = QApplication::notify(receiver, event);
        --m_depth;
        // The thread's own CPU time beside the wall time: on two shared cores a short handler
        // can be kept waiting for a core by the simulator and the decoding threads.
        if (const qint64 ms = t.elapsed(); ms >= m_slowMs)
            std::fprintf(stderr, "slow event: %lld ms (%.1f ms on the CPU), type %d, receiver %s\n",
                         static_cast<long long>(ms), threadCpuMs() - cpuBefore, type,
                         what.constData());
        return r;
    }

    static double threadCpuMs()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
    }

private:
    int m_depth = 0;
    int m_slowMs = qEnvironmentVariableIntValue("GPUDESK_BENCH_SLOW_MS");
};

} // namespace

int main(int argc, char **argv)
{
    configureAllocator(); // as gpudesk's main()
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        qputenv("QT_LOGGING_RULES", "gpudesk.*.debug=false");
    TracingApplication app(argc, argv);
    QCommandLineParser p;
    const QCommandLineOption nodesOpt(QStringLiteral("nodes"), QStringLiteral("nodes"),
                                      QStringLiteral("n"), QStringLiteral("2000"));
    const QCommandLineOption gpusOpt(QStringLiteral("gpus-per-node"), QStringLiteral("GPUs"),
                                     QStringLiteral("n"), QStringLiteral("8"));
    const QCommandLineOption podsOpt(QStringLiteral("pods"), QStringLiteral("pods"),
                                     QStringLiteral("n"), QStringLiteral("100000"));
    const QCommandLineOption eventsOpt(QStringLiteral("events"),
                                       QStringLiteral("watch events per second"),
                                       QStringLiteral("n"), QStringLiteral("10000"));
    const QCommandLineOption secondsOpt(QStringLiteral("seconds"),
                                        QStringLiteral("seconds of churn"), QStringLiteral("s"),
                                        QStringLiteral("60"));
    const QCommandLineOption windowOnlyOpt(QStringLiteral("window-only"),
                                           QStringLiteral("skip kubectl and --report (profiling)"));
    const QCommandLineOption noKubectlOpt(QStringLiteral("no-kubectl"),
                                          QStringLiteral("skip kubectl (minutes at 100,000 pods)"));
    const QCommandLineOption stallTimesOpt(
        QStringLiteral("stall-times"),
        QStringLiteral("print when each stall of 40 ms or more ended (CLOCK_MONOTONIC)"));
    p.addOptions({nodesOpt, gpusOpt, podsOpt, eventsOpt, secondsOpt, windowOnlyOpt, noKubectlOpt,
                  stallTimesOpt});
    p.addHelpOption();
    p.process(app);
    const int nodes = p.value(nodesOpt).toInt();
    const int gpus = p.value(gpusOpt).toInt();
    const int pods = p.value(podsOpt).toInt();
    const int events = p.value(eventsOpt).toInt();
    const int seconds = p.value(secondsOpt).toInt();
    const QString binDir = QCoreApplication::applicationDirPath();

    QTemporaryDir dir;
    QProcess sim;
    sim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QElapsedTimer startTimer;
    startTimer.start();
    sim.start(binDir + QStringLiteral("/gpudesk-sim"),
              {QStringLiteral("--state-dir"), dir.path(), QStringLiteral("--scenario"),
               QStringLiteral("scale"), QStringLiteral("--nodes"), QString::number(nodes),
               QStringLiteral("--gpus-per-node"), QString::number(gpus), QStringLiteral("--pods"),
               QString::number(pods), QStringLiteral("--speed"), QStringLiteral("0"),
               QStringLiteral("--no-ssh"), QStringLiteral("--watch-window"),
               QString::number(std::max(10000, events * 30))});
    QByteArray out;
    while (!out.contains("ready") && sim.waitForReadyRead(900000))
        out += sim.readAllStandardOutput();
    if (!out.contains("ready")) {
        std::fprintf(stderr, "gpudesk-sim did not start\n%s\n", out.constData());
        return 1;
    }
    std::printf("gpudesk-sim scale scenario: %d nodes, %d GPUs, %d pods, started in %.1f s\n",
                nodes, nodes * gpus, pods, double(startTimer.elapsed()) / 1000.0);
    const QString kubeconfig = dir.filePath(QStringLiteral("kubeconfig"));

    QString error;
    const auto cfg = KubeConfig::load({kubeconfig}, &error);
    const auto ep = cfg ? cfg->endpoint(QStringLiteral("sim-admin"), &error) : std::nullopt;
    if (!ep) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    KubeClient client(*ep); // the benchmark's own: the raw fetch, the simulator's churn

    // 1 and 2, alternating, twice each; the wire's floor (the same lists fetched, not decoded)
    // before each report, in the same run.
    const QString report = dir.filePath(QStringLiteral("report.json"));
    for (int run = 1; run <= 2 && !p.isSet(windowOnlyOpt); ++run) {
        QElapsedTimer raw;
        raw.start();
        const qint64 rawBytes = fetchPages(client, QStringLiteral("/api/v1/nodes")).bytes +
                                fetchPages(client, QStringLiteral("/api/v1/pods")).bytes;
        const qint64 rawMs = raw.elapsed();
        std::printf("  run %d: raw fetch of nodes and pods (500 a page, bytes only): %.2f s, "
                    "%.0f MB\n",
                    run, double(rawMs) / 1000.0, double(rawBytes) / 1e6);
        ChildRun k;
        if (!p.isSet(noKubectlOpt)) {
            k = runChild({QStringLiteral("kubectl"), QStringLiteral("--kubeconfig"), kubeconfig,
                          QStringLiteral("--context"), QStringLiteral("sim-admin"),
                          QStringLiteral("get"), QStringLiteral("nodes,pods"), QStringLiteral("-A"),
                          QStringLiteral("-o"), QStringLiteral("json")});
            std::printf("  run %d: kubectl get nodes,pods -A -o json: %.2f s, peak RSS %.0f MB "
                        "(exit %d)\n",
                        run, double(k.ms) / 1000.0, double(k.maxRssKb) / 1024.0, k.exitCode);
        }
        const ChildRun g =
            runChild({binDir + QStringLiteral("/gpudesk"), QStringLiteral("--kubeconfig"),
                      kubeconfig, QStringLiteral("--context"), QStringLiteral("sim-admin"),
                      QStringLiteral("--report"), report, QStringLiteral("--no-ssh")});
        QFile rf(report);
        rf.open(QIODevice::ReadOnly);
        const QJsonObject r = QJsonDocument::fromJson(rf.readAll()).object();
        std::printf(
            "  run %d: gpudesk --report:                 %.2f s, peak RSS %.0f MB "
            "(exit %d; %lld nodes, %d GPUs in the report) = %.0f %% of kubectl's time, "
            "%.1f x the raw fetch\n",
            run, double(g.ms) / 1000.0, double(g.maxRssKb) / 1024.0, g.exitCode,
            static_cast<long long>(r.value(QStringLiteral("nodes")).toArray().size()),
            r.value(QStringLiteral("gpus")).toObject().value(QStringLiteral("total")).toInt(),
            k.ms > 0 ? 100.0 * double(g.ms) / double(k.ms) : 0.0, double(g.ms) / double(rawMs));
        QFile::remove(report);
    }
    std::fflush(stdout);

    // 3: the window.
    // The window as the app composes it: services over the kubeconfig, the window over them.
    Services services({kubeconfig});
    ClusterStore &store = *services.store();
    if (!services.session()->loadConfig(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    MainWindow w(&services);
    w.resize(1600, 1000);
    w.show();
    w.showPage(MainWindow::Workloads);
    StallMeter meter;
    QEventLoop loop;
    QElapsedTimer syncTimer;
    syncTimer.start();
    meter.start();
    services.session()->connectTo(QStringLiteral("sim-admin"));
    ClusterSync &sync = *services.session()->connection()->sync();
    qint64 podEvents = 0;
    QObject::connect(&sync, &ClusterSync::delta, [&podEvents](const Delta &d) {
        if (!d.relist)
            podEvents +=
                d.items<PodInfo>().size() + (d.resource == Resource::Pods ? d.removed.size() : 0);
    });
    // The first figures: when the store first holds pods and nodes (the Overview's totals).
    qint64 firstFiguresMs = -1;
    QObject::connect(&store, &ClusterStore::updated, [&] {
        if (firstFiguresMs < 0 && !store.pods().isEmpty() && store.totals().gpus.total > 0)
            firstFiguresMs = syncTimer.elapsed();
    });
    QObject::connect(&sync, &ClusterSync::synced, &loop, &QEventLoop::quit);
    loop.exec();
    // The informers are done; the store may still be applying the 100,000 pods in slices.
    if (store.isCatchingUp()) {
        QObject::connect(&store, &ClusterStore::caughtUp, &loop, &QEventLoop::quit);
        loop.exec();
    }
    store.flush();
    QCoreApplication::processEvents();
    meter.stop();
    std::printf("  window: first figures (pods and GPUs in the store) after %.2f s, synced in "
                "%.2f s (informers and store; Workloads page shown), RSS after sync %.0f MB, "
                "longest UI stall during the sync %.0f ms\n",
                double(firstFiguresMs) / 1000.0, double(syncTimer.elapsed()) / 1000.0,
                double(rssKb()) / 1024.0, meter.longest());
    std::fflush(stdout);

    QNetworkAccessManager nam;
    auto setChurn = [&](int rate) {
        QNetworkRequest req = client.request(QStringLiteral("/sim/churn?rate=%1").arg(rate));
        req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        QNetworkReply *reply = nam.post(req, QByteArray());
        QEventLoop wait;
        QObject::connect(reply, &QNetworkReply::finished, &wait, &QEventLoop::quit);
        wait.exec();
        const bool ok = reply->error() == QNetworkReply::NoError;
        reply->deleteLater();
        return ok;
    };
    if (!setChurn(events)) {
        std::fprintf(stderr, "POST /sim/churn failed\n");
        return 1;
    }
    podEvents = 0;
    meter.start();
    QElapsedTimer churnTimer;
    churnTimer.start();
    QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    meter.stop();
    const qint64 churnMs = churnTimer.elapsed();
    setChurn(0);
    std::printf("  window under churn: %lld pod watch events applied in %.0f s (%.0f a second; "
                "asked for %d), longest UI stall %.1f ms, 99th percentile %.1f ms (%zu samples "
                "of a 5 ms timer), RSS %.0f MB\n",
                static_cast<long long>(podEvents), double(churnMs) / 1000.0,
                double(podEvents) * 1000.0 / double(churnMs), events, meter.longest(),
                meter.percentile(0.99), meter.samples(), double(rssKb()) / 1024.0);
    if (p.isSet(stallTimesOpt))
        for (const StallMeter::Stall &s : meter.longStalls())
            std::printf("    stall of %.1f ms ended at %.3f s (monotonic)\n", s.ms,
                        double(s.endedMs) / 1000.0);
    sim.terminate();
    sim.waitForFinished(30000);
    return 0;
}
