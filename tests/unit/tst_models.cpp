// SPDX-License-Identifier: GPL-3.0-or-later
// The item models over the store: built incrementally from deltas (rows inserted, removed and
// changed in place, never reset except on a context switch), with QAbstractItemModelTester on
// every model and proxy, and their content compared as text.
#include "modelfixture.h"

using namespace gpudesk;
using namespace gpudesk::modeltest;

class TestModels : public QObject, public ModelFixture
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
    void events();
    void eventsOfTheSameSecondKeepOneOrder();
    void logModelMarksErrorLines();
    void logModelKeepsTheNewestWithinItsBounds();
    void queuesAndUsers();
    void contextSwitchResets();
};

void TestModels::init()
{
    setUpStore();
}

void TestModels::cleanup()
{
    tearDownStore();
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
    QTest::addRow("waiting") << QString() << QString() << int(workloadstatus::Waiting) << QString()
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
    // Twelve events of one second, sorted newest first (the youngest age: ascending, as the
    // Events page sorts them): the order is the same however they
    // arrive and whatever else changes, so the list does not reshuffle under the reader.
    auto *all = tested(new EventsModel(m_store, m_store, &fixedNow));
    auto *proxy = tested(new TableFilter(m_store));
    proxy->setSourceModel(all);
    proxy->setDynamicSortFilter(true);
    proxy->sort(EventsModel::LastSeen, Qt::AscendingOrder);
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
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(first, sorted); // ties by key (ascending, as the column is)
    // A minute older: after them ("1m" after "5s"), never before.
    EventInfo older = events.first();
    older.uid = QStringLiteral("a-older");
    older.lastSeen = older.firstSeen = kNow - 60000;
    Delta more = delta(Resource::Events, false);
    more.items<EventInfo>() = {older};
    m_store->apply(more);
    m_store->flush();
    QCOMPARE(order().size(), 13);
    QCOMPARE(order().last(), QStringLiteral("a-older"));
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

void TestModels::logModelKeepsTheNewestWithinItsBounds()
{
    LogModel *log = tested(new LogModel(m_store));
    log->setLimits(100, 1 << 20);
    QList<LogLine> batch;
    for (int i = 0; i < 250; ++i)
        batch.append(
            {"2026-11-22T10:00:00Z",
             (i % 50 == 7 ? "RuntimeError: CUDA error at " : "step ") + QByteArray::number(i)});
    log->append(batch);
    log->flush();
    // Over 100 lines: down to 90, the newest, and the error rows follow them.
    QCOMPARE(log->rowCount(), 90);
    QCOMPARE(log->droppedLines(), 160);
    QCOMPARE(log->lineText(0), QStringLiteral("step 160"));
    QCOMPARE(log->lineText(89), QStringLiteral("step 249"));
    QCOMPARE(log->errorLines(), (QList<int>{47})); // line 207; 7, 57, 107 and 157 went
    // The byte bound: lines of 100 KiB, at most 1 MiB kept (nine tenths after a trim).
    log->clear();
    QCOMPARE(log->droppedLines(), 0);
    QList<LogLine> wide;
    for (int i = 0; i < 12; ++i)
        wide.append(
            {"2026-11-22T10:00:00Z", QByteArray::number(i) + ' ' + QByteArray(100 << 10, 'x')});
    log->append(wide);
    log->flush();
    QVERIFY(log->bytes() <= (1 << 20) / 10 * 9);
    QVERIFY(log->lineText(log->rowCount() - 1).startsWith(QLatin1String("11 ")));
    QCOMPARE(log->droppedLines() + log->rowCount(), 12);
    QVERIFY(log->lineText(0).startsWith(QString::number(log->droppedLines()) + u' '));
}

void TestModels::queuesAndUsers()
{
    auto *queues = tested(new QueuesModel(m_store, m_store));
    auto *users = tested(new UsersModel(m_store, m_store));
    const QList<int> queueColumns{QueuesModel::Name, QueuesModel::Allocated,
                                  QueuesModel::Capability, QueuesModel::Weight, QueuesModel::State};
    const QList<int> userColumns{UsersModel::User,      UsersModel::Namespace, UsersModel::Vc,
                                 UsersModel::GpusInUse, UsersModel::Running,   UsersModel::Waiting};
    QCOMPARE(dumpColumns(*queues, queueColumns),
             QStringLiteral("default | 0 / – | unlimited | 1 | Open\n"
                            "nlp | 9 / 40 | 40 | 1 | Open"));
    // alice: the running llama and gpt, Created (waiting); bob: a bare running pod.
    QCOMPARE(dumpColumns(*users, userColumns),
             QStringLiteral("alice | user-alice | nlp | 8 | 1 | 1\n"
                            "bob | user-bob | cv | 1 | 1 | 0"));
    QSignalSpy changed(users, &QAbstractItemModel::dataChanged);
    Delta d = delta(Resource::Pods);
    d.removed = {QStringLiteral("uid-llama-worker-0")};
    m_store->apply(d);
    m_store->flush();
    QCOMPARE(dumpColumns(*users, userColumns),
             QStringLiteral("alice | user-alice | nlp | 4 | 1 | 1\n"
                            "bob | user-bob | cv | 1 | 1 | 0"));
    // Only alice's row is told: bob's figures did not move.
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
    QCOMPARE(dumpColumns(*users, userColumns),
             QStringLiteral("alice | user-alice | nlp | 4 | 1 | 1\n"
                            "bob | user-bob | cv | 1 | 1 | 0"));
    QCOMPARE(
        queues->index(queues->rowOf(QStringLiteral("nlp")), QueuesModel::Allocated).data(UsedRole),
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

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
