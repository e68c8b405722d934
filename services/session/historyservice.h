// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "findings.h"
#include "gpuusehistory.h"
#include "telemetryhistory.h"

#include <QObject>
#include <QPointF>
#include <QUrl>

#include <functional>

namespace gpudesk {

class ClusterStore;
class PrometheusClient;

// History older than gpudesk sampled itself, from Prometheus when one is configured: a node's
// cards from DCGM-exporter (by its Hostname label), its CPU, memory and load from node-exporter
// (by the scrape target: the node's name or address, with or without the exporter's port).
class HistoryService : public QObject
{
    Q_OBJECT
public:
    HistoryService(const ClusterStore *store, QObject *parent = nullptr);
    ~HistoryService() override;
    void setPrometheus(const QUrl &url);
    bool available() const { return m_prometheus != nullptr; }

signals:
    // A Prometheus was set, changed or removed: views offer its ranges, or stop.
    void availabilityChanged();

public:
    struct Series
    {
        QString label; // the card ("GPU 3") for card metrics; the metric's name otherwise
        QList<QPointF> points;
    };
    // `empty`: what to say when Prometheus answered with no series (names what was looked for).
    using Done = std::function<void(const QList<Series> &series, const QString &error,
                                    const QString &empty)>;
    void nodeHistory(const QString &node, TelemetryHistory::Metric metric, qint64 fromMs,
                     qint64 toMs, int stepSeconds, QObject *context, Done done);

    // Since when each pod's cards have been idle, by DCGM-exporter's pod labels (namespace, pod)
    // over the last `horizonMs`: the last minute any of its cards reached `busyPercent`, and
    // the first the series covers. Pods Prometheus has no series for are left out.
    struct PodRef
    {
        QString uid;
        QString ns;
        QString name;
    };
    using IdleDone =
        std::function<void(const QHash<QString, ExternalIdle> &idle, const QString &error)>;
    void podsIdle(const QList<PodRef> &pods, qint64 horizonMs, int busyPercent, QObject *context,
                  IdleDone done);

    // The cluster's cards over [from, to] from DCGM-exporter, as the Overview draws them: the
    // cards reporting, those a pod holds (the exporter's pod labels) and those at or above
    // `busyPercent` — a history from before gpudesk started, the same for every gpudesk.
    using GpuUseDone =
        std::function<void(const QList<GpuUseHistory::Point> &points, const QString &error)>;
    void clusterGpuUse(qint64 fromMs, qint64 toMs, int stepSeconds, int busyPercent,
                       QObject *context, GpuUseDone done);

private:
    const ClusterStore *m_store;
    PrometheusClient *m_prometheus = nullptr;
};

} // namespace gpudesk
