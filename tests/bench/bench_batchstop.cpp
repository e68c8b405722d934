// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of a batch stop at scale, against `gpudesk-sim --scenario scale` (2,000 nodes and
// 100,000 pods by default) with the window shown (Workloads page): 1,000 more pods are created,
// then deleted through one operation as the window runs it — checked with dry runs, confirmed,
// run, each deletion verified in the store. Prints: the dry runs' time, deletions a second (the
// requests, as the API answered them), the time until every pod was seen gone, and the UI
// thread's longest stall throughout (a 5 ms timer). Target (issue 13): ≥ 50 deletions a
// second, the longest stall ≤ 50 ms. Prints figures; it is not a test.
//   bench_batchstop [--nodes N] [--pods P] [--batch B]
#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "contextconnection.h"
#include "kubeclient.h"
#include "mainwindow.h"
#include "operation.h"
#include "operationsservice.h"
#include "services.h"
#include "stallmeter.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>

using namespace gpudesk;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCommandLineParser p;
    const QCommandLineOption nodesOpt(QStringLiteral("nodes"), QStringLiteral("nodes"),
                                      QStringLiteral("n"), QStringLiteral("2000"));
    const QCommandLineOption podsOpt(QStringLiteral("pods"), QStringLiteral("pods"),
                                     QStringLiteral("n"), QStringLiteral("100000"));
    const QCommandLineOption batchOpt(QStringLiteral("batch"), QStringLiteral("pods to stop"),
                                      QStringLiteral("n"), QStringLiteral("1000"));
    p.addOptions({nodesOpt, podsOpt, batchOpt});
    p.addHelpOption();
    p.process(app);
    const int batch = p.value(batchOpt).toInt();

    QTemporaryDir dir;
    QProcess sim;
    sim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    // Simulated time at its own pace: a simulator stepping 100,000 pods' machines 30 times a
    // second would spend a core on itself and answer the API late.
    sim.start(QCoreApplication::applicationDirPath() + QStringLiteral("/gpudesk-sim"),
              {QStringLiteral("--state-dir"), dir.path(), QStringLiteral("--scenario"),
               QStringLiteral("scale"), QStringLiteral("--nodes"), p.value(nodesOpt),
               QStringLiteral("--pods"), p.value(podsOpt), QStringLiteral("--speed"),
               QStringLiteral("1"), QStringLiteral("--no-ssh")});
    QByteArray out;
    while (!out.contains("ready") && sim.waitForReadyRead(900000))
        out += sim.readAllStandardOutput();
    if (!out.contains("ready")) {
        std::fprintf(stderr, "gpudesk-sim did not start\n%s\n", out.constData());
        return 1;
    }
    Services services({dir.filePath(QStringLiteral("kubeconfig"))});
    QString error;
    if (!services.session()->loadConfig(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    MainWindow w(&services);
    w.resize(1600, 1000);
    w.show();
    w.showPage(MainWindow::Workloads);
    services.session()->connectTo(QStringLiteral("sim-admin"));
    QEventLoop loop;
    ClusterSync *sync = services.session()->connection()->sync();
    QObject::connect(sync, &ClusterSync::synced, &loop, &QEventLoop::quit);
    loop.exec();
    ClusterStore *store = services.store();
    if (store->isCatchingUp()) {
        QObject::connect(store, &ClusterStore::caughtUp, &loop, &QEventLoop::quit);
        loop.exec();
    }

    // The batch: pods of one user, created through the API (16 requests at a time).
    KubeClient *client = services.session()->connection()->client();
    int created = 0, next = 0, failed = 0;
    std::function<void()> createNext = [&] {
        if (next >= batch)
            return;
        const int i = next++;
        const QJsonObject pod{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Pod")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("batch-%1").arg(i)}}},
            {QStringLiteral("spec"),
             QJsonObject{
                 {QStringLiteral("containers"),
                  QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("main")},
                                         {QStringLiteral("image"), QStringLiteral("busybox")}}}}}}};
        client->create(QStringLiteral("/api/v1/namespaces/default/pods"),
                       QJsonDocument(pod).toJson(QJsonDocument::Compact), false, &app,
                       [&](const KubeReply &r) {
                           ++created;
                           failed += r.ok() ? 0 : 1;
                           if (created == batch)
                               loop.quit();
                           createNext();
                       });
    };
    for (int i = 0; i < 16; ++i)
        createNext();
    loop.exec();
    QStringList keys;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        keys.clear();
        // The scale scenario is static (no scheduler, no kubelets): the batch stays unbound,
        // and a deletion removes a pod at once. What is measured is gpudesk and the API, not a
        // kubelet's grace period (tst_operations covers those).
        for (const PodInfo &pod : store->pods())
            if (pod.ns == QLatin1String("default") && pod.name.startsWith(QLatin1String("batch-")))
                keys << pod.uid;
        if (keys.size() == batch)
            loop.quit();
    });
    poll.start(100);
    loop.exec();
    poll.stop();
    std::printf("%d pods created (%d failed) on a cluster of %lld pods; stopping them:\n", created,
                failed, static_cast<long long>(store->pods().size()));

    StallMeter meter;
    meter.start();
    QElapsedTimer t;
    t.start();
    Operation *op = services.operations()->prepare(
        services.operations()->planner().deleteWorkloads(keys, QStringLiteral("benchmark")));
    if (op->state() != Operation::State::Ready) {
        QObject::connect(op, &Operation::checked, &loop, &QEventLoop::quit);
        loop.exec();
    }
    const qint64 checkMs = t.elapsed();
    int refused = 0;
    for (const PlanStep &s : op->plan().steps)
        refused += s.dryRun == PlanStep::DryRun::Refused ? 1 : 0;
    t.start();
    QObject::connect(op, &Operation::finished, &loop, &QEventLoop::quit);
    if (!op->start(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    loop.exec();
    const qint64 totalMs = t.elapsed();
    meter.stop();
    std::printf("  dry runs of %d deletions: %.2f s (%d refused)\n", batch,
                double(checkMs) / 1000.0, refused);
    std::printf("  %s in %.2f s, requests answered at %.0f deletions a second (target >= 50)\n",
                qPrintable(op->summary()), double(totalMs) / 1000.0,
                double(op->requestsAnswered()) * 1000.0 /
                    double(std::max<qint64>(1, op->lastRequestAnsweredMs())));
    std::printf("  longest UI stall %.1f ms, 99th percentile %.1f ms (target <= 50 ms)\n",
                meter.longest(), meter.percentile(0.99));
    sim.terminate();
    sim.waitForFinished(30000);
    return 0;
}
