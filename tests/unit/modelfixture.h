// SPDX-License-Identifier: GPL-3.0-or-later
// What the model tests share: entities as the decoder makes them, a small store to fill, dumps
// of a model's rows, and a QAbstractItemModelTester on each model a test makes.
#pragma once

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

namespace gpudesk::modeltest {

inline constexpr qint64 kNow = 1'795'000'000'000; // a fixed "now" for ages

inline qint64 fixedNow()
{
    return kNow;
}

inline NodeInfo node(const QString &name, int gpus, bool ready = true)
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

inline PodInfo pod(const QString &name, const QString &ns, const QString &nodeName, int gpus,
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

inline JobInfo job(const QString &name, const QString &ns, const QString &status)
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

inline Delta delta(Resource r, bool relist = false)
{
    Delta d;
    d.resource = r;
    d.relist = relist;
    return d;
}

// Rows as text, sorted by the first column: "name | col | col …", children indented.
inline QString dump(const QAbstractItemModel &m, const QModelIndex &parent = {}, int depth = 0)
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

// Rows as text with only the columns named, sorted.
inline QString dumpColumns(const QAbstractItemModel &m, const QList<int> &columns)
{
    QStringList lines;
    for (int r = 0; r < m.rowCount(); ++r) {
        QStringList cells;
        for (int c : columns)
            cells.append(m.index(r, c).data().toString());
        lines.append(cells.join(QStringLiteral(" | ")));
    }
    lines.sort();
    return lines.join(u'\n');
}

// Expands every job of a flattened table (bottom-up: rows below move as pods appear).
inline void expandAll(WorkloadsTable *table)
{
    for (int r = table->rowCount() - 1; r >= 0; --r)
        table->setExpanded(r, true);
}

// A flattened table as "job[pod pod] job …", in the table's order.
inline QString treeText(const QAbstractItemModel &m)
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
inline QStringList rowsText(const QAbstractItemModel &m)
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

// A store with two GPU nodes and a CPU node, two users, two queues, a two-pod PyTorchJob and a
// dev pod; fresh for each test function (init/cleanup of the test class call these).
class ModelFixture
{
protected:
    void setUpStore()
    {
        m_store = new ClusterStore(nullptr);
        fill();
    }
    void tearDownStore()
    {
        delete m_store;
        m_store = nullptr;
        m_testers.clear(); // each goes with its model
    }
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

inline void ModelFixture::fill()
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

} // namespace gpudesk::modeltest
