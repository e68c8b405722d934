// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "diagnosis.h"

#include <QHash>
#include <QObject>
#include <QSet>

namespace gpudesk {

struct PodInfo;

// What the job doctor found for each pod of this context, by pod uid: read by the Workloads
// page's Why, the object viewer's Diagnosis tab and the report. A diagnosis holds for the pod
// as it was (its stamp: phase, status, restarts); one whose pod changed since is stale and made
// again.
class ClusterStore;

class DiagnosisBook : public QObject
{
    Q_OBJECT
public:
    struct Entry
    {
        QString uid;
        QString ns;
        QString pod;
        QString stamp;
        QList<Diagnosis> diagnoses; // the cause first
        QString error;              // why the pod could not be diagnosed ("" when it was)
        // Asked how it runs (its log's head, the running rules), not why it failed; its job's
        // nodes then.
        bool running = false;
        QStringList jobNodes;
    };

    explicit DiagnosisBook(QObject *parent = nullptr);

    const Entry *entry(const QString &podUid) const;
    // The cause for a pod whose diagnosis still holds (null when none, or stale).
    const Diagnosis *cause(const PodInfo &pod) const;
    bool holds(const PodInfo &pod) const;
    QList<const Entry *> entries() const;
    void put(Entry entry);
    void remove(const QString &podUid);
    void clear(); // context switch

    // The causes found, by class, most pods first: what the admin fixes in the platform ("7
    // jobs failed on shared memory"). A job is its namespace/owner (a bare pod: its name).
    struct ClassCount
    {
        QString cls;
        // The class's title ("Shared memory too small"); for a class the rules give no title,
        // its first pod's diagnosis line.
        QString title;
        QString responsible;
        int pods = 0;
        QStringList jobs; // sorted
    };
    QList<ClassCount> byClass(const ClusterStore &store) const;

    // Why a job waits, at the job's level (the submit check asked of what it still needs:
    // its queue full and by whom, its gang not placeable, over quota, bigger than any node),
    // by workload key: what the Workloads page says beside the scheduler's words.
    struct Wait
    {
        QString title; // one line
        QString tip;   // the reason in full, its fix
        QString code;  // the submit check's code (docs/submit.md)
    };
    const Wait *wait(const QString &workloadKey) const;
    void putWait(const QString &workloadKey, const Wait &wait);
    void removeWait(const QString &workloadKey);
    QStringList waitKeys() const { return m_waits.keys(); }

    // A pod the doctor has something to say about: failed, or a container that crash-loops,
    // cannot pull its image or cannot start.
    static bool troubled(const PodInfo &pod);
    static QString stampOf(const PodInfo &pod);

signals:
    void changed(const QSet<QString> &podUids);
    void waitsChanged(const QSet<QString> &workloadKeys);
    void cleared();

private:
    QHash<QString, Entry> m_entries;
    QHash<QString, Wait> m_waits;
};

} // namespace gpudesk
