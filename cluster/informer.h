// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "collectionstatus.h"
#include "delta.h"
#include "lineframer.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

class QNetworkReply;

namespace gpudesk {

class KubeClient;
struct KubeReply;
struct InformerPage;

// Keeps one Kubernetes collection in sync, as client-go's reflector does: a paged list, then a
// watch from the list's resourceVersion with bookmarks; 410 Gone (or a resourceVersion the
// server has not reached) relists; a dropped stream resumes from the last version seen, after a
// capped exponential back-off with jitter. Pages and event lines are decoded on worker threads,
// one batch at a time and in order, so a fast stream coalesces into larger batches instead of
// queueing work. Lives on the UI thread; never blocks it.
class Informer : public QObject
{
    Q_OBJECT
public:
    // `version`: the one discovery found served ("" for the preferred one).
    Informer(KubeClient *client, Resource resource, const QString &version = {},
             QObject *parent = nullptr);
    ~Informer() override;

    // One watch event is one object, which the API server keeps under 1.5 MB: a line this long
    // without its end is a broken stream, not an event to wait for.
    static constexpr qsizetype MaxWatchLineBytes = 16 << 20;

    // Where cluster-wide listing is forbidden, list this namespace instead (the context's).
    void setFallbackNamespace(const QString &ns) { m_fallbackNamespace = ns; }
    void start();
    void stop();
    // Drops the watch stream as a broken network would (for tests and "Reconnect").
    void dropStream();

    Resource resource() const { return m_resource; }
    QString version() const { return m_version; }
    void setVersion(const QString &version) { m_version = version; }
    // Marks the kind as not served by this cluster (discovery found no version of it); the
    // informer then never lists and counts as synced.
    void setUnavailable(const QString &why);
    const InformerStatus &status() const { return m_status; }
    bool hasSynced() const { return m_synced; }
    // How long the watch may be silent (no event, no bookmark) before the server is checked:
    // twice the bookmark cadence this server has shown, plus slack; until it has shown one, a
    // bound that fits the API server's own (a bookmark a minute).
    int livenessWindowMs() const;
    QString resourceVersion() const { return m_rv; }

signals:
    void delta(const gpudesk::Delta &delta);
    // The first complete list, or the informer gave up on this kind (404 / 403).
    void synced();
    void statusChanged();

private:
    void list(const QString &continueToken);
    void onListPage(const KubeReply &reply, quint64 generation, bool continued);
    void watch();
    void closeWatch();
    void onWatchReadyRead();
    void onWatchFinished(QNetworkReply *reply, quint64 generation);
    void decodeNext();
    void noteActivity(const QList<QByteArray> &newLines);
    void checkLiveness();
    void relist();
    void onPageDecoded(quint64 generation);
    void dropPages();
    void retry(const QString &error, bool serverUnreachable = false);
    void setState(InformerStatus::State state, const QString &error = {});
    void markSynced();
    QString path() const;

    KubeClient *m_client;
    Resource m_resource;
    QString m_version;
    QString m_fallbackNamespace;
    QString m_namespace;         // "" = cluster-wide
    QNetworkAccessManager m_nam; // its own: a long watch must not take one of the client's slots
    QPointer<QNetworkReply> m_watch;
    QTimer m_retryTimer;
    // Liveness: restarted by every byte of the watch; on expiry the server is asked /version
    // on a fresh connection (m_checkNam), so that a dead stream and a dead server are told
    // apart.
    QTimer m_liveness;
    std::unique_ptr<QNetworkAccessManager> m_checkNam;
    QPointer<QNetworkReply> m_check;
    QElapsedTimer m_clock;
    QDateTime m_lastActivity;
    qint64 m_lastBookmarkMs = 0;  // monotonic, of the last bookmark (or of the watch's start)
    qint64 m_watchStartMs = 0;    // monotonic, of the current watch's request
    QList<qint64> m_bookmarkGaps; // the last few intervals between bookmarks
    InformerStatus m_status;
    Delta m_listing;                               // pages of a list in progress
    QList<QFutureWatcher<InformerPage> *> m_pages; // decoding, in the order they were asked for
    QStringList m_ahead; // continue tokens asked for before their page's predecessor decoded
    QString m_rv;
    LineFramer m_framer{MaxWatchLineBytes}; // the watch stream, cut into its events
    QList<QByteArray> m_lines;
    quint64 m_generation = 0; // bumped on relist/stop: stale async results are dropped
    int m_attempt = 0;
    // The server expired a list's continue token (410): as client-go's pager, the next list is
    // one unpaged request. Counts the expiries in a row, for the back-off and the bound.
    int m_expired = 0;
    bool m_unpaged = false;
    bool m_decoding = false;
    bool m_streamEnded = false;
    bool m_synced = false;
    bool m_running = false;
};

} // namespace gpudesk
