// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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

private:
    const ClusterStore *m_store;
    PrometheusClient *m_prometheus = nullptr;
};

} // namespace gpudesk
