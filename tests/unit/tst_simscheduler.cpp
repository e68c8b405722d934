// SPDX-License-Identifier: GPL-3.0-or-later
// Placement (bin packing), gangs, filters, and the FailedScheduling message.
#include "objectfactory.h"
#include "scheduler.h"

#include <QTest>

using nlohmann::json;
using namespace sim;

namespace {

json node(const std::string &name, int gpus, int usedBy = 0, bool cordoned = false,
          json taints = json::array())
{
    json n = ObjectFactory::node(name, gpus ? "NVIDIA GeForce RTX 4090" : "", gpus, 64, 512,
                                 "10.0.0.1", "2026-01-01T00:00:00Z");
    if (cordoned)
        n["spec"]["unschedulable"] = true;
    if (!taints.empty())
        n["spec"]["taints"] = taints;
    (void)usedBy;
    return n;
}

json pod(const std::string &name, int gpus, const std::string &nodeName = {})
{
    PodSpecInput in;
    in.ns = "ns";
    in.name = name;
    in.nodeName = nodeName;
    ContainerSpec c;
    c.image = "img";
    c.gpus = gpus;
    c.cpu = "2";
    c.memory = "8Gi";
    in.containers = {c};
    return ObjectFactory::pod(in);
}

std::vector<const json *> ptrs(const std::vector<json> &v)
{
    std::vector<const json *> out;
    for (const auto &j : v)
        out.push_back(&j);
    return out;
}

} // namespace

class TestSimScheduler : public QObject
{
    Q_OBJECT
private slots:
    void binPacking_data();
    void binPacking();
    void gangAllOrNothing();
    void failedSchedulingMessage();
    void tolerations_data();
    void tolerations();
    void requiredNodeAffinity_data();
    void requiredNodeAffinity();
    void preemptionTakesFewestNewestVictims();
    void preemptionKeepsWhatMayNotBeEvicted();
};

void TestSimScheduler::binPacking_data()
{
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QString>("expected");
    // n8 has 8 free, n7 has 7 free (one used), n2 has 2 free.
    QTest::addRow("1 GPU keeps the whole node whole") << 1 << QStringLiteral("n2");
    QTest::addRow("3 GPUs go to the 7-free node") << 3 << QStringLiteral("n7");
    QTest::addRow("8 GPUs need the whole node") << 8 << QStringLiteral("n8");
}

void TestSimScheduler::binPacking()
{
    QFETCH(int, gpus);
    QFETCH(QString, expected);
    const std::vector<json> nodes{node("n8", 8), node("n7", 8), node("n2", 8)};
    const std::vector<json> pods{pod("a", 1, "n7"), pod("b", 6, "n2")};
    Scheduler s;
    s.load(ptrs(nodes), ptrs(pods));
    const json p = pod("new", gpus);
    std::string message;
    const auto chosen = s.place({&p}, &message);
    QCOMPARE(chosen.size(), size_t(1));
    QCOMPARE(QString::fromStdString(chosen[0]), expected);
}

void TestSimScheduler::gangAllOrNothing()
{
    const std::vector<json> nodes{node("n1", 8), node("n2", 8)};
    const std::vector<json> pods{pod("x", 4, "n1"), pod("y", 4, "n2")};
    Scheduler s;
    s.load(ptrs(nodes), ptrs(pods));
    const json a = pod("a", 4), b = pod("b", 4), c = pod("c", 4);
    std::string message;
    QVERIFY(s.place({&a, &b, &c}, &message).empty()); // 12 GPUs asked, 8 free
    QVERIFY(!message.empty());
    // Nothing of the failed gang stayed placed: two 4-GPU pods still fit.
    const auto two = s.place({&a, &b}, &message);
    QCOMPARE(two.size(), size_t(2));
    QVERIFY(two[0] != two[1]);
}

void TestSimScheduler::failedSchedulingMessage()
{
    const std::vector<json> nodes{node("busy", 8), node("cordoned", 8, 0, true),
                                  node("tainted", 8, 0, false,
                                       json::array({json{{"key", "node.kubernetes.io/unreachable"},
                                                         {"effect", "NoSchedule"}}})),
                                  node("cpu", 0)};
    const std::vector<json> pods{pod("x", 6, "busy")};
    Scheduler s;
    s.load(ptrs(nodes), ptrs(pods));
    const json p = pod("big", 4);
    std::string message;
    QVERIFY(s.place({&p}, &message).empty());
    QCOMPARE(QString::fromStdString(message),
             QStringLiteral("0/4 nodes are available: 1 node(s) had untolerated taint "
                            "{node.kubernetes.io/unreachable: }, 1 node(s) were unschedulable, "
                            "2 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: "
                            "2 No preemption victims found for incoming pod, 2 Preemption is not "
                            "helpful for scheduling."));
}

void TestSimScheduler::tolerations_data()
{
    QTest::addColumn<QByteArray>("toleration");
    QTest::addColumn<bool>("tolerated");
    QTest::addRow("none") << QByteArray("null") << false;
    QTest::addRow("equal")
        << QByteArray(
               R"({"key":"gpudesk.io/reserved","operator":"Equal","value":"a800","effect":"NoSchedule"})")
        << true;
    QTest::addRow("other value")
        << QByteArray(
               R"({"key":"gpudesk.io/reserved","operator":"Equal","value":"x","effect":"NoSchedule"})")
        << false;
    QTest::addRow("exists") << QByteArray(R"({"key":"gpudesk.io/reserved","operator":"Exists"})")
                            << true;
    QTest::addRow("wildcard") << QByteArray(R"({"operator":"Exists"})") << true;
    QTest::addRow("other effect")
        << QByteArray(R"({"key":"gpudesk.io/reserved","operator":"Exists","effect":"NoExecute"})")
        << false;
}

void TestSimScheduler::tolerations()
{
    QFETCH(QByteArray, toleration);
    QFETCH(bool, tolerated);
    json p = pod("p", 1);
    p["spec"]["tolerations"] = json::array();
    const json t = json::parse(toleration.toStdString());
    if (!t.is_null())
        p["spec"]["tolerations"].push_back(t);
    const json taint{{"key", "gpudesk.io/reserved"}, {"value", "a800"}, {"effect", "NoSchedule"}};
    QCOMPARE(Scheduler::tolerates(p, taint), tolerated);
}

void TestSimScheduler::requiredNodeAffinity_data()
{
    // n8 and n7 have room for the 4 GPUs; n7 is labelled rack=7.
    QTest::addColumn<QByteArray>("required");
    QTest::addColumn<QString>("expected"); // "" unschedulable
    const auto hostIn = [](const char *values) -> QByteArray {
        return QByteArray(R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":)"
                          R"("kubernetes.io/hostname","operator":"In","values":)") +
               values + "}]}]}";
    };
    QTest::addRow("pinned to n8") << hostIn(R"(["n8"])") << u"n8"_qs;
    QTest::addRow("pinned to the full node") << hostIn(R"(["n2"])") << QString();
    QTest::addRow("pinned to no node there is") << hostIn(R"(["nx"])") << QString();
    QTest::addRow("terms are ORed")
        << QByteArray(R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"rack","operator":)"
                      R"("In","values":["9"]}]},{"matchFields":[{"key":"metadata.name",)"
                      R"("operator":"In","values":["n7"]}]}]})")
        << u"n7"_qs;
    QTest::addRow("requirements are ANDed")
        << QByteArray(R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"rack","operator":)"
                      R"("Exists"},{"key":"kubernetes.io/hostname","operator":"NotIn",)"
                      R"("values":["n7"]}]}]})")
        << QString();
    QTest::addRow("Gt on a number")
        << QByteArray(R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"rack","operator":)"
                      R"("Gt","values":["6"]}]}]})")
        << u"n7"_qs;
    QTest::addRow("an empty term matches nothing")
        << QByteArray(R"({"nodeSelectorTerms":[{}]})") << QString();
}

void TestSimScheduler::requiredNodeAffinity()
{
    QFETCH(QByteArray, required);
    QFETCH(QString, expected);
    std::vector<json> nodes{node("n8", 8), node("n7", 8), node("n2", 8)};
    nodes[1]["metadata"]["labels"]["rack"] = "7";
    const std::vector<json> pods{pod("a", 3, "n7"), pod("b", 8, "n2")};
    Scheduler s;
    s.load(ptrs(nodes), ptrs(pods));
    json p = pod("p", 4);
    p["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] =
        json::parse(required.toStdString());
    std::string message;
    const auto placed = s.place({&p}, &message);
    if (expected.isEmpty()) {
        QVERIFY(placed.empty());
        QVERIFY2(QString::fromStdString(message).contains(
                     u"didn't match Pod's node affinity/selector"_qs),
                 message.c_str());
    } else {
        QCOMPARE(placed.size(), size_t(1));
        QCOMPARE(QString::fromStdString(placed.front()), expected);
    }
}

void TestSimScheduler::preemptionTakesFewestNewestVictims()
{
    // n1: a (4, newer) and b (4, older); n2: c (6) and d (2). A 4-GPU pod needs one victim on
    // either: the first node that needs the fewest, and there the newest of lowest priority.
    const std::vector<json> nodes{node("n1", 8), node("n2", 8)};
    std::vector<json> pods{pod("a", 4, "n1"), pod("b", 4, "n1"), pod("c", 6, "n2"),
                           pod("d", 2, "n2")};
    pods[0]["metadata"]["creationTimestamp"] = "2026-01-02T00:00:00Z";
    pods[1]["metadata"]["creationTimestamp"] = "2026-01-01T00:00:00Z";
    const json urgent = pod("urgent", 4);
    Scheduler s;
    s.load(ptrs(nodes), ptrs(pods));
    std::string message;
    QVERIFY(s.place({&urgent}, &message).empty());
    const auto plan = s.preempt({&urgent}, [](const json &) { return true; });
    QVERIFY(plan);
    QCOMPARE(plan->nodes, std::vector<std::string>{"n1"});
    QCOMPARE(plan->victims.size(), size_t(1));
    QCOMPARE((*plan->victims[0])["metadata"]["name"].get<std::string>(), std::string("a"));

    // A gang of two 8-GPU pods empties both nodes: all four pods go.
    const json g1 = pod("g1", 8), g2 = pod("g2", 8);
    const auto gang = s.preempt({&g1, &g2}, [](const json &) { return true; });
    QVERIFY(gang);
    QCOMPARE(gang->victims.size(), size_t(4));
    QCOMPARE(gang->nodes, (std::vector<std::string>{"n1", "n2"}));
}

void TestSimScheduler::preemptionKeepsWhatMayNotBeEvicted()
{
    // Only pods the rule allows are taken (another queue's, a higher priority's are not), and
    // only pods that hold what is short: a CPU pod is not evicted for GPUs.
    const std::vector<json> nodes{node("n1", 8)};
    std::vector<json> pods{pod("keep", 6, "n1"), pod("cpu", 0, "n1"), pod("small", 2, "n1")};
    const json urgent = pod("urgent", 4);
    Scheduler s;
    s.load(ptrs(nodes), ptrs(pods));
    auto onlySmallAndCpu = [](const json &v) { return v["metadata"]["name"] != "keep"; };
    QVERIFY(!s.preempt({&urgent}, onlySmallAndCpu)); // freeing 2 of 4 is not enough
    const json two = pod("two", 2);
    const auto plan = s.preempt({&two}, onlySmallAndCpu);
    QVERIFY(plan);
    QCOMPARE(plan->victims.size(), size_t(1));
    QCOMPARE((*plan->victims[0])["metadata"]["name"].get<std::string>(), std::string("small"));
    // A taint the pod does not tolerate is not freed by evicting anyone.
    std::vector<json> tainted{
        node("t1", 8, 0, false,
             json::array({json{{"key", "k"}, {"value", "v"}, {"effect", "NoSchedule"}}}))};
    const std::vector<json> onTainted{pod("x", 8, "t1")};
    Scheduler t;
    t.load(ptrs(tainted), ptrs(onTainted));
    QVERIFY(!t.preempt({&two}, [](const json &) { return true; }));
}

QTEST_GUILESS_MAIN(TestSimScheduler)
#include "tst_simscheduler.moc"
