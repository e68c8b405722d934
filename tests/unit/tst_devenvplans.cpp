// SPDX-License-Identifier: GPL-3.0-or-later
// Dev environments without a cluster: the form's rules, the objects made of it, the model's rows
// (running, waiting for an image, stopped with only the volume left) and the plans to create,
// stop, start and delete — what the GUI test drives against the simulator, here case by case.
#include "devenvmanifests.h"
#include "devenvplanner.h"
#include "devenvsmodel.h"
#include "devenvspec.h"
#include "devenvsservice.h"
#include "jupyterprobe.h"
#include "modelfixture.h"
#include "operationplanner.h"
#include "podhttp.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace gpudesk::modeltest;

class TestDevEnvPlans : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void rulesSayWhatIsWrong();
    void manifestsCarryTheForm();
    void modelShowsRunningWaitingAndStopped();
    void storeKeepsTheEnvironmentsPods();
    void plans();
    void jupyterAndHttpAnswers();
    void sshEntryRefusesLineBreaks_data();
    void sshEntryRefusesLineBreaks();

private:
    static DevEnvSpec good();
    std::unique_ptr<ClusterStore> m_store;
};

DevEnvSpec TestDevEnvPlans::good()
{
    DevEnvSpec s;
    s.name = QStringLiteral("exp1");
    s.ns = QStringLiteral("user-alice");
    s.image = QStringLiteral("registry.lab.internal/devenv/pytorch-jupyter:2.1");
    s.gpus = 2;
    s.vc = QStringLiteral("nlp");
    s.mounts = {QStringLiteral("nas-alice:/nas")};
    s.env = {{QStringLiteral("HF_HOME"), QStringLiteral("/nas/hf")}};
    return s;
}

void TestDevEnvPlans::init()
{
    m_store = std::make_unique<ClusterStore>();
    QueueInfo nlp;
    nlp.name = QStringLiteral("nlp");
    m_store->replaceQueues({nlp});
    m_store->replaceNodes({node(QStringLiteral("g1"), 8)});
}

void TestDevEnvPlans::rulesSayWhatIsWrong()
{
    QCOMPARE(DevEnvRules::errors(good(), *m_store), QStringList());
    const auto errorsOf = [this](const std::function<void(DevEnvSpec &)> &edit) {
        DevEnvSpec s = good();
        edit(s);
        return DevEnvRules::errors(s, *m_store).join(u' ');
    };
    QVERIFY(errorsOf([](DevEnvSpec &s) {
                s.name = QStringLiteral("Exp_1");
            }).contains(QLatin1String("not a valid name")));
    QVERIFY(errorsOf([](DevEnvSpec &s) {
                s.name = QString(53, u'a');
            }).contains(QLatin1String("not a valid name")));
    QVERIFY(errorsOf([](DevEnvSpec &s) {
                s.image = QStringLiteral("a b");
            }).contains(QLatin1String("no spaces")));
    QVERIFY(errorsOf([](DevEnvSpec &s) {
                s.memory = QStringLiteral("lots");
            }).contains(QLatin1String("lots is not an amount")));
    QVERIFY(errorsOf([](DevEnvSpec &s) {
                s.memory = QStringLiteral("16Gi");
                s.shm = QStringLiteral("32Gi");
            }).contains(QLatin1String("counts against the memory limit")));
    QVERIFY(errorsOf([](DevEnvSpec &s) {
                s.mounts = {QStringLiteral("nas")};
            }).contains(QLatin1String("CLAIM:/path")));
    QVERIFY(errorsOf([](DevEnvSpec &s) {
                s.vc = QStringLiteral("vision");
            }).contains(QLatin1String("no VC vision")));
    // No shared memory is allowed (the plan warns).
    QCOMPARE(errorsOf([](DevEnvSpec &s) { s.shm.clear(); }), QString());
}

void TestDevEnvPlans::manifestsCarryTheForm()
{
    const DevEnvSpec s = good();
    const QByteArray podJson = DevEnvManifests::podJson(s, QStringLiteral("abcde"));
    const QJsonObject pod = QJsonDocument::fromJson(podJson).object();
    const QJsonObject meta = pod[QLatin1String("metadata")].toObject();
    QCOMPARE(meta[QLatin1String("name")].toString(), QStringLiteral("exp1-abcde"));
    QCOMPARE(meta[QLatin1String("labels")][QLatin1String("gpudesk.io/devenv")].toString(),
             QStringLiteral("exp1"));
    QCOMPARE(meta[QLatin1String("annotations")][QLatin1String("scheduling.volcano.sh/queue-name")]
                 .toString(),
             QStringLiteral("nlp"));
    const QJsonObject c = pod[QLatin1String("spec")][QLatin1String("containers")][0].toObject();
    QCOMPARE(c[QLatin1String("resources")][QLatin1String("limits")][QLatin1String("nvidia.com/gpu")]
                 .toString(),
             QStringLiteral("2"));
    QCOMPARE(c[QLatin1String("resources")][QLatin1String("requests")][QLatin1String("memory")]
                 .toString(),
             QStringLiteral("32Gi"));
    QStringList ports;
    for (const QJsonValue &p : c[QLatin1String("ports")].toArray())
        ports << p[QLatin1String("name")].toString() + u'=' +
                     QString::number(p[QLatin1String("containerPort")].toInt());
    QCOMPARE(ports, QStringList({QStringLiteral("jupyter=8888"), QStringLiteral("ssh=22")}));
    QStringList mounts;
    for (const QJsonValue &m : c[QLatin1String("volumeMounts")].toArray())
        mounts << m[QLatin1String("mountPath")].toString();
    QCOMPARE(mounts, QStringList({QStringLiteral("/workspace"), QStringLiteral("/dev/shm"),
                                  QStringLiteral("/nas")}));
    const QJsonArray volumes = pod[QLatin1String("spec")][QLatin1String("volumes")].toArray();
    QCOMPARE(volumes[1][QLatin1String("emptyDir")][QLatin1String("medium")].toString(),
             QStringLiteral("Memory"));
    QCOMPARE(volumes[1][QLatin1String("emptyDir")][QLatin1String("sizeLimit")].toString(),
             QStringLiteral("8Gi"));
    QCOMPARE(
        volumes[2][QLatin1String("persistentVolumeClaim")][QLatin1String("claimName")].toString(),
        QStringLiteral("nas-alice"));

    // The volume keeps the pod without its name; Start makes it again under a new one.
    const QJsonObject claim =
        QJsonDocument::fromJson(DevEnvManifests::homeClaimJson(s, podJson)).object();
    QCOMPARE(claim[QLatin1String("metadata")][QLatin1String("name")].toString(),
             QStringLiteral("exp1-home"));
    DevEnvVolume v;
    v.ns = s.ns;
    v.env = s.name;
    v.podManifest = claim[QLatin1String("metadata")][QLatin1String("annotations")]
                         [DevEnvManifests::podAnnotation()]
                             .toString()
                             .toUtf8();
    QVERIFY(!QJsonDocument::fromJson(v.podManifest)
                 .object()[QLatin1String("metadata")]
                 .toObject()
                 .contains(QLatin1String("name")));
    const QJsonObject again =
        QJsonDocument::fromJson(DevEnvManifests::podFromVolume(v, QStringLiteral("fghij")))
            .object();
    QCOMPARE(again[QLatin1String("metadata")][QLatin1String("name")].toString(),
             QStringLiteral("exp1-fghij"));
    QCOMPARE(again[QLatin1String("spec")], pod[QLatin1String("spec")]);
    // A manifest that is not a pod is not started.
    v.podManifest = "{\"kind\":\"Secret\"}";
    QVERIFY(DevEnvManifests::podFromVolume(v, QStringLiteral("x")).isEmpty());
    v.podManifest = "not json";
    QVERIFY(DevEnvManifests::podFromVolume(v, QStringLiteral("x")).isEmpty());
    QVERIFY(DevEnvManifests::randomSuffix() != DevEnvManifests::randomSuffix() ||
            DevEnvManifests::randomSuffix() != DevEnvManifests::randomSuffix());
}

void TestDevEnvPlans::modelShowsRunningWaitingAndStopped()
{
    DevEnvsModel model(m_store.get());
    QAbstractItemModelTester tester(&model);
    model.setClock(fixedNow);
    PodInfo running =
        pod(QStringLiteral("exp1-abcde"), QStringLiteral("user-alice"), QStringLiteral("g1"), 2);
    running.devEnv = QStringLiteral("exp1");
    running.namedPorts = {{QStringLiteral("jupyter"), 8888}};
    PodInfo pulling = pod(QStringLiteral("bad-xyz"), QStringLiteral("user-alice"),
                          QStringLiteral("g1"), 0, {}, QStringLiteral("ImagePullBackOff"));
    pulling.phase = QStringLiteral("Pending");
    pulling.devEnv = QStringLiteral("bad");
    PodInfo other =
        pod(QStringLiteral("train-0"), QStringLiteral("user-alice"), QStringLiteral("g1"), 1);
    m_store->replacePods({running, pulling, other});
    m_store->flush();
    QCOMPARE(model.keys(),
             QStringList({QStringLiteral("user-alice/bad"), QStringLiteral("user-alice/exp1")}));
    QCOMPARE(model.services(QStringLiteral("user-alice/exp1")), running.namedPorts);
    // The pull error comes from the kubelet's event, in its words.
    Delta d;
    d.resource = Resource::Events;
    EventInfo e;
    e.uid = QStringLiteral("ev1");
    e.ns = QStringLiteral("user-alice");
    e.type = QStringLiteral("Warning");
    e.reason = QStringLiteral("Failed");
    e.message = QStringLiteral("Failed to pull image \"nosuch/x:1\": no such host");
    e.objectUid = pulling.uid;
    e.lastSeen = kNow;
    d.items<EventInfo>() << e;
    m_store->apply(d);
    m_store->flush();
    QCOMPARE(model.why(QStringLiteral("user-alice/bad")), e.message);

    // Stopped: the pod gone, the volume left.
    DevEnvVolume v;
    v.ns = QStringLiteral("user-alice");
    v.env = QStringLiteral("exp1");
    v.claim = QStringLiteral("exp1-home");
    v.size = QStringLiteral("50Gi");
    v.gpus = 2;
    model.setVolumes({v});
    m_store->replacePods({pulling, other});
    m_store->flush();
    const int row = model.rowOf(QStringLiteral("user-alice/exp1"));
    QVERIFY(row >= 0);
    QCOMPARE(model.data(model.index(row, DevEnvsModel::Status)).toString(),
             QStringLiteral("Stopped"));
    QVERIFY(model.why(QStringLiteral("user-alice/exp1")).contains(QLatin1String("exp1-home")));
    // Deleted: nothing is left of it.
    model.setVolumes({});
    QCOMPARE(model.rowOf(QStringLiteral("user-alice/exp1")), -1);
}

// The store's index of environments (DevEnvIndex): what the services and the page ask for an
// environment's pod, and which environments a change touched.
void TestDevEnvPlans::storeKeepsTheEnvironmentsPods()
{
    QSignalSpy updated(m_store.get(), &ClusterStore::updated);
    const auto touched = [&] {
        m_store->flush();
        QSet<QString> out;
        for (const QList<QVariant> &args : std::as_const(updated))
            out.unite(args.at(0).value<StoreChanges>().devEnvs);
        updated.clear();
        return out;
    };
    const QString key = QStringLiteral("user-alice/exp1");
    PodInfo old =
        pod(QStringLiteral("exp1-aaaaa"), QStringLiteral("user-alice"), QStringLiteral("g1"), 2);
    old.devEnv = QStringLiteral("exp1");
    PodInfo other =
        pod(QStringLiteral("train-0"), QStringLiteral("user-alice"), QStringLiteral("g1"), 1);
    m_store->replacePods({old, other});
    QCOMPARE(touched(), QSet<QString>({key}));
    const DevEnvIndex &envs = m_store->devEnvs();
    QCOMPARE(envs.keys(), QStringList({key}));
    QCOMPARE(envs.envOf(old.uid), key);
    QCOMPARE(envs.envOf(other.uid), QString());
    QCOMPARE(envs.currentPod(key)->uid, old.uid);

    // A replacement overlaps its predecessor: the live one is current, though the old is newer
    // in nothing but being there first; once both live, the newest.
    old.deleting = true;
    PodInfo next =
        pod(QStringLiteral("exp1-bbbbb"), QStringLiteral("user-alice"), QStringLiteral("g1"), 2);
    next.devEnv = QStringLiteral("exp1");
    next.created = old.created - 1000; // an older clock on the other side: rank decides first
    m_store->replacePods({old, next, other});
    QCOMPARE(touched(), QSet<QString>({key}));
    QCOMPARE(envs.currentPod(key)->uid, next.uid);
    old.deleting = false;
    m_store->replacePods({old, next, other});
    QCOMPARE(touched(), QSet<QString>({key}));
    QCOMPARE(envs.currentPod(key)->uid, old.uid);

    // A pod of no environment changing (a watch event) touches none.
    other.status = QStringLiteral("Error");
    Delta changed;
    changed.resource = Resource::Pods;
    changed.items<PodInfo>() << other;
    m_store->apply(changed);
    QCOMPARE(touched(), QSet<QString>());
    QCOMPARE(m_store->pod(other.uid)->status, QStringLiteral("Error"));

    // A pod relabelled leaves its environment for the other one; both are told.
    next.devEnv = QStringLiteral("exp2");
    m_store->replacePods({old, next, other});
    QCOMPARE(touched(), QSet<QString>({key, QStringLiteral("user-alice/exp2")}));
    QCOMPARE(envs.currentPod(QStringLiteral("user-alice/exp2"))->uid, next.uid);
    QCOMPARE(envs.currentPod(key)->uid, old.uid);

    // Gone (a watch's delete): the environment is left without pods and said so.
    Delta gone;
    gone.resource = Resource::Pods;
    gone.removed << old.uid;
    m_store->apply(gone);
    QCOMPARE(touched(), QSet<QString>({key}));
    QVERIFY(!envs.contains(key));
    QCOMPARE(envs.currentPod(key), nullptr);
    QCOMPARE(envs.envOf(old.uid), QString());
    // A context switch forgets them all.
    m_store->clear();
    QVERIFY(envs.keys().isEmpty());
}

void TestDevEnvPlans::plans()
{
    DevEnvsModel model(m_store.get());
    OperationContext ctx;
    ctx.store = m_store.get();
    const DevEnvPlanner planner(OperationPlanner(ctx), &model);

    OperationPlan create = planner.create(good());
    QVERIFY2(create.refusals.isEmpty(), qPrintable(create.refusals.join(u' ')));
    QCOMPARE(create.subject, QStringLiteral("user-alice/exp1"));
    QCOMPARE(create.steps.size(), 2);
    QCOMPARE(create.steps[0].target.kind, QStringLiteral("PersistentVolumeClaim"));
    QCOMPARE(create.steps[0].createIn,
             QStringLiteral("/api/v1/namespaces/user-alice/persistentvolumeclaims"));
    QCOMPARE(create.steps[1].target.kind, QStringLiteral("Pod"));
    QCOMPARE(create.steps[1].target.gpus, 2);
    QCOMPARE(create.steps[0].unit, 0);
    QCOMPARE(create.steps[1].unit, 0); // a refused pod takes the new volume with it
    DevEnvSpec bad = good();
    bad.name = QStringLiteral("Bad_Name");
    QVERIFY(!planner.create(bad).refusals.isEmpty());
    DevEnvSpec noShm = good();
    noShm.shm.clear();
    QVERIFY(planner.create(noShm).warnings.join(u' ').contains(QLatin1String("bus error")));

    PodInfo running =
        pod(QStringLiteral("exp1-abcde"), QStringLiteral("user-alice"), QStringLiteral("g1"), 2);
    running.devEnv = QStringLiteral("exp1");
    m_store->replacePods({running});
    m_store->flush();
    const QString key = QStringLiteral("user-alice/exp1");
    QVERIFY(planner.create(good()).refusals.join(u' ').contains(QLatin1String("already has")));
    DevEnvVolume v;
    v.ns = QStringLiteral("user-alice");
    v.env = QStringLiteral("exp1");
    v.claim = QStringLiteral("exp1-home");
    v.uid = QStringLiteral("pvc-uid");
    v.size = QStringLiteral("50Gi");
    v.podManifest = DevEnvManifests::podJson(good(), QStringLiteral("abcde"));
    model.setVolumes({v});

    const OperationPlan stop = planner.stop(key);
    QCOMPARE(stop.steps.size(), 1);
    QCOMPARE(stop.steps[0].kind, PlanStep::Kind::Delete);
    QCOMPARE(stop.steps[0].target.uid, running.uid);
    QCOMPARE(stop.gpus(), 2);
    QVERIFY(stop.notes.join(u' ').contains(QLatin1String("exp1-home (50Gi) is kept")));
    QVERIFY(planner.start(key).refusals.join(u' ').contains(QLatin1String("running already")));

    const OperationPlan remove = planner.remove(key);
    QCOMPARE(remove.typedWord, QStringLiteral("exp1"));
    QCOMPARE(remove.steps.size(), 2);
    QCOMPARE(remove.steps[1].target.kind, QStringLiteral("PersistentVolumeClaim"));
    QCOMPARE(remove.steps[1].target.uid, QStringLiteral("pvc-uid"));
    QVERIFY(remove.needsTypedConfirmation());

    m_store->replacePods({});
    m_store->flush();
    QVERIFY(!planner.stop(key).refusals.isEmpty());
    const OperationPlan start = planner.start(key);
    QVERIFY2(start.refusals.isEmpty(), qPrintable(start.refusals.join(u' ')));
    QCOMPARE(start.steps.size(), 1);
    QVERIFY(start.steps[0].target.name.startsWith(QLatin1String("exp1-")));
    QVERIFY(start.steps[0].target.name != QLatin1String("exp1-abcde"));
    v.podManifest.clear();
    model.setVolumes({v});
    QVERIFY(planner.start(key).refusals.join(u' ').contains(QLatin1String("no manifest")));
}

void TestDevEnvPlans::jupyterAndHttpAnswers()
{
    // `jupyter server list --json`: a line an object (jupyter_server 2), or one array.
    auto servers =
        JupyterProbe::parseServerList("{\"port\": 8888, \"token\": \"a\", \"base_url\": \"/lab\"}\n"
                                      "{\"port\": 8890, \"token\": \"b\"}\n",
                                      1);
    QCOMPARE(servers.size(), 2);
    QCOMPARE(servers[0].baseUrl, QStringLiteral("/lab/"));
    QCOMPARE(servers[1].port, quint16(8890));
    QCOMPARE(servers[1].token, QStringLiteral("b"));
    servers = JupyterProbe::parseServerList("[{\"token\": \"c\"}]", 8888);
    QCOMPARE(servers.size(), 1);
    QCOMPARE(servers[0].port, quint16(8888));
    QVERIFY(JupyterProbe::parseServerList("Currently running servers:\n", 8888).isEmpty());

    // Kernels and terminals: the latest activity (microseconds, Z or +00:00), busy if any is.
    JupyterUse use;
    QVERIFY(JupyterProbe::readActivity(
        R"([{"id":"k","execution_state":"idle","last_activity":"2026-11-25T08:00:00.123456Z"}])",
        R"([{"name":"1","last_activity":"2026-11-25T09:30:00.5+00:00"}])", &use));
    QCOMPARE(use.kernels, 1);
    QCOMPARE(use.terminals, 1);
    QVERIFY(!use.busy);
    QCOMPARE(use.lastActivity,
             QDateTime::fromString(u"2026-11-25T09:30:00.500Z"_qs, Qt::ISODateWithMs)
                 .toMSecsSinceEpoch());
    QVERIFY(JupyterProbe::readActivity(R"([{"execution_state":"busy"}])", "[]", &use));
    QVERIFY(use.busy);
    QVERIFY(!JupyterProbe::readActivity("<html>login</html>", "[]", &use));

    // HTTP answers as they arrive: whole only when they are.
    int status = 0;
    QByteArray body;
    const QByteArray head = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n";
    QVERIFY(!PodHttp::parseResponse(head + "[1,", false, &status, &body));
    QVERIFY(PodHttp::parseResponse(head + "[1,2]", false, &status, &body));
    QCOMPARE(status, 200);
    QCOMPARE(body, QByteArray("[1,2]"));
    const QByteArray chunked = "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n"
                               "3\r\nabc\r\n2;x=y\r\nde\r\n";
    QVERIFY(!PodHttp::parseResponse(chunked, false, &status, &body));
    QVERIFY(PodHttp::parseResponse(chunked + "0\r\n\r\n", false, &status, &body));
    QCOMPARE(status, 404);
    QCOMPARE(body, QByteArray("abcde"));
    // A chunk size no answer may have (it overflowed the arithmetic once): never whole.
    QVERIFY(!PodHttp::parseResponse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                    "7fffffffffffffff\r\nabc\r\n",
                                    true, &status, &body));
    // No length: the body is what came before the stream closed.
    const QByteArray open = "HTTP/1.1 200 OK\r\n\r\npartial";
    QVERIFY(!PodHttp::parseResponse(open, false, &status, &body));
    QVERIFY(PodHttp::parseResponse(open, true, &status, &body));
    QCOMPARE(body, QByteArray("partial"));
    QVERIFY(!PodHttp::parseResponse("SSH-2.0-OpenSSH_9.2\r\n\r\n", true, &status, &body));
    QCOMPARE(status, PodHttp::NotHttp);
    // A status line with no HTTP status (fuzz_pods asks the same): not an answer, said at once.
    for (const char *line : {"HTTP/1.1 0 Zero", "HTTP/1.1 OK", "HTTP/1.1 2000 Big", "HTTP/1.1"}) {
        status = 0;
        QVERIFY2(!PodHttp::parseResponse(QByteArray(line) + "\r\n\r\n", true, &status, &body),
                 line);
        QCOMPARE(status, PodHttp::NotHttp);
    }
}

void TestDevEnvPlans::sshEntryRefusesLineBreaks_data()
{
    QTest::addColumn<QString>("env");
    QTest::addColumn<QString>("context");
    QTest::addColumn<bool>("written");
    QTest::addRow("plain") << u"dev-alice"_qs << u"prod"_qs << true;
    QTest::addRow("a context with @ and /") << u"dev-alice"_qs << u"alice@eks/prod"_qs << true;
    // Issue 33: a label with a newline was written as is, and OpenSSH rejected the whole file.
    QTest::addRow("a newline in the label") << u"dev\nProxyCommand evil"_qs << u"prod"_qs << false;
    QTest::addRow("a carriage return in the context") << u"dev"_qs << u"prod\r"_qs << false;
    QTest::addRow("a tab") << u"dev\tx"_qs << u"prod"_qs << false;
}

void TestDevEnvPlans::sshEntryRefusesLineBreaks()
{
    QFETCH(QString, env);
    QFETCH(QString, context);
    QFETCH(bool, written);
    const QString alias = u"%1.user-alice.%2.gpudesk"_qs.arg(env, context);
    QString error;
    const QString entry = DevEnvsService::sshHostEntry(
        QString(alias).replace(QRegularExpression(u"[^A-Za-z0-9._-]"_qs), u"_"_qs), context,
        u"user-alice"_qs, env, u"'gpudesk' '--stdio-forward' 'x'"_qs, &error);
    QCOMPARE(!entry.isEmpty(), written);
    if (!written) {
        QVERIFY2(error.contains(u"holds a line break or another control character"_qs),
                 qPrintable(error));
        QVERIFY(!error.contains(u'\n'));
        return;
    }
    // OpenSSH itself reads it: the entry is one host with the options gpudesk wrote.
    QTemporaryDir dir;
    QFile f(dir.filePath(u"config"_qs));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(entry.toUtf8());
    f.close();
    const QString host = entry.section(u'\n', 0, 0).mid(5);
    QProcess ssh;
    ssh.start(u"ssh"_qs, {u"-G"_qs, u"-F"_qs, f.fileName(), host});
    QVERIFY(ssh.waitForFinished(10000));
    const QString out = QString::fromUtf8(ssh.readAllStandardOutput());
    QVERIFY2(ssh.exitCode() == 0, ssh.readAllStandardError().constData());
    QVERIFY2(out.contains(u"hostkeyalias "_qs + host.toLower()) ||
                 out.contains(u"hostkeyalias "_qs + host),
             qPrintable(out));
    QVERIFY(out.contains(u"proxycommand 'gpudesk' '--stdio-forward' 'x'"_qs));
}

QTEST_MAIN(TestDevEnvPlans)
#include "tst_devenvplans.moc"
