// SPDX-License-Identifier: GPL-3.0-or-later
// The controllers that answer a cleanup's writes: Volcano Commands, Kubeflow runPolicy.suspend,
// the disruption controller and the eviction subresource, the garbage collector over the
// jobs' owner references, and the admission of Events written by clients.
#include "admission.h"
#include "evictionapi.h"
#include "simworld.h"

#include <QTest>

using nlohmann::json;
using namespace sim;

class TestSimControllers : public QObject
{
    Q_OBJECT
private slots:
    void volcanoAbortAndResume();
    void volcanoCommandForNoJob();
    void kubeflowSuspend_data();
    void kubeflowSuspend();
    void budgetStatus();
    void evictionRefusedByBudget();
    void evictionDryRunAndReal();
    void ownerReferences();
    void foregroundDeletion();
    void orphanDeletion();
    void eventAdmission_data();
    void eventAdmission();

private:
    static json command(const std::string &ns, const std::string &job, const std::string &uid,
                        const char *action);
    static QStringList eventsOf(SimWorld &w, const char *ns, const char *name);
};

json TestSimControllers::command(const std::string &ns, const std::string &job,
                                 const std::string &uid, const char *action)
{
    // As vcctl writes it: the job as owner and target, named after the job and the action.
    const json ref{{"apiVersion", "batch.volcano.sh/v1alpha1"},
                   {"kind", "Job"},
                   {"name", job},
                   {"uid", uid},
                   {"controller", true},
                   {"blockOwnerDeletion", true}};
    std::string lower = action;
    for (auto &c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return json{{"metadata",
                 {{"generateName", job + "-" + lower + "-"},
                  {"namespace", ns},
                  {"ownerReferences", {ref}}}},
                {"target", ref},
                {"action", action}};
}

QStringList TestSimControllers::eventsOf(SimWorld &w, const char *ns, const char *name)
{
    QStringList out;
    const auto *events = w.store.types()->find({}, QStringLiteral("v1"), QStringLiteral("events"));
    for (const auto &e : w.store.list(events, QString::fromLatin1(ns))) {
        const json &ev = *e.object;
        if (ev["involvedObject"].value("name", "") == name)
            out << QString::fromStdString(ev.value("reason", "") + ": " + ev.value("message", ""));
    }
    return out;
}

void TestSimControllers::volcanoAbortAndResume()
{
    SimWorld w;
    const json job = w.get(w.sim.vcjobs(), "user-dave", "vit-large");
    QCOMPARE(job["status"]["state"]["phase"].get<std::string>(), std::string("Running"));
    const std::string uid = job["metadata"]["uid"];
    const auto created =
        w.store.create(w.sim.commands(), command("user-dave", "vit-large", uid, "AbortJob"));
    QVERIFY(created.ok());
    w.run(1);
    // Taken and deleted at once, so that it runs at most once.
    QCOMPARE(w.store.list(w.sim.commands(), QStringLiteral("user-dave")).size(), size_t(0));
    auto phase = [&] {
        return w.get(w.sim.vcjobs(), "user-dave", "vit-large")["status"]["state"]["phase"]
            .get<std::string>();
    };
    QCOMPARE(phase(), std::string("Aborting"));
    const json pod = w.get(w.sim.pods(), "user-dave", "vit-large-trainer-0");
    QVERIFY(pod["metadata"].contains("deletionTimestamp"));
    w.run(5);
    QCOMPARE(phase(), std::string("Aborted"));
    QVERIFY(w.get(w.sim.pods(), "user-dave", "vit-large-trainer-0").is_null());
    const QStringList events = eventsOf(w, "user-dave", "vit-large");
    QVERIFY(events.contains(QStringLiteral("CommandIssued: Start to execute command AbortJob, and "
                                           "clean it up to make sure executed not more than "
                                           "once.")));
    QVERIFY(events.contains(QStringLiteral("ExecuteAction: Start to execute action AbortJob ")));

    QVERIFY(
        w.store.create(w.sim.commands(), command("user-dave", "vit-large", uid, "ResumeJob")).ok());
    w.run(1);
    QCOMPARE(phase(), std::string("Restarting"));
    for (int i = 0; i < 20 && phase() != "Running"; ++i)
        w.run(1);
    QCOMPARE(phase(), std::string("Running"));
    const json again = w.get(w.sim.vcjobs(), "user-dave", "vit-large");
    QCOMPARE(again["status"]["retryCount"].get<int>(), 1);
    QVERIFY(again["status"]["version"].get<int>() >= 2);
    QVERIFY(!w.get(w.sim.pods(), "user-dave", "vit-large-trainer-0").is_null());
}

void TestSimControllers::volcanoCommandForNoJob()
{
    SimWorld w;
    QVERIFY(w.store.create(w.sim.commands(), command("user-dave", "no-such-job", "x", "AbortJob"))
                .ok());
    w.run(1);
    QCOMPARE(w.store.list(w.sim.commands(), QStringLiteral("user-dave")).size(), size_t(0));
}

void TestSimControllers::kubeflowSuspend_data()
{
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("job");
    QTest::addColumn<QString>("pod");
    QTest::addRow("PyTorchJob") << QStringLiteral("user-alice") << QStringLiteral("llama-sft")
                                << QStringLiteral("llama-sft-master-0");
    QTest::addRow("MPIJob") << QStringLiteral("user-wangfang") << QStringLiteral("resnet-mpi")
                            << QStringLiteral("resnet-mpi-worker-0");
}

void TestSimControllers::kubeflowSuspend()
{
    QFETCH(QString, ns);
    QFETCH(QString, job);
    QFETCH(QString, pod);
    SimWorld w;
    const ResourceType *type =
        job == QLatin1String("llama-sft") ? w.sim.pytorchjobs() : w.sim.mpijobs();
    const std::string kind = type->kind.toStdString();
    auto current = [&] { return *w.store.get(type, ns, job).object.object; };
    auto condition = [&](const char *t) {
        const json job = current();
        for (const auto &c : job["status"]["conditions"])
            if (c["type"] == t)
                return c;
        return json();
    };
    json j = current();
    j["spec"]["runPolicy"]["suspend"] = true;
    QVERIFY(w.store.update(type, j).ok());
    w.run(1);
    const json suspended = condition("Suspended");
    QCOMPARE(suspended["status"].get<std::string>(), std::string("True"));
    QCOMPARE(suspended["reason"].get<std::string>(), kind + "Suspended");
    QCOMPARE(suspended["message"].get<std::string>(),
             kind + " " + job.toStdString() + " is suspended.");
    QCOMPARE(condition("Running")["status"].get<std::string>(), std::string("False"));
    w.run(5);
    QVERIFY(w.get(w.sim.pods(), ns.toLatin1().constData(), pod.toLatin1().constData()).is_null());
    const auto *podgroups = w.store.types()->served(QStringLiteral("scheduling.volcano.sh"),
                                                    QStringLiteral("podgroups"));
    QVERIFY(!w.store.get(podgroups, ns, job).ok()); // the pod group is released
    QVERIFY(eventsOf(w, ns.toLatin1().constData(), job.toLatin1().constData())
                .contains(QString::fromStdString(kind + "Suspended: " + kind + " " +
                                                 job.toStdString() + " is suspended.")));

    j = current();
    j["spec"]["runPolicy"]["suspend"] = false;
    QVERIFY(w.store.update(type, j).ok());
    w.run(1);
    QCOMPARE(condition("Suspended")["status"].get<std::string>(), std::string("False"));
    QCOMPARE(condition("Suspended")["reason"].get<std::string>(), kind + "Resumed");
    for (int i = 0; i < 20 && condition("Running").value("status", "") != "True"; ++i)
        w.run(1);
    QCOMPARE(condition("Running")["status"].get<std::string>(), std::string("True"));
}

void TestSimControllers::budgetStatus()
{
    SimWorld w;
    w.run(1);
    const json pdb = w.get(w.sim.pdbs(), "user-sunmin", "embed-serve");
    const json &s = pdb["status"];
    QCOMPARE(s["currentHealthy"].get<int>(), 1);
    QCOMPARE(s["desiredHealthy"].get<int>(), 1);
    QCOMPARE(s["expectedPods"].get<int>(), 1);
    QCOMPARE(s["disruptionsAllowed"].get<int>(), 0);
    QCOMPARE(s["observedGeneration"].get<int>(), 1);
    QCOMPARE(s["conditions"][0]["type"].get<std::string>(), std::string("DisruptionAllowed"));
    QCOMPARE(s["conditions"][0]["status"].get<std::string>(), std::string("False"));
    QCOMPARE(s["conditions"][0]["reason"].get<std::string>(), std::string("InsufficientPods"));
}

void TestSimControllers::evictionRefusedByBudget()
{
    SimWorld w;
    EvictionApi eviction(&w.store, &w.sim);
    const json before = w.get(w.sim.pods(), "user-sunmin", "embed-serve");
    const auto a = eviction.evict(QStringLiteral("user-sunmin"), QStringLiteral("embed-serve"),
                                  json{{"apiVersion", "policy/v1"},
                                       {"kind", "Eviction"},
                                       {"metadata", {{"name", "embed-serve"}}}},
                                  false);
    QCOMPARE(a.code, 429);
    QCOMPARE(a.status["reason"].get<std::string>(), std::string("TooManyRequests"));
    QCOMPARE(a.status["message"].get<std::string>(),
             std::string("Cannot evict pod as it would violate the pod's disruption budget."));
    QCOMPARE(a.status["details"]["causes"].dump(),
             std::string(R"([{"message":"The disruption budget embed-serve needs 1 healthy pods )"
                         R"(and has 1 currently","reason":"DisruptionBudget"}])"));
    const json after = w.get(w.sim.pods(), "user-sunmin", "embed-serve");
    QVERIFY(after["metadata"]["resourceVersion"] == before["metadata"]["resourceVersion"]);
    // A name that does not match the URL's.
    const auto bad = eviction.evict(QStringLiteral("user-sunmin"), QStringLiteral("embed-serve"),
                                    json{{"metadata", {{"name", "other"}}}}, false);
    QCOMPARE(bad.code, 400);
}

void TestSimControllers::evictionDryRunAndReal()
{
    SimWorld w;
    EvictionApi eviction(&w.store, &w.sim);
    const json body{{"apiVersion", "policy/v1beta1"},
                    {"kind", "Eviction"},
                    {"metadata", {{"name", "dev-bob"}}},
                    {"deleteOptions", {{"dryRun", {"All"}}}}};
    const quint64 rv = w.store.resourceVersion();
    const auto dry =
        eviction.evict(QStringLiteral("user-bob"), QStringLiteral("dev-bob"), body, false);
    QCOMPARE(dry.code, 201);
    QCOMPARE(w.store.resourceVersion(), rv); // nothing written
    QVERIFY(!w.get(w.sim.pods(), "user-bob", "dev-bob")["metadata"].contains("deletionTimestamp"));
    json real = body;
    real["deleteOptions"] = {{"gracePeriodSeconds", 5}};
    const auto done =
        eviction.evict(QStringLiteral("user-bob"), QStringLiteral("dev-bob"), real, false);
    QCOMPARE(done.code, 201);
    QCOMPARE(done.status["status"].get<std::string>(), std::string("Success"));
    const json pod = w.get(w.sim.pods(), "user-bob", "dev-bob");
    QCOMPARE(pod["metadata"]["deletionGracePeriodSeconds"].get<int>(), 5);
    w.run(5);
    QVERIFY(w.get(w.sim.pods(), "user-bob", "dev-bob").is_null());
}

void TestSimControllers::ownerReferences()
{
    // The jobs' pods and pod groups name their job as controller, blocking its deletion.
    SimWorld w;
    const auto *podgroups = w.store.types()->served(QStringLiteral("scheduling.volcano.sh"),
                                                    QStringLiteral("podgroups"));
    const std::pair<const ResourceType *, std::string> owned[] = {
        {w.sim.pods(), "vit-large-trainer-0"},
        {w.sim.pods(), "llama-sft-worker-0"},
        {w.sim.pods(), "resnet-mpi-worker-1"}};
    for (const auto &[type, name] : owned) {
        bool found = false;
        for (const auto &p : w.store.list(type)) {
            if ((*p.object)["metadata"]["name"] != name)
                continue;
            const json &ref = (*p.object)["metadata"]["ownerReferences"][0];
            QVERIFY(ref["controller"].get<bool>());
            QVERIFY(ref["blockOwnerDeletion"].get<bool>());
            found = true;
        }
        QVERIFY2(found, name.c_str());
    }
    for (const auto &pg : w.store.list(podgroups))
        QVERIFY((*pg.object)["metadata"]["ownerReferences"][0]["controller"].get<bool>());
}

void TestSimControllers::foregroundDeletion()
{
    SimWorld w;
    DeleteOptions o;
    o.propagationPolicy = QStringLiteral("Foreground");
    const auto r = w.store.requestDelete(w.sim.vcjobs(), QStringLiteral("user-dave"),
                                         QStringLiteral("vit-large"), o);
    QVERIFY(r.ok());
    const json job = *r.object.object;
    QVERIFY(job["metadata"].contains("deletionTimestamp"));
    QCOMPARE(job["metadata"]["finalizers"].dump(), std::string(R"(["foregroundDeletion"])"));
    // Its pod goes first (Terminating, then removed by its kubelet); then the job.
    QVERIFY(w.get(w.sim.pods(), "user-dave", "vit-large-trainer-0")["metadata"].contains(
        "deletionTimestamp"));
    QVERIFY(!w.get(w.sim.vcjobs(), "user-dave", "vit-large").is_null());
    w.run(5);
    QVERIFY(w.get(w.sim.pods(), "user-dave", "vit-large-trainer-0").is_null());
    QVERIFY(w.get(w.sim.vcjobs(), "user-dave", "vit-large").is_null());
}

void TestSimControllers::orphanDeletion()
{
    SimWorld w;
    DeleteOptions o;
    o.propagationPolicy = QStringLiteral("Orphan");
    QVERIFY(w.store
                .requestDelete(w.sim.pytorchjobs(), QStringLiteral("user-alice"),
                               QStringLiteral("llama-sft"), o)
                .ok());
    QVERIFY(w.get(w.sim.pytorchjobs(), "user-alice", "llama-sft").is_null());
    w.run(2);
    const json pod = w.get(w.sim.pods(), "user-alice", "llama-sft-master-0");
    QCOMPARE(pod["status"]["phase"].get<std::string>(), std::string("Running"));
    QVERIFY(!pod["metadata"].contains("ownerReferences"));
}

void TestSimControllers::eventAdmission_data()
{
    QTest::addColumn<QString>("event");
    QTest::addColumn<QString>("error"); // "" accepted
    QTest::addRow("audit event")
        << QStringLiteral(
               R"({"metadata":{"name":"old-train.audit","namespace":"user-liuyang"},
            "involvedObject":{"kind":"Pod","namespace":"user-liuyang","name":"old-train"},
            "reason":"GpudeskForceDelete","message":"force-deleted by gpudesk","type":"Normal"})")
        << QString();
    QTest::addRow("namespace mismatch")
        << QStringLiteral(R"({"metadata":{"name":"e","namespace":"user-bob"},
            "involvedObject":{"kind":"Pod","namespace":"user-alice","name":"p"}})")
        << QStringLiteral("Event \"e\" is invalid: involvedObject.namespace: Invalid value: "
                          "\"user-alice\": does not match event.namespace");
    QTest::addRow("new style without reportingController")
        << QStringLiteral(R"({"metadata":{"name":"e","namespace":"user-bob"},
            "eventTime":"2026-11-22T12:00:00.000000Z","reason":"R","action":"A",
            "reportingInstance":"x",
            "involvedObject":{"kind":"Pod","namespace":"user-bob","name":"p"}})")
        << QStringLiteral("Event \"e\" is invalid: reportingController: Required value");
}

void TestSimControllers::eventAdmission()
{
    QFETCH(QString, event);
    QFETCH(QString, error);
    ResourceTypes types;
    json ev = json::parse(event.toStdString());
    const auto refused =
        Admission::admit(types.find({}, QStringLiteral("v1"), QStringLiteral("events")), ev);
    QCOMPARE(refused ? refused->message : QString(), error);
    if (refused)
        QCOMPARE(refused->code, 422);
}

QTEST_GUILESS_MAIN(TestSimControllers)
#include "tst_simcontrollers.moc"
