// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;

namespace gpudesk {

// One series of a range query: its labels and (ms since the epoch, value) points.
struct PromSeries
{
    QHash<QString, QString> labels;
    QList<QPointF> points;
};

// Prometheus HTTP API v1 `query_range`, for history older than gpudesk sampled itself
// (DCGM-exporter and node-exporter metrics). Asynchronous; answers go to `context`.
class PrometheusClient : public QObject
{
    Q_OBJECT
public:
    explicit PrometheusClient(QUrl base, QObject *parent = nullptr);
    QUrl base() const { return m_base; }

    // A query's answer is bounded in size and in time (a day of a few thousand series at a
    // minute's step is tens of MiB; Prometheus itself gives up on a query after 2 minutes).
    static constexpr qint64 MaxAnswerBytes = 128 << 20;
    static constexpr int TimeoutMs = 30000;

    using Done = std::function<void(const QList<PromSeries> &series, const QString &error)>;
    void queryRange(const QString &query, qint64 fromMs, qint64 toMs, int stepSeconds,
                    QObject *context, Done done);

    // The answer's JSON, decoded (public for tests with recorded answers).
    static QList<PromSeries> parseMatrix(const QByteArray &json, QString *error);
    // A PromQL label value in double quotes, escaped.
    static QString quoted(const QString &value);

    // DCGM-exporter's name for a card metric of TelemetryHistory (empty when none).
    static QString dcgmMetric(int telemetryMetric);
    // node-exporter's figure for a node metric of TelemetryHistory (CPU busy %, memory used %,
    // 1-minute load) over the series whose `instance` is one of `hosts` (the node's name or
    // address, with or without the exporter's port); `stepSeconds` sizes the rate window. Empty
    // for other metrics or no host.
    static QString nodeExporterQuery(int telemetryMetric, const QStringList &hosts,
                                     int stepSeconds);

private:
    QUrl m_base;
    QNetworkAccessManager *m_net;
};

} // namespace gpudesk
