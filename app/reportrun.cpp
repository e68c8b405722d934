// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportrun.h"

#include "clusterstore.h"
#include "decoder.h"
#include "kubeclient.h"
#include "pagedlister.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>

namespace gpudesk {

namespace {

// Lists every page of `path`, decoding each on a worker thread, then hands over all the items.
template <class T>
void listAll(QObject *owner, KubeClient *client, const QString &path,
             DecodedPage<T> (*decode)(const QByteArray &),
             std::function<void(const QList<T> &)> done,
             std::function<void(int, const QString &)> failed)
{
    auto *lister = new PagedLister(client, path, 500, owner);
    auto items = std::make_shared<QList<T>>();
    QObject::connect(lister, &PagedLister::failed, owner,
                     [lister, failed](int status, const QString &e) {
                         lister->deleteLater();
                         failed(status, e);
                     });
    QObject::connect(lister, &PagedLister::page, owner, [=](const QByteArray &body) {
        auto *watcher = new QFutureWatcher<DecodedPage<T>>(owner);
        QObject::connect(watcher, &QFutureWatcher<DecodedPage<T>>::finished, owner, [=] {
            watcher->deleteLater();
            const DecodedPage<T> page = watcher->result();
            if (!page.error.isEmpty()) {
                lister->deleteLater();
                failed(200, page.error);
                return;
            }
            items->append(page.items);
            if (page.continueToken.isEmpty()) {
                lister->deleteLater();
                done(*items);
            } else {
                lister->next(page.continueToken);
            }
        });
        watcher->setFuture(QtConcurrent::run(decode, body));
    });
    lister->start();
}

} // namespace

ReportRun::ReportRun(KubeClient *client, ClusterStore *store, QString outputPath, QObject *parent)
    : QObject(parent), m_client(client), m_store(store), m_output(std::move(outputPath))
{}

void ReportRun::start()
{
    if (!m_client->setupError().isEmpty()) {
        emit finished(2, m_client->setupError());
        return;
    }
    auto failWith = [this](const QString &what) {
        return [this, what](int, const QString &e) {
            emit finished(1, tr("Cannot list %1: %2").arg(what, e));
        };
    };
    // Nodes, namespaces, pods, then queues; each replaces what the store knew of its kind.
    auto queues = [this, failWith] {
        listAll<QueueInfo>(
            this, m_client, QStringLiteral("/apis/scheduling.volcano.sh/v1beta1/queues"),
            &Decoder::queues,
            [this](const QList<QueueInfo> &items) {
                m_store->replaceQueues(items);
                write();
            },
            [this, fail = failWith(QStringLiteral("queues"))](int status, const QString &e) {
                if (status != 404)
                    return fail(status, e);
                m_volcano = false; // no Volcano on this cluster: no VCs, not an error
                write();
            });
    };
    auto pods = [this, failWith, queues] {
        listAll<PodInfo>(
            this, m_client, QStringLiteral("/api/v1/pods"), &Decoder::pods,
            [this, queues](const QList<PodInfo> &items) {
                m_store->replacePods(items);
                queues();
            },
            failWith(QStringLiteral("pods")));
    };
    auto namespaces = [this, failWith, pods] {
        listAll<NamespaceInfo>(
            this, m_client, QStringLiteral("/api/v1/namespaces"), &Decoder::namespaces,
            [this, pods](const QList<NamespaceInfo> &items) {
                m_store->replaceNamespaces(items);
                pods();
            },
            failWith(QStringLiteral("namespaces")));
    };
    listAll<NodeInfo>(
        this, m_client, QStringLiteral("/api/v1/nodes"), &Decoder::nodes,
        [this, namespaces](const QList<NodeInfo> &items) {
            m_store->replaceNodes(items);
            namespaces();
        },
        failWith(QStringLiteral("nodes")));
}

QJsonObject ReportRun::reportJson(const ClusterStore &store, const QString &context,
                                  const QString &server, bool volcano)
{
    auto gpus = [](const GpuCount &c) {
        return QJsonObject{{QStringLiteral("total"), c.total},
                           {QStringLiteral("allocated"), c.allocated},
                           {QStringLiteral("free"), c.free}};
    };
    const GpuTotals t = store.totals();
    QJsonObject totals = gpus(t.gpus);
    totals[QStringLiteral("pendingDemand")] = t.pendingDemand;
    QJsonArray nodes;
    for (const auto &n : store.nodes())
        nodes.append(QJsonObject{{QStringLiteral("name"), n.name},
                                 {QStringLiteral("ready"), n.ready},
                                 {QStringLiteral("schedulable"), !n.unschedulable},
                                 {QStringLiteral("gpuModel"),
                                  n.gpuModel.isEmpty() ? QJsonValue() : QJsonValue(n.gpuModel)},
                                 {QStringLiteral("gpus"), gpus(store.nodeGpus(n.name))}});
    QJsonArray queues;
    for (const auto &q : store.queues())
        queues.append(QJsonObject{
            {QStringLiteral("name"), q.name},
            {QStringLiteral("gpus"),
             QJsonObject{{QStringLiteral("capability"),
                          q.gpuCapability ? QJsonValue(*q.gpuCapability) : QJsonValue()},
                         {QStringLiteral("allocated"), store.queueAllocated(q.name)}}}});
    QJsonArray users;
    for (const auto &u : store.users())
        users.append(
            QJsonObject{{QStringLiteral("name"), u.user},
                        {QStringLiteral("namespace"), u.name},
                        {QStringLiteral("vc"), u.vc},
                        {QStringLiteral("gpus"),
                         QJsonObject{{QStringLiteral("allocated"), store.userAllocated(u.user)}}}});
    return QJsonObject{
        {QStringLiteral("schemaVersion"), 1},
        {QStringLiteral("context"), context},
        {QStringLiteral("server"), server},
        {QStringLiteral("generatedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("apiGroups"), QJsonObject{{QStringLiteral("volcano"), volcano}}},
        {QStringLiteral("gpus"), totals},
        {QStringLiteral("nodes"), nodes},
        {QStringLiteral("queues"), queues},
        {QStringLiteral("users"), users}};
}

void ReportRun::write()
{
    const QJsonObject report =
        reportJson(*m_store, m_client->endpoint().context, m_client->endpoint().server, m_volcano);
    // Written whole or not at all: a cron job never reads half a report.
    QSaveFile f(m_output);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(report).toJson()) < 0 ||
        !f.commit()) {
        emit finished(1, tr("Cannot write the report to %1: %2").arg(m_output, f.errorString()));
        return;
    }
    const GpuTotals t = m_store->totals();
    emit finished(0, tr("Report written to %1: %2 nodes, %3 GPUs, %4 allocated, %5 free.")
                         .arg(m_output)
                         .arg(m_store->nodes().size())
                         .arg(t.gpus.total)
                         .arg(t.gpus.allocated)
                         .arg(t.gpus.free));
}

} // namespace gpudesk
