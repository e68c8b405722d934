// SPDX-License-Identifier: GPL-3.0-or-later
// The informers against a simulator of their own: the store converges on changes within 2 s,
// and a 410 (history compacted while the stream was down) and a restart of the API server from
// older state are both survived, ending equal to a fresh sync; a frozen server is noticed within
// the liveness window its bookmarks promise, and the informers follow again once it thaws. RBAC:
// sim-alice falls back to her namespace where cluster-wide listing is denied. The server coming
// back with a certificate of another CA is said as that, of that server, once.
#include "clusterstore.h"
#include "clustersync.h"
#include "informer.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "syncprogress.h"
#include "testpaths.h"

#include <QElapsedTimer>
#include <QFile>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <sys/types.h>

using namespace gpudesk;
using nlohmann::json;

class TestClusterSync : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void initialSyncMatchesTruth();
    void listProgressIsDeterminate();
    void convergesWithinTwoSeconds();
    void survivesCompaction();
    void researcherFallsBackToHerNamespace();
    void frozenServerIsNoticed();
    void survivesServerRestart();
    void serverKilledMidListIsTheServers();
    void mpiJobsServedAtV2beta1();
    void certificateOfAnotherCaIsSaid(); // last: it restarts the simulator twice

private:
    void startSim();
    void stopSim();
    std::unique_ptr<KubeClient> client(const QString &context);
    // A request with the admin's credentials; returns the body (fails the test on an error).
    QByteArray call(const QByteArray &verb, const QString &path, const QByteArray &body = {});
    QString createPod(const QString &name);
    // The store's content in a comparable form: every pod's key fields and the GPU figures.
    static QString dump(const ClusterStore &store);
    // dump() of a store filled by a sync started now (empty if it did not sync in 30 s).
    QString freshDump();

    QTemporaryDir m_dir;
    QProcess m_sim;
    QNetworkAccessManager m_nam;
    std::optional<ClusterEndpoint> m_admin;
    std::unique_ptr<KubeClient> m_adminClient;
    std::unique_ptr<ClusterStore> m_store;
    std::unique_ptr<ClusterSync> m_sync;
};

void TestClusterSync::startSim()
{
    m_sim.setProgram(TestPaths::simBin());
    qputenv("GPUDESK_SIM_EXIT_WITH_PARENT", "1"); // gone with the test, also when it aborts
    // Frozen time: the only changes are the ones this test makes.
    m_sim.setArguments({QStringLiteral("--state-dir"), m_dir.path(), QStringLiteral("--scenario"),
                        QStringLiteral("demo"), QStringLiteral("--speed"), QStringLiteral("0"),
                        QStringLiteral("--no-ssh")});
    m_sim.setProcessChannelMode(QProcess::MergedChannels);
    m_sim.start();
    QVERIFY(m_sim.waitForStarted());
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += m_sim.readAll()).contains("gpudesk-sim: ready"), 240000);
}

void TestClusterSync::stopSim()
{
    m_sim.terminate();
    QVERIFY(m_sim.waitForFinished(30000));
}

void TestClusterSync::initTestCase()
{
    QVERIFY(m_dir.isValid());
    startSim();
    QString error;
    const auto config = KubeConfig::load({m_dir.filePath(QStringLiteral("kubeconfig"))}, &error);
    QVERIFY2(config, qPrintable(error));
    m_admin = config->endpoint(QStringLiteral("sim-admin"), &error);
    QVERIFY2(m_admin, qPrintable(error));
    m_adminClient = std::make_unique<KubeClient>(*m_admin);
    m_store = std::make_unique<ClusterStore>();
    m_sync = std::make_unique<ClusterSync>(m_adminClient.get(), ClusterSync::Options{});
    connect(m_sync.get(), &ClusterSync::delta, m_store.get(), &ClusterStore::apply);
    QSignalSpy synced(m_sync.get(), &ClusterSync::synced);
    m_sync->start();
    QVERIFY(synced.wait(30000));
    for (Informer *i : m_sync->informers())
        QTRY_COMPARE_WITH_TIMEOUT(int(i->status().state), int(InformerStatus::Live), 5000);
}

void TestClusterSync::cleanupTestCase()
{
    m_sync.reset();
    if (m_sim.state() != QProcess::NotRunning)
        stopSim();
}

std::unique_ptr<KubeClient> TestClusterSync::client(const QString &context)
{
    QString error;
    const auto config = KubeConfig::load({m_dir.filePath(QStringLiteral("kubeconfig"))}, &error);
    const auto ep = config ? config->endpoint(context, &error) : std::nullopt;
    return ep ? std::make_unique<KubeClient>(*ep) : nullptr;
}

QByteArray TestClusterSync::call(const QByteArray &verb, const QString &path,
                                 const QByteArray &body)
{
    QNetworkRequest req = m_adminClient->request(path);
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_nam.sendCustomRequest(req, verb, body);
    QSignalSpy done(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        done.wait(10000);
    reply->deleteLater();
    const QByteArray answer = reply->readAll();
    if (reply->error() != QNetworkReply::NoError)
        qWarning() << verb << path << reply->errorString() << answer;
    return reply->error() == QNetworkReply::NoError ? answer : QByteArray();
}

// In a namespace without a quota: a user's would count (and may refuse) the probes.
QString TestClusterSync::createPod(const QString &name)
{
    const json pod{{"apiVersion", "v1"},
                   {"kind", "Pod"},
                   {"metadata", {{"name", name.toStdString()}, {"namespace", "default"}}},
                   {"spec",
                    {{"containers",
                      {{{"name", "main"},
                        {"image", "registry.lab.internal/ai/pytorch:2.1.2"},
                        {"resources", {{"requests", {{"nvidia.com/gpu", "2"}}}}}}}}}}};
    const QByteArray answer = call("POST", QStringLiteral("/api/v1/namespaces/default/pods"),
                                   QByteArray::fromStdString(pod.dump()));
    const json created = json::parse(answer.toStdString(), nullptr, false);
    return created.is_object() ? QString::fromStdString(created["metadata"].value("uid", ""))
                               : QString();
}

QString TestClusterSync::dump(const ClusterStore &store)
{
    QStringList lines;
    for (auto it = store.pods().cbegin(); it != store.pods().cend(); ++it)
        lines.append(QStringLiteral("%1/%2 %3 %4 %5 gpus=%6")
                         .arg(it->ns, it->name, it->status, it->nodeName)
                         .arg(it->uid)
                         .arg(it->gpuRequest));
    std::sort(lines.begin(), lines.end());
    const GpuTotals t = store.totals();
    lines.append(QStringLiteral("nodes=%1 total=%2 allocated=%3 free=%4 pending=%5 jobs=%6")
                     .arg(store.nodes().size())
                     .arg(t.gpus.total)
                     .arg(t.gpus.allocated)
                     .arg(t.gpus.free)
                     .arg(t.pendingDemand)
                     .arg(store.workloadKeys().size()));
    return lines.join(u'\n');
}

QString TestClusterSync::freshDump()
{
    ClusterStore fresh;
    ClusterSync sync(m_adminClient.get(), ClusterSync::Options{});
    connect(&sync, &ClusterSync::delta, &fresh, &ClusterStore::apply);
    QSignalSpy synced(&sync, &ClusterSync::synced);
    sync.start();
    if (!synced.wait(30000))
        return {};
    return dump(fresh);
}

void TestClusterSync::initialSyncMatchesTruth()
{
    const json truth =
        json::parse(call("GET", QStringLiteral("/sim/truth")).toStdString(), nullptr, false);
    QVERIFY(truth.is_object());
    const GpuTotals t = m_store->totals();
    QCOMPARE(t.gpus.total, truth["gpus"]["total"].get<int>());
    QCOMPARE(t.gpus.allocated, truth["gpus"]["allocated"].get<int>());
    QCOMPARE(t.gpus.free, truth["gpus"]["free"].get<int>());
    QCOMPARE(t.pendingDemand, truth["gpus"]["pendingDemand"].get<int>());
    const json pods = json::parse(call("GET", QStringLiteral("/api/v1/pods")).toStdString());
    QCOMPARE(m_store->pods().size(), qsizetype(pods["items"].size()));
    QVERIFY(m_store->events().size() > 100);
    // The planted pending job says why it waits: the scheduler's own words.
    const QString expected =
        QStringLiteral("0/%1 nodes are available").arg(m_store->nodes().size());
    bool explained = false;
    for (const auto &p : m_store->pods())
        explained |= p.name == QLatin1String("sft-single-node") && p.message.startsWith(expected);
    QVERIFY(explained);
}

// Issue 39: while a collection lists, how far it has come against the count its server said
// with the first page (remainingItemCount) — exact here, the simulator's time frozen.
void TestClusterSync::listProgressIsDeterminate()
{
    // The demo lists in one page a collection: the scale scenario's 1,200 pods take three.
    QTemporaryDir dir;
    QProcess sim;
    sim.setProgram(TestPaths::simBin());
    sim.setArguments({QStringLiteral("--state-dir"), dir.path(), QStringLiteral("--scenario"),
                      QStringLiteral("scale"), QStringLiteral("--nodes"), QStringLiteral("10"),
                      QStringLiteral("--pods"), QStringLiteral("1200"), QStringLiteral("--speed"),
                      QStringLiteral("0"), QStringLiteral("--no-ssh")});
    sim.setProcessChannelMode(QProcess::MergedChannels);
    sim.start();
    QVERIFY(sim.waitForStarted());
    auto stop = qScopeGuard([&sim] {
        sim.terminate();
        sim.waitForFinished(30000);
    });
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += sim.readAll()).contains("gpudesk-sim: ready"), 120000);
    QString error;
    const auto config = KubeConfig::load({dir.filePath(QStringLiteral("kubeconfig"))}, &error);
    QVERIFY2(config, qPrintable(error));
    const auto endpoint = config->endpoint(QStringLiteral("sim-admin"), &error);
    QVERIFY2(endpoint, qPrintable(error));
    KubeClient client(*endpoint);

    ClusterStore fresh;
    ClusterSync sync(&client, ClusterSync::Options{});
    connect(&sync, &ClusterSync::delta, &fresh, &ClusterStore::apply);
    QHash<Resource, QList<InformerStatus>> seen; // each collection's statuses while listing
    QList<SyncProgress> overall;
    connect(&sync, &ClusterSync::statusChanged, this, [&] {
        QList<InformerStatus> all;
        for (Informer *i : sync.informers()) {
            all << i->status();
            // Each step once (any collection's change is announced for all).
            QList<InformerStatus> &steps = seen[i->status().resource];
            if (i->status().state == InformerStatus::Syncing && i->status().listed > 0 &&
                (steps.isEmpty() || steps.last().listed != i->status().listed))
                steps << i->status();
        }
        overall << SyncProgress::of(all);
    });
    QSignalSpy synced(&sync, &ClusterSync::synced);
    sync.start();
    QVERIFY(synced.wait(30000));
    // The collections of more than one page (500 objects).
    int paged = 0;
    for (Informer *i : sync.informers()) {
        const InformerStatus &end = i->status();
        QCOMPARE(end.listed, qint64(end.objects));
        if (end.objects <= 500)
            continue;
        ++paged;
        const QList<InformerStatus> &steps = seen.value(end.resource);
        QVERIFY2(steps.size() >= (end.objects - 1) / 500,
                 qPrintable(resourceName(end.resource) + QString::number(steps.size())));
        qint64 before = 0;
        for (const InformerStatus &s : steps) {
            QCOMPARE(s.expected, qint64(end.objects)); // said from the first page on
            QVERIFY2(
                s.listed > before && s.listed - before <= 500 && s.listed < s.expected,
                qPrintable(
                    QStringLiteral("%1 after %2 of %3").arg(s.listed).arg(before).arg(s.expected)));
            before = s.listed;
        }
        const InformerStatus &first = steps.first();
        QCOMPARE(SyncProgress::describe(first),
                 QStringLiteral("%1: 500 of %2 (%3 %)")
                     .arg(resourceName(end.resource), QLocale().toString(end.objects))
                     .arg(50000 / end.objects));
    }
    QVERIFY2(paged >= 1, "no collection took more than one page");
    QCOMPARE(fresh.pods().size(), 1200);
    // One bar for all: a fraction once every collection listing has said its count, rising
    // while the same ones list.
    QVERIFY(std::any_of(overall.cbegin(), overall.cend(), [](const SyncProgress &p) {
        return p.determinate && p.percent() > 0 && p.percent() < 100;
    }));
    InformerStatus starting;
    starting.resource = Resource::Pods;
    starting.state = InformerStatus::Syncing;
    QCOMPARE(SyncProgress::describe(starting), QStringLiteral("pods: starting"));
    starting.listed = 4500;
    QCOMPARE(SyncProgress::describe(starting),
             QStringLiteral("pods: %1 so far").arg(QLocale().toString(4500)));
    QCOMPARE(SyncProgress::of({starting}).determinate, false);
}

void TestClusterSync::convergesWithinTwoSeconds()
{
    const int pendingBefore = m_store->totals().pendingDemand;
    QSignalSpy updated(m_store.get(), &ClusterStore::updated);
    const QString uid = createPod(QStringLiteral("converge-probe"));
    QVERIFY(!uid.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_store->pod(uid) != nullptr, 2000);
    QCOMPARE(m_store->totals().pendingDemand, pendingBefore + 2);
    // The models hear of it through a coalesced, incremental change set naming the pod.
    auto announced = [&updated, &uid] {
        for (const auto &args : updated) {
            const auto changes = args.at(0).value<StoreChanges>();
            if (changes.pods.contains(uid) && !changes.reset)
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(announced(), 2000);

    QVERIFY(!call("DELETE", QStringLiteral("/api/v1/namespaces/default/pods/converge-probe"))
                 .isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_store->pod(uid) == nullptr, 2000);
    QCOMPARE(m_store->totals().pendingDemand, pendingBefore);
}

void TestClusterSync::survivesCompaction()
{
    Informer *pods = m_sync->informer(Resource::Pods);
    const int relists = pods->status().relists;
    // Cut every watch and forget history, change the cluster, and forget again. The pods watch
    // resumes from a version that is gone (410 Gone: it lists again) — or, where it re-opened
    // between the two at the version the first left, from one that still holds, which is the
    // API's contract too (one run in four did here). A change no informer follows (a ConfigMap)
    // after the pod moves the second compaction past what the pods watch saw last, which makes
    // the 410 the usual path. Either way the store must come out as a fresh list of the cluster.
    QVERIFY(!call("POST", QStringLiteral("/sim/compact")).isEmpty());
    const QString uid = createPod(QStringLiteral("after-compaction"));
    QVERIFY(!uid.isEmpty());
    QVERIFY(!call("POST", QStringLiteral("/api/v1/namespaces/default/configmaps"),
                  R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"compaction-mark"},)"
                  R"("data":{"k":"v"}})")
                 .isEmpty());
    QVERIFY(!call("POST", QStringLiteral("/sim/compact")).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_store->pod(uid) != nullptr, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(int(pods->status().state), int(InformerStatus::Live), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(dump(*m_store) == freshDump(), 20000);
    qInfo() << (pods->status().relists > relists ? "relisted on 410 Gone"
                                                 : "resumed at the compacted version");
    QVERIFY(!call("DELETE", QStringLiteral("/api/v1/namespaces/default/pods/after-compaction"))
                 .isEmpty());
    QVERIFY(!call("DELETE", QStringLiteral("/api/v1/namespaces/default/configmaps/compaction-mark"))
                 .isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_store->pod(uid) == nullptr, 2000);
}

void TestClusterSync::researcherFallsBackToHerNamespace()
{
    const auto alice = client(QStringLiteral("sim-alice"));
    QVERIFY(alice);
    ClusterStore store;
    ClusterSync::Options options;
    options.fallbackNamespace = QStringLiteral("user-alice");
    ClusterSync sync(alice.get(), options);
    connect(&sync, &ClusterSync::delta, &store, &ClusterStore::apply);
    QSignalSpy synced(&sync, &ClusterSync::synced);
    sync.start();
    QVERIFY(synced.wait(20000));
    QCOMPARE(sync.informer(Resource::Pods)->status().scope, QStringLiteral("user-alice"));
    for (const Resource r : {Resource::Events, Resource::VolcanoJobs, Resource::PyTorchJobs})
        QCOMPARE(sync.informer(r)->status().scope, QStringLiteral("user-alice"));
    // What her ClusterRoleBinding allows stays cluster-wide.
    for (const Resource r : {Resource::Nodes, Resource::Namespaces, Resource::Queues}) {
        QTRY_COMPARE_WITH_TIMEOUT(int(sync.informer(r)->status().state), int(InformerStatus::Live),
                                  5000);
        QCOMPARE(sync.informer(r)->status().scope, QString());
    }
    QVERIFY(!store.pods().isEmpty());
    for (const auto &p : store.pods())
        QCOMPARE(p.ns, QStringLiteral("user-alice"));
    QCOMPARE(store.nodes().size(), m_store->nodes().size());
}

void TestClusterSync::frozenServerIsNoticed()
{
    // The simulator sends a bookmark every 5 s to a watch that asked for them: each informer
    // learns that cadence, and its liveness window follows from it (not the watch's 5-10 min).
    for (Informer *i : m_sync->informers())
        QTRY_VERIFY2_WITH_TIMEOUT(i->livenessWindowMs() <= 20000,
                                  qPrintable(QString::number(i->livenessWindowMs())), 20000);
    // Frozen (SIGSTOP): the kernel still accepts connections, nothing answers on them.
    Informer *pods = m_sync->informer(Resource::Pods);
    // Noticed within the window and the check's 5 s (a few seconds of slack for a busy machine).
    const qint64 bound = pods->livenessWindowMs() + 5000 + 3000;
    QElapsedTimer frozen;
    frozen.start();
    QCOMPARE(::kill(pid_t(m_sim.processId()), SIGSTOP), 0);
    auto resume = qScopeGuard([this] { ::kill(pid_t(m_sim.processId()), SIGCONT); });
    QTRY_COMPARE_WITH_TIMEOUT(int(pods->status().state), int(InformerStatus::Retrying), 30000);
    QVERIFY2(frozen.elapsed() <= bound,
             qPrintable(QStringLiteral("%1 > %2 ms").arg(frozen.elapsed()).arg(bound)));
    qInfo("frozen server noticed after %lld ms", frozen.elapsed());
    const QString error = pods->status().error;
    QVERIFY2(error.contains(QLatin1String("no event and no bookmark")) &&
                 error.contains(QLatin1String("it sends one every 5 s")) &&
                 error.contains(QLatin1String("the API server is not responding")) &&
                 error.contains(m_admin->server),
             qPrintable(error));
    // Stale since the last word from the server, before the freeze was noticed.
    QVERIFY(pods->status().since < QDateTime::currentDateTimeUtc().addSecs(-5));
    // Every collection notices, and the store keeps what it knew.
    for (Informer *i : m_sync->informers())
        QTRY_COMPARE_WITH_TIMEOUT(int(i->status().state), int(InformerStatus::Retrying), 30000);
    QVERIFY(!m_store->pods().isEmpty());

    resume.dismiss();
    QCOMPARE(::kill(pid_t(m_sim.processId()), SIGCONT), 0);
    for (Informer *i : m_sync->informers())
        QTRY_COMPARE_WITH_TIMEOUT(int(i->status().state), int(InformerStatus::Live), 60000);
    // Live again, and following: a change made now arrives, and the store equals a fresh sync.
    const QString uid = createPod(QStringLiteral("after-freeze"));
    QVERIFY(!uid.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_store->pod(uid) != nullptr, 5000);
    m_store->flush();
    QCOMPARE(dump(*m_store), freshDump());
}

void TestClusterSync::survivesServerRestart()
{
    // Diverge from the scenario, then restart the simulator: it comes back with the scenario's
    // state and older resourceVersions, which the informers must notice and relist.
    const QString victim = m_store->podsOnNode(QStringLiteral("g4090-01")).value(0)->uid;
    const QString victimName = m_store->pod(victim)->name;
    const QString victimNs = m_store->pod(victim)->ns;
    QVERIFY(!call("DELETE", QStringLiteral("/api/v1/namespaces/%1/pods/%2?gracePeriodSeconds=0")
                                .arg(victimNs, victimName))
                 .isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_store->pod(victim) == nullptr, 2000);
    stopSim();
    QTRY_VERIFY_WITH_TIMEOUT(
        m_sync->informer(Resource::Pods)->status().state == InformerStatus::Retrying, 10000);
    startSim();
    QTRY_VERIFY_WITH_TIMEOUT(m_store->pod(victim) != nullptr, 60000);
    for (Informer *i : m_sync->informers())
        QTRY_COMPARE_WITH_TIMEOUT(int(i->status().state), int(InformerStatus::Live), 60000);

    QCOMPARE(dump(*m_store), freshDump());
}

void TestClusterSync::serverKilledMidListIsTheServers()
{
    // A new window connects, and the API server dies (SIGKILL) while the pods are being listed:
    // the failure is told once, as the server's (not as "Cannot list pods"), within seconds; once
    // the server is back the sync completes and equals a fresh one.
    KubeClient client(*m_admin);
    ClusterSync sync(&client, {});
    ClusterStore store;
    connect(&sync, &ClusterSync::delta, &store, &ClusterStore::apply);
    Informer *pods = sync.informer(Resource::Pods);
    QElapsedTimer killed;
    connect(pods, &Informer::statusChanged, this, [&] {
        if (pods->status().state == InformerStatus::Syncing && !killed.isValid()) {
            killed.start();
            ::kill(pid_t(m_sim.processId()), SIGKILL);
        }
    });
    sync.start();
    QTRY_VERIFY_WITH_TIMEOUT(killed.isValid(), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(m_sim.state(), QProcess::NotRunning, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!sync.serverError().isEmpty(), 15000);
    qInfo("a killed server told after %lld ms: %s", killed.elapsed(),
          qPrintable(sync.serverError()));
    const QString error = sync.serverError();
    QVERIFY2(error.contains(m_admin->server) &&
                 (error.contains(QLatin1String("refused the connection")) ||
                  error.contains(QLatin1String("closed the connection"))),
             qPrintable(error));
    QVERIFY2(!error.contains(QLatin1String("pods"), Qt::CaseInsensitive), qPrintable(error));
    QVERIFY2(sync.problems().startsWith(QLatin1String("Cannot reach the API server since")),
             qPrintable(sync.problems()));

    startSim();
    QTRY_VERIFY_WITH_TIMEOUT(sync.hasSynced(), 90000);
    for (Informer *i : sync.informers())
        QTRY_COMPARE_WITH_TIMEOUT(int(i->status().state), int(InformerStatus::Live), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(sync.serverError().isEmpty(), 5000);
    store.flush();
    QCOMPARE(dump(store), freshDump());
}

void TestClusterSync::mpiJobsServedAtV2beta1()
{
    // A cluster with the MPI operator serves MPIJobs only at kubeflow.org/v2beta1: discovery
    // finds it, and the demo's MPIJob and its pods are there as on a v1 cluster.
    QTemporaryDir dir;
    QProcess sim;
    sim.setProgram(TestPaths::simBin());
    sim.setArguments({QStringLiteral("--state-dir"), dir.path(), QStringLiteral("--speed"),
                      QStringLiteral("0"), QStringLiteral("--no-ssh"),
                      QStringLiteral("--mpijob-version"), QStringLiteral("v2beta1")});
    sim.setProcessChannelMode(QProcess::MergedChannels);
    sim.start();
    QVERIFY(sim.waitForStarted());
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += sim.readAll()).contains("gpudesk-sim: ready"), 240000);
    QString error;
    const auto config = KubeConfig::load({dir.filePath(QStringLiteral("kubeconfig"))}, &error);
    const auto ep = config ? config->endpoint(QStringLiteral("sim-admin"), &error) : std::nullopt;
    QVERIFY2(ep, qPrintable(error));
    KubeClient admin(*ep);
    ClusterStore store;
    ClusterSync sync(&admin, ClusterSync::Options{});
    connect(&sync, &ClusterSync::delta, &store, &ClusterStore::apply);
    QSignalSpy synced(&sync, &ClusterSync::synced);
    sync.start();
    QVERIFY(synced.wait(30000));
    store.flush();
    QCOMPARE(sync.informer(Resource::MPIJobs)->version(), QStringLiteral("v2beta1"));
    QCOMPARE(int(sync.informer(Resource::MPIJobs)->status().state), int(InformerStatus::Live));
    // The demo's two MPIJobs (resnet-mpi runs, bert-mpi's launcher failed): the one that runs.
    QString key;
    QStringList mpiJobs;
    for (const QString &k : store.workloadKeys())
        if (const auto w = store.workload(k); w && w->kind == QLatin1String("MPIJob")) {
            mpiJobs << w->name;
            if (w->name == QLatin1String("resnet-mpi"))
                key = k;
        }
    mpiJobs.sort();
    QCOMPARE(mpiJobs, (QStringList{u"bert-mpi"_qs, u"resnet-mpi"_qs}));
    QVERIFY(!key.isEmpty());
    const auto w = store.workload(key);
    QCOMPARE(w->name, QStringLiteral("resnet-mpi"));
    QVERIFY(w->job);
    QCOMPARE(store.podsOfWorkload(key).size(), 3); // launcher and two workers
    sync.stop();
    sim.terminate();
    QVERIFY(sim.waitForFinished(30000));
}

void TestClusterSync::certificateOfAnotherCaIsSaid()
{
    // The API server comes back with a certificate its context's CA did not sign (the cluster
    // was rebuilt, or something in between answers for it): every informer fails the same way;
    // the window is told once, as the server's certificate, naming the context whose CA it is.
    const QStringList files{QStringLiteral("ca.crt"), QStringLiteral("ca.key"),
                            QStringLiteral("server.crt"), QStringLiteral("server.key")};
    stopSim();
    for (const QString &f : files)
        QVERIFY(QFile::rename(m_dir.filePath(f), m_dir.filePath(f + QStringLiteral(".orig"))));
    startSim(); // a new CA, the same port
    QElapsedTimer clock;
    clock.start();
    // While it was down the error was "refused"; the informers' next tries meet the new server.
    QTRY_VERIFY_WITH_TIMEOUT(m_sync->serverError().startsWith(QLatin1String("TLS with")), 60000);
    qInfo("another CA's certificate told after %lld ms: %s", clock.elapsed(),
          qPrintable(m_sync->serverError()));
    const QString error = m_sync->serverError();
    QVERIFY2(error.startsWith(QStringLiteral("TLS with %1 failed: ").arg(m_admin->server)) &&
                 error.contains(QLatin1String("The server's certificate is not signed by the "
                                              "certificate authority of context sim-admin")),
             qPrintable(error));
    QVERIFY2(!error.contains(QLatin1String("pods"), Qt::CaseInsensitive), qPrintable(error));
    QVERIFY2(m_sync->problems().startsWith(QLatin1String("Cannot reach the API server since")),
             qPrintable(m_sync->problems()));
    // Nothing was taken from the server that could not prove who it is.
    for (Informer *i : m_sync->informers())
        QCOMPARE(int(i->status().state), int(InformerStatus::Retrying));

    // The real server again: the informers follow, and the store equals a fresh sync.
    stopSim();
    for (const QString &f : files) {
        QVERIFY(QFile::remove(m_dir.filePath(f)));
        QVERIFY(QFile::rename(m_dir.filePath(f + QStringLiteral(".orig")), m_dir.filePath(f)));
    }
    startSim();
    for (Informer *i : m_sync->informers())
        QTRY_COMPARE_WITH_TIMEOUT(int(i->status().state), int(InformerStatus::Live), 90000);
    QTRY_VERIFY_WITH_TIMEOUT(m_sync->serverError().isEmpty(), 5000);
    m_store->flush();
    QCOMPARE(dump(*m_store), freshDump());
}

QTEST_GUILESS_MAIN(TestClusterSync)
#include "tst_clustersync.moc"
