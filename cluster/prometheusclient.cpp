// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheusclient.h"

#include "boundedbody.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QRegularExpression>
#include <QUrlQuery>

#include <cmath>

namespace gpudesk {

PrometheusClient::PrometheusClient(QUrl base, QObject *parent)
    : QObject(parent), m_base(std::move(base)), m_net(new QNetworkAccessManager(this))
{}

QString PrometheusClient::quoted(const QString &value)
{
    QString v = value;
    v.replace(u'\\', QLatin1String("\\\\"))
        .replace(u'"', QLatin1String("\\\""))
        .replace(u'\n', QLatin1String("\\n"));
    return u'"' + v + u'"';
}

QString PrometheusClient::dcgmMetric(int m)
{
    // TelemetryHistory::Metric: Utilization, MemoryMiB, TemperatureC, PowerW.
    switch (m) {
    case 0:
        return QStringLiteral("DCGM_FI_DEV_GPU_UTIL");
    case 1:
        return QStringLiteral("DCGM_FI_DEV_FB_USED");
    case 2:
        return QStringLiteral("DCGM_FI_DEV_GPU_TEMP");
    case 3:
        return QStringLiteral("DCGM_FI_DEV_POWER_USAGE");
    default:
        return QString();
    }
}

QString PrometheusClient::nodeExporterQuery(int m, const QStringList &hosts, int stepSeconds)
{
    // node-exporter's series name their scrape target in `instance`: the node's address and the
    // exporter's port with a plain scrape config, the node's name where relabelled (as
    // kube-prometheus does). Both are matched; the value is escaped as a regular expression and
    // then quoted as a PromQL string.
    QStringList alternatives;
    for (const QString &h : hosts)
        if (!h.isEmpty())
            alternatives << QRegularExpression::escape(h);
    if (alternatives.isEmpty())
        return {};
    const QString sel = QStringLiteral("instance=~") +
                        quoted(QStringLiteral("(?:%1)(?::[0-9]+)?").arg(alternatives.join(u'|')));
    // A rate needs two scrapes inside its window: four steps, and never less than two minutes
    // (scrape intervals are 15–60 s).
    const QString window = QString::number(qMax(120, 4 * stepSeconds)) + u's';
    // TelemetryHistory::Metric: CpuPercent, MemoryPercent, Load1. The same node scraped by two
    // jobs must not count twice: CPU is a ratio of sums, memory and load are averages.
    switch (m) {
    case 4:
        return QStringLiteral("100 * (1 - sum(rate(node_cpu_seconds_total{mode=\"idle\",%1}[%2]))"
                              " / sum(rate(node_cpu_seconds_total{%1}[%2])))")
            .arg(sel, window);
    case 5:
        return QStringLiteral("100 * (1 - avg(node_memory_MemAvailable_bytes{%1})"
                              " / avg(node_memory_MemTotal_bytes{%1}))")
            .arg(sel);
    case 6:
        return QStringLiteral("avg(node_load1{%1})").arg(sel);
    default:
        return QString();
    }
}

QList<PromSeries> PrometheusClient::parseMatrix(const QByteArray &json, QString *error)
{
    QJsonParseError pe;
    const QJsonObject root = QJsonDocument::fromJson(json, &pe).object();
    if (pe.error != QJsonParseError::NoError) {
        *error = tr("Prometheus answered something that is not JSON: %1").arg(pe.errorString());
        return {};
    }
    if (root.value(QLatin1String("status")).toString() != QLatin1String("success")) {
        *error = tr("Prometheus: %1 (%2)")
                     .arg(root.value(QLatin1String("error")).toString(),
                          root.value(QLatin1String("errorType")).toString());
        return {};
    }
    const QJsonObject data = root.value(QLatin1String("data")).toObject();
    if (data.value(QLatin1String("resultType")).toString() != QLatin1String("matrix")) {
        *error = tr("Prometheus answered a %1, not a range (matrix).")
                     .arg(data.value(QLatin1String("resultType")).toString());
        return {};
    }
    QList<PromSeries> out;
    for (const QJsonValue &r : data.value(QLatin1String("result")).toArray()) {
        PromSeries s;
        const QJsonObject metric = r.toObject().value(QLatin1String("metric")).toObject();
        for (auto it = metric.begin(); it != metric.end(); ++it)
            s.labels.insert(it.key(), it.value().toString());
        for (const QJsonValue &v : r.toObject().value(QLatin1String("values")).toArray()) {
            const QJsonArray pair = v.toArray();
            bool ok = false;
            // Values are strings ("NaN", "+Inf" included): only finite numbers are points.
            const double y = pair.at(1).toString().toDouble(&ok);
            if (pair.size() == 2 && ok && std::isfinite(y))
                s.points.append(QPointF(pair.at(0).toDouble() * 1000.0, y));
        }
        out.append(s);
    }
    return out;
}

void PrometheusClient::queryRange(const QString &query, qint64 fromMs, qint64 toMs, int stepSeconds,
                                  QObject *context, Done done)
{
    QUrl url = m_base;
    url.setPath(url.path().chopped(url.path().endsWith(u'/') ? 1 : 0) +
                QStringLiteral("/api/v1/query_range"));
    QUrlQuery q;
    // Encoded whole: QUrlQuery leaves '+' alone, and Prometheus (a Go form parser) reads a bare
    // '+' as a space, which broke regular expressions such as [0-9]+.
    q.addQueryItem(QStringLiteral("query"), QString::fromLatin1(QUrl::toPercentEncoding(query)));
    q.addQueryItem(QStringLiteral("start"), QString::number(double(fromMs) / 1000.0, 'f', 3));
    q.addQueryItem(QStringLiteral("end"), QString::number(double(toMs) / 1000.0, 'f', 3));
    q.addQueryItem(QStringLiteral("step"), QString::number(qMax(1, stepSeconds)));
    url.setQuery(q);
    QNetworkRequest request(url);
    request.setTransferTimeout(TimeoutMs);
    QNetworkReply *reply = m_net->get(request);
    auto answer = BoundedBody::attach(reply, MaxAnswerBytes);
    connect(reply, &QNetworkReply::finished, context, [reply, answer, done = std::move(done)] {
        reply->deleteLater();
        const QString where = reply->url().adjusted(QUrl::RemoveQuery).toString();
        if (answer->tooSlow()) {
            done({}, tr("Prometheus at %1 sent only %2 bytes in %3 s of its answer; gpudesk gave "
                        "up.")
                         .arg(where)
                         .arg(answer->slowWindowBytes())
                         .arg(BoundedBody::SlowWindowMs / 1000));
            return;
        }
        if (answer->tooLarge()) {
            done({}, tr("Prometheus at %1 sent more than %2 MiB for one query; gpudesk stopped "
                        "reading (a day of a few thousand series is far less).")
                         .arg(where)
                         .arg(MaxAnswerBytes >> 20));
            return;
        }
        const QByteArray body = answer->take(reply);
        QString error;
        // Prometheus puts its reason in the JSON body of a 400 / 422 / 503 too.
        QList<PromSeries> series = parseMatrix(body, &error);
        if (!error.isEmpty() && reply->error() != QNetworkReply::NoError && body.isEmpty()) {
            // Qt ends a request whose transfer timeout ran out as "canceled".
            const QString why = reply->error() == QNetworkReply::OperationCanceledError
                                    ? tr("no answer within %1 s (timed out)").arg(TimeoutMs / 1000)
                                    : reply->errorString();
            error = tr("Cannot reach Prometheus at %1: %2").arg(where, why);
        }
        done(series, error);
    });
}

} // namespace gpudesk
