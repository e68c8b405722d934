// SPDX-License-Identifier: GPL-3.0-or-later
// PodDecoder (simdjson On-Demand) held to the tree-based decoder it replaced for pods, which
// stays as its oracle: the simulator's own pod lists (whole and in pages) and watch streams, the
// recorded API data, and the corners of JSON where the two could part (repeated keys, objects
// where arrays belong, scalars, numbers past 64 bits, escaped keys, times in other forms). Every
// good input must be read by PodDecoder itself (not handed back to the tree), and what it reads
// must equal, field for field, what the tree reads; repeated texts must be shared.
#include "decoder.h"
#include "listhead.h"
#include "poddecoder.h"
#include "simprocess.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace gpudesk;

namespace {

// Every field, one per line: a difference reads as the field that differs.
QString dump(const PodInfo &p)
{
    QStringList lines;
    const auto pairs = [](const auto &list) {
        QStringList out;
        for (const auto &[a, b] : list)
            out.append(QStringLiteral("%1=%2").arg(a).arg(b));
        return out.join(u',');
    };
    lines << p.uid << p.ns << p.name << p.nodeName << p.phase << p.status << p.message << p.vc
          << p.owner.kind + u'/' + p.owner.name + u'/' + p.owner.uid << p.containers.join(u',')
          << p.podIP << p.qosClass << QString::number(p.gpuRequest) << pairs(p.migRequests)
          << QString::number(p.cpuRequestMilli) << QString::number(p.memoryRequestBytes)
          << QString::number(p.restarts) << QString::number(p.deleting)
          << QString::number(p.deletionTime) << QString::number(p.gracePeriodSecs)
          << QString::number(p.created) << p.image << p.imageId << p.devEnv << pairs(p.namedPorts)
          << pairs(p.nodeSelector) << p.tolerations.join(u',')
          << QString::number(p.notReadyTolerationSecs);
    return lines.join(u'\n');
}

struct Both
{
    DecodedPage<int> tree;
    std::optional<DecodedPage<int>> fast;
    QList<PodInfo> treePods;
    QList<PodInfo> fastPods;
};

Both decodeBoth(const QByteArray &body)
{
    Both b;
    Delta tree, fast;
    b.tree = Decoder::listTree(Resource::Pods, body, &tree);
    b.fast = PodDecoder::list(body, &fast);
    b.treePods = tree.items<PodInfo>();
    b.fastPods = fast.items<PodInfo>();
    return b;
}

// The two agree on `body`, and PodDecoder read it itself; the pods.
QList<PodInfo> sameBothWays(const QByteArray &body)
{
    const Both b = decodeBoth(body);
    if (!b.tree.error.isEmpty()) {
        qWarning("the tree decoder refused it: %s", qPrintable(b.tree.error));
        return {};
    }
    if (!b.fast) {
        qWarning("PodDecoder handed it back to the tree");
        return {};
    }
    if (b.fast->continueToken != b.tree.continueToken ||
        b.fast->resourceVersion != b.tree.resourceVersion || b.fast->skipped != b.tree.skipped) {
        qWarning("page metadata differs");
        return {};
    }
    if (b.fastPods.size() != b.treePods.size()) {
        qWarning("%lld pods against %lld", qlonglong(b.fastPods.size()),
                 qlonglong(b.treePods.size()));
        return {};
    }
    for (qsizetype i = 0; i < b.treePods.size(); ++i) {
        if (!(b.fastPods[i] == b.treePods[i])) {
            qWarning("pod %lld differs:\n--- tree\n%s\n--- PodDecoder\n%s", qlonglong(i),
                     qPrintable(dump(b.treePods[i])), qPrintable(dump(b.fastPods[i])));
            return {};
        }
    }
    return b.fastPods;
}

QByteArray list(const QByteArray &items)
{
    return R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[)" +
           items + "]}";
}

} // namespace

class TestPodDecoder : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void simulatorListsWholeAndPaged();
    void simulatorWatchStream();
    void recordedData();
    void corners_data();
    void corners();
    void watchLines();
    void notAListIsSaidAsBefore();
    void continueFromTheHead_data();
    void continueFromTheHead();
    void repeatedTextsAreShared();

private:
    SimProcess m_sim;
};

void TestPodDecoder::initTestCase()
{
    QString error;
    QVERIFY2(
        m_sim.start({QStringLiteral("--speed"), QStringLiteral("0"), QStringLiteral("--no-ssh")},
                    &error),
        qPrintable(error));
}

void TestPodDecoder::simulatorListsWholeAndPaged()
{
    const auto whole = m_sim.request("GET", QStringLiteral("/api/v1/pods"));
    QCOMPARE(whole.status, 200);
    const QList<PodInfo> pods = sameBothWays(whole.body);
    const int truthPods = int(whole.json().value(QStringLiteral("items")).toArray().size());
    QVERIFY(truthPods > 100);
    QCOMPARE(pods.size(), truthPods);
    // Read, not just alike: a planted failure and a GPU job's pod as the demo makes them.
    int withGpus = 0, crashing = 0, onNodes = 0;
    for (const PodInfo &p : pods) {
        withGpus += p.gpuRequest > 0;
        crashing += p.status == QLatin1String("CrashLoopBackOff");
        onNodes += !p.nodeName.isEmpty();
        QVERIFY(!p.uid.isEmpty() && !p.ns.isEmpty() && p.created > 0);
    }
    QVERIFY(withGpus > 20);
    QVERIFY(crashing >= 1);
    QVERIFY(onNodes > 50);

    // In pages of 7, the continue tokens as the server wrote them.
    QString token;
    int paged = 0, pages = 0;
    do {
        const auto page = m_sim.request(
            "GET", QStringLiteral("/api/v1/pods?limit=7") +
                       (token.isEmpty() ? QString() : QStringLiteral("&continue=") + token));
        QCOMPARE(page.status, 200);
        const Both b = decodeBoth(page.body);
        QVERIFY(b.fast);
        paged += int(sameBothWays(page.body).size());
        token = b.fast->continueToken;
        // What the informer reads from the head alone to fetch the next page early.
        QCOMPARE(ListHead::continueToken(page.body), token);
        QCOMPARE(token, page.json()
                            .value(QStringLiteral("metadata"))
                            .toObject()
                            .value(QStringLiteral("continue"))
                            .toString());
        ++pages;
    } while (!token.isEmpty() && pages < 1000);
    QCOMPARE(paged, truthPods);
    QCOMPARE(pages, (truthPods + 6) / 7);
}

void TestPodDecoder::simulatorWatchStream()
{
    // From version 0 the server first sends every pod as ADDED; then a few pods deleted, as
    // MODIFIED (the deletion's start) and DELETED events from the version before them.
    const auto listed = m_sim.request("GET", QStringLiteral("/api/v1/pods"));
    const QJsonObject list = listed.json();
    const QString rv = list.value(QStringLiteral("metadata"))
                           .toObject()
                           .value(QStringLiteral("resourceVersion"))
                           .toString();
    QVERIFY(!rv.isEmpty());
    const QJsonArray items = list.value(QStringLiteral("items")).toArray();
    for (int i = 0; i < 3; ++i) {
        const QJsonObject meta =
            items.at(i * 10).toObject().value(QStringLiteral("metadata")).toObject();
        const auto r = m_sim.request(
            "DELETE", QStringLiteral("/api/v1/namespaces/%1/pods/%2?gracePeriodSeconds=0")
                          .arg(meta.value(QStringLiteral("namespace")).toString(),
                               meta.value(QStringLiteral("name")).toString()));
        QCOMPARE(r.status, 200);
    }
    const auto all = m_sim.request(
        "GET", QStringLiteral("/api/v1/pods?watch=1&timeoutSeconds=1&resourceVersion=0"));
    const auto changes = m_sim.request(
        "GET", QStringLiteral("/api/v1/pods?watch=1&allowWatchBookmarks=true&timeoutSeconds=1&"
                              "resourceVersion=") +
                   rv);
    QCOMPARE(all.status, 200);
    QCOMPARE(changes.status, 200);
    QList<QByteArray> lines = QByteArray(all.body + '\n' + changes.body).split('\n');
    lines.removeAll(QByteArray());
    QVERIFY2(lines.size() > 100, qPrintable(QString::number(lines.size())));
    int fastRead = 0;
    QSet<QString> types;
    for (const QByteArray &line : std::as_const(lines)) {
        WatchLine l;
        PodInfo p;
        fastRead += PodDecoder::event(line, &l, &p);
        types.insert(l.type);
    }
    QCOMPARE(fastRead, lines.size());
    QVERIFY(types.contains(QStringLiteral("ADDED")));
    QVERIFY(types.contains(QStringLiteral("DELETED")));
    Delta fast, tree;
    const WatchProgress a = Decoder::watchEvents(Resource::Pods, lines, &fast);
    const WatchProgress b = Decoder::watchEventsTree(Resource::Pods, lines, &tree);
    QCOMPARE(a.resourceVersion, b.resourceVersion);
    QVERIFY(!a.resourceVersion.isEmpty());
    QCOMPARE(a.skipped, 0);
    QCOMPARE(b.skipped, 0);
    QCOMPARE(fast.removed, tree.removed);
    QVERIFY(!fast.removed.isEmpty());
    QCOMPARE(fast.items<PodInfo>().size(), tree.items<PodInfo>().size());
    for (qsizetype i = 0; i < tree.items<PodInfo>().size(); ++i)
        QCOMPARE(dump(fast.items<PodInfo>()[i]), dump(tree.items<PodInfo>()[i]));
}

void TestPodDecoder::recordedData()
{
    for (const QString &path : {TestPaths::testData(u"/k8s/pods.json"),
                                TestPaths::sourceDir(u"/tests/fuzz/corpus/k8s/pods.json")}) {
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        const QByteArray body = f.readAll();
        const QList<PodInfo> pods = sameBothWays(body);
        QVERIFY2(!pods.isEmpty(), qPrintable(path));
    }
}

void TestPodDecoder::corners_data()
{
    QTest::addColumn<QByteArray>("items");
    QTest::addColumn<QString>("field"); // what the first pod must then hold, as dump() writes it
    QTest::addColumn<QString>("expected");
    const auto row = [](const char *name, const QByteArray &items, QAnyStringView field,
                        QAnyStringView expected) {
        QTest::newRow(name) << items << field.toString() << expected.toString();
    };
    const QByteArray meta = R"("metadata":{"name":"p","namespace":"n","uid":"u1"})";
    row("repeated key: the last", "{" + meta + R"(,"spec":{"nodeName":"a","nodeName":"b"}})",
        "nodeName", "b");
    row("repeated object: the last whole",
        "{" + meta +
            R"(,"spec":{"containers":[{"name":"x","image":"i1"}]},"spec":{"nodeName":"c"}})",
        "image", "");
    row("escaped key", "{" + meta + R"(,"spec":{"node\u004eame":"e"}})", "nodeName", "e");
    row("containers as an object: values by key",
        "{" + meta +
            R"(,"spec":{"containers":{"z":{"name":"z","image":"iz"},"a":{"name":"a","image":"ia"}}}})",
        "containers", "2:a,z");
    row("containers a scalar: one nameless", "{" + meta + R"(,"spec":{"containers":"x"}})",
        "containers", "1:");
    row("tolerations a scalar", "{" + meta + R"(,"spec":{"tolerations":7}})", "tolerations", "|||");
    row("null containers", "{" + meta + R"(,"spec":{"containers":null}})", "containers", "0:");
    row("GPUs as a number, a string and a fraction",
        "{" + meta +
            R"(,"spec":{"containers":[{"resources":{"limits":{"nvidia.com/gpu":2}}},{"resources":{"requests":{"nvidia.com/gpu":"1.5"}}}]}})",
        "gpuRequest", "4");
    row("MIG, requests over limits, sorted",
        "{" + meta +
            R"(,"spec":{"containers":[{"resources":{"requests":{"nvidia.com/mig-3g.40gb":1,"nvidia.com/mig-1g.10gb":"2","nvidia.com/mig-1g.10gb":"3"},"limits":{"nvidia.com/mig-7g.80gb":1}}}]}})",
        "migRequests", "1g.10gb=3,3g.40gb=1");
    row("grace: past 63 bits wraps as the tree's",
        "{" + meta.chopped(1) + R"(,"deletionGracePeriodSeconds":18446744073709551615}})",
        "gracePeriodSecs", "-1");
    row("grace: past 64 bits is no integer",
        "{" + meta.chopped(1) + R"(,"deletionGracePeriodSeconds":184467440737095516150}})",
        "gracePeriodSecs", "30");
    row("grace: a fraction is no integer",
        "{" + meta + R"(,"spec":{"terminationGracePeriodSeconds":5.0}})", "gracePeriodSecs", "30");
    row("time with a fraction and an offset",
        "{" + meta.chopped(1) + R"(,"creationTimestamp":"2026-11-22T11:01:49.250+08:00"}})",
        "created",
        QString::number(
            QDateTime::fromString(QStringLiteral("2026-11-22T03:01:49.250Z"), Qt::ISODateWithMs)
                .toMSecsSinceEpoch()));
    row("time on a leap day",
        "{" + meta.chopped(1) + R"(,"creationTimestamp":"2028-02-29T23:59:59Z"}})", "created",
        "1835481599000");
    row("time not a date",
        "{" + meta.chopped(1) + R"(,"creationTimestamp":"2027-02-29T10:00:00Z"}})", "created", "0");
    row("exit code without a reason",
        "{" + meta +
            R"(,"status":{"phase":"Failed","containerStatuses":[{"name":"m","state":{"terminated":{"exitCode":137}}}]}})",
        "status", "ExitCode:137");
    row("the first container's state is the pod's",
        "{" + meta +
            R"(,"status":{"containerStatuses":[{"state":{"waiting":{"reason":"ImagePullBackOff"}}},{"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}})",
        "status", "ImagePullBackOff");
    row("Completed beside a ready container is Running",
        "{" + meta +
            R"(,"status":{"containerStatuses":[{"state":{"terminated":{"reason":"Completed"}}},{"ready":true,"state":{"running":{}}}]}})",
        "status", "Running");
    row("the scheduler's message",
        "{" + meta +
            R"(,"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","message":"0/4 nodes"}]}})",
        "message", "0/4 nodes");
    row("owner: the controller",
        "{" + meta.chopped(1) +
            R"(,"ownerReferences":[{"kind":"A","name":"a"},{"kind":"Job","name":"j","uid":"ju","controller":true}]}})",
        "owner", "Job/j/ju");
    row("queue from the annotation",
        "{" + meta.chopped(1) + R"(,"annotations":{"scheduling.volcano.sh/queue-name":"vc-a"}}})",
        "vc", "vc-a");
    row("node selector sorted, non-strings left out",
        "{" + meta + R"(,"spec":{"nodeSelector":{"z":"1","a":"2","m":3}}})", "nodeSelector",
        "a=2,z=1");
    row("tolerations for ever", "{" + meta + R"(,"spec":{"tolerations":[{"operator":"Exists"}]}})",
        "notReadyTolerationSecs", "-1");
    row("no uid: namespace/name", R"({"metadata":{"name":"p","namespace":"n"}})", "uid", "n/p");
    row("unicode and escapes in texts",
        "{" + meta + R"(,"status":{"message":"\u8282\u70b9 \"x\"\n\u0000end"}})", "message",
        QStringLiteral("节点 \"x\"\n") + QChar(0) + QStringLiteral("end"));
    row("skipped: no name, not an object",
        "{" + meta + R"(},{"metadata":{"namespace":"n"}},7,{"metadata":{"name":""}})", "name", "p");
}

void TestPodDecoder::corners()
{
    QFETCH(QByteArray, items);
    QFETCH(QString, field);
    QFETCH(QString, expected);
    const QList<PodInfo> pods = sameBothWays(list(items));
    QVERIFY(!pods.isEmpty());
    const PodInfo &p = pods.first();
    const QHash<QString, QString> fields = {
        {QStringLiteral("nodeName"), p.nodeName},
        {QStringLiteral("image"), p.image},
        {QStringLiteral("containers"),
         QString::number(p.containers.size()) + u':' + p.containers.join(u',')},
        {QStringLiteral("tolerations"), p.tolerations.join(u',')},
        {QStringLiteral("gpuRequest"), QString::number(p.gpuRequest)},
        {QStringLiteral("gracePeriodSecs"), QString::number(p.gracePeriodSecs)},
        {QStringLiteral("created"), QString::number(p.created)},
        {QStringLiteral("status"), p.status},
        {QStringLiteral("message"), p.message},
        {QStringLiteral("owner"), p.owner.kind + u'/' + p.owner.name + u'/' + p.owner.uid},
        {QStringLiteral("vc"), p.vc},
        {QStringLiteral("uid"), p.uid},
        {QStringLiteral("name"), p.name},
        {QStringLiteral("notReadyTolerationSecs"), QString::number(p.notReadyTolerationSecs)},
    };
    QString actual;
    if (field == QLatin1String("migRequests") || field == QLatin1String("nodeSelector")) {
        QStringList parts;
        if (field == QLatin1String("migRequests"))
            for (const auto &[k, v] : p.migRequests)
                parts << QStringLiteral("%1=%2").arg(k).arg(v);
        else
            for (const auto &[k, v] : p.nodeSelector)
                parts << k + u'=' + v;
        actual = parts.join(u',');
    } else {
        QVERIFY2(fields.contains(field), qPrintable(field));
        actual = fields.value(field);
    }
    QCOMPARE(actual, expected);
}

void TestPodDecoder::watchLines()
{
    const QList<QByteArray> lines = {
        R"({"type":"ADDED","object":{"metadata":{"name":"a","namespace":"n","uid":"ua","resourceVersion":"10"}}})",
        // The object before its type, as no server writes it but JSON allows.
        R"({"object":{"metadata":{"name":"b","namespace":"n","uid":"ub","resourceVersion":"11"}},"type":"MODIFIED"})",
        R"({"type":"DELETED","object":{"metadata":{"name":"a","namespace":"n","uid":"ua","resourceVersion":"12"}}})",
        R"({"type":"ADDED","object":{"metadata":{"name":"a","namespace":"n","uid":"ua","resourceVersion":"13"}}})",
        R"({"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"14"}}})",
        R"({"type":"MODIFIED","object":{"metadata":{"namespace":"n"}}})", // no name: skipped
        R"({"type":"ADDED","object":{"metadata":{"name":"c","uid":"uc"}}} trailing)",
        R"(not json)",
        R"({"type":"ERROR","object":{"kind":"Status","code":410,"message":"too old resource version"}})",
        R"({"type":"ADDED","object":{"metadata":{"name":"after","uid":"ux"}}})",
    };
    int fastRead = 0;
    for (const QByteArray &line : lines) {
        WatchLine l;
        PodInfo p;
        fastRead += PodDecoder::event(line, &l, &p);
    }
    // The two malformed lines and the ERROR go to the tree; the rest PodDecoder reads.
    QCOMPARE(fastRead, 7);
    Delta fast, tree;
    const WatchProgress a = Decoder::watchEvents(Resource::Pods, lines, &fast);
    const WatchProgress b = Decoder::watchEventsTree(Resource::Pods, lines, &tree);
    QCOMPARE(a.errorCode, 410);
    QCOMPARE(b.errorCode, 410);
    QCOMPARE(a.errorMessage, QStringLiteral("too old resource version"));
    QCOMPARE(a.resourceVersion, QStringLiteral("14"));
    QCOMPARE(b.resourceVersion, a.resourceVersion);
    QCOMPARE(a.skipped, 3);
    QCOMPARE(b.skipped, a.skipped);
    QCOMPARE(fast.removed, QStringList());
    QCOMPARE(tree.removed, fast.removed);
    QStringList names;
    for (const PodInfo &p : fast.items<PodInfo>())
        names << p.name;
    QCOMPARE(names, QStringList({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("a")}));
    QCOMPARE(fast.items<PodInfo>(), tree.items<PodInfo>());
}

void TestPodDecoder::notAListIsSaidAsBefore()
{
    const QList<QByteArray> bodies = {
        R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods is forbidden"})",
        R"({"kind":"Table","apiVersion":"meta.k8s.io/v1","rows":[]})",
        R"({"kind":"PodList","items":{}})",
        R"({"kind":"PodList","items":[{"metadata":{"name":"a"}}]} {})",
        R"({"kind":"PodList","items":[{"metadata":{"name":"a"}})",
        "<html>502 Bad Gateway</html>",
        "",
    };
    for (const QByteArray &body : bodies) {
        Delta fast, tree;
        QVERIFY2(!PodDecoder::list(body, &fast), body.constData());
        const DecodedPage<int> viaList = Decoder::list(Resource::Pods, body, &fast);
        const DecodedPage<int> viaTree = Decoder::listTree(Resource::Pods, body, &tree);
        QVERIFY2(!viaList.error.isEmpty(), body.constData());
        QCOMPARE(viaList.error, viaTree.error);
        QCOMPARE(fast.objectCount(), 0);
    }
}

void TestPodDecoder::continueFromTheHead_data()
{
    // The continue token, and remainingItemCount (the count of what follows; -1 unsaid).
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("token");
    QTest::addColumn<qint64>("remaining");
    QTest::newRow("as servers write it")
        << QByteArray(
               R"({"kind":"PodList","metadata":{"resourceVersion":"5","continue":"eyJ9","remainingItemCount":3},"items":[{"metadata":{"continue":"no","remainingItemCount":9}}]})")
        << "eyJ9" << qint64(3);
    QTest::newRow("last page") << QByteArray(R"({"metadata":{"resourceVersion":"5"},"items":[]})")
                               << "" << qint64(-1);
    QTest::newRow("items first: the head does not say")
        << QByteArray(R"({"items":[],"metadata":{"continue":"x","remainingItemCount":2}})") << ""
        << qint64(-1);
    QTest::newRow("metadata repeated: the last")
        << QByteArray(
               R"({"metadata":{"continue":"a","remainingItemCount":4},"metadata":{"continue":"b"},"items":[]})")
        << "b" << qint64(-1);
    QTest::newRow("continue not a string")
        << QByteArray(R"({"metadata":{"continue":"a","continue":{"x":"y"}},"items":[]})") << ""
        << qint64(-1);
    QTest::newRow("nested continue is not the list's")
        << QByteArray(R"({"metadata":{"x":{"continue":"a","remainingItemCount":1}},"items":[]})")
        << "" << qint64(-1);
    QTest::newRow("metadata a string")
        << QByteArray(R"({"metadata":"continue","items":[]})") << "" << qint64(-1);
    QTest::newRow("malformed head")
        << QByteArray(R"({"metadata":{"continue":"a",]})") << "" << qint64(-1);
    QTest::newRow("an array") << QByteArray(R"([{"metadata":{"continue":"a"},"items":[]}])") << ""
                              << qint64(-1);
    QTest::newRow("escaped") << QByteArray(R"({"metadata":{"continue":"a\u0062"},"items":[]})")
                             << "ab" << qint64(-1);
    QTest::newRow("count not a number")
        << QByteArray(R"({"metadata":{"continue":"a","remainingItemCount":"7"},"items":[]})") << "a"
        << qint64(-1);
    QTest::newRow("count negative: not said")
        << QByteArray(R"({"metadata":{"continue":"a","remainingItemCount":-2},"items":[]})") << "a"
        << qint64(-1);
    QTest::newRow("count past 2^63: not said")
        << QByteArray(
               R"({"metadata":{"continue":"b","remainingItemCount":18446744073709551615},"items":[]})")
        << "b" << qint64(-1);
    QTest::newRow("count past any cluster: not said")
        << QByteArray(
               R"({"metadata":{"continue":"b","remainingItemCount":9007199254740993},"items":[]})")
        << "b" << qint64(-1);
    QTest::newRow("count repeated: the last")
        << QByteArray(
               R"({"metadata":{"remainingItemCount":5,"continue":"c","remainingItemCount":99500},"items":[]})")
        << "c" << qint64(99500);
}

void TestPodDecoder::continueFromTheHead()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, token);
    QFETCH(qint64, remaining);
    QCOMPARE(ListHead::continueToken(body), token);
    QCOMPARE(ListHead::read(body).token, token);
    QCOMPARE(ListHead::read(body).remaining, remaining);
}

void TestPodDecoder::repeatedTextsAreShared()
{
    const QByteArray pod =
        R"({"metadata":{"name":"%1","namespace":"team-a","uid":"u%1"},"spec":{"nodeName":"gpu-01","containers":[{"name":"main","image":"registry.local/pytorch:2.3"}],"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]},"status":{"phase":"Running","qosClass":"Burstable"}})";
    QByteArray items;
    for (int i = 0; i < 3; ++i)
        items += (i ? "," : "") + QString::fromUtf8(pod).arg(i).toUtf8();
    const QList<PodInfo> pods = sameBothWays(list(items));
    QCOMPARE(pods.size(), 3);
    QCOMPARE(pods[2].name, QStringLiteral("2"));
    // One copy of each repeated text and list, whatever the number of pods.
    QCOMPARE(pods[0].ns.constData(), pods[2].ns.constData());
    QCOMPARE(pods[0].nodeName.constData(), pods[2].nodeName.constData());
    QCOMPARE(pods[0].image.constData(), pods[2].image.constData());
    QCOMPARE(pods[0].phase.constData(), pods[2].phase.constData());
    QCOMPARE(pods[0].containers.constData(), pods[2].containers.constData());
    QCOMPARE(pods[0].tolerations.constData(), pods[2].tolerations.constData());
    QVERIFY(pods[0].uid.constData() != pods[2].uid.constData());
}

QTEST_GUILESS_MAIN(TestPodDecoder)
#include "tst_poddecoder.moc"
