// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registrytypes.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QUrl>

#include <deque>
#include <functional>

namespace gpudesk {

class RegistryClient;

struct RegistryScanProgress
{
    int repositories = 0;     // known so far
    int repositoriesDone = 0; // every tag of them listed
    int tags = 0;
    int manifests = 0;
    int pending = 0; // requests still to make
    bool catalogDone = false;
};

// What one scan found since its last batch: tags, the manifests they (and their platforms) point
// at, and image configurations, each once.
struct RegistryScanBatch
{
    QStringList repositories;
    QList<RegistryTag> tags;
    QList<RegistryManifest> manifests;
    QHash<QString, RegistryImageConfig> configs; // by config digest
};

// Walks a registry: the catalog page by page (or the repositories it is given), each
// repository's tags, each tag's manifest (an index's platform manifests too) and each image's
// configuration — at most `concurrency` requests at a time, results in batches as they come, and
// cancellable. A request that fails leaves the scan incomplete and says why; it goes on with the
// rest, so one bad repository does not hide the others.
class RegistryScan : public QObject
{
    Q_OBJECT
public:
    explicit RegistryScan(RegistryClient *client, QObject *parent = nullptr);

    void setRepositories(const QStringList &repositories); // instead of the catalog
    void setConcurrency(int requests) { m_concurrency = qMax(1, requests); }
    void setPageSize(int n) { m_pageSize = qMax(1, n); }
    void start();
    void cancel();

    bool isRunning() const { return m_running; }
    bool isComplete() const { return !m_cancelled && m_errors.isEmpty() && m_failures == 0; }
    QStringList errors() const { return m_errors; }
    RegistryScanProgress progress() const { return m_progress; }

signals:
    void batch(const gpudesk::RegistryScanBatch &batch);
    void progressed(const gpudesk::RegistryScanProgress &progress);
    // complete: every request answered; otherwise `errors` says what is missing.
    void finished(bool complete, const QStringList &errors);

private:
    void enqueue(std::function<void()> job, bool coarse = false);
    void pump();
    void done();
    void fail(const QString &error);
    void flush();
    void catalogPage(const QUrl &next);
    void tagsPage(const QString &repository, const QUrl &next);
    void manifest(const QString &repository, const QString &reference, bool tagged);
    void config(const QString &repository, const QString &digest);

    RegistryClient *m_client;
    QPointer<QObject> m_context;
    QStringList m_given;
    std::deque<std::function<void()>> m_fine, m_coarse;
    int m_inFlight = 0;
    int m_concurrency = 8;
    int m_pageSize = 100;
    bool m_running = false;
    bool m_cancelled = false;
    QSet<QString> m_seenManifests, m_seenConfigs;
    QHash<QString, int> m_openTagLists; // repository -> pages still to come
    RegistryScanProgress m_progress;
    RegistryScanBatch m_pending;
    QTimer m_flush;
    QStringList m_errors;
    int m_failures = 0;
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::RegistryScanBatch)
Q_DECLARE_METATYPE(gpudesk::RegistryScanProgress)
