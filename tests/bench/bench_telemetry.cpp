// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of node telemetry. Prints figures; not a test.
//  1. Sweeps of N simulator nodes (default 500) over SSH every 2 s: the time one sweep takes
//     (the first one includes the SSH handshakes), and the client's CPU per node sample
//     (getrusage of this process: SSH crypto, the probe's parsing, the cgroup join), with
//     every running pod's own CPU and memory read from its cgroup as the app does.
//  2. A day of history for 2,000 nodes × 8 cards in TelemetryHistory, and for 16,000 pods in
//     PodUsageHistory: resident memory.
// Targets (issue 4): sweep ≤ 2 s, ≤ 1 ms CPU per node sample, ≤ 200 MB for the day.
#include "podusagehistory.h"
#include "rss.h"
#include "sshconfig.h"
#include "sshpool.h"
#include "sshtargets.h"
#include "telemetryhistory.h"
#include "telemetrysampler.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QProcess>
#include <QTemporaryDir>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <memory>

using namespace gpudesk;

namespace {

double cpuSeconds()
{
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

int sweeps(int nodes, int count)
{
    QTemporaryDir dir;
    QProcess sim;
    sim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    sim.start(QCoreApplication::applicationDirPath() + QStringLiteral("/gpudesk-sim"),
              {QStringLiteral("--state-dir"), dir.path(), QStringLiteral("--scenario"),
               QStringLiteral("scale"), QStringLiteral("--nodes"), QString::number(nodes),
               QStringLiteral("--gpus-per-node"), QStringLiteral("8"), QStringLiteral("--pods"),
               QString::number(nodes * 6), QStringLiteral("--speed"), QStringLiteral("1")});
    QByteArray out;
    while (!out.contains("ready") && sim.waitForReadyRead(600000))
        out += sim.readAllStandardOutput();
    if (!out.contains("ready")) {
        std::fprintf(stderr, "gpudesk-sim did not start\n%s\n", out.constData());
        return 1;
    }
    QFile ports(dir.filePath(QStringLiteral("ports.json")));
    ports.open(QIODevice::ReadOnly);
    const QStringList names = QJsonDocument::fromJson(ports.readAll())
                                  .object()
                                  .value(QStringLiteral("nodes"))
                                  .toObject()
                                  .keys();
    QString error;
    const auto config = SshConfig::load(dir.filePath(QStringLiteral("ssh_config")), &error);
    QList<SshTarget> targets;
    for (const QString &n : names)
        targets.append(resolveSshTarget(*config, {}, n, QString()));

    // The GPU pods each node runs, as the app would take them from its store: from /sim/truth.
    QProcess kubectl;
    kubectl.start(QStringLiteral("kubectl"),
                  {QStringLiteral("--kubeconfig"), dir.filePath(QStringLiteral("kubeconfig")),
                   QStringLiteral("--context"), QStringLiteral("sim-admin"), QStringLiteral("get"),
                   QStringLiteral("--raw"), QStringLiteral("/sim/truth")});
    kubectl.waitForFinished(120000);
    QHash<QString, QList<nodecmd::PodRef>> podsOf;
    int podCount = 0;
    for (const QJsonValue &n :
         QJsonDocument::fromJson(kubectl.readAllStandardOutput()).object()[u"nodes"].toArray())
        for (const QJsonValue &p : n[u"pods"].toArray()) {
            if (p[u"gpus"].toInt() == 0)
                continue; // the app reads CPU-only pods' cgroups only while a viewer is open
            podsOf[n[u"name"].toString()].append({p[u"uid"].toString(), p[u"qosClass"].toString()});
            ++podCount;
        }

    SshPool pool;
    TelemetrySampler sampler(&pool);
    sampler.setTargets(targets);
    sampler.setPodsOfNode([&podsOf](const QString &node) { return podsOf.value(node); });
    int podSamples = 0;
    sampler.setInterval(2000);
    int samples = 0, failed = 0, done = 0;
    double cpuAtSecond = 0;
    int samplesAtSecond = 0;
    QList<qint64> times;
    QObject::connect(&sampler, &TelemetrySampler::sampled, [&](const NodeSample &s) {
        ++samples;
        failed += s.ok() ? 0 : 1;
        podSamples += int(s.pods.size());
    });
    QObject::connect(&sampler, &TelemetrySampler::sweepFinished,
                     [&](int answered, int fails, int skipped, qint64 ms) {
                         times << ms;
                         std::printf("  sweep %d: %d answered, %d failed, %d skipped, %lld ms\n",
                                     done + 1, answered, fails, skipped, ms);
                         if (++done == 1) {
                             cpuAtSecond = cpuSeconds();
                             samplesAtSecond = samples;
                         }
                         if (done == count)
                             QCoreApplication::quit();
                     });
    std::printf("telemetry: %lld nodes over SSH (gpudesk-sim, 8 GPUs each), %d running GPU pods, a "
                "sweep every 2 s\n",
                qint64(names.size()), podCount);
    const double cpu0 = cpuSeconds();
    sampler.start();
    QCoreApplication::exec();
    sampler.stop();
    const double steadyCpu = cpuSeconds() - cpuAtSecond;
    const int steadySamples = samples - samplesAtSecond;
    QList<qint64> steady = times.mid(1);
    std::sort(steady.begin(), steady.end());
    std::printf("  first sweep (with %lld SSH handshakes): %lld ms, client CPU %.2f s\n",
                qint64(names.size()), times.value(0), cpuAtSecond - cpu0);
    std::printf("  later sweeps: median %lld ms, longest %lld ms\n",
                steady.value(steady.size() / 2), steady.isEmpty() ? 0 : steady.last());
    std::printf("  client CPU per node sample: %.3f ms (%d samples, %d failed)\n",
                steadySamples ? 1000.0 * steadyCpu / steadySamples : 0.0, steadySamples, failed);
    std::printf("  pod cgroup readings: %d over %d samples\n", podSamples, samples);
    sim.terminate();
    sim.waitForFinished(30000);
    return failed == 0 ? 0 : 1;
}

std::vector<std::unique_ptr<TelemetryHistory>> dayOfHistory(int nodes, int cards)
{
    // Rings are fixed-size and allocated on a node's first sample, so memory does not grow with
    // time; filling a day (per minute) and the last 20 minutes (every 2 s) sets every slot.
    const long before = rssKb();
    QElapsedTimer t;
    t.start();
    std::vector<std::unique_ptr<TelemetryHistory>> h;
    h.reserve(size_t(nodes));
    const qint64 end = 1'800'000'000'000;
    QList<TelemetryHistory::CardValues> values(cards);
    for (int n = 0; n < nodes; ++n) {
        h.push_back(std::make_unique<TelemetryHistory>());
        for (qint64 time = end - 24 * 3600 * 1000LL; time < end; time += 60000) {
            for (int c = 0; c < cards; ++c)
                values[c] = {int((time / 60000 + c) % 101), 40000 + c, 60, 300};
            h.back()->addCards(time, values);
            h.back()->addNode(time, {50, 40, 8.5});
        }
        for (qint64 time = end - 20 * 60 * 1000; time < end; time += 2000) {
            h.back()->addCards(time, values);
            h.back()->addNode(time, {50, 40, 8.5});
        }
    }
    const long after = rssKb();
    std::printf("history: a day for %d nodes × %d cards (2 s for 20 min, 1 min for 24 h): "
                "%.1f MB resident (%lld bytes a card, %lld a node), filled in %.1f s\n",
                nodes, cards, double(after - before) / 1024.0, TelemetryHistory::bytesPerCard(),
                TelemetryHistory::bytesPerNode(), double(t.elapsed()) / 1000.0);
    const auto series = h.front()->cardSeries(0, TelemetryHistory::Metric::Utilization,
                                              end - 24 * 3600 * 1000LL, end);
    std::printf("  one card's day as a chart series: %lld points\n", qint64(series.size()));
    return h;
}

std::vector<std::unique_ptr<PodUsageHistory>> dayOfPodHistory(int pods)
{
    const long before = rssKb();
    std::vector<std::unique_ptr<PodUsageHistory>> h;
    h.reserve(size_t(pods));
    const qint64 end = 1'800'000'000'000;
    for (int i = 0; i < pods; ++i) {
        h.push_back(std::make_unique<PodUsageHistory>());
        for (qint64 time = end - 24 * 3600 * 1000LL; time < end; time += 60000)
            h.back()->add(time, 7.5, 40LL << 30);
        for (qint64 time = end - 20 * 60 * 1000; time < end; time += 2000)
            h.back()->add(time, 7.5, 40LL << 30);
    }
    std::printf("pod history: a day for %d pods' own CPU and memory: %.1f MB resident (%lld bytes "
                "a pod)\n",
                pods, double(rssKb() - before) / 1024.0, PodUsageHistory::bytes());
    return h;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("gpudesk.*.debug=false"));
    QCommandLineParser p;
    const QCommandLineOption nodesOpt(QStringLiteral("nodes"), QStringLiteral("nodes to sweep"),
                                      QStringLiteral("n"), QStringLiteral("500"));
    const QCommandLineOption sweepsOpt(QStringLiteral("sweeps"), QStringLiteral("sweeps"),
                                       QStringLiteral("n"), QStringLiteral("10"));
    p.addOptions({nodesOpt, sweepsOpt});
    p.process(app);
    // Both kept until the end: memory freed goes back to the allocator, not to the system, and
    // would hide what the next one takes.
    const auto cards = dayOfHistory(2000, 8);
    const auto pods = dayOfPodHistory(16000);
    return sweeps(p.value(nodesOpt).toInt(), p.value(sweepsOpt).toInt());
}
