// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobchecker.h"

#include "capacitysnapshot.h"
#include "jobrequestdecoder.h"

#include <QtConcurrent/QtConcurrentRun>

namespace gpudesk {

JobChecker::JobChecker(const ClusterStore *store, const TelemetryStore *telemetry, QObject *parent)
    : QObject(parent), m_store(store), m_telemetry(telemetry)
{
    connect(&m_watcher, &QFutureWatcher<StartVerdict>::finished, this, [this] {
        if (m_queued) {
            // A newer request came while this one ran: its answer is the one wanted.
            launch();
            return;
        }
        m_checked = m_running;
        m_verdict = m_watcher.result();
        emit ready(m_verdict);
    });
}

// A check in flight holds only its own copies: it ends on the pool, its answer unread.
JobChecker::~JobChecker()
{
    m_watcher.waitForFinished();
}

void JobChecker::check(const JobRequest &job)
{
    m_next = job;
    m_queued = true;
    if (!m_watcher.isRunning())
        launch();
}

bool JobChecker::decode(const QByteArray &json, const QString &ns, JobRequest *out, QString *error)
{
    if (!JobRequestDecoder::decode(json, out, error))
        return false;
    if (out->ns.isEmpty())
        out->ns = ns;
    return true;
}

bool JobChecker::checkJson(const QByteArray &json, const QString &ns, QString *error)
{
    JobRequest job;
    if (!decode(json, ns, &job, error))
        return false;
    check(job);
    return true;
}

void JobChecker::launch()
{
    m_queued = false;
    m_running = m_next;
    CapacitySnapshot snapshot = CapacitySnapshot::of(*m_store, m_running, m_telemetry);
    m_watcher.setFuture(QtConcurrent::run([snapshot = std::move(snapshot), job = m_running] {
        return StartCheck::check(snapshot, job);
    }));
}

} // namespace gpudesk
