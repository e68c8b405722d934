// SPDX-License-Identifier: GPL-3.0-or-later
// The item models over the store: built incrementally from deltas (rows inserted, removed and
// changed in place, never reset except on a context switch), with QAbstractItemModelTester on
// every model and proxy, and their content compared as text.
#include "clusterstore.h"
#include "eventsmodel.h"
#include "logmodel.h"
#include "nodesmodel.h"
#include "queuesmodel.h"
#include "slotorder.h"
#include "tablefilter.h"
#include "usersmodel.h"
#include "workloadsmodel.h"
#include "workloadstable.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <numeric>

using namespace gpudesk;

namespace {

constexpr qint64 kNow = 1'795'000'000'000; // a fixed "now" for ages

qint64 fixedNow()
{
    return kNow;
}

NodeInfo node(const QString &name, int gpus, bool ready = true)
{
    NodeInfo n;
    n.uid = QStringLiteral("uid-") + name;
    n.name = name;
    n.ready = ready;
    n.gpuModel = QStringLiteral("NVIDIA GeForce RTX 4090");
    n.gpuAllocatable = n.gpuCapacity = gpus;
    n.cpuAllocatableMilli = 64000;
    n.memoryAllocatableBytes = 512ll << 30;
    n.created = kNow - 3 * 86400 * 1000ll;
    return n;
}

PodInfo pod(const QString &name, const QString &ns, const QString &nodeName, int gpus,
            const QString &owner = {}, const QString &status = QStringLiteral("Running"))
{
    PodInfo p;
    p.uid = QStringLiteral("uid-") + name;
    p.ns = ns;
    p.name = name;
    p.nodeName = nodeName;
    p.phase = status == QLatin1String("Completed") ? QStringLiteral("Succeeded")
                                                   : QStringLiteral("Running");
    p.status = status;
    p.gpuRequest = gpus;
    p.cpuRequestMilli = 8000;
    p.memoryRequestBytes = 64ll << 30;
    p.vc = QStringLiteral("nlp");
    p.created = kNow - 3600 * 1000;
    if (!owner.isEmpty())
        p.owner = OwnerRef{QStringLiteral("PyTorchJob"), owner, QStringLiteral("uid-") + owner};
    return p;
}

JobInfo job(const QString &name, const QString &ns, const QString &status)
{
    JobInfo j;
    j.uid = QStringLiteral("uid-") + name;
    j.kind = Resource::PyTorchJobs;
    j.ns = ns;
    j.name = name;
    j.vc = QStringLiteral("nlp");
    j.status = status;
    j.created = kNow - 7200 * 1000;
    return j;
}

Delta delta(Resource r, bool relist = false)
{
    Delta d;
    d.resource = r;
    d.relist = relist;
    return d;
}

// Rows as text, sorted by the first column: "name | col | col …", children indented.
QString dump(const QAbstractItemModel &m, const QModelIndex &parent = {}, int depth = 0)
{
    QStringList lines;
    for (int r = 0; r < m.rowCount(parent); ++r) {
        QStringList cells;
        for (int c = 0; c < m.columnCount(parent); ++c)
            cells.append(m.index(r, c, parent).data().toString());
        QString line = QString(depth * 2, u' ') + cells.join(QStringLiteral(" | "));
        const QModelIndex child = m.index(r, 0, parent);
        if (m.rowCount(child) > 0)
            line += u'\n' + dump(m, child, depth + 1);
        lines.append(line);
    }
    lines.sort();
    return lines.join(u'\n');
}

// Expands every job of a flattened table (bottom-up: rows below move as pods appear).
void expandAll(WorkloadsTable *table)
{
    for (int r = table->rowCount() - 1; r >= 0; --r)
        table->setExpanded(r, true);
}

// A flattened table as "job[pod pod] job …", in the table's order.
QString treeText(const QAbstractItemModel &m)
{
    QStringList items;
    QStringList children;
    auto close = [&] {
        if (!children.isEmpty())
            items.last() += u'[' + children.join(u' ') + u']';
        children.clear();
    };
    for (int r = 0; r < m.rowCount(); ++r) {
        const QModelIndex i = m.index(r, 0);
        if (i.data(DepthRole).toInt() > 0) {
            children.append(i.data().toString());
            continue;
        }
        close();
        items.append(i.data().toString());
    }
    close();
    return items.join(u' ');
}

// Every row of a flattened table, all columns, in its order.
QStringList rowsText(const QAbstractItemModel &m)
{
    QStringList rows;
    for (int r = 0; r < m.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m.columnCount(); ++c)
            cells.append(m.index(r, c).data().toString());
        rows.append(QString(m.index(r, 0).data(DepthRole).toInt() * 2, u' ') +
                    cells.join(QStringLiteral(" | ")));
    }
    return rows;
}

} // namespace

class TestModels : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void nodes();
    void relistIsADiff();
    void workloadsTree();
    void workloadsFilter_data();
    void workloadsFilter();
    void workloadsFastSortAgreesWithSortRole();
    void workloadsBurstIsSliced();
    void workloadsBurstHoldsTheThreadOneSlice();
    void workloadsTableFollowsChurn_data();
    void workloadsTableFollowsChurn();
    void workloadsTableKeepsSelectionOnItsWorkload();
    void slotOrderMatchesAVector();
    void events();
    void eventsOfTheSameSecondKeepOneOrder();
    void logModelMarksErrorLines();
    void queuesAndUsers();
    void contextSwitchResets();

private:
    void fill();
    template <class M> M *tested(M *model)
    {
        m_testers.append(new QAbstractItemModelTester(
            model, QAbstractItemModelTester::FailureReportingMode::QtTest, model));
        return model;
    }

    ClusterStore *m_store = nullptr;
    QList<QAbstractItemModelTester *> m_testers;
};

void TestModels::init()
{
    m_store = new ClusterStore(this);
    fill();
}

void TestModels::cleanup()
{
    delete m_store;
    m_testers.clear();
}

void TestModels::fill()
{
    Delta nodes = delta(Resource::Nodes, true);
    nodes.items<NodeInfo>() = {node(QStringLiteral("g4090-01"), 8),
                               node(QStringLiteral("g4090-02"), 8),
                               node(QStringLiteral("cpu-01"), 0)};
    m_store->apply(nodes);
    Delta ns = delta(Resource::Namespaces, true);
    ns.items<NamespaceInfo>() = {{.name = QStringLiteral("user-alice"),
                                  .user = QStringLiteral("alice"),
                                  .vc = QStringLiteral("nlp")},
                                 {.name = QStringLiteral("user-bob"),
                                  .user = QStringLiteral("bob"),
                                  .vc = QStringLiteral("cv")}};
    m_store->apply(ns);
    Delta queues = delta(Resource::Queues, true);
    queues.items<QueueInfo>() = {
        {.name = QStringLiteral("nlp"), .gpuCapability = 40, .state = QStringLiteral("Open")},
        {.name = QStringLiteral("default"), .state = QStringLiteral("Open")}};
    m_store->apply(queues);
    Delta pods = delta(Resource::Pods, true);
    pods.items<PodInfo>() = {
        pod(QStringLiteral("llama-master-0"), QStringLiteral("user-alice"),
            QStringLiteral("g4090-01"), 4, QStringLiteral("llama")),
        pod(QStringLiteral("llama-worker-0"), QStringLiteral("user-alice"),
            QStringLiteral("g4090-02"), 4, QStringLiteral("llama")),
        pod(QStringLiteral("dev-bob"), QStringLiteral("user-bob"), QStringLiteral("g4090-01"), 1)};
    m_store->apply(pods);
    Delta jobs = delta(Resource::PyTorchJobs, true);
    jobs.items<JobInfo>() = {
        job(QStringLiteral("llama"), QStringLiteral("user-alice"), QStringLiteral("Running")),
        job(QStringLiteral("gpt"), QStringLiteral("user-alice"), QStringLiteral("Created"))};
    m_store->apply(jobs);
    m_store->flush();
}

void TestModels::nodes()
{
    auto *model = tested(new NodesModel(m_store, m_store, &fixedNow));
    auto *proxy = tested(new TableFilter(m_store));
    proxy->setSourceModel(model);
    QCOMPARE(dump(*model),
             QStringLiteral(
                 "cpu-01 | Ready | NVIDIA GeForce RTX 4090 | — | 0 / 64 | 0 / 512Gi | 0 |  | 3d\n"
                 "g4090-01 | Ready | NVIDIA GeForce RTX 4090 | 5 / 8 | 16 / 64 | 128Gi / 512Gi | 2 "
                 "|  | 3d\n"
                 "g4090-02 | Ready | NVIDIA GeForce RTX 4090 | 4 / 8 | 8 / 64 | 64Gi / 512Gi | 1 | "
                 " | 3d"));
    QSignalSpy reset(model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
    QSignalSpy removed(model, &QAbstractItemModel::rowsRemoved);

    // A pod finishing frees its GPUs: only its node's row changes.
    Delta d = delta(Resource::Pods);
    d.items<PodInfo>() = {pod(QStringLiteral("dev-bob"), QStringLiteral("user-bob"),
                              QStringLiteral("g4090-01"), 1, {}, QStringLiteral("Completed"))};
    m_store->apply(d);
    m_store->flush();
    QCOMPARE(changed.count(), 1);
    const QModelIndex topLeft = changed.first().at(0).toModelIndex();
    QCOMPARE(topLeft.data().toString(), QStringLiteral("g4090-01"));
    QCOMPARE(model->index(model->rowOf(QStringLiteral("g4090-01")), NodesModel::Gpus).data(),
             QVariant(QStringLiteral("4 / 8")));

    // The node goes NotReady, then away.
    Delta n = delta(Resource::Nodes);
    n.items<NodeInfo>() = {node(QStringLiteral("g4090-02"), 8, false)};
    m_store->apply(n);
    m_store->flush();
    const int row = model->rowOf(QStringLiteral("g4090-02"));
    QCOMPARE(model->index(row, NodesModel::Status).data().toString(), QStringLiteral("NotReady"));
    QCOMPARE(model->index(row, 0).data(SeverityRole).toInt(), 2);
    proxy->setOnlyProblems(true);
    QCOMPARE(proxy->rowCount(), 1);
    proxy->setOnlyProblems(false);
    proxy->setText(QStringLiteral("cpu"));
    QCOMPARE(proxy->rowCount(), 1);
    proxy->setText({});
    Delta gone = delta(Resource::Nodes);
    gone.removed = {QStringLiteral("g4090-02")};
    m_store->apply(gone);
    m_store->flush();
    QCOMPARE(removed.count(), 1);
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(reset.count(), 0);
}

void TestModels::relistIsADiff()
{
    auto *model = tested(new WorkloadsModel(m_store, m_store, &fixedNow));
    auto *proxy = tested(new WorkloadsTable(model, m_store));
    proxy->sort(WorkloadsModel::Name);
    QSignalSpy reset(model, &QAbstractItemModel::modelReset);
    QSignalSpy proxyReset(proxy, &QAbstractItemModel::modelReset);
    // What the view sees: one row out, one row in.
    QSignalSpy inserted(proxy, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(proxy, &QAbstractItemModel::rowsRemoved);
    QSignalSpy modelRemoved(model, &QAbstractItemModel::rowsRemoved);
    // After a 410 the pods are listed again: dev-bob is gone, dev-carol is new.
    Delta d = delta(Resource::Pods, true);
    d.items<PodInfo>() = {pod(QStringLiteral("llama-master-0"), QStringLiteral("user-alice"),
                              QStringLiteral("g4090-01"), 4, QStringLiteral("llama")),
                          pod(QStringLiteral("llama-worker-0"), QStringLiteral("user-alice"),
                              QStringLiteral("g4090-02"), 4, QStringLiteral("llama")),
                          pod(QStringLiteral("dev-carol"), QStringLiteral("user-bob"),
                              QStringLiteral("g4090-02"), 2)};
    m_store->apply(d);
    m_store->flush();
    QCOMPARE(reset.count(), 0);
    QCOMPARE(proxyReset.count(), 0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(inserted.count(), 1);
    // In the model, dev-carol took dev-bob's slot: no row moved. In the table dev-bob's row went
    // and dev-carol's came (a selection never passes from one workload to another).
    QCOMPARE(modelRemoved.count(), 0);
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->workloadCount(), 3);
    QCOMPARE(dump(*proxy).section(u'\n', 0, 0),
             QStringLiteral("dev-carol | bob | nlp | Pod | Running | 2 | g4090-02 | 0 | 60m | "));
    QCOMPARE(m_store->nodeGpus(QStringLiteral("g4090-01")).allocated, 4);
    QCOMPARE(m_store->nodeGpus(QStringLiteral("g4090-02")).allocated, 6);
}

void TestModels::workloadsTree()
{
    auto *model = tested(new WorkloadsModel(m_store, m_store, &fixedNow));
    auto *proxy = tested(new WorkloadsTable(model, m_store));
    QCOMPARE(dump(*model),
             QStringLiteral("dev-bob | bob | nlp | Pod | Running | 1 | g4090-01 | 0 | 60m | \n"
                            "gpt | alice | nlp | PyTorchJob | Created | 0 |  | 0 | 120m | \n"
                            "llama | alice | nlp | PyTorchJob | Running | 8 | g4090-01, g4090-02 "
                            "| 0 | 120m | \n"
                            "  llama-master-0 | alice | nlp | Pod | Running | 4 | g4090-01 | 0 | "
                            "60m | \n"
                            "  llama-worker-0 | alice | nlp | Pod | Running | 4 | g4090-02 | 0 | "
                            "60m | "));

    // gpt's pods appear, pending with the scheduler's message: they become its children and
    // the job says why it waits.
    QSignalSpy reset(model, &QAbstractItemModel::modelReset);
    Delta d = delta(Resource::Pods);
    PodInfo waiting = pod(QStringLiteral("gpt-master-0"), QStringLiteral("user-alice"), {}, 8,
                          QStringLiteral("gpt"), QStringLiteral("Pending"));
    waiting.phase = QStringLiteral("Pending");
    waiting.message = QStringLiteral("0/15 nodes are available: 10 Insufficient nvidia.com/gpu.");
    d.items<PodInfo>() = {waiting};
    m_store->apply(d);
    m_store->flush();
    const QModelIndex gpt = model->indexOfWorkload(QStringLiteral("uid-gpt"));
    QCOMPARE(model->rowCount(gpt), 1);
    QCOMPARE(model->index(gpt.row(), WorkloadsModel::Reason).data().toString(), waiting.message);
    QCOMPARE(m_store->totals().pendingDemand, 8);

    // The job is deleted with its pods.
    Delta jobs = delta(Resource::PyTorchJobs);
    jobs.removed = {QStringLiteral("uid-gpt")};
    m_store->apply(jobs);
    Delta pods = delta(Resource::Pods);
    pods.removed = {waiting.uid};
    m_store->apply(pods);
    m_store->flush();
    QVERIFY(!model->indexOfWorkload(QStringLiteral("uid-gpt")).isValid());
    QCOMPARE(model->workloadCount(), 2);
    QCOMPARE(proxy->rowCount(), 2);
    QCOMPARE(reset.count(), 0);
    // gpt's slot is empty: no data, no children, hidden by the filter.
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->rowCount(gpt), 0);
    QVERIFY(!gpt.data().isValid());

    // The next new job takes the slot, children and all.
    Delta next = delta(Resource::Pods);
    next.items<PodInfo>() = {pod(QStringLiteral("bert-master-0"), QStringLiteral("user-bob"),
                                 QStringLiteral("g4090-02"), 1, QStringLiteral("bert")),
                             pod(QStringLiteral("bert-worker-0"), QStringLiteral("user-bob"),
                                 QStringLiteral("g4090-02"), 1, QStringLiteral("bert"))};
    m_store->apply(next);
    m_store->flush();
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->indexOfWorkload(QStringLiteral("uid-bert")).row(), gpt.row());
    QCOMPARE(model->rowCount(gpt), 2);
    QCOMPARE(proxy->rowCount(), 3);
    QCOMPARE(reset.count(), 0);
}

void TestModels::workloadsFilter_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::addRow("all") << QString() << QString() << 0 << QString()
                         << QStringLiteral("dev-bob gpt llama[llama-master-0 llama-worker-0]");
    QTest::addRow("user") << QStringLiteral("bob") << QString() << 0 << QString()
                          << QStringLiteral("dev-bob");
    QTest::addRow("kind") << QString() << QStringLiteral("PyTorchJob") << 0 << QString()
                          << QStringLiteral("gpt llama[llama-master-0 llama-worker-0]");
    QTest::addRow("waiting") << QString() << QString() << int(WorkloadsTable::Waiting) << QString()
                             << QStringLiteral("gpt");
    QTest::addRow("text finds a pod and keeps its job")
        << QString() << QString() << 0 << QStringLiteral("worker")
        << QStringLiteral("llama[llama-worker-0]");
    QTest::addRow("text on a node") << QString() << QString() << 0 << QStringLiteral("g4090-02")
                                    << QStringLiteral("llama[llama-master-0 llama-worker-0]");
}

void TestModels::workloadsFilter()
{
    QFETCH(QString, user);
    QFETCH(QString, kind);
    QFETCH(int, status);
    QFETCH(QString, text);
    QFETCH(QString, expected);
    auto *model = tested(new WorkloadsModel(m_store, m_store, &fixedNow));
    auto *table = tested(new WorkloadsTable(model, m_store));
    table->sort(WorkloadsModel::Name);
    expandAll(table);
    table->setUser(user);
    table->setKind(kind);
    table->setStatusClass(WorkloadsTable::StatusClass(status));
    table->setText(text);
    QCOMPARE(treeText(*table), expected);
}

void TestModels::events()
{
    auto *all = tested(new EventsModel(m_store, m_store, &fixedNow));
    auto *ofPod = tested(new EventsModel(m_store, m_store, &fixedNow));
    ofPod->setObjects({QStringLiteral("uid-dev-bob")});
    auto *proxy = tested(new TableFilter(m_store));
    proxy->setSourceModel(all);
    Delta d = delta(Resource::Events);
    EventInfo e;
    e.uid = QStringLiteral("e1");
    e.ns = QStringLiteral("user-bob");
    e.type = QStringLiteral("Warning");
    e.reason = QStringLiteral("BackOff");
    e.message = QStringLiteral("Back-off restarting failed container");
    e.count = 7;
    e.lastSeen = e.firstSeen = kNow - 90 * 1000;
    e.objectKind = QStringLiteral("Pod");
    e.objectName = QStringLiteral("dev-bob");
    e.objectUid = QStringLiteral("uid-dev-bob");
    EventInfo normal = e;
    normal.uid = QStringLiteral("e2");
    normal.type = QStringLiteral("Normal");
    normal.reason = QStringLiteral("Scheduled");
    normal.objectUid = QStringLiteral("uid-llama-master-0");
    normal.objectName = QStringLiteral("llama-master-0");
    d.items<EventInfo>() = {e, normal};
    m_store->apply(d);
    m_store->flush();
    QCOMPARE(all->rowCount(), 2);
    QCOMPARE(dump(*ofPod), QStringLiteral("90s | Warning | BackOff | Pod/dev-bob | Back-off "
                                          "restarting failed container | 7 |  | user-bob"));
    proxy->setOnlyProblems(true);
    QCOMPARE(proxy->rowCount(), 1);
    Delta gone = delta(Resource::Events);
    gone.removed = {QStringLiteral("e1")};
    m_store->apply(gone);
    m_store->flush();
    QCOMPARE(ofPod->rowCount(), 0);
    QCOMPARE(proxy->rowCount(), 0);
}

void TestModels::eventsOfTheSameSecondKeepOneOrder()
{
    // Twelve events of one second, sorted newest first: the order is the same however they
    // arrive and whatever else changes, so the list does not reshuffle under the reader.
    auto *all = tested(new EventsModel(m_store, m_store, &fixedNow));
    auto *proxy = tested(new TableFilter(m_store));
    proxy->setSourceModel(all);
    proxy->setDynamicSortFilter(true);
    proxy->sort(EventsModel::LastSeen, Qt::DescendingOrder);
    QList<EventInfo> events;
    for (int i = 0; i < 12; ++i) {
        EventInfo e;
        e.uid = QStringLiteral("e%1").arg(i, 2, 10, QLatin1Char('0'));
        e.type = QStringLiteral("Normal");
        e.reason = QStringLiteral("Pulled");
        e.lastSeen = e.firstSeen = kNow - 5000;
        events.append(e);
    }
    auto order = [&] {
        QStringList keys;
        for (int r = 0; r < proxy->rowCount(); ++r)
            keys << proxy->index(r, 0).data(KeyRole).toString();
        return keys;
    };
    Delta d = delta(Resource::Events, true);
    d.items<EventInfo>() = events;
    m_store->apply(d);
    m_store->flush();
    const QStringList first = order();
    QCOMPARE(first.size(), 12);
    std::reverse(events.begin(), events.end()); // the same events, relisted in another order
    d.items<EventInfo>() = events;
    m_store->apply(d);
    m_store->flush();
    QCOMPARE(order(), first);
    QStringList sorted = first;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    QCOMPARE(first, sorted); // ties by key (descending, as the column is)
}

void TestModels::logModelMarksErrorLines()
{
    LogModel *log = tested(new LogModel(m_store));
    const QList<QByteArray> lines = {
        "epoch 1 step 10 loss 2.31",
        "error_count=0 (not an error)",
        "Traceback (most recent call last):",
        "  File \"train.py\", line 88, in <module>",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
        "epoch 2 step 20 loss 1.95",
        "ERROR: Unexpected bus error encountered in worker. This might be caused by "
        "insufficient shared memory (shm).",
        "Killed"};
    QList<LogLine> batch;
    for (const QByteArray &l : lines)
        batch.append({"2026-11-22T10:00:00Z", l});
    log->append(batch);
    log->flush();
    QCOMPARE(log->errorLines(), (QList<int>{2, 4, 5, 7, 8}));
    for (int r = 0; r < log->rowCount(); ++r)
        QCOMPARE(log->index(r).data(SeverityRole).toInt(), log->errorLines().contains(r) ? 2 : 0);
    // Jumping: forward from a line, backward, wrapping at either end.
    QCOMPARE(log->nextError(-1, true), 2);
    QCOMPARE(log->nextError(2, true), 4);
    QCOMPARE(log->nextError(6, true), 7);
    QCOMPARE(log->nextError(8, true), 2);
    QCOMPARE(log->nextError(4, false), 2);
    QCOMPARE(log->nextError(2, false), 8);
    log->clear();
    QVERIFY(log->errorLines().isEmpty());
    QCOMPARE(log->nextError(0, true), -1);
}

void TestModels::queuesAndUsers()
{
    auto *queues = tested(new QueuesModel(m_store, m_store));
    auto *users = tested(new UsersModel(m_store, m_store));
    QCOMPARE(dump(*queues), QStringLiteral("default | 0 | unlimited | 1 | Open\n"
                                           "nlp | 9 | 40 | 1 | Open"));
    QCOMPARE(dump(*users), QStringLiteral("alice | user-alice | nlp | 8\n"
                                          "bob | user-bob | cv | 1"));
    QSignalSpy changed(users, &QAbstractItemModel::dataChanged);
    Delta d = delta(Resource::Pods);
    d.removed = {QStringLiteral("uid-llama-worker-0")};
    m_store->apply(d);
    m_store->flush();
    QCOMPARE(dump(*users), QStringLiteral("alice | user-alice | nlp | 4\n"
                                          "bob | user-bob | cv | 1"));
    // Only alice's row is told: bob's figure did not move.
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 0);
    QCOMPARE(changed.at(0).at(1).toModelIndex().row(), 0);
    // A pod change that moves no one's GPUs tells no row.
    changed.clear();
    PodInfo restarted = *m_store->pod(QStringLiteral("uid-llama-master-0"));
    ++restarted.restarts;
    Delta again = delta(Resource::Pods);
    again.items<PodInfo>() = {restarted};
    m_store->apply(again);
    m_store->flush();
    QCOMPARE(changed.size(), 0);
    QCOMPARE(dump(*users), QStringLiteral("alice | user-alice | nlp | 4\n"
                                          "bob | user-bob | cv | 1"));
    QCOMPARE(queues->index(queues->rowOf(QStringLiteral("nlp")), QueuesModel::Allocated).data(),
             QVariant(5));
}

void TestModels::contextSwitchResets()
{
    auto *nodes = tested(new NodesModel(m_store, m_store, &fixedNow));
    auto *workloads = tested(new WorkloadsModel(m_store, m_store, &fixedNow));
    QSignalSpy reset(workloads, &QAbstractItemModel::modelReset);
    m_store->clear();
    QCOMPARE(reset.count(), 1);
    QCOMPARE(nodes->rowCount(), 0);
    QCOMPARE(workloads->rowCount(), 0);
    fill();
    QCOMPARE(nodes->rowCount(), 3);
    QCOMPARE(workloads->rowCount(), 3);
}

void TestModels::workloadsFastSortAgreesWithSortRole()
{
    // WorkloadsTable compares workload rows from their fields; a plain proxy compares the
    // SortRole values. Both orders must be the same on every column, both ways. (Ties: a fresh
    // proxy keeps the model's order, as the table does.)
    auto *model = tested(new WorkloadsModel(m_store, m_store, &fixedNow));
    auto *fast = tested(new WorkloadsTable(model, m_store));
    auto keys = [](const QAbstractItemModel *m) {
        QStringList out;
        for (int r = 0; r < m->rowCount(); ++r)
            out << m->index(r, 0).data(KeyRole).toString();
        return out;
    };
    for (int column = 0; column < WorkloadsModel::ColumnCount; ++column) {
        for (const auto order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            fast->sort(column, order);
            QSortFilterProxyModel plainProxy;
            auto *plain = &plainProxy;
            plain->setSourceModel(model);
            plain->setSortRole(SortRole);
            plain->setSortCaseSensitivity(Qt::CaseInsensitive);
            plain->sort(column, order);
            QVERIFY2(keys(fast) == keys(plain),
                     qPrintable(QStringLiteral("column %1 order %2: %3 vs %4")
                                    .arg(column)
                                    .arg(order)
                                    .arg(keys(fast).join(u','), keys(plain).join(u','))));
        }
    }
    QCOMPARE(keys(fast).size(), 3);
}

void TestModels::workloadsBurstIsSliced()
{
    // A burst of new pods in one flush, under the sorted table the page uses: the model takes a
    // chunk now, the rest on later turns of the event loop, and ends where a reset would. With a
    // zero budget every turn takes one chunk, so the checkers see each step.
    auto *model = tested(new WorkloadsModel(m_store, m_store, &fixedNow));
    model->setSliceBudget(0);
    auto *proxy = tested(new WorkloadsTable(model, m_store));
    proxy->sort(WorkloadsModel::Name);
    auto name = [](int i) { return QStringLiteral("p%1").arg(i, 5, 10, QLatin1Char('0')); };
    Delta burst = delta(Resource::Pods);
    for (int i = 0; i < 500; ++i)
        burst.items<PodInfo>().append(
            pod(name(i), QStringLiteral("user-bob"), QStringLiteral("g4090-02"), 0));
    m_store->apply(burst);
    m_store->flush();
    QVERIFY(model->pendingCount() > 0);
    QVERIFY(model->workloadCount() < 500 + 3);
    // A change to a pod still queued is applied once, as the store has it then.
    Delta change = delta(Resource::Pods);
    change.items<PodInfo>() = {
        pod(name(499), QStringLiteral("user-bob"), QStringLiteral("g4090-02"), 2)};
    m_store->apply(change);
    m_store->flush();
    QTRY_COMPARE(model->pendingCount(), 0);
    QCOMPARE(model->workloadCount(), 500 + 3);
    QCOMPARE(proxy->rowCount(), 500 + 3);
    // Sorted by name as the proxy keeps it: dev-bob, gpt, llama, p00000 … p00499.
    QCOMPARE(proxy->index(3, 0).data().toString(), name(0));
    QCOMPARE(proxy->index(502, 0).data().toString(), name(499));
    QCOMPARE(proxy->index(502, WorkloadsModel::Gpus).data().toString(), QStringLiteral("2"));
    // A reset (context switch) drops what is still queued.
    m_store->apply(burst);
    Delta more = delta(Resource::Pods);
    for (int i = 500; i < 1000; ++i)
        more.items<PodInfo>().append(
            pod(name(i), QStringLiteral("user-bob"), QStringLiteral("g4090-02"), 0));
    m_store->apply(more);
    m_store->flush();
    QVERIFY(model->pendingCount() > 0);
    m_store->clear();
    QCOMPARE(model->pendingCount(), 0);
    QCOMPARE(model->rowCount(), 0);
    QCOMPARE(proxy->rowCount(), 0);
}

void TestModels::workloadsBurstHoldsTheThreadOneSlice()
{
    // 30,000 new workloads at once (a relist's worth of watch events): the first slice returns
    // to the event loop in about SliceMs, not after all of them.
    auto *model = new WorkloadsModel(m_store, m_store, &fixedNow);
    auto *proxy = new WorkloadsTable(model, m_store);
    proxy->sort(WorkloadsModel::Name);
    Delta burst = delta(Resource::Pods);
    for (int i = 0; i < 30000; ++i)
        burst.items<PodInfo>().append(pod(QStringLiteral("p%1").arg(i, 5, 10, QLatin1Char('0')),
                                          QStringLiteral("user-bob"), QStringLiteral("g4090-02"),
                                          0));
    // The store takes a delta this big in slices of its own; the model's part is timed below.
    QSignalSpy caughtUp(m_store, &ClusterStore::caughtUp);
    m_store->apply(burst);
    QVERIFY(m_store->isCatchingUp());
    QVERIFY(caughtUp.wait(30000));
    QElapsedTimer held;
    held.start();
    m_store->flush();
    const qint64 firstSlice = held.elapsed();
    QVERIFY(model->pendingCount() > 0);
    QVERIFY2(firstSlice < 10 * WorkloadsModel::SliceMs, qPrintable(QString::number(firstSlice)));
    QTRY_COMPARE_WITH_TIMEOUT(model->pendingCount(), 0, 30000);
    QCOMPARE(proxy->rowCount(), 30000 + 3);
    QCOMPARE(proxy->index(30002, 0).data().toString(), QStringLiteral("p29999"));
}

void TestModels::workloadsTableFollowsChurn_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::addColumn<QString>("text");
    for (const int column : {int(WorkloadsModel::Name), int(WorkloadsModel::Status),
                             int(WorkloadsModel::Gpus), int(WorkloadsModel::Age)}) {
        for (const auto order : {Qt::AscendingOrder, Qt::DescendingOrder})
            QTest::addRow("column %d order %d", column, int(order))
                << column << int(order) << QString();
    }
    QTest::addRow("filtered on text")
        << int(WorkloadsModel::Name) << int(Qt::AscendingOrder) << QStringLiteral("pend");
}

void TestModels::workloadsTableFollowsChurn()
{
    // Random creates, deletes and changes of bare pods, jobs and their pods, with some jobs
    // expanded: after every flush, the table kept up change by change equals one sorted from
    // scratch (and the model tester checked every signal on the way).
    QFETCH(int, column);
    QFETCH(int, order);
    QFETCH(QString, text);
    auto *model = tested(new WorkloadsModel(m_store, m_store, &fixedNow));
    auto *table = tested(new WorkloadsTable(model, m_store));
    table->sort(column, Qt::SortOrder(order));
    table->setText(text);
    QRandomGenerator rng(quint32(7 + column * 2 + order));
    const QStringList statuses{QStringLiteral("Running"), QStringLiteral("Pending"),
                               QStringLiteral("Error"), QStringLiteral("Completed")};
    QHash<QString, PodInfo> pods; // name → pod, as the store has them
    int serial = 0;
    auto randomPod = [&](const QString &name, const QString &owner) {
        PodInfo p = pod(name, QStringLiteral("user-bob"), QStringLiteral("g4090-02"),
                        int(rng.bounded(5)), owner, statuses[int(rng.bounded(4))]);
        p.created = kNow - qint64(rng.bounded(100000)) * 1000;
        return p;
    };
    for (int round = 0; round < 40; ++round) {
        Delta podChanges = delta(Resource::Pods);
        Delta jobChanges = delta(Resource::PyTorchJobs);
        for (int op = 0; op < 8; ++op) {
            const QStringList names = pods.keys();
            switch (rng.bounded(5)) {
            case 0: { // a new bare pod
                const PodInfo p = randomPod(QStringLiteral("b%1").arg(serial++), {});
                pods.insert(p.name, p);
                podChanges.items<PodInfo>().append(p);
                break;
            }
            case 1: { // a new job with one to three pods
                const QString j = QStringLiteral("j%1").arg(serial++);
                JobInfo jj = job(j, QStringLiteral("user-bob"), statuses[int(rng.bounded(4))]);
                jj.created = kNow - qint64(rng.bounded(100000)) * 1000;
                jobChanges.items<JobInfo>().append(jj);
                for (int k = 0, n = 1 + int(rng.bounded(3)); k < n; ++k) {
                    const PodInfo p = randomPod(QStringLiteral("%1-w%2").arg(j).arg(k), j);
                    pods.insert(p.name, p);
                    podChanges.items<PodInfo>().append(p);
                }
                break;
            }
            case 2: // a pod goes
                if (!names.isEmpty()) {
                    const QString name = names[int(rng.bounded(qsizetype(names.size())))];
                    podChanges.removed.append(pods.take(name).uid);
                }
                break;
            default: // a pod changes status and GPUs
                if (!names.isEmpty()) {
                    PodInfo &p = pods[names[int(rng.bounded(qsizetype(names.size())))]];
                    p.status = statuses[int(rng.bounded(4))];
                    p.gpuRequest = int(rng.bounded(5));
                    podChanges.items<PodInfo>().append(p);
                }
                break;
            }
        }
        if (!jobChanges.items<JobInfo>().isEmpty())
            m_store->apply(jobChanges);
        m_store->apply(podChanges);
        m_store->flush();
        QTRY_COMPARE(model->pendingCount(), 0);
        if (round % 5 == 4 && table->rowCount() > 0)
            table->setExpanded(int(rng.bounded(table->rowCount())), true);

        WorkloadsTable fresh(model);
        fresh.sort(column, Qt::SortOrder(order));
        fresh.setText(text);
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->isExpanded(r))
                fresh.setExpanded(fresh.rowOfWorkload(table->index(r, 0).data(KeyRole).toString()),
                                  true);
        }
        QCOMPARE(rowsText(*table), rowsText(fresh));
    }
    QVERIFY(table->workloadCount() > 20);
}

void TestModels::workloadsTableKeepsSelectionOnItsWorkload()
{
    // A view's selection is persistent indexes: when a job moves (its sort value changed) they
    // move with it, and a job's pod rows move with the job.
    auto *model = tested(new WorkloadsModel(m_store, m_store, &fixedNow));
    auto *table = tested(new WorkloadsTable(model, m_store));
    table->sort(WorkloadsModel::Status);
    QCOMPARE(treeText(*table), QStringLiteral("gpt dev-bob llama")); // Created, Running ×2
    const int llama = table->rowOfWorkload(QStringLiteral("uid-llama"));
    table->setExpanded(llama, true);
    QCOMPARE(treeText(*table), QStringLiteral("gpt dev-bob llama[llama-master-0 llama-worker-0]"));
    const QPersistentModelIndex bob =
        table->index(table->rowOfWorkload(QStringLiteral("uid-dev-bob")), 0);
    const QPersistentModelIndex worker = table->index(llama + 2, WorkloadsModel::Nodes);
    QCOMPARE(QModelIndex(worker).siblingAtColumn(0).data().toString(),
             QStringLiteral("llama-worker-0"));

    // dev-bob crashes: Error sorts between Created and Running. No row is reset or removed.
    QSignalSpy removed(table, &QAbstractItemModel::rowsRemoved);
    QSignalSpy moved(table, &QAbstractItemModel::rowsMoved);
    Delta d = delta(Resource::Pods);
    d.items<PodInfo>() = {pod(QStringLiteral("dev-bob"), QStringLiteral("user-bob"),
                              QStringLiteral("g4090-01"), 1, {}, QStringLiteral("Error"))};
    m_store->apply(d);
    m_store->flush();
    QTRY_COMPARE(model->pendingCount(), 0);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(bob.data(KeyRole).toString(), QStringLiteral("uid-dev-bob"));
    QCOMPARE(QModelIndex(bob).siblingAtColumn(WorkloadsModel::Status).data().toString(),
             QStringLiteral("Error"));
    QCOMPARE(QModelIndex(worker).siblingAtColumn(0).data().toString(),
             QStringLiteral("llama-worker-0"));

    // llama fails: it moves above dev-bob with its two pods.
    Delta j = delta(Resource::PyTorchJobs);
    j.items<JobInfo>() = {
        job(QStringLiteral("llama"), QStringLiteral("user-alice"), QStringLiteral("Aborted"))};
    m_store->apply(j);
    m_store->flush();
    QTRY_COMPARE(model->pendingCount(), 0);
    QCOMPARE(treeText(*table), QStringLiteral("llama[llama-master-0 llama-worker-0] gpt dev-bob"));
    QVERIFY(moved.count() >= 1);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(worker.row(), 2);
    QCOMPARE(QModelIndex(worker).siblingAtColumn(0).data().toString(),
             QStringLiteral("llama-worker-0"));
    QCOMPARE(bob.row(), 4);

    // A new sort order keeps them too.
    table->sort(WorkloadsModel::Name, Qt::DescendingOrder);
    QCOMPARE(treeText(*table), QStringLiteral("llama[llama-worker-0 llama-master-0] gpt dev-bob"));
    QCOMPARE(worker.row(), 1);
    QCOMPARE(QModelIndex(worker).siblingAtColumn(0).data().toString(),
             QStringLiteral("llama-worker-0"));
    QCOMPARE(bob.data(KeyRole).toString(), QStringLiteral("uid-dev-bob"));
}

void TestModels::slotOrderMatchesAVector()
{
    // Random inserts and erases anywhere, growing past several block splits and shrinking to
    // nothing (blocks emptied): position and slot agree with a plain vector after every step.
    SlotOrder order;
    std::vector<int> plain;
    QRandomGenerator rng(11);
    constexpr int Slots = 5000;
    order.assign({}, Slots);
    std::vector<int> absent(Slots);
    std::iota(absent.begin(), absent.end(), 0);
    auto check = [&] {
        QCOMPARE(order.size(), int(plain.size()));
        for (int probe = 0; probe < 8 && !plain.empty(); ++probe) {
            const int pos = int(rng.bounded(int(plain.size())));
            QCOMPARE(order.at(pos), plain[size_t(pos)]);
            QCOMPARE(order.position(plain[size_t(pos)]), pos);
        }
        if (!absent.empty())
            QCOMPARE(order.position(absent[size_t(rng.bounded(int(absent.size())))]), -1);
    };
    for (int step = 0; step < 12000; ++step) {
        const bool grow = step < 6000 ? rng.bounded(10) < 8 : rng.bounded(10) < 2;
        if (grow && !absent.empty()) {
            const size_t a = rng.bounded(int(absent.size()));
            const int slot = absent[a];
            absent.erase(absent.begin() + qsizetype(a));
            // Often at the front, as new jobs land under "newest first".
            const int pos = rng.bounded(3) == 0 ? 0 : int(rng.bounded(int(plain.size()) + 1));
            order.insert(pos, slot);
            plain.insert(plain.begin() + pos, slot);
        } else if (!plain.empty()) {
            const int pos = int(rng.bounded(int(plain.size())));
            absent.push_back(plain[size_t(pos)]);
            order.erase(pos);
            plain.erase(plain.begin() + pos);
        }
        if (step % 50 == 0)
            check();
    }
    while (!plain.empty()) {
        order.erase(0);
        plain.erase(plain.begin());
    }
    check();
    QVERIFY(order.toVector().empty());
    order.insert(0, 7);
    QCOMPARE(order.toVector(), std::vector<int>{7});
}

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
