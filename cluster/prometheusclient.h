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

    using Done = std::function<void(const QList<PromSeries> &series, const QString &error)>;
    void queryRange(const QString &query, qint64 fromMs, qint64 toMs, int stepSeconds,
                    QObject *context, Done done);

    // The answer's JSON, decoded (public for tests with recorded answers).
    static QList<PromSeries> parseMatrix(const QByteArray &json, QString *error);
    // A PromQL label value in double quotes, escaped.
    static QString quoted(const QString &value);

    // DCGM-exporter's name for a card metric of TelemetryHistory (empty when none).
    static QString dcgmMetric(int telemetryMetric);

private:
    QUrl m_base;
    QNetworkAccessManager *m_net;
};

} // namespace gpudesk
