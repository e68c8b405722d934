// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nascleanup.h"
#include "storagehistory.h"
#include "storagemeter.h"
#include "storageusage.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace gpudesk {

class ClusterSession;

// The NAS of the current context, as the Storage page, the alerts and the report read it: the
// last measure of each root (kept in the data directory with its date, so a new window shows
// it at once) and the history growth is read from. Walks the NAS over SSH on its own when the
// last measure is older than the admin's interval, and when asked — one walk at a time.
class StorageService : public QObject
{
    Q_OBJECT
public:
    explicit StorageService(ClusterSession *session, QObject *parent = nullptr);
    ~StorageService() override;

    const QList<StorageRootMeasure> &measures() const { return m_measures; }
    const StorageHistory &history() const { return m_history; }
    bool isMeasuring() const;
    // What the last walks show no one needs (NasCleanup::find), judged with the cluster's
    // users as the store holds them now (none when the namespaces could not be listed whole).
    NasCleanupFound cleanupCandidates(const NasCleanupOptions &options) const;
    // The cluster's jobs and pods by user and those that run anywhere, for the job outputs'
    // class; none while a kind is not listed whole. Worked out once until the store or the
    // collections change (every pod is read: the Cleanup tab asks again on each tick of its
    // day bounds).
    std::optional<ClusterJobs> clusterJobs() const;
    // Why measuring cannot run now ("" when it can): no SSH to the nodes, no context.
    QString unavailableReason() const;

    // The node the NAS is walked and browsed on, per context ("" the first that answers; it is
    // AppSettings::storage's), and the nodes there are to choose from: those gpudesk reaches
    // over SSH, sorted.
    QString node() const;
    void setNode(const QString &node);
    QStringList nodes() const;

    // The roots to walk for a context (AppSettings::storage).
    static QList<StorageMeter::Root> roots(const QString &context);
    // Whether a root's last walk (or try) is older than the admin's interval.
    static bool due(const QList<StorageRootMeasure> &measures, const QString &root, qint64 lastTry,
                    qint64 nowMs);
    // Each root's new measure replaces its last; a failed walk keeps the last figures, with
    // their own date, and says why it failed. The complete ones go into the history.
    static void merge(QList<StorageRootMeasure> &measures, StorageHistory &history,
                      const QList<StorageRootMeasure> &fresh);
    // The cache of a context: the last measures and the history (schema: storagejson).
    static QString cachePath(const QString &context);
    static bool loadCache(const QString &path, QList<StorageRootMeasure> *measures,
                          StorageHistory *history);
    static bool saveCache(const QString &path, const QList<StorageRootMeasure> &measures,
                          const StorageHistory &history, QString *error);

public slots:
    void measureNow();
    void cancel();

signals:
    void updated();
    void measuringChanged(bool measuring);
    // As the walk goes: the root, entries and bytes counted so far.
    void progress(const QString &root, qint64 entries, qint64 bytes);

private:
    void onConnectionChanged();
    void checkDue();
    void onMeasured(const QList<StorageRootMeasure> &measures);
    std::optional<ClusterJobs> readClusterJobs() const;

    ClusterSession *m_session;
    QString m_context;
    QList<StorageRootMeasure> m_measures;
    StorageHistory m_history;
    QHash<QString, qint64> m_triedAt; // by root: the last walk, failed or not
    QPointer<StorageMeter> m_meter;
    QTimer m_due;
    mutable std::optional<ClusterJobs> m_jobs;
    mutable bool m_jobsKnown = false; // m_jobs is the store's now
};

} // namespace gpudesk
