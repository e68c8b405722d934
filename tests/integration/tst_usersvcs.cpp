// SPDX-License-Identifier: GPL-3.0-or-later
// Users and VCs through gpudesk's services against a simulator of their own (they change the
// cluster): a user made and handed a kubeconfig that kubectl (not gpudesk) then uses — allowed in
// its namespace, forbidden in another, refused over its quota, and refused (401) once revoked;
// a user whose last step fails rolled back whole; 50 users from a CSV with a bad row; disable and
// enable; delete; VCs resized (the waiting job admitted, no running pod restarted), refused before
// the API when they would break the rules, closed and opened by Volcano Commands, merged.
#include "clusterstore.h"
#include "operation.h"
#include "operationsservice.h"
#include "queueplanner.h"
#include "services.h"
#include "simprocess.h"
#include "usercsv.h"
#include "usersservice.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestUsersVcs : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void userEndToEndWithKubectl();
    void failedUserIsRolledBack();
    void fiftyUsersFromCsv();
    void disableAndEnable();
    void quotaEditedSinceThePlanIsSkipped();
    void deleteUser();
    void resizeAdmitsTheWaitingJob();
    void invalidEditsNeverReachTheApi();
    void closeAndOpen();
    void merge();

private:
    Operation *run(Services &s, const OperationPlan &plan, int timeoutMs = 120000);
    UserObjects inspect(Services &s, const QString &ns);
    struct Kubectl
    {
        int exit = -1;
        QString out;
    };
    static Kubectl kubectl(const QString &kubeconfig, const QStringList &args);

    SimProcess m_sim;
    std::unique_ptr<Services> m_services;
    QTemporaryDir m_data;
};

void TestUsersVcs::initTestCase()
{
    qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    QCoreApplication::setApplicationName(QStringLiteral("gpudesk"));
    QString error;
    // Time runs (pods start, quotas are counted) a little faster than real time.
    QVERIFY2(
        m_sim.start({QStringLiteral("--speed"), QStringLiteral("5"), QStringLiteral("--no-ssh")},
                    &error),
        qPrintable(error));
    m_services = m_sim.connect(QStringLiteral("sim-admin"));
    QVERIFY(m_services);
}

Operation *TestUsersVcs::run(Services &s, const OperationPlan &plan, int timeoutMs)
{
    if (!plan.refusals.isEmpty()) {
        qWarning() << "refused:" << plan.refusals;
        return nullptr;
    }
    Operation *op = s.operations()->prepare(plan);
    if (op->state() != Operation::State::Ready) {
        QSignalSpy checked(op, &Operation::checked);
        if (!checked.wait(60000))
            return nullptr;
    }
    QSignalSpy finished(op, &Operation::finished);
    QString error;
    if (!op->start(&error)) {
        qWarning() << error;
        return nullptr;
    }
    if (op->state() != Operation::State::Finished && !finished.wait(timeoutMs))
        return nullptr;
    return op;
}

UserObjects TestUsersVcs::inspect(Services &s, const QString &ns)
{
    UserObjects out;
    bool done = false;
    s.users()->inspect(ns, &s, [&](const UserObjects &u) {
        out = u;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 20000))
        out.unreadable << QStringLiteral("no answer in 20 s");
    return out;
}

TestUsersVcs::Kubectl TestUsersVcs::kubectl(const QString &kubeconfig, const QStringList &args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    const QString program = qEnvironmentVariable("KUBECTL", QStringLiteral("kubectl"));
    p.start(program, QStringList{QStringLiteral("--kubeconfig"), kubeconfig} + args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitCode(), QString::fromUtf8(p.readAll())};
}

void TestUsersVcs::userEndToEndWithKubectl()
{
    Services &s = *m_services;
    UserSpec u = UserSpec::defaults();
    u.name = QStringLiteral("zhangsan");
    u.vc = QStringLiteral("nlp");
    u.quota.insert(QStringLiteral("requests.nvidia.com/gpu"), 2000);
    const OperationPlan plan = s.users()->planner().create({u});
    QCOMPARE(plan.steps.size(), 5); // namespace, ServiceAccount, RoleBinding, quota, LimitRange
    // Only the namespace can be asked of the server beforehand; the rest when it exists.
    QCOMPARE(plan.steps[1].dryRun, PlanStep::DryRun::Deferred);
    Operation *op = run(s, plan);
    QVERIFY(op);
    QCOMPARE(op->count(StepOutcome::Result::Done), 5);

    const UserObjects made = inspect(s, QStringLiteral("user-zhangsan"));
    QVERIFY(made.namespaceObject);
    QCOMPARE(made.namespaceObject->label(QStringLiteral("gpudesk.io/vc")), QStringLiteral("nlp"));
    QVERIFY(made.serviceAccount(QStringLiteral("zhangsan")));
    QVERIFY(made.roleBinding(QStringLiteral("gpudesk-user")));
    QCOMPARE(made.quotas.size(), 1);
    QCOMPARE(made.quotas.first().quota.hard.value(QStringLiteral("requests.nvidia.com/gpu")), 2000);
    QCOMPARE(made.limitRanges.size(), 1);

    // What the account may do, as the API server says it.
    QList<UsersService::AccessResult> access;
    s.users()->reviewAccess(QStringLiteral("user-zhangsan"), QStringLiteral("zhangsan"), this,
                            [&](const QList<UsersService::AccessResult> &r) { access = r; });
    QTRY_VERIFY_WITH_TIMEOUT(!access.isEmpty(), 20000);
    QStringList answers;
    for (const auto &a : access)
        answers << a.check.what + u'=' + (a.error.isEmpty() ? (a.allowed ? u'y' : u'n') : u'?');
    QVERIFY2(answers.contains(QStringLiteral("create pods=y")), qPrintable(answers.join(u' ')));
    QVERIFY2(answers.contains(QStringLiteral("read other users' pods=n")),
             qPrintable(answers.join(u' ')));

    // The kubeconfig, written with mode 0600, used by kubectl.
    QTemporaryDir dir;
    UsersService::KubeconfigRequest request;
    request.ns = QStringLiteral("user-zhangsan");
    request.serviceAccount = QStringLiteral("zhangsan");
    request.expirationSeconds = 3600;
    request.path = dir.filePath(QStringLiteral("zhangsan.kubeconfig"));
    UsersService::KubeconfigResult result;
    bool written = false;
    s.users()->handOutKubeconfig(request, this, [&](const UsersService::KubeconfigResult &r) {
        result = r;
        written = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(written, 20000);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(QFile::permissions(request.path), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                   QFileDevice::ReadUser | QFileDevice::WriteUser);
    QVERIFY(result.expires.isValid());
    QCOMPARE(result.shortened, QString()); // an hour: granted as asked
    // A week asked of a server that grants two days at most (issue 34: it expired unannounced).
    UsersService::KubeconfigRequest week = request;
    week.expirationSeconds = 7 * 86400;
    week.path = dir.filePath(QStringLiteral("zhangsan-week.kubeconfig"));
    UsersService::KubeconfigResult capped;
    bool weekWritten = false;
    s.users()->handOutKubeconfig(week, this, [&](const UsersService::KubeconfigResult &r) {
        capped = r;
        weekWritten = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(weekWritten, 20000);
    QVERIFY2(capped.error.isEmpty(), qPrintable(capped.error));
    QCOMPARE(capped.shortened, QStringLiteral("The server granted 2 day(s), not the 7 day(s) asked "
                                              "for: it caps the tokens it issues."));
    Kubectl k = kubectl(request.path, {QStringLiteral("get"), QStringLiteral("pods")});
    QVERIFY2(k.exit == 0, qPrintable(k.out));
    k = kubectl(request.path, {QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-n"),
                               QStringLiteral("user-alice")});
    QVERIFY2(k.exit != 0 && k.out.contains(QLatin1String("Forbidden")) &&
                 k.out.contains(QLatin1String(
                     "User \"system:serviceaccount:user-zhangsan:zhangsan\" cannot list resource "
                     "\"pods\"")),
             qPrintable(k.out));
    const QString overrides = QStringLiteral(
        R"({"spec":{"containers":[{"name":"big","image":"pytorch/pytorch:2.1","resources":)"
        R"({"limits":{"nvidia.com/gpu":"4"},"requests":{"nvidia.com/gpu":"4"}}}]}})");
    k = kubectl(request.path, {QStringLiteral("run"), QStringLiteral("big"),
                               QStringLiteral("--image=pytorch/pytorch:2.1"),
                               QStringLiteral("--overrides=") + overrides});
    QVERIFY2(k.exit != 0 && k.out.contains(QLatin1String("exceeded quota: gpudesk-quota")) &&
                 k.out.contains(QLatin1String("requested: requests.nvidia.com/gpu=4")),
             qPrintable(k.out));

    // Revoked: the same file no longer gets in, and gpudesk proved it with a token of its own.
    Operation *revoke = run(s, s.users()->planner().revoke(inspect(s, request.ns)));
    QVERIFY(revoke);
    QCOMPARE(revoke->outcomes().first().result, StepOutcome::Result::Done);
    QVERIFY2(revoke->outcomes().first().verification.contains(QLatin1String("401")),
             qPrintable(revoke->outcomes().first().verification));
    k = kubectl(request.path, {QStringLiteral("get"), QStringLiteral("pods")});
    QVERIFY2(k.exit != 0 && k.out.contains(QLatin1String("Unauthorized")), qPrintable(k.out));
    // The audit has the handout without the token.
    QFile audit(s.operations()->audit().path());
    QVERIFY(audit.open(QIODevice::ReadOnly));
    const QByteArray log = audit.readAll();
    QVERIFY(log.contains("user.kubeconfig"));
    QFile file(request.path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray token;
    for (const QByteArray &line : file.readAll().split('\n'))
        if (line.trimmed().startsWith("token:"))
            token = line.trimmed().mid(6).trimmed();
    QVERIFY(token.size() > 10);
    QVERIFY(!log.contains(token));
}

void TestUsersVcs::failedUserIsRolledBack()
{
    Services &s = *m_services;
    UserSpec u = UserSpec::defaults();
    u.name = QStringLiteral("rolly");
    u.vc = QStringLiteral("cv");
    u.viewRole = QStringLiteral("gpudesk-viewer");
    const OperationPlan plan = s.users()->planner().create({u});
    QCOMPARE(plan.steps.size(), 6);
    // Someone makes the binding gpudesk's last step makes, between the plan and the run.
    const SimProcess::Reply taken = m_sim.request(
        "POST", QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings"),
        R"({"metadata":{"name":"gpudesk-view-rolly"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"},"subjects":[{"kind":"User","name":"someone","apiGroup":"rbac.authorization.k8s.io"}]})");
    QCOMPARE(taken.status, 201);
    Operation *op = run(s, plan);
    QVERIFY(op);
    using R = StepOutcome::Result;
    QCOMPARE(op->outcomes().last().result, R::Skipped); // AlreadyExists: not acted on
    for (int i = 0; i < 5; ++i)
        QVERIFY2(op->outcomes()[i].result == R::RolledBack,
                 qPrintable(QStringLiteral("step %1: %2").arg(i).arg(op->outcomes()[i].message)));
    // Nothing half made is left: the namespace is gone (it goes through Terminating).
    QTRY_COMPARE_WITH_TIMEOUT(
        m_sim.request("GET", QStringLiteral("/api/v1/namespaces/user-rolly")).status, 404, 60000);
    QCOMPARE(m_sim
                 .request("GET", QStringLiteral("/apis/rbac.authorization.k8s.io/v1/"
                                                "clusterrolebindings/gpudesk-view-rolly"))
                 .json()
                 .value(QStringLiteral("subjects"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("name"))
                 .toString(),
             QStringLiteral("someone")); // someone else's, left alone
}

void TestUsersVcs::fiftyUsersFromCsv()
{
    Services &s = *m_services;
    QByteArray file = "name,vc,gpus,cpu,memory\n";
    for (int i = 1; i <= 50; ++i) {
        file +=
            QStringLiteral("student%1,cv,1,12,120Gi\n").arg(i, 2, 10, QLatin1Char('0')).toUtf8();
        if (i == 20)
            file += "Student_Bad,cv,1,12,120Gi\n"; // line 22
    }
    file += "late,nowhere,1,12,120Gi\n"; // line 53: no such VC
    UserCsv::Result csv = UserCsv::parse(file, UserSpec::defaults());
    UserCsv::check(&csv, *s.store());
    QList<UserSpec> good;
    QStringList bad;
    for (const UserCsv::Row &row : csv.rows) {
        if (row.errors.isEmpty())
            good << row.spec;
        else
            bad << row.errors;
    }
    QCOMPARE(good.size(), 50);
    QCOMPARE(bad.size(), 2);
    QVERIFY2(bad[0].startsWith(QLatin1String("line 22: \"Student_Bad\" is not a valid user name")),
             qPrintable(bad[0]));
    QVERIFY2(bad[1].startsWith(QLatin1String("line 53: The VC nowhere does not exist")),
             qPrintable(bad[1]));
    const OperationPlan plan = s.users()->planner().create(good);
    QVERIFY(plan.needsTypedConfirmation());
    QCOMPARE(plan.steps.size(), 250);
    Operation *op = run(s, plan, 300000);
    QVERIFY(op);
    QCOMPARE(op->count(StepOutcome::Result::Done), 250);
    const QJsonArray items =
        m_sim
            .request("GET", QStringLiteral("/api/v1/namespaces?labelSelector=gpudesk.io%2Fvc%3Dcv"))
            .json()
            .value(QStringLiteral("items"))
            .toArray();
    int students = 0;
    for (const QJsonValue &v : items)
        students += v.toObject()
                        .value(QStringLiteral("metadata"))
                        .toObject()
                        .value(QStringLiteral("name"))
                        .toString()
                        .startsWith(QLatin1String("user-student"));
    QCOMPARE(students, 50);
    QCOMPARE(m_sim.request("GET", QStringLiteral("/api/v1/namespaces/user-student-bad")).status,
             404);
}

void TestUsersVcs::disableAndEnable()
{
    Services &s = *m_services;
    const QString ns = QStringLiteral("user-bob");
    Operation *off = run(s, s.users()->planner().disable(inspect(s, ns)));
    QVERIFY(off);
    for (const StepOutcome &o : off->outcomes())
        QVERIFY2(o.result == StepOutcome::Result::Done,
                 qPrintable(o.message + u' ' + o.verification));
    UserObjects u = inspect(s, ns);
    QVERIFY(!u.namespaceObject->annotation(QStringLiteral("gpudesk.io/disabled")).isEmpty());
    QVERIFY(!u.roleBinding(QStringLiteral("gpudesk-user")));
    for (const qint64 v : u.quotas.first().quota.hard)
        QCOMPARE(v, 0);
    // The store follows (the Users page shows "Disabled").
    QTRY_VERIFY_WITH_TIMEOUT(
        s.store()->namespaceInfo(ns) && !s.store()->namespaceInfo(ns)->disabled.isEmpty(), 20000);
    Operation *on = run(s, s.users()->planner().enable(u));
    QVERIFY(on);
    QCOMPARE(on->count(StepOutcome::Result::Done), int(on->plan().steps.size()));
    u = inspect(s, ns);
    QVERIFY(u.namespaceObject->annotation(QStringLiteral("gpudesk.io/disabled")).isEmpty());
    const RoleBindingInfo *rb = u.roleBinding(QStringLiteral("gpudesk-user"));
    QVERIFY(rb);
    QCOMPARE(rb->roleName, QStringLiteral("gpudesk-researcher"));
    QCOMPARE(u.quotas.first().quota.hard.value(QStringLiteral("requests.nvidia.com/gpu")), 16000);
}

void TestUsersVcs::quotaEditedSinceThePlanIsSkipped()
{
    Services &s = *m_services;
    const QString ns = QStringLiteral("user-carol");
    const QString path =
        QStringLiteral("/api/v1/namespaces/user-carol/resourcequotas/gpudesk-quota");
    QTRY_VERIFY_WITH_TIMEOUT(!s.store()->quotasIn(ns).isEmpty(), 20000);
    ResourceAmounts hard = s.store()->quotasIn(ns).first()->hard;
    hard.insert(QStringLiteral("requests.nvidia.com/gpu"), 12000);
    const OperationPlan plan = s.users()->planner().editQuota(ns, hard);
    QVERIFY2(plan.refusals.isEmpty(), qPrintable(plan.refusals.join(u'\n')));
    // Another admin sets 6 GPUs by hand between the plan and its run.
    const SimProcess::Reply edited =
        m_sim.request("PATCH", path, R"({"spec":{"hard":{"requests.nvidia.com/gpu":"6"}}})",
                      QStringLiteral("sim-admin"), "application/merge-patch+json");
    QCOMPARE(edited.status, 200);
    Operation *op = run(s, plan);
    QVERIFY(op);
    const StepOutcome &o = op->outcomes().first();
    QCOMPARE(o.result, StepOutcome::Result::Skipped);
    QVERIFY2(o.message.contains(QLatin1String("changed since the plan")) &&
                 o.message.contains(QLatin1String("testing value /spec failed")),
             qPrintable(o.message));
    // Not acted on: the hand-made limit stands.
    QCOMPARE(m_sim.request("GET", path)
                 .json()[QStringLiteral("spec")][QStringLiteral("hard")]
                        [QStringLiteral("requests.nvidia.com/gpu")]
                 .toString(),
             QStringLiteral("6"));
}

void TestUsersVcs::deleteUser()
{
    Services &s = *m_services;
    const QString ns = QStringLiteral("user-frank");
    const OperationPlan plan = s.users()->planner().remove(inspect(s, ns));
    QCOMPARE(plan.confirmationWord(), QStringLiteral("frank"));
    QVERIFY(plan.warnings.join(u'\n').contains(QLatin1String("Goes with it")));
    Operation *op = run(s, plan, 180000);
    QVERIFY(op);
    QVERIFY2(op->outcomes().first().result == StepOutcome::Result::Done ||
                 op->outcomes().first().result == StepOutcome::Result::Unverified,
             qPrintable(op->outcomes().first().message));
    QCOMPARE(m_sim.request("GET", QStringLiteral("/api/v1/namespaces/") + ns).status, 404);
    QTRY_VERIFY_WITH_TIMEOUT(!s.store()->namespaceInfo(ns), 20000);
}

void TestUsersVcs::resizeAdmitsTheWaitingJob()
{
    Services &s = *m_services;
    auto jobPhase = [this] {
        return m_sim
            .request("GET", QStringLiteral("/apis/batch.volcano.sh/v1alpha1/namespaces/"
                                           "user-chenjie/jobs/asr-conformer"))
            .json()[QStringLiteral("status")][QStringLiteral("state")][QStringLiteral("phase")]
            .toString();
    };
    QCOMPARE(jobPhase(), QStringLiteral("Pending"));
    // The running pods (by uid: namespace/name and restarts) before the resize.
    struct Seen
    {
        QString path;
        int restarts = 0;
    };
    auto running = [this] {
        QMap<QString, Seen> out;
        const QJsonArray items = m_sim.request("GET", QStringLiteral("/api/v1/pods"))
                                     .json()[QStringLiteral("items")]
                                     .toArray();
        for (const QJsonValue &v : items) {
            const QJsonObject p = v.toObject();
            if (p[QStringLiteral("status")][QStringLiteral("phase")].toString() !=
                QLatin1String("Running"))
                continue;
            Seen seen;
            const QJsonObject meta = p[QStringLiteral("metadata")].toObject();
            seen.path = QStringLiteral("/api/v1/namespaces/%1/pods/%2")
                            .arg(meta[QStringLiteral("namespace")].toString(),
                                 meta[QStringLiteral("name")].toString());
            for (const QJsonValue &c :
                 p[QStringLiteral("status")][QStringLiteral("containerStatuses")].toArray())
                seen.restarts += c[QStringLiteral("restartCount")].toInt();
            out.insert(meta[QStringLiteral("uid")].toString(), seen);
        }
        return out;
    };
    const QMap<QString, Seen> before = running();
    QVERIFY(before.size() > 20);
    QueueSpec spec = QueueSpec::of(*s.store()->queue(QStringLiteral("speech")));
    spec.capability.insert(QStringLiteral("nvidia.com/gpu"), 16000);
    const OperationPlan plan = s.users()->queuePlanner().edit(spec);
    QVERIFY2(
        plan.notes.join(u'\n').contains(QLatin1String("would be admitted: chenjie/asr-conformer")),
        qPrintable(plan.notes.join(u'\n')));
    Operation *op = run(s, plan);
    QVERIFY(op);
    QCOMPARE(op->outcomes().first().result, StepOutcome::Result::Done);
    // Admitted, then running, as the simulator's truth says.
    QTRY_COMPARE_WITH_TIMEOUT(jobPhase(), QStringLiteral("Running"), 60000);
    // No running pod was restarted: each is still there with as many restarts, or, if it went
    // (its job finished meanwhile), no pod of its name was made again in its place.
    const QMap<QString, Seen> after = running();
    int kept = 0;
    for (auto it = before.cbegin(); it != before.cend(); ++it) {
        if (after.contains(it.key())) {
            QCOMPARE(after.value(it.key()).restarts, it.value().restarts);
            ++kept;
            continue;
        }
        const SimProcess::Reply now = m_sim.request("GET", it.value().path);
        QVERIFY2(now.status == 404 ||
                     now.json()[QStringLiteral("metadata")][QStringLiteral("uid")].toString() ==
                         it.key(),
                 qPrintable(it.value().path + QStringLiteral(" was made again")));
    }
    QVERIFY(kept * 10 >= before.size() * 9);
}

void TestUsersVcs::invalidEditsNeverReachTheApi()
{
    Services &s = *m_services;
    const QueueInfo *nlp = s.store()->queue(QStringLiteral("nlp"));
    QVERIFY(nlp);
    QueueSpec spec = QueueSpec::of(*nlp);
    spec.capability.insert(QStringLiteral("nvidia.com/gpu"), 8000);
    spec.deserved.insert(QStringLiteral("nvidia.com/gpu"), 16000);
    OperationPlan plan = s.users()->queuePlanner().edit(spec);
    QVERIFY(plan.steps.isEmpty());
    QVERIFY2(plan.refusals.join(u'\n').contains(QLatin1String("above the capability")),
             qPrintable(plan.refusals.join(u'\n')));
    Operation *op = s.operations()->prepare(plan);
    QString error;
    QVERIFY(!op->start(&error));
    QVERIFY(error.contains(QLatin1String("above the capability")));
    // Children whose guarantees exceed their parent's: a parent with a guarantee of 8 and two
    // children asking 6 each.
    QueueSpec parent;
    parent.name = QStringLiteral("research");
    parent.capability.insert(QStringLiteral("nvidia.com/gpu"), 32000);
    parent.deserved.insert(QStringLiteral("nvidia.com/gpu"), 16000);
    parent.guarantee.insert(QStringLiteral("nvidia.com/gpu"), 8000);
    QVERIFY(run(s, s.users()->queuePlanner().create(parent)));
    QTRY_VERIFY_WITH_TIMEOUT(s.store()->queue(QStringLiteral("research")), 20000);
    QueueSpec child;
    child.name = QStringLiteral("asr");
    child.parent = QStringLiteral("research");
    child.capability.insert(QStringLiteral("nvidia.com/gpu"), 16000);
    child.deserved.insert(QStringLiteral("nvidia.com/gpu"), 6000);
    child.guarantee.insert(QStringLiteral("nvidia.com/gpu"), 6000);
    QVERIFY(run(s, s.users()->queuePlanner().create(child)));
    QTRY_VERIFY_WITH_TIMEOUT(s.store()->queue(QStringLiteral("asr")), 20000);
    child.name = QStringLiteral("tts");
    plan = s.users()->queuePlanner().create(child);
    QVERIFY2(plan.refusals.join(u'\n').contains(QLatin1String(
                 "The guarantees of research's children (tts, asr) would add up to 12")),
             qPrintable(plan.refusals.join(u'\n')));
    // The simulator's webhook (as old Volcano's) would have taken it: gpudesk is what stops it.
    const SimProcess::Reply direct = m_sim.request(
        "POST", QStringLiteral("/apis/scheduling.volcano.sh/v1beta1/queues?dryRun=All"),
        R"({"apiVersion":"scheduling.volcano.sh/v1beta1","kind":"Queue","metadata":{"name":"tts"},"spec":{"parent":"research","capability":{"nvidia.com/gpu":"16"},"deserved":{"nvidia.com/gpu":"6"},"guarantee":{"resource":{"nvidia.com/gpu":"6"}}}})");
    QCOMPARE(direct.status, 201);
}

void TestUsersVcs::closeAndOpen()
{
    Services &s = *m_services;
    Operation *close = run(s, s.users()->queuePlanner().setOpen(QStringLiteral("cv"), false));
    QVERIFY(close);
    QCOMPARE(close->outcomes().first().result, StepOutcome::Result::Done);
    // cv keeps pod groups (its jobs, finished or not): Closing until they are gone.
    QCOMPARE(s.store()->queue(QStringLiteral("cv"))->state, QStringLiteral("Closing"));
    // Volcano refuses any change of a Closing queue; gpudesk says so in its plan instead of
    // sending what would be refused.
    QueueSpec wider = QueueSpec::of(*s.store()->queue(QStringLiteral("cv")));
    wider.weight += 1;
    const OperationPlan edit = s.users()->queuePlanner().edit(wider);
    QVERIFY2(edit.steps.isEmpty() &&
                 edit.refusals.join(u'\n').contains(QLatin1String("cv is Closing")),
             qPrintable(edit.refusals.join(u'\n')));
    const SimProcess::Reply direct = m_sim.request(
        "PATCH", QStringLiteral("/apis/scheduling.volcano.sh/v1beta1/queues/cv"),
        R"({"spec":{"weight":9}})", QStringLiteral("sim-admin"), "application/merge-patch+json");
    QVERIFY2(direct.status == 400 && direct.body.contains("queue state must be in [Open Closed]"),
             direct.body.constData());
    // A new job in a closed VC is refused by Volcano's admission, in its words.
    const SimProcess::Reply refused = m_sim.request(
        "POST", QStringLiteral("/apis/batch.volcano.sh/v1alpha1/namespaces/user-dave/jobs"),
        R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"late"},"spec":{"queue":"cv","minAvailable":1,"tasks":[{"name":"t","replicas":1,"template":{"spec":{"containers":[{"name":"c","image":"busybox"}]}}}]}})");
    QVERIFY2(refused.status >= 400 &&
                 refused.body.contains("can only submit job to queue with state `Open`"),
             refused.body.constData());
    Operation *open = run(s, s.users()->queuePlanner().setOpen(QStringLiteral("cv"), true));
    QVERIFY(open);
    QCOMPARE(open->outcomes().first().result, StepOutcome::Result::Done);
    QCOMPARE(s.store()->queue(QStringLiteral("cv"))->state, QStringLiteral("Open"));
}

void TestUsersVcs::merge()
{
    Services &s = *m_services;
    // An empty VC with one user: merged into nlp, it is gone and its user is in nlp.
    QueueSpec spare;
    spare.name = QStringLiteral("spare");
    spare.capability.insert(QStringLiteral("nvidia.com/gpu"), 8000);
    QVERIFY(run(s, s.users()->queuePlanner().create(spare)));
    QTRY_VERIFY_WITH_TIMEOUT(s.store()->queue(QStringLiteral("spare")), 20000);
    UserSpec u = UserSpec::defaults();
    u.name = QStringLiteral("mergee");
    u.vc = QStringLiteral("spare");
    QVERIFY(run(s, s.users()->planner().create({u})));
    QTRY_VERIFY_WITH_TIMEOUT(s.store()->namespaceInfo(QStringLiteral("user-mergee")), 20000);
    const int nlpBefore = int(s.store()
                                  ->queue(QStringLiteral("nlp"))
                                  ->capability.value(QStringLiteral("nvidia.com/gpu")) /
                              1000);
    const OperationPlan plan =
        s.users()->queuePlanner().merge(QStringLiteral("spare"), QStringLiteral("nlp"));
    QCOMPARE(plan.confirmationWord(), QStringLiteral("spare"));
    Operation *op = run(s, plan);
    QVERIFY(op);
    QCOMPARE(op->count(StepOutcome::Result::Done), int(plan.steps.size()));
    QCOMPARE(
        m_sim.request("GET", QStringLiteral("/apis/scheduling.volcano.sh/v1beta1/queues/spare"))
            .status,
        404);
    QTRY_COMPARE_WITH_TIMEOUT(s.store()->namespaceInfo(QStringLiteral("user-mergee"))->vc,
                              QStringLiteral("nlp"), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(int(s.store()
                                      ->queue(QStringLiteral("nlp"))
                                      ->capability.value(QStringLiteral("nvidia.com/gpu")) /
                                  1000),
                              nlpBefore + 8, 20000);
    // A VC with running jobs is merged, but stays (Closing) until they end; the plan names them.
    const OperationPlan busy =
        s.users()->queuePlanner().merge(QStringLiteral("speech"), QStringLiteral("nlp"));
    QVERIFY2(busy.notes.join(u'\n').contains(QLatin1String("stays Closing")) &&
                 busy.notes.join(u'\n').contains(QLatin1String("user-chenjie/asr-conformer")),
             qPrintable(busy.notes.join(u'\n')));
    QVERIFY(std::none_of(busy.steps.cbegin(), busy.steps.cend(),
                         [](const PlanStep &st) { return st.kind == PlanStep::Kind::Delete; }));

    // A VC whose only pod group is a finished job's: Volcano would keep it Closing for ever and
    // delete only a Closed queue (issue 34: the merge never finished). The plan deletes the pod
    // group, closes the VC until it is Closed, then deletes it.
    QueueSpec archive;
    archive.name = QStringLiteral("archive");
    QVERIFY(run(s, s.users()->queuePlanner().create(archive)));
    QTRY_VERIFY_WITH_TIMEOUT(s.store()->queue(QStringLiteral("archive")), 20000);
    const QString queuePath = QStringLiteral("/apis/scheduling.volcano.sh/v1beta1/queues/archive");
    const SimProcess::Reply open = m_sim.request("DELETE", queuePath);
    QVERIFY2(open.status >= 400 &&
                 open.body.contains("only queue with state `Closed` can be deleted, queue "
                                    "`archive` state is `Open`"),
             open.body.constData());
    const SimProcess::Reply finished = m_sim.request(
        "GET",
        QStringLiteral("/apis/kubeflow.org/v1/namespaces/user-bob/pytorchjobs/eval-resnet-vmqgd"));
    QCOMPARE(finished.status, 200);
    const QString jobUid = finished.json()[u"metadata"_qs][u"uid"_qs].toString();
    const SimProcess::Reply made = m_sim.request(
        "POST", QStringLiteral("/apis/scheduling.volcano.sh/v1beta1/namespaces/user-bob/podgroups"),
        QStringLiteral(R"({"apiVersion":"scheduling.volcano.sh/v1beta1","kind":"PodGroup",
            "metadata":{"name":"eval-resnet-rerun","ownerReferences":[{"apiVersion":
            "kubeflow.org/v1","kind":"PyTorchJob","name":"eval-resnet-vmqgd","uid":"%1",
            "controller":true}]},"spec":{"queue":"archive","minMember":1}})")
            .arg(jobUid)
            .toUtf8());
    QVERIFY2(made.status == 201, made.body.constData());
    QTRY_VERIFY_WITH_TIMEOUT(QueuePlanner::podGroupsOf(*s.store(), u"archive"_qs).over.size() == 1,
                             20000);
    QVERIFY(QueuePlanner::deleteRefusals(*s.store(), u"archive"_qs).isEmpty());
    const OperationPlan over =
        s.users()->queuePlanner().merge(QStringLiteral("archive"), QStringLiteral("nlp"));
    QStringList described;
    for (const PlanStep &st : over.steps)
        described << st.description;
    QVERIFY2(described.join(u'\n').contains(QLatin1String(
                 "Delete the pod group of user-bob/eval-resnet-vmqgd, which is over")),
             qPrintable(described.join(u'\n')));
    QCOMPARE(over.steps.last().kind, PlanStep::Kind::Delete);
    QCOMPARE(over.steps.last().target.name, QStringLiteral("archive"));
    Operation *gone = run(s, over);
    QVERIFY(gone);
    QCOMPARE(gone->count(StepOutcome::Result::Done), int(over.steps.size()));
    QCOMPARE(m_sim.request("GET", queuePath).status, 404);
    QCOMPARE(m_sim
                 .request("GET", QStringLiteral("/apis/scheduling.volcano.sh/v1beta1/namespaces/"
                                                "user-bob/podgroups/eval-resnet-rerun"))
                 .status,
             404);
}

QTEST_GUILESS_MAIN(TestUsersVcs)
#include "tst_usersvcs.moc"
