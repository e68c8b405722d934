// SPDX-License-Identifier: GPL-3.0-or-later
#include "historyservice.h"

#include "clusterstore.h"
#include "prometheusclient.h"

namespace gpudesk {

// PrometheusClient (cluster/, below models/) names metrics by TelemetryHistory::Metric's values.
static_assert(int(TelemetryHistory::Metric::Utilization) == 0 &&
              int(TelemetryHistory::Metric::PowerW) == 3 &&
              int(TelemetryHistory::Metric::CpuPercent) == 4 &&
              int(TelemetryHistory::Metric::Load1) == 6);

HistoryService::HistoryService(const ClusterStore *store, QObject *parent)
    : QObject(parent), m_store(store)
{}

HistoryService::~HistoryService() = default;

void HistoryService::setPrometheus(const QUrl &url)
{
    delete m_prometheus;
    m_prometheus = url.isValid() && !url.isEmpty() ? new PrometheusClient(url, this) : nullptr;
}

void HistoryService::nodeHistory(const QString &node, TelemetryHistory::Metric m, qint64 from,
                                 qint64 to, int step, QObject *context, Done done)
{
    if (!m_prometheus) {
        done({}, tr("No Prometheus is configured."), {});
        return;
    }
    using M = TelemetryHistory::Metric;
    const bool cardMetric =
        m == M::Utilization || m == M::MemoryMiB || m == M::TemperatureC || m == M::PowerW;
    QStringList hosts{node};
    if (const NodeInfo *n = m_store->node(node); n && !n->internalIP.isEmpty())
        hosts << n->internalIP;
    const QString query =
        cardMetric ? PrometheusClient::dcgmMetric(int(m)) +
                         QStringLiteral("{Hostname=%1}").arg(PrometheusClient::quoted(node))
                   : PrometheusClient::nodeExporterQuery(int(m), hosts, step);
    const QString empty =
        cardMetric ? tr("Prometheus has no DCGM series for this node.")
                   : tr("Prometheus has no node-exporter series for this node (instance %1).")
                         .arg(hosts.join(QStringLiteral(", ")));
    m_prometheus->queryRange(
        query, from, to, step, context,
        [done, cardMetric, empty](const QList<PromSeries> &series, const QString &error) {
            QList<Series> out;
            for (const PromSeries &s : series)
                out.append({cardMetric ? tr("GPU %1").arg(s.labels.value(QStringLiteral("gpu")))
                                       : QString(),
                            s.points});
            std::sort(out.begin(), out.end(),
                      [](const Series &a, const Series &b) { return a.label < b.label; });
            done(out, error, empty);
        });
}

} // namespace gpudesk
