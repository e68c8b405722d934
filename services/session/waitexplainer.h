// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

namespace gpudesk {

class ClusterStore;
class DiagnosisBook;
class TelemetryStore;
struct StartVerdict;
struct StoreChanges;

// Why each job that waits waits, at the job's level, for the Workloads page's Reason: what it
// still needs (WaitingJob) asked of the submit check (StartCheck), the one code for both — its
// queue full and by whom, its gang not placeable with the free cards per node, over quota,
// bigger than any node, jobs ahead. One job at a time, a slice every SliceMs: the cluster's copy
// (about 10 ms at 100,000 pods: 2 % of this thread) is taken here, the check runs on a worker;
// the newest MaxJobs waiting jobs, a job that starts waiting first, a round at most every
// AgainMs (a round of 200 jobs takes 100 s). What it finds goes to the book.
class WaitExplainer : public QObject
{
    Q_OBJECT
public:
    static constexpr int SliceMs = 500;
    static constexpr int AgainMs = 60000;
    static constexpr int MaxJobs = 200;

    WaitExplainer(ClusterStore *store, DiagnosisBook *book, QObject *parent = nullptr);
    void setTelemetry(const TelemetryStore *telemetry) { m_telemetry = telemetry; }
    void setEnabled(bool on);
    // The verdict's one line for the Reason column, and the rest for its tooltip (what a verdict
    // that says the job fits now says: the scheduler's next pass). Empty title: nothing to add.
    static QString titleOf(const StartVerdict &verdict, bool approximate, QString *tip,
                           QString *code);
    bool idle() const { return m_queue.isEmpty() && !m_running; }

signals:
    void drained(); // every waiting job asked

private:
    void onStoreUpdated(const StoreChanges &changes);
    void refill();
    void next();

    ClusterStore *m_store;
    DiagnosisBook *m_book;
    const TelemetryStore *m_telemetry = nullptr;
    QTimer m_slice;
    QTimer m_again;
    QStringList m_queue;
    QSet<QString> m_queued;
    bool m_running = false;
    bool m_enabled = false;
    quint64 m_generation = 0;
};

} // namespace gpudesk
