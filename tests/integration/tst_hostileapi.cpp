// SPDX-License-Identifier: GPL-3.0-or-later
// The informers and the report against API servers that misbehave as real ones and the proxies in
// front of them do: a continue token that keeps expiring (410), a Table where a list belongs, a
// group served only at a newer version. Each ends in bounded time with a message that names what
// happened, and discovery reads what the server serves.
#include "clustersync.h"
#include "informer.h"
#include "kubeclient.h"
#include "prometheusclient.h"
#include "rss.h"
#include "scriptedendpoint.h"

#include <QFile>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>
#include <QUrlQuery>

using namespace gpudesk;

namespace {

QByteArray emptyList(const QByteArray &kind)
{
    return R"({"kind":")" + kind +
           R"(List","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[]})";
}

// What a minimal API server serves: the core group and, from `groups`, the API groups with the
// resources of each version; an empty list for every collection; watches held open.
struct FakeApi
{
    // "group/version" → plurals
    QList<std::pair<QByteArray, QByteArrayList>> groups = {
        {"scheduling.volcano.sh/v1beta1", {"queues", "podgroups"}},
        {"batch.volcano.sh/v1alpha1", {"jobs"}},
        {"kubeflow.org/v1", {"pytorchjobs", "mpijobs"}}};

    // Handles discovery and lists; false for anything else (the test answers it).
    bool serve(const ScriptedServer::Request &r, QTcpSocket *socket) const
    {
        const QByteArray path = r.target.split('?').first();
        if (path == "/apis") {
            QMap<QByteArray, QByteArrayList> versions;
            for (const auto &[gv, plurals] : groups)
                versions[gv.split('/').first()] << gv.split('/').last();
            QByteArray items;
            for (auto it = versions.cbegin(); it != versions.cend(); ++it) {
                QByteArray vs;
                for (const QByteArray &v : it.value())
                    vs += QByteArray(vs.isEmpty() ? "" : ",") + R"({"groupVersion":")" + it.key() +
                          '/' + v + R"(","version":")" + v + R"("})";
                items += QByteArray(items.isEmpty() ? "" : ",") + R"({"name":")" + it.key() +
                         R"(","versions":[)" + vs + "]}";
            }
            ScriptedServer::respond(socket, 200,
                                    R"({"kind":"APIGroupList","apiVersion":"v1","groups":[)" +
                                        items + "]}");
            return true;
        }
        for (const auto &[gv, plurals] : groups) {
            if (path == "/apis/" + gv) {
                QByteArray rs;
                for (const QByteArray &p : plurals)
                    rs += QByteArray(rs.isEmpty() ? "" : ",") + R"({"name":")" + p +
                          R"(","namespaced":true})";
                ScriptedServer::respond(socket, 200,
                                        R"({"kind":"APIResourceList","groupVersion":")" + gv +
                                            R"(","resources":[)" + rs + "]}");
                return true;
            }
        }
        if (r.target.contains("watch=1"))
            return true; // held open, silent: these tests are about lists
        if (path.startsWith("/api/v1/") || path.startsWith("/apis/")) {
            ScriptedServer::respond(socket, 200, emptyList("Something"));
            return true;
        }
        return false;
    }
};

// A chunked answer that never ends: 1 MiB chunks, as fast as the client reads them.
void serveEndlessBody(QTcpSocket *socket, const QByteArray &start)
{
    ScriptedServer::startChunked(socket);
    ScriptedServer::chunk(socket, start);
    const QByteArray piece(1 << 20, ' ');
    auto feed = [socket, piece] {
        while (socket->state() == QAbstractSocket::ConnectedState &&
               socket->bytesToWrite() < (4 << 20))
            ScriptedServer::chunk(socket, piece);
    };
    QObject::connect(socket, &QTcpSocket::bytesWritten, socket, feed);
    feed();
}

qint64 residentBytes()
{
    const long kb = rssKb();
    return kb > 0 ? qint64(kb) * 1024 : -1;
}

} // namespace

class TestHostileApi : public QObject
{
    Q_OBJECT
private slots:
    void expiredContinueTokenIsBounded();
    void tableInsteadOfListIsNamed();
    void discoveryPicksTheServedVersion();
    void endlessListIsCutOff();
    void endlessWatchLineIsCutOff();
    void cutWatchIsResumed();
    void endlessPrometheusAnswerIsCutOff();
    void tricklingAnswerIsGivenUp();
};

void TestHostileApi::expiredContinueTokenIsBounded()
{
    // Nodes come in pages; every continue token has expired by the time it is used, and so has
    // the unpaged list client-go falls back to (a broken server).
    FakeApi api;
    ScriptedServer server([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (r.target.startsWith("/api/v1/nodes") && !r.target.contains("watch=1")) {
            const QUrlQuery q(QString::fromLatin1(r.target.mid(r.target.indexOf('?') + 1)));
            if (q.hasQueryItem(QStringLiteral("continue")) ||
                !q.hasQueryItem(QStringLiteral("limit")))
                ScriptedServer::respond(
                    s, 410,
                    R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.","reason":"Expired","code":410})");
            else
                ScriptedServer::respond(
                    s, 200,
                    R"({"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"9","continue":"tok"},"items":[{"metadata":{"name":"n1","uid":"u1"}}]})");
            return;
        }
        api.serve(r, s);
    });
    KubeClient client(endpointOf(server));
    ClusterSync sync(&client, {});
    Informer *nodes = sync.informer(Resource::Nodes);
    // Each time it gives up on a list it says so (Retrying) and waits, with a growing back-off.
    int retries = 0;
    QDateTime lastSince;
    connect(nodes, &Informer::statusChanged, this, [&] {
        if (nodes->status().state == InformerStatus::Retrying &&
            nodes->status().since != lastSince) {
            lastSince = nodes->status().since;
            ++retries;
        }
    });
    sync.start();
    QTRY_VERIFY_WITH_TIMEOUT(retries >= 3, 20000);
    QVERIFY2(nodes->status().error.contains(QLatin1String("410")),
             qPrintable(nodes->status().error));
    QVERIFY(nodes->status().error.contains(QLatin1String("too old")));
    int nodeRequests = 0, unpaged = 0;
    for (const auto &r : server.requests()) {
        nodeRequests += r.target.startsWith("/api/v1/nodes") ? 1 : 0;
        unpaged += r.target == "/api/v1/nodes" ? 1 : 0;
    }
    // The first expiry lists once without paging (as client-go's pager); after that each attempt
    // is one paged list and the unpaged one: a few requests per retry, not hundreds a second.
    QVERIFY(unpaged >= 1);
    QVERIFY2(
        nodeRequests <= 2 * retries + 2,
        qPrintable(QStringLiteral("%1 requests for %2 retries").arg(nodeRequests).arg(retries)));
    QVERIFY(!nodes->hasSynced());
}

void TestHostileApi::tableInsteadOfListIsNamed()
{
    // A proxy that asks for server-side printing on the client's behalf: pods come as a Table.
    FakeApi api;
    ScriptedServer server([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (r.target.startsWith("/api/v1/pods") && !r.target.contains("watch=1")) {
            ScriptedServer::respond(
                s, 200,
                R"({"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"3"},"columnDefinitions":[{"name":"Name","type":"string"}],"rows":[{"cells":["p1"]}]})");
            return;
        }
        api.serve(r, s);
    });
    KubeClient client(endpointOf(server));
    ClusterSync sync(&client, {});
    sync.start();
    Informer *pods = sync.informer(Resource::Pods);
    QTRY_VERIFY_WITH_TIMEOUT(pods->status().state == InformerStatus::Retrying, 10000);
    QVERIFY2(pods->status().error.contains(QLatin1String("a Table (meta.k8s.io/v1")),
             qPrintable(pods->status().error));
    QVERIFY(pods->status().error.contains(QLatin1String("instead of a list of objects")));
    // Said once per attempt, for the collection that got it; the others are live.
    QTRY_COMPARE_WITH_TIMEOUT(int(sync.informer(Resource::Nodes)->status().state),
                              int(InformerStatus::Live), 5000);
}

void TestHostileApi::discoveryPicksTheServedVersion()
{
    // A cluster with the MPI operator (kubeflow.org/v2beta1 mpijobs), the training operator's
    // PyTorchJobs at v1, and no Volcano.
    FakeApi api;
    api.groups = {{"kubeflow.org/v1", {"pytorchjobs"}}, {"kubeflow.org/v2beta1", {"mpijobs"}}};
    ScriptedServer server([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (!api.serve(r, s))
            ScriptedServer::respond(s, 404, R"({"kind":"Status","code":404})");
    });
    KubeClient client(endpointOf(server));
    ClusterSync sync(&client, {});
    QSignalSpy synced(&sync, &ClusterSync::synced);
    sync.start();
    QVERIFY(synced.wait(10000));
    QCOMPARE(sync.informer(Resource::MPIJobs)->version(), QStringLiteral("v2beta1"));
    QCOMPARE(sync.informer(Resource::PyTorchJobs)->version(), QStringLiteral("v1"));
    QVERIFY(server.count("/apis/kubeflow.org/v2beta1/mpijobs") > 0);
    QCOMPARE(server.count("/apis/kubeflow.org/v1/mpijobs"), 0);
    QCOMPARE(int(sync.informer(Resource::Queues)->status().state),
             int(InformerStatus::Unavailable));
    QVERIFY2(sync.informer(Resource::Queues)
                 ->status()
                 .error.contains(QLatin1String("looked for scheduling.volcano.sh/v1beta1")),
             qPrintable(sync.informer(Resource::Queues)->status().error));
    QVERIFY(sync.discovered().missing.contains(Resource::VolcanoJobs));
    // Nothing asked for a group the server does not serve.
    QCOMPARE(server.count("/apis/scheduling.volcano.sh"), 0);
}

void TestHostileApi::endlessListIsCutOff()
{
    // The node list never ends. gpudesk stops reading at its bound, says so, gives the memory
    // back, and goes on working with the same server.
    FakeApi api;
    bool endless = true;
    ScriptedServer server([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (endless && r.target.startsWith("/api/v1/nodes") && !r.target.contains("watch=1")) {
            serveEndlessBody(s, R"({"kind":"NodeList","apiVersion":"v1","items":[)");
            return;
        }
        api.serve(r, s);
    });
    const qint64 idle = residentBytes();
    KubeClient client(endpointOf(server));
    ClusterSync sync(&client, {});
    Informer *nodes = sync.informer(Resource::Nodes);
    qint64 peak = idle;
    QTimer meter;
    connect(&meter, &QTimer::timeout, this, [&] { peak = std::max(peak, residentBytes()); });
    meter.start(20);
    sync.start();
    QTRY_VERIFY_WITH_TIMEOUT(nodes->status().state == InformerStatus::Retrying, 30000);
    meter.stop();
    const QString error = nodes->status().error;
    QVERIFY2(error.contains(QLatin1String("sent more than 64 MiB in answer to GET /api/v1/nodes")),
             qPrintable(error));
    QVERIFY(error.contains(server.url()));
    // Bounded while it read (the 64 MiB of gpudesk's buffer, and the 1 MiB Qt may hold
    // before it is read), and given back.
    const qint64 grown = (peak - idle) >> 20;
    qInfo("resident: idle %lld MiB, peak %lld MiB above it", idle >> 20, grown);
    QVERIFY2(grown < 96, qPrintable(QString::number(grown)));
    // The server mends its ways: the next try lists the nodes.
    endless = false;
    QTRY_VERIFY_WITH_TIMEOUT(nodes->hasSynced(), 30000);
    QTRY_VERIFY2_WITH_TIMEOUT((residentBytes() - idle) >> 20 < 32,
                              qPrintable(QString::number((residentBytes() - idle) >> 20)), 10000);
}

void TestHostileApi::endlessWatchLineIsCutOff()
{
    // The node watch sends one event line that never ends — the first time, counted by watch
    // requests alone (a list tried again on a loaded machine must not use it up).
    FakeApi api;
    int watches = 0;
    ScriptedServer server([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (r.target.startsWith("/api/v1/nodes") && r.target.contains("watch=1")) {
            if (++watches == 1)
                serveEndlessBody(s,
                                 R"({"type":"ADDED","object":{"kind":"Node","metadata":{"name":")");
            else
                ScriptedServer::startChunked(s); // accepted, and quiet
            return;
        }
        api.serve(r, s);
    });
    KubeClient client(endpointOf(server));
    ClusterSync sync(&client, {});
    Informer *nodes = sync.informer(Resource::Nodes);
    QString seen;
    connect(nodes, &Informer::statusChanged, this, [&] {
        if (nodes->status().error.contains(QLatin1String("MiB")))
            seen = nodes->status().error;
    });
    sync.start();
    QTRY_VERIFY_WITH_TIMEOUT(!seen.isEmpty(), 60000);
    QVERIFY2(seen.contains(QLatin1String("an event of more than 16 MiB without its end")),
             qPrintable(seen));
    // Watched again: live once the server behaves.
    QTRY_COMPARE_WITH_TIMEOUT(nodes->status().state, InformerStatus::Live, 30000);
}

void TestHostileApi::cutWatchIsResumed()
{
    // A proxy cuts the node watch after it ran a while (no chunked end: the connection drops),
    // then cuts the next one as soon as it starts, then lets one run. The first cut is watched
    // again at once from the version reached, without the collection ever leaving Live; the
    // instant one is the connection's failure, retried with back-off; the third carries on.
    FakeApi api;
    QList<QByteArray> watchTargets;
    ScriptedServer server([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (r.target.startsWith("/api/v1/nodes") && r.target.contains("watch=1")) {
            watchTargets << r.target;
            ScriptedServer::startChunked(s);
            if (watchTargets.size() == 2) {
                s->disconnectFromHost(); // cut at once
                return;
            }
            const QByteArray name = watchTargets.size() == 1 ? "n1" : "n2";
            const QByteArray rv = watchTargets.size() == 1 ? "8" : "9";
            ScriptedServer::chunk(
                s,
                R"({"type":"ADDED","object":{"kind":"Node","apiVersion":"v1","metadata":{"name":")" +
                    name + R"(","uid":"u-)" + name + R"(","resourceVersion":")" + rv + "\"}}}\n");
            if (watchTargets.size() == 1)
                QTimer::singleShot(1500, s, [s] { s->disconnectFromHost(); });
            return;
        }
        api.serve(r, s);
    });
    KubeClient client(endpointOf(server));
    ClusterSync sync(&client, {});
    Informer *nodes = sync.informer(Resource::Nodes);
    QStringList added;
    connect(nodes, &Informer::delta, this, [&](const Delta &d) {
        for (const NodeInfo &n : d.items<NodeInfo>())
            added << n.name;
    });
    QList<InformerStatus> seen;
    connect(nodes, &Informer::statusChanged, this, [&] { seen << nodes->status(); });
    sync.start();
    QTRY_COMPARE_WITH_TIMEOUT(added, QStringList({QStringLiteral("n1"), QStringLiteral("n2")}),
                              30000);
    QCOMPARE(watchTargets.size(), 3);
    // Each watch from where the last got to: the list's version, then the event's.
    QVERIFY2(watchTargets[0].contains("resourceVersion=7&"), watchTargets[0].constData());
    QVERIFY2(watchTargets[1].contains("resourceVersion=8&"), watchTargets[1].constData());
    QVERIFY2(watchTargets[2].contains("resourceVersion=8&"), watchTargets[2].constData());
    // Live until the instant cut; that one Retrying, said as the connection's; Live again.
    QStringList states;
    for (const InformerStatus &st : std::as_const(seen))
        if (states.isEmpty() || states.last() != QString::number(int(st.state)))
            states << QString::number(int(st.state));
    const auto live = QString::number(int(InformerStatus::Live));
    const auto retrying = QString::number(int(InformerStatus::Retrying));
    const qsizetype firstLive = states.indexOf(live);
    QVERIFY(firstLive >= 0);
    QCOMPARE(states.mid(firstLive), QStringList({live, retrying, live}));
    const auto cut = std::find_if(seen.cbegin(), seen.cend(), [](const InformerStatus &st) {
        return st.state == InformerStatus::Retrying;
    });
    QVERIFY(cut->serverUnreachable);
    QVERIFY2(cut->error.contains(QLatin1String("closed the connection")), qPrintable(cut->error));
    QTRY_COMPARE_WITH_TIMEOUT(nodes->status().state, InformerStatus::Live, 10000);
    QVERIFY(sync.serverError().isEmpty());
}

void TestHostileApi::endlessPrometheusAnswerIsCutOff()
{
    // Prometheus (or what answers at its URL) sends a matrix that never ends: the query fails
    // at the bound with words that say so, the memory is given back, and the next query works.
    bool endless = true;
    ScriptedServer server([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (!r.target.startsWith("/api/v1/query_range"))
            ScriptedServer::respond(s, 404, "{}");
        else if (endless)
            serveEndlessBody(s, R"({"status":"success","data":{"resultType":"matrix","result":[)");
        else
            ScriptedServer::respond(s, 200,
                                    R"({"status":"success","data":{"resultType":"matrix","result":)"
                                    R"([{"metric":{"gpu":"0"},"values":[[1764118800,"97"]]}]}})");
    });
    PrometheusClient prometheus{QUrl(server.url())};
    const qint64 idle = residentBytes();
    qint64 peak = idle;
    QTimer meter;
    connect(&meter, &QTimer::timeout, this, [&] { peak = std::max(peak, residentBytes()); });
    meter.start(20);
    int answers = 0;
    QList<PromSeries> series;
    QString error;
    auto ask = [&] {
        prometheus.queryRange(QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), 0, 3600000, 60, this,
                              [&](const QList<PromSeries> &s, const QString &e) {
                                  series = s;
                                  error = e;
                                  ++answers;
                              });
    };
    ask();
    QTRY_COMPARE_WITH_TIMEOUT(answers, 1, 60000);
    meter.stop();
    QCOMPARE(error, QStringLiteral("Prometheus at %1/api/v1/query_range sent more than 128 MiB for "
                                   "one query; gpudesk stopped reading (a day of a few thousand "
                                   "series is far less).")
                        .arg(server.url()));
    QVERIFY(series.isEmpty());
    const qint64 grown = (peak - idle) >> 20;
    qInfo("resident: idle %lld MiB, peak %lld MiB above it", idle >> 20, grown);
    QVERIFY2(grown < 128 + 64, qPrintable(QString::number(grown)));
    endless = false;
    ask();
    QTRY_COMPARE_WITH_TIMEOUT(answers, 2, 30000);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(series.size(), 1);
    QCOMPARE(series.first().points.size(), 1);
    QCOMPARE(series.first().points.first().y(), 97.0);
    QTRY_VERIFY2_WITH_TIMEOUT((residentBytes() - idle) >> 20 < 32,
                              qPrintable(QString::number((residentBytes() - idle) >> 20)), 10000);
}

void TestHostileApi::tricklingAnswerIsGivenUp()
{
    // The node list comes one byte every 10 s: Qt's transfer timeout starts again with each
    // byte, so without a bound of gpudesk's own the request would hold for ever.
    FakeApi api;
    bool trickle = true;
    ScriptedServer server([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (trickle && r.target.startsWith("/api/v1/nodes") && !r.target.contains("watch=1")) {
            ScriptedServer::startChunked(s);
            auto *drip = new QTimer(s);
            connect(drip, &QTimer::timeout, s, [s] { ScriptedServer::chunk(s, "{"); });
            drip->start(10000);
            ScriptedServer::chunk(s, "{");
            return;
        }
        api.serve(r, s);
    });
    KubeClient client(endpointOf(server));
    ClusterSync sync(&client, {});
    Informer *nodes = sync.informer(Resource::Nodes);
    QElapsedTimer clock;
    clock.start();
    sync.start();
    QTRY_VERIFY_WITH_TIMEOUT(nodes->status().state == InformerStatus::Retrying, 60000);
    qInfo("a trickling answer given up after %lld ms", clock.elapsed());
    QVERIFY2(clock.elapsed() < 20000 + 10000 + 5000, qPrintable(QString::number(clock.elapsed())));
    const QString error = nodes->status().error;
    QVERIFY2(
        error.startsWith(server.url()) &&
            error.contains(QLatin1String("bytes in 20 s of its answer to GET /api/v1/nodes")) &&
            error.contains(QLatin1String("trickles")),
        qPrintable(error));
    trickle = false;
    QTRY_VERIFY_WITH_TIMEOUT(nodes->hasSynced(), 30000);
}

QTEST_MAIN(TestHostileApi)
#include "tst_hostileapi.moc"
