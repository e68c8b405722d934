// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "preemptionlog.h"

#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>

class QJsonObject;

namespace gpudesk {

class ClusterSession;
class ClusterStore;
class KubeClient;
struct EventInfo;
struct StoreChanges;

// Sees each preemption in the events as they come — Volcano's "Evict" ("Pod is evicted,
// because of preempt|reclaim") and kube-scheduler's "Preempted" — and finds who took the pod's
// place: the victim and its job from the API (the pod, or the pod its job made again under the
// same name), the preemptor among the pods that started on the victim's node after the eviction
// with a higher priority (preempt) or from another queue (reclaim); kube-scheduler names it by
// uid. Volcano's event never names it, and a preemptor still waiting for its victims to end is
// looked for again, every RetryMs, for at most Attempts tries. What it learns is kept on disk
// per context (events expire after an hour and die with the pod): the owner is told days later.
class PreemptionWatch : public QObject
{
    Q_OBJECT
public:
    static constexpr int RetryMs = 15000;
    static constexpr int Attempts = 40;

    PreemptionWatch(ClusterSession *session, ClusterStore *store, QObject *parent = nullptr);
    // For `--report`: one context's, its client given; what was kept for it read, the store's
    // events looked up once (a preemptor not found at once is said unknown, not waited for),
    // and nothing written (a window may be keeping the same file).
    PreemptionWatch(std::function<KubeClient *()> client, ClusterStore *store,
                    const QString &context, QObject *parent = nullptr);
    ~PreemptionWatch() override; // what is not yet on disk goes there

    PreemptionLog *log() const { return m_log; }
    // Lookups (the API's answers, the retries' waits) still out.
    int pending() const { return m_pending; }
    // Why the events that tell preemptions could not be listed (the report's); "" when they were.
    QString listError() const { return m_listError; }
    // Where a context's preemptions are kept.
    static QString filePath(const QString &context);
    // "preempt", "reclaim" or "scheduler" for an event that tells a preemption, else "".
    static QString preemptionOf(const EventInfo &event);

signals:
    // The last lookup out has ended.
    void idle();

private:
    void openContext(const QString &context);
    void lookupEnded();
    void onConnectionChanged();
    void onStoreUpdated(const StoreChanges &changes);
    void consider(const EventInfo &event);
    void readVictim(Preemption p);
    void placeVictim(Preemption p);
    static void placedBy(Preemption &p, const EventInfo &event);
    void fillVictim(Preemption &p, const QJsonObject &pod, bool samePod) const;
    void findPreemptor(Preemption p, int attempt);
    bool pickPreemptor(Preemption &p, const QByteArray &podList) const;
    void describePreemptor(Preemption &p, const QJsonObject &pod) const;
    void record(const Preemption &p);
    void save();

    ClusterSession *m_session = nullptr;
    std::function<KubeClient *()> m_client;
    ClusterStore *m_store;
    bool m_keep = true;        // written to the context's file
    int m_attempts = Attempts; // looks for a preemptor not there yet
    int m_pending = 0;
    QString m_listError;
    PreemptionLog *m_log;
    QString m_context;
    quint64 m_generation = 0;
    QSet<QString> m_seen; // victim uids looked at in this session
    QTimer m_saveLater;
};

} // namespace gpudesk
