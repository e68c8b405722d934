// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "findings.h"
#include "podsweep.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QTimer>

namespace gpudesk {

class ClusterStore;
class HistoryService;
class TelemetryStore;

// The findings, kept current: recomputed off the UI thread after the stores change (at most
// every RecomputeMs), with idle times dated by Prometheus where gpudesk's own samples cannot.
class FindingsService : public QObject
{
    Q_OBJECT
public:
    static constexpr int RecomputeMs = 2000;

    FindingsService(const ClusterStore *cluster, const TelemetryStore *telemetry,
                    HistoryService *history, QObject *parent = nullptr);
    ~FindingsService() override;

    const QList<Finding> &findings() const { return m_findings; }
    FindingsOptions options() const { return m_options; }
    // Takes effect at once (a recomputation is started).
    void setOptions(const FindingsOptions &options);
    // What dev environments' Jupyter servers said of their use, by pod uid: an environment whose
    // kernels or terminals were in use is not idle, whatever its GPUs do.
    void setJupyterUse(const QHash<QString, JupyterUse> &use);
    // Starts a computation now (if none runs; else right after it).
    void refresh();
    // Whether a computation has ended since the last reset (a context switch).
    bool hasResult() const { return m_hasResult; }
    // Nothing is being computed or asked of Prometheus, and nothing is due: findings() is what
    // the stores say now (what `--cleanup` waits for before it writes).
    bool isSettled() const;
    qint64 lastComputeMs() const { return m_lastComputeMs; }
    // Why Prometheus could not date idle pods the last time it was asked ("" when it could).
    QString prometheusError() const { return m_prometheusError; }

signals:
    void updated();
    void optionsChanged();
    // A computation ended with nothing more in flight (see isSettled()).
    void settled();

private:
    void schedule();
    void start();
    void finished();
    void askPrometheus();

    const ClusterStore *m_cluster;
    const TelemetryStore *m_telemetry;
    HistoryService *m_history;
    FindingsOptions m_options;
    QList<Finding> m_findings;
    QHash<QString, qint64> m_firstSeen; // finding key → when first found (for undated ones)
    QHash<QString, ExternalIdle> m_external;
    QHash<QString, JupyterUse> m_jupyter;
    QSet<QString> m_askedPrometheus;
    QTimer m_timer;
    QFutureWatcher<QList<Finding>> m_watcher;
    // The snapshot is taken over turns of the event loop (a walk of 100,000 pods in one piece
    // held the window 35 ms every two seconds), then computed on a worker.
    PodSweep m_sweep;
    FindingsInput m_capture;
    QElapsedTimer m_took;
    bool m_dirty = false;
    int m_prometheusPending = 0;
    QString m_prometheusError;
    QElapsedTimer m_prometheusFailed; // asked again a minute after a failure
    bool m_hasResult = false;
    qint64 m_lastComputeMs = 0;
};

} // namespace gpudesk
