// SPDX-License-Identifier: GPL-3.0-or-later
// Users and VCs as models see them: quantities, the rules a VC must keep, users from CSV, the
// drift of a user's objects, and the Users and VCs tables over a store.
#include "accountdecoder.h"
#include "modelfixture.h"
#include "queuerules.h"
#include "usercsv.h"
#include "userdrift.h"

#include <QElapsedTimer>

using namespace gpudesk::modeltest;

class TestAccounts : public QObject, private ModelFixture
{
    Q_OBJECT

private slots:
    void init() { setUpStore(); }
    void cleanup() { tearDownStore(); }
    void quantities_data();
    void quantities();
    void queueErrors_data();
    void queueErrors();
    void queueEffects();
    void csv_data();
    void csv();
    void csvAgainstCluster();
    void csvIsBounded();
    void drift_data();
    void drift();
    void usersTable();
    void quotaDecoding();
    void queuesTable();

private:
    QList<QueueInfo> tree() const;
};

namespace {

ResourceAmounts gpus(qint64 n)
{
    return {{QStringLiteral("nvidia.com/gpu"), n * 1000}};
}

QueueInfo queue(const QString &name, const QString &parent, ResourceAmounts capability,
                ResourceAmounts deserved = {}, ResourceAmounts guarantee = {})
{
    QueueInfo q;
    q.uid = QStringLiteral("uid-") + name;
    q.name = name;
    q.parent = parent;
    q.capability = std::move(capability);
    q.deserved = std::move(deserved);
    q.guarantee = std::move(guarantee);
    q.state = QStringLiteral("Open");
    return q;
}

} // namespace

void TestAccounts::quantities_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<qint64>("milli"); // -1: invalid
    QTest::addColumn<QString>("formatted");
    QTest::addRow("gpus") << "8"
                          << "nvidia.com/gpu" << 8000LL << "8";
    QTest::addRow("millicores") << "500m"
                                << "cpu" << 500LL << "500m";
    QTest::addRow("cores") << "96"
                           << "requests.cpu" << 96000LL << "96";
    QTest::addRow("fraction of a core") << "1.5"
                                        << "cpu" << 1500LL << "1500m";
    QTest::addRow("binary memory") << "960Gi"
                                   << "requests.memory" << (960LL << 30) * 1000 << "960Gi";
    QTest::addRow("decimal memory") << "1G"
                                    << "memory" << 1'000'000'000'000LL << "953.7Mi";
    QTest::addRow("exponent") << "1e3"
                              << "pods" << 1'000'000LL << "1000";
    QTest::addRow("E is exa, not an exponent") << "2E"
                                               << "pods" << -1LL << "";
    QTest::addRow("tebibytes") << "2Ti"
                               << "requests.storage" << (2LL << 40) * 1000 << "2Ti";
    QTest::addRow("negative") << "-1"
                              << "cpu" << -1LL << "";
    QTest::addRow("unit typo") << "16GB"
                               << "memory" << -1LL << "";
    QTest::addRow("words") << "lots"
                           << "cpu" << -1LL << "";
    QTest::addRow("empty") << ""
                           << "cpu" << -1LL << "";
}

void TestAccounts::quantities()
{
    QFETCH(QString, text);
    QFETCH(QString, resource);
    QFETCH(qint64, milli);
    QFETCH(QString, formatted);
    const auto parsed = quantity::parseMilli(text);
    if (milli < 0) {
        // 2E is 2 exa: valid, but overflows what gpudesk holds, and is no pod count anyone means.
        QVERIFY2(!parsed, qPrintable(QString::number(parsed.value_or(0))));
        return;
    }
    QVERIFY(parsed);
    QCOMPARE(*parsed, milli);
    QCOMPARE(quantity::format(resource, *parsed), formatted);
}

QList<QueueInfo> TestAccounts::tree() const
{
    // research (cap 32, deserved 24, guarantee 8) with two children; speech on its own.
    return {queue(QStringLiteral("default"), {}, {}),
            queue(QStringLiteral("research"), {}, gpus(32), gpus(24), gpus(8)),
            queue(QStringLiteral("nlp"), QStringLiteral("research"), gpus(16), gpus(12), gpus(4)),
            queue(QStringLiteral("cv"), QStringLiteral("research"), gpus(16), gpus(8), gpus(2)),
            queue(QStringLiteral("speech"), {}, gpus(8), gpus(8))};
}

void TestAccounts::queueErrors_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("creating");
    QTest::addColumn<QString>("parent");
    QTest::addColumn<int>("capability"); // -1: unset
    QTest::addColumn<int>("deserved");
    QTest::addColumn<int>("guarantee");
    QTest::addColumn<QString>("error"); // a part of the one expected; "" none
    QTest::addRow("a valid new VC") << "vision" << true << "" << 8 << 4 << 2 << "";
    QTest::addRow("capability below deserved")
        << "speech" << false << "" << 8 << 16 << -1 << "deserved (16) is above the capability (8)";
    QTest::addRow("guarantee above deserved")
        << "speech" << false << "" << 16 << 4 << 8 << "below the guarantee (8)";
    QTest::addRow("guarantee without deserved")
        << "vision" << true << "" << 16 << -1 << 4 << "needs a deserved amount";
    QTest::addRow("children's guarantees above the parent's")
        << "cv" << false << "research" << 16 << 8 << 6
        << "The guarantees of research's children (cv, nlp) would add up to 10";
    QTest::addRow("children's deserved above the parent's")
        << "cv" << false << "research" << 16 << 14 << 2 << "would add up to 26";
    QTest::addRow("child above its parent's capability")
        << "nlp" << false << "research" << 40 << 12 << 4
        << "exceeds the capability of research above it (32)";
    QTest::addRow("parent below a child's capability")
        << "research" << false << "" << 12 << 12 << 8 << "below the capability of";
    QTest::addRow("parent below its children's guarantees")
        << "research" << false << "" << 32 << 24 << 5 << "less than its children's guarantees";
    QTest::addRow("own parent") << "speech" << false << "speech" << 8 << 8 << -1
                                << "cannot be its own parent";
    QTest::addRow("loop") << "research" << false << "nlp" << 32 << 24 << 8 << "would make a loop";
    QTest::addRow("missing parent")
        << "vision" << true << "ghost" << 8 << -1 << -1 << "The parent VC ghost does not exist";
    QTest::addRow("name taken") << "speech" << true << "" << 8 << -1 << -1 << "already exists";
    QTest::addRow("bad name") << "Vision_1" << true << "" << 8 << -1 << -1
                              << "is not a valid VC name";
    QTest::addRow("root") << "root" << false << "" << 8 << -1 << -1 << "root VC's resources";
}

void TestAccounts::queueErrors()
{
    QFETCH(QString, name);
    QFETCH(bool, creating);
    QFETCH(QString, parent);
    QFETCH(int, capability);
    QFETCH(int, deserved);
    QFETCH(int, guarantee);
    QFETCH(QString, error);
    QList<QueueInfo> queues = tree();
    if (name == QLatin1String("root"))
        queues << queue(QStringLiteral("root"), {}, {});
    QueueSpec s;
    s.name = name;
    s.parent = parent;
    if (capability >= 0)
        s.capability = gpus(capability);
    if (deserved >= 0)
        s.deserved = gpus(deserved);
    if (guarantee >= 0)
        s.guarantee = gpus(guarantee);
    const QStringList errors = QueueRules::errors(s, queues, creating);
    if (error.isEmpty()) {
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
        return;
    }
    QVERIFY2(errors.join(u'\n').contains(error), qPrintable(errors.join(u'\n')));
}

void TestAccounts::queueEffects()
{
    // speech holds 6 of 8; two jobs wait for admission: 4 GPUs (older) and 2 GPUs.
    Delta q = delta(Resource::Queues);
    q.items<QueueInfo>() = {queue(QStringLiteral("speech"), {}, gpus(8))};
    m_store->apply(q);
    Delta pods = delta(Resource::Pods);
    for (int i = 0; i < 3; ++i) {
        PodInfo p = pod(QStringLiteral("asr-%1").arg(i), QStringLiteral("user-bob"),
                        QStringLiteral("g4090-02"), 2);
        p.vc = QStringLiteral("speech");
        pods.items<PodInfo>() << p;
    }
    m_store->apply(pods);
    Delta groups = delta(Resource::PodGroups);
    auto group = [](const QString &name, const QString &phase, int gpus, qint64 created) {
        PodGroupInfo g;
        g.uid = QStringLiteral("pg-") + name;
        g.ns = QStringLiteral("user-bob");
        g.name = name + QStringLiteral("-pg");
        g.vc = QStringLiteral("speech");
        g.phase = phase;
        g.minGpus = gpus;
        g.created = created;
        g.owner = OwnerRef{QStringLiteral("Job"), name, QStringLiteral("uid-") + name};
        return g;
    };
    groups.items<PodGroupInfo>() = {
        group(QStringLiteral("asr"), QStringLiteral("Running"), 6, 1),
        group(QStringLiteral("big"), QStringLiteral("Pending"), 4, 2),
        group(QStringLiteral("small"), QStringLiteral("Pending"), 2, 3)};
    m_store->apply(groups);
    m_store->flush();

    QueueSpec spec = QueueSpec::of(*m_store->queue(QStringLiteral("speech")));
    // As it is, only the 2-GPU job fits (6 + 2 = 8); at 16 both do.
    spec.capability = gpus(16);
    const QStringList grow = QueueRules::effects(spec, *m_store);
    QVERIFY2(grow.join(u'\n').contains(QLatin1String("1 running job(s) keep running")),
             qPrintable(grow.join(u'\n')));
    QVERIFY2(
        grow.join(u'\n').contains(QLatin1String("1 waiting job(s) would be admitted: bob/big")),
        qPrintable(grow.join(u'\n')));
    // Cut to 6: the small one, which fits today, would wait; and the cut is below what it holds.
    spec.capability = gpus(6);
    const QStringList shrink = QueueRules::effects(spec, *m_store);
    QVERIFY2(shrink.join(u'\n').contains(QLatin1String("would wait instead: bob/small")),
             qPrintable(shrink.join(u'\n')));
    spec.capability = gpus(4);
    const QStringList warnings = QueueRules::warnings(spec, *m_store);
    QVERIFY2(warnings.join(u'\n').contains(QLatin1String("below the 6 the VC holds now")),
             qPrintable(warnings.join(u'\n')));
}

void TestAccounts::csv_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QString>("rows");   // "line:name:vc:gpus" per valid row
    QTest::addColumn<QString>("errors"); // the rows' errors, joined
    QTest::addColumn<QString>("fileError");
    QTest::addRow("two users, defaults for empty cells")
        << QByteArray("name,vc,gpus,memory\nzhangsan,nlp,4,480Gi\nlisi,,,\n")
        << "2:zhangsan:nlp:4 3:lisi:cv:8"
        << ""
        << "";
    QTest::addRow("spreadsheet export: BOM, CRLF, quotes, comments")
        << QByteArray("\xef\xbb\xbfname,vc,gpus\r\n# the spring "
                      "class\r\n\"wang-wu\",\"nlp\",\"2\"\r\n\r\n")
        << "3:wang-wu:nlp:2"
        << ""
        << "";
    QTest::addRow("bad rows say their line")
        << QByteArray("name,gpus\nok-one,2\nBad_Name,2\nok-two,lots\n") << "2:ok-one:cv:2"
        << "line 3: \"Bad_Name\" is not a valid user name; line 4: gpus \"lots\" is not a quantity"
        << "";
    QTest::addRow("no header") << QByteArray("alice,nlp,8\n") << ""
                               << ""
                               << "must be a header";
    QTest::addRow("unknown column") << QByteArray("name,gpu\nalice,8\n") << ""
                                    << ""
                                    << "unknown column \"gpu\"";
    QTest::addRow("unclosed quote") << QByteArray("name,vc\n\"eve,nlp\n") << ""
                                    << "line 2: a quote is not closed"
                                    << "";
}

void TestAccounts::csv()
{
    QFETCH(QByteArray, file);
    QFETCH(QString, rows);
    QFETCH(QString, errors);
    QFETCH(QString, fileError);
    UserSpec defaults = UserSpec::defaults();
    defaults.vc = QStringLiteral("cv");
    const UserCsv::Result r = UserCsv::parse(file, defaults);
    QVERIFY2(fileError.isEmpty() ? r.error.isEmpty() : r.error.contains(fileError),
             qPrintable(r.error));
    QStringList good, bad;
    for (const UserCsv::Row &row : r.rows) {
        if (row.errors.isEmpty())
            good << QStringLiteral("%1:%2:%3:%4")
                        .arg(row.line)
                        .arg(row.spec.name, row.spec.vc)
                        .arg(row.spec.quota.value(QStringLiteral("requests.nvidia.com/gpu")) /
                             1000);
        else
            bad << row.errors;
    }
    QCOMPARE(good.join(u' '), rows);
    for (const QString &e : errors.split(QStringLiteral("; "), Qt::SkipEmptyParts))
        QVERIFY2(bad.join(u'\n').contains(e), qPrintable(bad.join(u'\n')));
    QCOMPARE(bad.isEmpty(), errors.isEmpty());
    if (!good.isEmpty()) // the memory cell is read, the others keep the form's values
        QCOMPARE(r.rows.first().spec.quota.value(QStringLiteral("requests.cpu")), 96'000);
}

void TestAccounts::csvIsBounded()
{
    // Issue 33: 2 million one-letter lines just under the old 4 MiB cap held the window 33 s and
    // grew it to 4.87 GB. Read as a stream, the file stops at the first row past the bound.
    QByteArray huge = "name\n";
    huge.reserve(4 * 1024 * 1024);
    while (huge.size() < 4 * 1024 * 1024 - 2)
        huge += "a\n";
    QElapsedTimer t;
    t.start();
    const UserCsv::Result r = UserCsv::parse(huge, UserSpec::defaults());
    QVERIFY2(r.error.startsWith(u"More than 10000 users in one file (line 10002)"_qs),
             qPrintable(r.error));
    QVERIFY(r.rows.isEmpty());
    qInfo("2 million lines refused after %lld ms", t.elapsed());
    // Exactly the bound is a list like any other.
    QByteArray many = "name,gpus\n";
    for (int i = 0; i < UserCsv::MaxRows; ++i)
        many += "user" + QByteArray::number(i) + ",1\n";
    const UserCsv::Result ok = UserCsv::parse(many, UserSpec::defaults());
    QVERIFY2(ok.error.isEmpty(), qPrintable(ok.error));
    QCOMPARE(ok.rows.size(), UserCsv::MaxRows);
    QCOMPARE(ok.rows.last().spec.name, u"user9999"_qs);
    // One line of megabytes is not a user.
    const UserCsv::Result wide =
        UserCsv::parse("name,vc\n" + QByteArray(1024 * 1024, 'x') + ",cv\n", UserSpec::defaults());
    QVERIFY2(wide.error.startsWith(u"Line 2 is longer than 64 KiB"_qs), qPrintable(wide.error));
    // The byte order mark spreadsheets write is not part of the first column's name.
    const UserCsv::Result bom = UserCsv::parse("\xef\xbb\xbfname\nalice\n", UserSpec::defaults());
    QVERIFY2(bom.error.isEmpty(), qPrintable(bom.error));
    QCOMPARE(bom.rows.size(), 1);
}

void TestAccounts::csvAgainstCluster()
{
    const QByteArray file = "name,vc\nalice,nlp\ncarol,nlp\ncarol,nlp\ndave,ghost\n";
    UserCsv::Result r = UserCsv::parse(file, UserSpec::defaults());
    UserCsv::check(&r, *m_store);
    QStringList out;
    for (const UserCsv::Row &row : r.rows)
        out << QStringLiteral("%1 %2").arg(row.line).arg(
            row.errors.isEmpty() ? QStringLiteral("ok") : row.errors.join(u' '));
    QCOMPARE(out.join(u'\n'),
             QStringLiteral("2 line 2: The namespace user-alice exists already.\n"
                            "3 ok\n"
                            "4 line 4: carol comes twice in the file (first on line 3)\n"
                            "5 line 5: The VC ghost does not exist."));
}

void TestAccounts::drift_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("found"); // the drift's object and problem; "" none
    QTest::addRow("as made") << ""
                             << "";
    QTest::addRow("ServiceAccount gone") << "no-sa"
                                         << "ServiceAccount bob: Missing";
    QTest::addRow("RoleBinding gone") << "no-rb"
                                      << "RoleBinding gpudesk-user: Missing";
    QTest::addRow("RoleBinding lost the ServiceAccount")
        << "rb-user-only"
        << "It no longer binds the ServiceAccount bob";
    QTest::addRow("quota edited by hand")
        << "quota-edited"
        << "Edited outside gpudesk (by kubectl-edit): requests.nvidia.com/gpu 8 → 32";
    QTest::addRow("no quota") << "no-quota"
                              << "ResourceQuota gpudesk-quota: Missing";
    QTest::addRow("no LimitRange") << "no-limits"
                                   << "LimitRange gpudesk-defaults";
    QTest::addRow("VC label gone") << "no-vc"
                                   << "label gpudesk.io/vc";
    QTest::addRow("disabled: no RoleBinding is expected") << "disabled"
                                                          << "";
}

void TestAccounts::drift()
{
    QFETCH(QString, change);
    QFETCH(QString, found);
    UserObjects u;
    u.ns = QStringLiteral("user-bob");
    u.user = QStringLiteral("bob");
    NamespaceObject ns;
    ns.name = u.ns;
    ns.labels = {{QStringLiteral("gpudesk.io/user"), QStringLiteral("bob")}};
    if (change != QLatin1String("no-vc"))
        ns.labels << std::pair{QStringLiteral("gpudesk.io/vc"), QStringLiteral("cv")};
    if (change == QLatin1String("disabled"))
        ns.annotations << std::pair{QStringLiteral("gpudesk.io/disabled"), QStringLiteral("{}")};
    u.namespaceObject = ns;
    if (change != QLatin1String("no-sa"))
        u.serviceAccounts << ServiceAccountInfo{QStringLiteral("sa1"), u.ns, u.user, {}, 0};
    RoleBindingInfo rb{QStringLiteral("rb1"),
                       u.ns,
                       QStringLiteral("gpudesk-user"),
                       QStringLiteral("ClusterRole"),
                       QStringLiteral("edit"),
                       {{QStringLiteral("User"), QStringLiteral("bob"), {}},
                        {QStringLiteral("ServiceAccount"), QStringLiteral("bob"), u.ns}},
                       {}};
    if (change == QLatin1String("rb-user-only"))
        rb.subjects.removeLast();
    if (change != QLatin1String("no-rb") && change != QLatin1String("disabled"))
        u.roleBindings << rb;
    QuotaObject q;
    q.quota.name = QStringLiteral("gpudesk-quota");
    q.quota.hard = {{QStringLiteral("requests.nvidia.com/gpu"), 8000}};
    q.appliedHard = UserDriftCheck::hardAnnotation(q.quota.hard);
    if (change == QLatin1String("quota-edited")) {
        q.quota.hard[QStringLiteral("requests.nvidia.com/gpu")] = 32000;
        q.lastManager = QStringLiteral("kubectl-edit");
    }
    if (change != QLatin1String("no-quota"))
        u.quotas << q;
    if (change != QLatin1String("no-limits")) {
        LimitRangeInfo lr;
        lr.uid = QStringLiteral("lr1");
        lr.name = QStringLiteral("gpudesk-defaults");
        lr.defaultRequest = {{QStringLiteral("cpu"), 1000}};
        u.limitRanges << lr;
    }
    QStringList problems;
    for (const UserDrift &d : UserDriftCheck::check(u))
        problems << d.object + QStringLiteral(": ") + d.problem;
    if (found.isEmpty())
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    else
        QVERIFY2(problems.size() == 1 && problems.first().contains(found),
                 qPrintable(problems.join(u'\n')));
}

void TestAccounts::usersTable()
{
    auto *users = tested(new UsersModel(m_store, m_store));
    auto *proxy = tested(new TableFilter(m_store));
    proxy->setSourceModel(users);
    Delta quotas = delta(Resource::ResourceQuotas, true);
    ResourceQuotaInfo q;
    q.uid = QStringLiteral("q-alice");
    q.ns = QStringLiteral("user-alice");
    q.name = QStringLiteral("gpudesk-quota");
    q.hard = {{QStringLiteral("requests.nvidia.com/gpu"), 16000},
              {QStringLiteral("requests.memory"), (960LL << 30) * 1000},
              {QStringLiteral("pods"), 50000}};
    q.used = {{QStringLiteral("requests.nvidia.com/gpu"), 8000},
              {QStringLiteral("requests.memory"), (128LL << 30) * 1000},
              {QStringLiteral("pods"), 2000}};
    quotas.items<ResourceQuotaInfo>() = {q};
    QSignalSpy changed(users, &QAbstractItemModel::dataChanged);
    m_store->apply(quotas);
    m_store->flush();
    // Only alice's row is told: bob has no quota and nothing of his moved.
    QCOMPARE(changed.size(), 1);
    const QList<int> columns{UsersModel::User,        UsersModel::State,     UsersModel::GpuQuota,
                             UsersModel::MemoryQuota, UsersModel::PodsQuota, UsersModel::CpuQuota};
    QCOMPARE(dumpColumns(*users, columns),
             QStringLiteral("alice | Active | 8 / 16 | 128Gi / 960Gi | 2 / 50 | 0 / –\n"
                            "bob | No quota |  |  |  | "));
    const int alice = users->rowOf(QStringLiteral("user-alice"));
    QCOMPARE(users->index(alice, UsersModel::GpuQuota).data(UsedRole).toDouble(), 8.0);
    QCOMPARE(users->index(alice, UsersModel::GpuQuota).data(TotalRole).toDouble(), 16.0);
    QCOMPARE(users->index(alice, UsersModel::GpuQuota).data(SortRole).toDouble(), 0.5);
    // A limit cut below use shows as over (severity 2); a disabled namespace says so.
    q.hard[QStringLiteral("requests.nvidia.com/gpu")] = 4000;
    Delta cut = delta(Resource::ResourceQuotas);
    cut.items<ResourceQuotaInfo>() = {q};
    m_store->apply(cut);
    Delta ns = delta(Resource::Namespaces);
    ns.items<NamespaceInfo>() = {{.name = QStringLiteral("user-alice"),
                                  .user = QStringLiteral("alice"),
                                  .vc = QStringLiteral("nlp"),
                                  .disabled = QStringLiteral("{}")}};
    m_store->apply(ns);
    m_store->flush();
    QCOMPARE(users->index(alice, UsersModel::GpuQuota).data(SeverityRole).toInt(), 2);
    QCOMPARE(users->index(alice, UsersModel::State).data().toString(), QStringLiteral("Disabled"));
    // Filtered by VC, as the page's VC box does.
    proxy->setMatch(VcRole, QStringLiteral("cv"));
    QCOMPARE(proxy->rowCount(), 1);
    QCOMPARE(proxy->index(0, UsersModel::User).data().toString(), QStringLiteral("bob"));
}

void TestAccounts::queuesTable()
{
    auto *queues = tested(new QueuesModel(m_store, m_store));
    Delta q = delta(Resource::Queues, true);
    QueueInfo nlp = queue(QStringLiteral("nlp"), {}, gpus(40), gpus(24), gpus(8));
    nlp.gpuCapability = 40;
    nlp.capability.insert(QStringLiteral("cpu"), 480'000);
    nlp.allocated = {{QStringLiteral("cpu"), 16'000}};
    nlp.running = 1;
    nlp.pending = 2;
    QueueInfo closing = queue(QStringLiteral("old"), {}, {});
    closing.state = QStringLiteral("Closing");
    q.items<QueueInfo>() = {nlp, closing, queue(QStringLiteral("default"), {}, {})};
    m_store->apply(q);
    m_store->flush();
    const QList<int> columns{QueuesModel::Name,     QueuesModel::State,     QueuesModel::Allocated,
                             QueuesModel::Deserved, QueuesModel::Guarantee, QueuesModel::Cpu,
                             QueuesModel::Jobs,     QueuesModel::Users};
    // Jobs as every page counts them (the fixture's workloads in nlp), not Volcano's pod-group
    // counts in the queue's status (1 running, 2 pending): issue 34.
    QCOMPARE(dumpColumns(*queues, columns),
             QStringLiteral("default | Open | 0 / – |  |  | 0 / – | 0 running, 0 waiting | 0\n"
                            "nlp | Open | 9 / 40 | 24 | 8 | 16 / 480 | 2 running, 1 waiting | 1\n"
                            "old | Closing | 0 / – |  |  | 0 / – | 0 running, 0 waiting | 0"));
    const int old = queues->rowOf(QStringLiteral("old"));
    QCOMPARE(queues->index(old, QueuesModel::State).data(SeverityRole).toInt(), 1);
    QCOMPARE(queues->index(queues->rowOf(QStringLiteral("nlp")), QueuesModel::Users)
                 .data(Qt::ToolTipRole)
                 .toString(),
             QStringLiteral("alice"));
}

void TestAccounts::quotaDecoding()
{
    // One quota as the API serves it without annotations, one with; managedFields name the last
    // manager of the limits only among the entries that touched spec.
    const QByteArray list = R"({"kind":"ResourceQuotaList","items":[
      {"metadata":{"name":"q","namespace":"user-a","uid":"u1","managedFields":[
         {"manager":"kubectl-edit","operation":"Update","time":"2026-11-20T10:00:00Z",
          "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:hard":{}}}},
         {"manager":"kube-controller-manager","operation":"Update","time":"2026-11-21T10:00:00Z",
          "fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:used":{}}},"subresource":"status"}]},
       "spec":{"hard":{"requests.nvidia.com/gpu":"4","requests.memory":"64Gi"}},
       "status":{"used":{"requests.nvidia.com/gpu":"2"}}},
      {"metadata":{"name":"q","namespace":"user-b","uid":"u2",
                   "annotations":{"gpudesk.io/hard":"{\"requests.nvidia.com/gpu\":\"8\"}"}},
       "spec":{"hard":{"requests.nvidia.com/gpu":"8"}}}]})";
    QString error;
    const QList<QuotaObject> q = AccountDecoder::quotas(list, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(q.size(), 2);
    // A JSON patch may only add a key to annotations that exist.
    QVERIFY(!q[0].quota.annotated);
    QVERIFY(q[1].quota.annotated);
    QCOMPARE(q[0].lastManager, QStringLiteral("kubectl-edit"));
    QCOMPARE(q[0].quota.hard.value(QStringLiteral("requests.nvidia.com/gpu")), 4000);
    QCOMPARE(q[0].quota.used.value(QStringLiteral("requests.nvidia.com/gpu")), 2000);
    QCOMPARE(q[1].appliedHard, QStringLiteral(R"({"requests.nvidia.com/gpu":"8"})"));
}

QTEST_GUILESS_MAIN(TestAccounts)
#include "tst_accounts.moc"
