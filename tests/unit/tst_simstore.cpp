// SPDX-License-Identifier: GPL-3.0-or-later
// The simulator's object store: resourceVersions, the watch window and 410, conflicts,
// graceful deletion and garbage collection.
#include "objectstore.h"
#include "resourcetypes.h"
#include "simclock.h"

#include <QSignalSpy>
#include <QTest>

using nlohmann::json;
using namespace sim;

class TestSimStore : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void createAssignsMetadata();
    void resourceVersionsRise();
    void watchWindowExpires();
    void compactForgetsHistory();
    void conflictOnStaleUpdate();
    void noOpUpdateKeepsVersion();
    void createErrors_data();
    void createErrors();
    void podDeleteIsGraceful();
    void unboundPodGoesAtOnce();
    void finalizersHoldDeletion();
    void garbageCollection_data();
    void garbageCollection();
    void paging();

private:
    const ResourceType *type(const char *resource) const;
    std::unique_ptr<ResourceTypes> m_types;
    std::unique_ptr<SimClock> m_clock;
    std::unique_ptr<ObjectStore> m_store;
};

const ResourceType *TestSimStore::type(const char *resource) const
{
    for (const auto &t : m_types->all()) {
        if (t.resource == QLatin1String(resource))
            return &t;
    }
    return nullptr;
}

void TestSimStore::init()
{
    m_types = std::make_unique<ResourceTypes>();
    m_clock = std::make_unique<SimClock>(QDateTime(QDate(2026, 11, 22), QTime(10, 0), Qt::UTC));
    m_store = std::make_unique<ObjectStore>(m_types.get(), m_clock.get(), 7);
    QVERIFY(m_store->create(type("namespaces"), json{{"metadata", {{"name", "ns"}}}}).ok());
}

void TestSimStore::createAssignsMetadata()
{
    const auto res = m_store->create(type("configmaps"),
                                     json{{"metadata", {{"name", "c"}, {"namespace", "ns"}}}});
    QVERIFY(res.ok());
    const json &o = *res.object.object;
    QCOMPARE(o["kind"].get<std::string>(), std::string("ConfigMap"));
    QCOMPARE(o["apiVersion"].get<std::string>(), std::string("v1"));
    QCOMPARE(o["metadata"]["creationTimestamp"].get<std::string>(),
             std::string("2026-11-22T10:00:00Z"));
    QCOMPARE(o["metadata"]["uid"].get<std::string>().size(), size_t(36));
    QCOMPARE(o["metadata"]["resourceVersion"].get<std::string>(), std::to_string(res.object.rv));
    QVERIFY(o["metadata"]["managedFields"].is_array());
    // The bytes served are the object itself.
    QCOMPARE(QString::fromStdString(json::parse(res.object.bytes.toStdString()).dump()),
             QString::fromStdString(o.dump()));
}

void TestSimStore::resourceVersionsRise()
{
    quint64 last = m_store->resourceVersion();
    for (int i = 0; i < 5; ++i) {
        const auto r = m_store->create(
            type("configmaps"),
            json{{"metadata", {{"name", "c" + std::to_string(i)}, {"namespace", "ns"}}}});
        QVERIFY(r.object.rv > last);
        last = r.object.rv;
    }
}

void TestSimStore::watchWindowExpires()
{
    m_store->setHistoryWindow(3);
    const quint64 start = m_store->resourceVersion();
    for (int i = 0; i < 5; ++i)
        m_store->create(
            type("configmaps"),
            json{{"metadata", {{"name", "c" + std::to_string(i)}, {"namespace", "ns"}}}});
    std::vector<WatchEvent> events;
    QVERIFY(!m_store->eventsSince(type("configmaps"), start, &events)); // 410: too old
    events.clear();
    QVERIFY(m_store->eventsSince(type("configmaps"), m_store->resourceVersion() - 2, &events));
    QCOMPARE(events.size(), size_t(2));
    QCOMPARE(events[0].type, QByteArray("ADDED"));
}

void TestSimStore::compactForgetsHistory()
{
    const quint64 before = m_store->resourceVersion();
    m_store->create(type("configmaps"), json{{"metadata", {{"name", "c"}, {"namespace", "ns"}}}});
    m_store->compact();
    std::vector<WatchEvent> events;
    QVERIFY(!m_store->eventsSince(type("configmaps"), before, &events));
    QVERIFY(m_store->eventsSince(type("configmaps"), m_store->resourceVersion(), &events));
    QVERIFY(events.empty());
}

void TestSimStore::conflictOnStaleUpdate()
{
    const auto created = m_store->create(type("configmaps"),
                                         json{{"metadata", {{"name", "c"}, {"namespace", "ns"}}}});
    json first = *created.object.object;
    first["data"] = {{"k", "1"}};
    QVERIFY(m_store->update(type("configmaps"), first).ok());
    json stale = *created.object.object;
    stale["data"] = {{"k", "2"}};
    const auto r = m_store->update(type("configmaps"), stale);
    QVERIFY(!r.ok());
    QCOMPARE(r.error->code, 409);
    QCOMPARE(r.error->reason, QStringLiteral("Conflict"));
    QVERIFY(r.error->message.contains(QStringLiteral("the object has been modified")));
}

void TestSimStore::noOpUpdateKeepsVersion()
{
    const auto created = m_store->create(type("configmaps"),
                                         json{{"metadata", {{"name", "c"}, {"namespace", "ns"}}}});
    QSignalSpy spy(m_store.get(), &ObjectStore::changed);
    const auto again = m_store->update(type("configmaps"), *created.object.object);
    QVERIFY(again.ok());
    QCOMPARE(again.object.rv, created.object.rv);
    QCOMPARE(spy.count(), 0);
}

void TestSimStore::createErrors_data()
{
    QTest::addColumn<QByteArray>("object");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::addRow("no name") << QByteArray(R"({"metadata":{"namespace":"ns"}})") << 422
                             << QStringLiteral("name or generateName is required");
    QTest::addRow("bad name") << QByteArray(R"({"metadata":{"name":"Bad_Name","namespace":"ns"}})")
                              << 422 << QStringLiteral("RFC 1123");
    QTest::addRow("missing namespace")
        << QByteArray(R"({"metadata":{"name":"c","namespace":"nope"}})") << 404
        << QStringLiteral("namespaces \"nope\" not found");
}

void TestSimStore::createErrors()
{
    QFETCH(QByteArray, object);
    QFETCH(int, code);
    QFETCH(QString, message);
    const auto r = m_store->create(type("configmaps"), json::parse(object.toStdString()));
    QVERIFY(!r.ok());
    QCOMPARE(r.error->code, code);
    QVERIFY2(r.error->message.contains(message), qPrintable(r.error->message));
    const auto dup1 = m_store->create(type("configmaps"),
                                      json{{"metadata", {{"name", "d"}, {"namespace", "ns"}}}});
    const auto dup2 = m_store->create(type("configmaps"),
                                      json{{"metadata", {{"name", "d"}, {"namespace", "ns"}}}});
    QVERIFY(dup1.ok());
    QCOMPARE(dup2.error->code, 409);
    QCOMPARE(dup2.error->reason, QStringLiteral("AlreadyExists"));
}

void TestSimStore::podDeleteIsGraceful()
{
    json pod{{"metadata", {{"name", "p"}, {"namespace", "ns"}}},
             {"spec",
              {{"nodeName", "n1"},
               {"terminationGracePeriodSeconds", 30},
               {"containers", json::array()}}},
             {"status", {{"phase", "Running"}}}};
    QVERIFY(m_store->create(type("pods"), pod).ok());
    const auto r =
        m_store->requestDelete(type("pods"), QStringLiteral("ns"), QStringLiteral("p"), {});
    QVERIFY(r.ok());
    QCOMPARE((*r.object.object)["metadata"]["deletionTimestamp"].get<std::string>(),
             std::string("2026-11-22T10:00:30Z"));
    QCOMPARE((*r.object.object)["metadata"]["deletionGracePeriodSeconds"].get<int>(), 30);
    QVERIFY(
        m_store->get(type("pods"), QStringLiteral("ns"), QStringLiteral("p")).ok()); // still there
    DeleteOptions force;
    force.gracePeriodSeconds = 0;
    QVERIFY(m_store->requestDelete(type("pods"), QStringLiteral("ns"), QStringLiteral("p"), force)
                .ok());
    QCOMPARE(m_store->get(type("pods"), QStringLiteral("ns"), QStringLiteral("p")).error->code,
             404);
}

void TestSimStore::unboundPodGoesAtOnce()
{
    QVERIFY(m_store
                ->create(type("pods"), json{{"metadata", {{"name", "p"}, {"namespace", "ns"}}},
                                            {"spec", {{"containers", json::array()}}}})
                .ok());
    QVERIFY(
        m_store->requestDelete(type("pods"), QStringLiteral("ns"), QStringLiteral("p"), {}).ok());
    QVERIFY(!m_store->get(type("pods"), QStringLiteral("ns"), QStringLiteral("p")).ok());
}

void TestSimStore::finalizersHoldDeletion()
{
    QVERIFY(m_store
                ->create(type("configmaps"),
                         json{{"metadata",
                               {{"name", "c"}, {"namespace", "ns"}, {"finalizers", {"x/y"}}}}})
                .ok());
    const auto r =
        m_store->requestDelete(type("configmaps"), QStringLiteral("ns"), QStringLiteral("c"), {});
    QVERIFY((*r.object.object)["metadata"].contains("deletionTimestamp"));
    json o =
        *m_store->get(type("configmaps"), QStringLiteral("ns"), QStringLiteral("c")).object.object;
    o["metadata"]["finalizers"] = json::array();
    QVERIFY(m_store->update(type("configmaps"), o).ok());
    QVERIFY(!m_store->get(type("configmaps"), QStringLiteral("ns"), QStringLiteral("c")).ok());
}

void TestSimStore::garbageCollection_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<bool>("dependentSurvives");
    QTest::addRow("background") << QStringLiteral("Background") << false;
    QTest::addRow("orphan") << QStringLiteral("Orphan") << true;
}

void TestSimStore::garbageCollection()
{
    QFETCH(QString, policy);
    QFETCH(bool, dependentSurvives);
    const auto job = m_store->create(type("pytorchjobs"),
                                     json{{"metadata", {{"name", "j"}, {"namespace", "ns"}}}});
    const std::string uid = (*job.object.object)["metadata"]["uid"];
    QVERIFY(m_store
                ->create(type("pods"),
                         json{{"metadata",
                               {{"name", "j-master-0"},
                                {"namespace", "ns"},
                                {"ownerReferences",
                                 {{{"uid", uid}, {"kind", "PyTorchJob"}, {"name", "j"}}}}}},
                              {"spec", {{"containers", json::array()}}}})
                .ok());
    DeleteOptions o;
    o.propagationPolicy = policy;
    QVERIFY(
        m_store->requestDelete(type("pytorchjobs"), QStringLiteral("ns"), QStringLiteral("j"), o)
            .ok());
    const auto dep = m_store->get(type("pods"), QStringLiteral("ns"), QStringLiteral("j-master-0"));
    QCOMPARE(dep.ok(), dependentSurvives);
    // Released from its owner: the garbage collector drops the reference (and the list with it).
    if (dependentSurvives)
        QVERIFY(!(*dep.object.object)["metadata"].contains("ownerReferences"));
}

void TestSimStore::paging()
{
    for (int i = 0; i < 10; ++i)
        m_store->create(
            type("configmaps"),
            json{{"metadata", {{"name", "c" + std::to_string(i)}, {"namespace", "ns"}}}});
    std::vector<std::string> first;
    m_store->scanFrom(type("configmaps"), QStringLiteral("ns"), {},
                      [&](const std::string &k, const StoredObject &) {
                          first.push_back(k);
                          return true;
                      });
    QCOMPARE(first.size(), size_t(10));
    std::vector<std::string> page;
    m_store->scanFrom(type("configmaps"), QStringLiteral("ns"), first[3],
                      [&](const std::string &k, const StoredObject &) {
                          page.push_back(k);
                          return page.size() < 2; // stop after two
                      });
    QCOMPARE(page.size(), size_t(2));
    QCOMPARE(page.front(), first[4]);
}

QTEST_GUILESS_MAIN(TestSimStore)
#include "tst_simstore.moc"
