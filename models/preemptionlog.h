// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QObject>
#include <QSet>

namespace gpudesk {

// One pod evicted to make room for another: Volcano's preempt or reclaim ("Pod is evicted,
// because of preempt"), or kube-scheduler's ("Preempted by pod UID on node NODE"). Kept after
// the pod, its events and even its job are gone: the owner asks days later who took the GPUs.
struct Preemption
{
    QString victimUid;
    QString ns;
    QString pod;
    QString workload; // its job's uid (ClusterStore::workloadKey), "" for a bare pod
    QString job;      // the job's name ("" for a bare pod)
    QString user;
    QString vc; // its queue
    QString node;
    int priority = 0;
    QString priorityClass;
    qint64 at = 0;     // the eviction (the event's first time), ms since the epoch
    qint64 ranMs = -1; // how long it had run then; -1 when unknown
    QString how;       // "preempt", "reclaim" or "scheduler" (kube-scheduler)
    QString message;   // the event's words

    // Who took its place, once seen: the pod that started on its node after it, of higher
    // priority (preempt, scheduler) or of another queue (reclaim).
    QString byNs;
    QString byPod;
    QString byJob;
    QString byUser;
    QString byVc;
    int byPriority = 0;
    QString byPriorityClass;
    // Why no preemptor is named: not visible with the user's rights, or none started there.
    QString unknownWhy;

    bool named() const { return !byPod.isEmpty(); }
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &o, Preemption *out);
};

// What gpudesk saw of preemptions in this context, by victim pod uid. Bounded: at most
// MaxRecords, none older than MaxAgeMs.
class PreemptionLog : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxRecords = 5000;
    static constexpr qint64 MaxAgeMs = 30LL * 24 * 3600 * 1000;

    explicit PreemptionLog(QObject *parent = nullptr);

    // The pointers these return hold until the next put(), load() or clear().
    const Preemption *forPod(const QString &victimUid) const;
    // The newest preemption of the job's pods (null when none).
    const Preemption *latestFor(const QString &workload) const;
    QList<const Preemption *> records() const;
    void put(const Preemption &p);
    void clear(); // context switch

    QJsonArray toJson() const;
    // Replaces the records with those in `array` that are still young enough at `nowMs`.
    void load(const QJsonArray &array, qint64 nowMs);

    // "Preempted by wangfang's seg-deadline (queue cv, priority class high-priority, 1000)
    // 30 min ago, after 7 h 32 min running on g4090-03".
    static QString describe(const Preemption &p, qint64 nowMs);

signals:
    void changed(const QSet<QString> &workloads);
    void cleared();

private:
    void trim(qint64 nowMs);

    QHash<QString, Preemption> m_records;
    QHash<QString, QSet<QString>> m_byWorkload;
};

} // namespace gpudesk
