// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of decoding pods, the bulk of a sync: the pages of `gpudesk-sim --scenario scale`
// (real bytes, as the API server pages them, 500 a page), fetched once, then decoded on one
// thread by the tree-based decoder (nlohmann, the oracle) and by PodDecoder (simdjson
// On-Demand): MB/s, pods/s, heap bytes a decoded pod holds; and the same pods as watch events
// (MODIFIED lines): events/s. The fetch itself is timed too (bytes only, the continue token
// found by a search), as the floor a sync cannot go under. Prints figures; it is not a test.
//   bench_decode [--pods N] [--nodes N] [--repeat R]
#include "allocatorpolicy.h"
#include "decoder.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "rawfetch.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <functional>

using namespace gpudesk;

namespace {

size_t heapInUse()
{
    return mallinfo2().uordblks;
}

// Best of `repeat` runs of `work`, in ms.
double bestMs(int repeat, const std::function<void()> &work)
{
    double best = 1e18;
    for (int i = 0; i < repeat; ++i) {
        QElapsedTimer t;
        t.start();
        work();
        best = std::min(best, double(t.nsecsElapsed()) / 1e6);
    }
    return best;
}

} // namespace

int main(int argc, char **argv)
{
    configureAllocator(); // as gpudesk's main()
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    const QCommandLineOption podsOpt(QStringLiteral("pods"), QStringLiteral("pods"),
                                     QStringLiteral("n"), QStringLiteral("25000"));
    const QCommandLineOption nodesOpt(QStringLiteral("nodes"), QStringLiteral("nodes"),
                                      QStringLiteral("n"), QStringLiteral("500"));
    const QCommandLineOption repeatOpt(QStringLiteral("repeat"), QStringLiteral("runs, best kept"),
                                       QStringLiteral("n"), QStringLiteral("3"));
    p.addOptions({podsOpt, nodesOpt, repeatOpt});
    p.addHelpOption();
    p.process(app);
    const int repeat = std::max(1, p.value(repeatOpt).toInt());

    QTemporaryDir dir;
    QProcess sim;
    sim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    sim.start(QCoreApplication::applicationDirPath() + QStringLiteral("/gpudesk-sim"),
              {QStringLiteral("--state-dir"), dir.path(), QStringLiteral("--scenario"),
               QStringLiteral("scale"), QStringLiteral("--nodes"), p.value(nodesOpt),
               QStringLiteral("--pods"), p.value(podsOpt), QStringLiteral("--speed"),
               QStringLiteral("0"), QStringLiteral("--no-ssh")});
    QByteArray out;
    while (!out.contains("ready") && sim.waitForReadyRead(900000))
        out += sim.readAllStandardOutput();
    if (!out.contains("ready")) {
        std::fprintf(stderr, "gpudesk-sim did not start\n%s\n", out.constData());
        return 1;
    }
    QString error;
    const auto cfg = KubeConfig::load({dir.filePath(QStringLiteral("kubeconfig"))}, &error);
    const auto ep = cfg ? cfg->endpoint(QStringLiteral("sim-admin"), &error) : std::nullopt;
    if (!ep) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    KubeClient client(*ep);

    // The pages, as an informer asks for them.
    QList<QByteArray> pages;
    qint64 bytes = 0;
    const auto fetchAll = [&] {
        RawFetch f = fetchPages(client, QStringLiteral("/api/v1/pods"));
        pages = std::move(f.pages);
        bytes = f.bytes;
    };
    const double fetchMs = bestMs(repeat, fetchAll);
    const double mb = double(bytes) / 1e6;
    std::printf("%lld pages, %.1f MB of pod lists; fetched (bytes only, 500 a page) in %.0f ms "
                "= %.0f MB/s\n",
                qlonglong(pages.size()), mb, fetchMs, mb * 1000.0 / fetchMs);

    // Lists, one thread.
    qsizetype podCount = 0;
    const auto decodeWith = [&](bool tree) {
        return [&, tree] {
            podCount = 0;
            for (const QByteArray &page : std::as_const(pages)) {
                Delta d;
                if (tree)
                    Decoder::listTree(Resource::Pods, page, &d);
                else
                    Decoder::list(Resource::Pods, page, &d);
                podCount += d.items<PodInfo>().size();
            }
        };
    };
    const double treeMs = bestMs(repeat, decodeWith(true));
    const double fastMs = bestMs(repeat, decodeWith(false));
    std::printf("list pages, one thread: tree (nlohmann) %.0f ms = %.0f MB/s, %.0f pods/s; "
                "PodDecoder (simdjson On-Demand) %.0f ms = %.0f MB/s, %.0f pods/s (%.1f x); "
                "%lld pods\n",
                treeMs, mb * 1000.0 / treeMs, double(podCount) * 1000.0 / treeMs, fastMs,
                mb * 1000.0 / fastMs, double(podCount) * 1000.0 / fastMs, treeMs / fastMs,
                qlonglong(podCount));

    // What the decoded pods hold, kept.
    for (const bool tree : {true, false}) {
        malloc_trim(0);
        const size_t before = heapInUse();
        QList<Delta> kept;
        for (const QByteArray &page : std::as_const(pages)) {
            Delta d;
            if (tree)
                Decoder::listTree(Resource::Pods, page, &d);
            else
                Decoder::list(Resource::Pods, page, &d);
            d.items<PodInfo>().squeeze();
            kept.append(std::move(d));
        }
        const size_t after = heapInUse();
        std::printf("  %s: %.0f heap bytes a pod kept (sizeof(PodInfo) %zu)\n",
                    tree ? "tree      " : "PodDecoder",
                    double(after - before) / double(std::max<qsizetype>(1, podCount)),
                    sizeof(PodInfo));
    }

    // Watch events: each pod as a MODIFIED line, as the API server writes them.
    QList<QByteArray> lines;
    for (const QByteArray &page : std::as_const(pages)) {
        const auto j = nlohmann::json::parse(page.begin(), page.end());
        for (const auto &item : j["items"])
            lines.append(QByteArray::fromStdString(
                nlohmann::json{{"type", "MODIFIED"}, {"object", item}}.dump()));
    }
    qint64 lineBytes = 0;
    for (const QByteArray &l : std::as_const(lines))
        lineBytes += l.size();
    const auto watchWith = [&](bool tree) {
        return [&, tree] {
            for (qsizetype at = 0; at < lines.size(); at += 2000) {
                Delta d;
                const QList<QByteArray> batch = lines.mid(at, 2000); // the informer's batch
                if (tree)
                    Decoder::watchEventsTree(Resource::Pods, batch, &d);
                else
                    Decoder::watchEvents(Resource::Pods, batch, &d);
            }
        };
    };
    const double treeWatchMs = bestMs(repeat, watchWith(true));
    const double fastWatchMs = bestMs(repeat, watchWith(false));
    const double lmb = double(lineBytes) / 1e6;
    std::printf("watch events, one thread: tree %.0f events/s (%.0f MB/s); PodDecoder %.0f "
                "events/s (%.0f MB/s) (%.1f x)\n",
                double(lines.size()) * 1000.0 / treeWatchMs, lmb * 1000.0 / treeWatchMs,
                double(lines.size()) * 1000.0 / fastWatchMs, lmb * 1000.0 / fastWatchMs,
                treeWatchMs / fastWatchMs);
    sim.terminate();
    sim.waitForFinished(30000);
    return 0;
}
