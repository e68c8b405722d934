// SPDX-License-Identifier: GPL-3.0-or-later
#include "clusterprobe.h"
#include "boundedjson.h"

#include "jsonfields.h"
#include "kubeclient.h"

#include <QFutureWatcher>
#include <QUrlQuery>
#include <QtConcurrent/QtConcurrentRun>

#include <nlohmann/json.hpp>

namespace gpudesk {

namespace {
struct NodesPage
{
    ClusterSummary summary;
    QString continueToken;
    QString error;
    bool ok = false;
};
} // namespace

ClusterProbe::ClusterProbe(KubeClient *client, QObject *parent) : QObject(parent), m_client(client)
{}

QString ClusterProbe::decodeVersion(const QByteArray &body)
{
    const auto j = parseBoundedJson(body);
    if (!j.is_object() || !j.contains("gitVersion") || !j["gitVersion"].is_string())
        return {};
    return QString::fromStdString(j["gitVersion"].get<std::string>());
}

bool ClusterProbe::addNodes(const QByteArray &body, ClusterSummary *summary, QString *continueToken,
                            QString *error)
{
    const auto j = parseBoundedJson(body);
    if (!j.is_object() || !j.contains("items") || !j["items"].is_array()) {
        *error = QObject::tr("The API server's node list is not valid JSON.");
        return false;
    }
    using jsonfields::member;
    using jsonfields::text;
    for (const auto &n : j["items"]) {
        if (!n.is_object())
            continue;
        ++summary->nodes;
        const auto &status = member(n, "status");
        const auto &conditions = member(status, "conditions");
        if (conditions.is_array())
            for (const auto &c : conditions)
                if (text(c, "type") == QLatin1String("Ready") &&
                    text(c, "status") == QLatin1String("True"))
                    ++summary->readyNodes;
        summary->gpus += text(member(status, "allocatable"), "nvidia.com/gpu").toInt();
    }
    *continueToken = text(member(j, "metadata"), "continue");
    return true;
}

void ClusterProbe::start()
{
    if (!m_client->setupError().isEmpty()) {
        emit failed(m_client->setupError());
        return;
    }
    m_summary = {};
    m_client->get(QStringLiteral("/version"), this, [this](const KubeReply &r) {
        if (!r.error.isEmpty()) {
            emit failed(r.error);
            return;
        }
        m_summary.serverVersion = decodeVersion(r.body);
        fetchNodes({});
    });
}

void ClusterProbe::fetchNodes(const QString &continueToken)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("limit"), QStringLiteral("500"));
    if (!continueToken.isEmpty())
        q.addQueryItem(QStringLiteral("continue"), continueToken);
    m_client->get(QStringLiteral("/api/v1/nodes?") + q.toString(QUrl::FullyEncoded), this,
                  [this](const KubeReply &r) {
                      if (!r.error.isEmpty()) {
                          emit failed(r.error);
                          return;
                      }
                      // A page of thousands of nodes is megabytes of JSON: decode it on a worker.
                      auto *watcher = new QFutureWatcher<NodesPage>(this);
                      connect(watcher, &QFutureWatcher<NodesPage>::finished, this, [this, watcher] {
                          watcher->deleteLater();
                          const NodesPage page = watcher->result();
                          if (!page.ok) {
                              emit failed(page.error);
                              return;
                          }
                          m_summary.nodes += page.summary.nodes;
                          m_summary.readyNodes += page.summary.readyNodes;
                          m_summary.gpus += page.summary.gpus;
                          if (page.continueToken.isEmpty())
                              emit finished(m_summary);
                          else
                              fetchNodes(page.continueToken);
                      });
                      watcher->setFuture(QtConcurrent::run([body = r.body] {
                          NodesPage page;
                          page.ok = addNodes(body, &page.summary, &page.continueToken, &page.error);
                          return page;
                      }));
                  });
}

} // namespace gpudesk
