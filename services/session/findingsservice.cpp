// SPDX-License-Identifier: GPL-3.0-or-later
#include "findingsservice.h"

#include "clusterstore.h"
#include "historyservice.h"
#include "telemetrystore.h"

#include <QtConcurrent/QtConcurrentRun>

namespace gpudesk {

FindingsService::FindingsService(const ClusterStore *cluster, const TelemetryStore *telemetry,
                                 HistoryService *history, QObject *parent)
    : QObject(parent), m_cluster(cluster), m_telemetry(telemetry), m_history(history),
      m_sweep(cluster)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(RecomputeMs);
    connect(&m_timer, &QTimer::timeout, this, &FindingsService::start);
    connect(&m_watcher, &QFutureWatcher<QList<Finding>>::finished, this,
            &FindingsService::finished);
    connect(cluster, &ClusterStore::updated, this, [this](const StoreChanges &c) {
        if (c.reset) {
            // Another cluster: nothing found so far holds, nor half a snapshot of it.
            m_sweep.cancel();
            m_findings.clear();
            m_firstSeen.clear();
            m_external.clear();
            m_askedPrometheus.clear();
            m_hasResult = false;
            emit updated();
        }
        schedule();
    });
    connect(telemetry, &TelemetryStore::updated, this, &FindingsService::schedule);
}

FindingsService::~FindingsService()
{
    // The computation reads only its own snapshot: waiting for it is bounded by its length.
    m_watcher.waitForFinished();
}

bool FindingsService::isSettled() const
{
    return m_hasResult && !m_watcher.isRunning() && !m_sweep.isRunning() && !m_timer.isActive() &&
           !m_dirty && m_prometheusPending == 0;
}

void FindingsService::setOptions(const FindingsOptions &options)
{
    m_options = options;
    refresh();
    emit optionsChanged();
}

void FindingsService::setJupyterUse(const QHash<QString, JupyterUse> &use)
{
    m_jupyter = use;
    schedule();
}

void FindingsService::refresh()
{
    m_timer.stop();
    // Asked now (other options, a refresh by hand): a snapshot under way is taken again.
    m_sweep.cancel();
    start();
}

void FindingsService::schedule()
{
    if (!m_timer.isActive())
        m_timer.start();
}

void FindingsService::start()
{
    if (m_watcher.isRunning() || m_sweep.isRunning()) {
        m_dirty = true;
        return;
    }
    m_dirty = false;
    askPrometheus();
    m_took.start();
    m_capture = FindingsInput::begin(*m_cluster, m_options);
    m_sweep.start(
        [this](const PodInfo &p) {
            if (FindingsInput::holdsGpu(p))
                m_capture.addPod(*m_cluster, m_telemetry, m_external, p);
        },
        [this] {
            m_capture.addNodes(*m_cluster, m_telemetry, m_external);
            m_capture.jupyter = m_jupyter;
            m_watcher.setFuture(QtConcurrent::run(
                [input = std::exchange(m_capture, {})]() { return computeFindings(input); }));
        });
}

void FindingsService::finished()
{
    m_lastComputeMs = m_took.elapsed();
    QList<Finding> found = m_watcher.result();
    // Findings the snapshot cannot date are dated by when gpudesk first found them.
    const qint64 now = m_cluster->now();
    QHash<QString, qint64> seen;
    for (Finding &f : found) {
        const qint64 first = m_firstSeen.value(f.key, now);
        seen.insert(f.key, first);
        if (f.since == 0) {
            f.since = first;
            f.sinceAtLeast = true;
            f.sinceSource = tr("found by gpudesk");
        }
    }
    m_firstSeen = std::move(seen);
    m_findings = std::move(found);
    m_hasResult = true;
    emit updated();
    if (m_dirty)
        schedule();
    else if (isSettled())
        emit settled();
}

void FindingsService::askPrometheus()
{
    if (!m_history || !m_history->available())
        return;
    if (m_prometheusFailed.isValid() && m_prometheusFailed.elapsed() < 60000)
        return;
    QList<HistoryService::PodRef> ask;
    for (const QString &uid : undatedIdlePods(*m_cluster, *m_telemetry)) {
        if (m_askedPrometheus.contains(uid))
            continue;
        const PodInfo *p = m_cluster->pod(uid);
        if (!p)
            continue;
        m_askedPrometheus.insert(uid);
        ask.append({uid, p->ns, p->name});
        if (ask.size() == 100)
            break; // the rest at the next computation: a query's size stays bounded
    }
    if (ask.isEmpty())
        return;
    ++m_prometheusPending;
    m_history->podsIdle(
        ask, 24 * 3600 * 1000LL, TelemetryStore::BusyPercent, this,
        [this, ask](const QHash<QString, ExternalIdle> &idle, const QString &error) {
            --m_prometheusPending;
            if (!error.isEmpty()) {
                // Asked again at a later computation: Prometheus may be back.
                m_prometheusError = error;
                m_prometheusFailed.start();
                for (const HistoryService::PodRef &p : ask)
                    m_askedPrometheus.remove(p.uid);
            } else {
                m_prometheusError.clear();
                m_prometheusFailed.invalidate();
                for (auto it = idle.cbegin(); it != idle.cend(); ++it)
                    m_external.insert(it.key(), it.value());
            }
            // Computed again with the answer (an empty or failed one too, so that whoever
            // waits for a settled result gets one).
            schedule();
        });
}

} // namespace gpudesk
