// SPDX-License-Identifier: GPL-3.0-or-later
#include "historyservice.h"

#include "clusterstore.h"
#include "prometheusclient.h"

#include <QDateTime>
#include <QRegularExpression>

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
    emit availabilityChanged();
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

void HistoryService::podsIdle(const QList<PodRef> &pods, qint64 horizonMs, int busyPercent,
                              QObject *context, IdleDone done)
{
    if (!m_prometheus || pods.isEmpty()) {
        done({}, m_prometheus ? QString() : tr("No Prometheus is configured."));
        return;
    }
    // One query for all: the busiest card of each pod per 5 minutes, by the labels DCGM-exporter
    // gives the cards a pod holds. Names are matched exactly (regex-quoted), namespaces checked
    // on the answer.
    QStringList names;
    QHash<QString, QString> uidOf; // ns/name → uid
    for (const PodRef &p : pods) {
        names << QRegularExpression::escape(p.name);
        uidOf.insert(p.ns + u'/' + p.name, p.uid);
    }
    const int step = 300;
    const QString query =
        QStringLiteral("max by (namespace, pod) (max_over_time(DCGM_FI_DEV_GPU_UTIL{pod=~%1}[5m]))")
            .arg(PrometheusClient::quoted(names.join(u'|')));
    const qint64 to = QDateTime::currentMSecsSinceEpoch();
    m_prometheus->queryRange(
        query, to - horizonMs, to, step, context,
        [done, uidOf, busyPercent](const QList<PromSeries> &series, const QString &error) {
            QHash<QString, ExternalIdle> out;
            for (const PromSeries &s : series) {
                const QString uid = uidOf.value(s.labels.value(QStringLiteral("namespace")) + u'/' +
                                                s.labels.value(QStringLiteral("pod")));
                if (uid.isEmpty() || s.points.isEmpty())
                    continue;
                ExternalIdle e;
                // Each point is the maximum of the five minutes before it.
                e.coveredFromMs = qint64(s.points.first().x()) - 300 * 1000;
                for (const QPointF &p : s.points)
                    if (p.y() >= busyPercent)
                        e.lastBusyMs = qint64(p.x());
                out.insert(uid, e);
            }
            done(out, error);
        });
}

void HistoryService::clusterGpuUse(qint64 from, qint64 to, int step, int busyPercent,
                                   QObject *context, GpuUseDone done)
{
    if (!m_prometheus) {
        done({}, tr("No Prometheus is configured."));
        return;
    }
    // One query, three lines told apart by a label. Cards, not series: a card in MIG mode has a
    // series per instance, so each counts once by (Hostname, UUID). `or vector(0)`: a moment with
    // no card held or busy is a zero, not a gap.
    const QString cards = QStringLiteral("(DCGM_FI_DEV_GPU_UTIL%1)");
    const auto line = [](const QString &name, const QString &expr) {
        return QStringLiteral("label_replace(%1, \"line\", \"%2\", \"\", \"\")").arg(expr, name);
    };
    const QString query =
        line(QStringLiteral("total"),
             QStringLiteral("count(count by (Hostname, UUID) %1)").arg(cards.arg(QString()))) +
        QStringLiteral(" or ") +
        line(QStringLiteral("allocated"),
             QStringLiteral("count(count by (Hostname, UUID) %1) or vector(0)")
                 .arg(cards.arg(QStringLiteral("{pod!=\"\"}")))) +
        QStringLiteral(" or ") +
        line(QStringLiteral("busy"),
             QStringLiteral("count(max by (Hostname, UUID) %1 >= %2) or vector(0)")
                 .arg(cards.arg(QString()))
                 .arg(busyPercent));
    m_prometheus->queryRange(query, from, to, step, context,
                             [done](const QList<PromSeries> &series, const QString &error) {
                                 QMap<qint64, GpuUseHistory::Point> at;
                                 for (const PromSeries &s : series) {
                                     const QString name = s.labels.value(QStringLiteral("line"));
                                     for (const QPointF &p : s.points) {
                                         GpuUseHistory::Point &point = at[qint64(p.x())];
                                         point.timeMs = qint64(p.x());
                                         const int n = int(p.y());
                                         if (name == QLatin1String("total"))
                                             point.total = n;
                                         else if (name == QLatin1String("allocated"))
                                             point.allocated = n;
                                         else if (name == QLatin1String("busy"))
                                             point.busy = n;
                                     }
                                 }
                                 QList<GpuUseHistory::Point> out;
                                 // Moments without a card reporting are gaps (the exporters were
                                 // down), not zeros.
                                 for (const GpuUseHistory::Point &p : std::as_const(at))
                                     if (p.total > 0)
                                         out.append(p);
                                 done(out, error);
                             });
}

} // namespace gpudesk
