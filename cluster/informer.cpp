// SPDX-License-Identifier: GPL-3.0-or-later
#include "informer.h"

#include "decoder.h"
#include "kubeclient.h"
#include "listhead.h"

#include <QFutureWatcher>

#include <QLoggingCategory>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QUrlQuery>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

Q_LOGGING_CATEGORY(lcInformer, "gpudesk.informer")

namespace gpudesk {

namespace {

// Decoding yields the CPU to the UI thread. When the cores are busy (in the benchmark, the API
// server's churn runs on the same two), a decoding thread otherwise holds a core while the UI
// thread waits for one: 80 ms stalls of which 2 ms were the UI thread's own work. Linux keeps
// a niceness per thread; a pool thread keeps it for the later tasks it runs, all background.
void yieldToUiThread()
{
#ifdef Q_OS_LINUX
    static thread_local bool lowered = false;
    if (!lowered) {
        lowered = true;
        setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), 5);
    }
#endif
}

constexpr int kPageSize = 500;
// Lists whose continue token expired, in a row, before the informer gives up until F5.
constexpr int kMaxExpiredLists = 5;
constexpr int kMaxBackoffMs = 30000;
// Watch events decoded and applied together at most (a few milliseconds of store work).
constexpr qsizetype kMaxEventsPerBatch = 2000;
constexpr qint64 kWatchReadAheadBytes = 1 << 20;
// A cut stream younger than this is not resumed at once but retried with back-off.
constexpr qint64 kCutStreamMinLifeMs = 1000;
// Liveness of a watch. The API server sends a bookmark about once a minute to a watch that
// asked for them (the simulator every 5 s); silence for twice that is a dead stream or a dead
// server. Bounded so that a fast cadence still allows a busy server a moment, and a slow one
// does not leave the figures stale for minutes.
constexpr qint64 kMinLivenessMs = 10000;
constexpr qint64 kMaxLivenessMs = 150000;
constexpr qint64 kLivenessSlackMs = 5000;
constexpr qsizetype kBookmarkGapsKept = 4;
// The check of a silent server: a small request on a fresh connection.
constexpr int kLivenessCheckMs = 5000;

struct WatchResult
{
    Delta delta;
    WatchProgress progress;
};

// Pages decoding at once in a list; the next page is fetched ahead only while fewer are.
constexpr qsizetype kPagesDecodingAhead = 2;

// The server says the version we hold cannot be watched from: start over with a list.
bool needsRelist(int code, const QString &message)
{
    return code == 410 || message.startsWith(QLatin1String("Too large resource version"));
}

} // namespace

struct InformerPage
{
    Delta delta;
    DecodedPage<int> page;
    qint64 remaining = -1; // the server's count of what follows the page (-1: not said)
};

Informer::Informer(KubeClient *client, Resource resource, const QString &version, QObject *parent)
    : QObject(parent), m_client(client), m_resource(resource),
      m_version(version.isEmpty() ? defaultVersion(resource) : version)
{
    m_status.resource = resource;
    client->attach(&m_nam);
    m_clock.start();
    m_liveness.setSingleShot(true);
    connect(&m_liveness, &QTimer::timeout, this, &Informer::checkLiveness);
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, [this] {
        // Resume from where the stream broke; only a 410 makes it list again.
        if (m_synced && !m_rv.isEmpty())
            watch();
        else
            relist();
    });
}

Informer::~Informer()
{
    stop();
}

QString Informer::path() const
{
    return resourcePath(m_resource, m_namespace, m_version);
}

void Informer::setUnavailable(const QString &why)
{
    m_running = false;
    setState(InformerStatus::Unavailable, why);
    markSynced();
}

void Informer::start()
{
    m_running = true;
    relist();
}

void Informer::stop()
{
    m_running = false;
    ++m_generation;
    dropPages();
    m_retryTimer.stop();
    m_liveness.stop();
    closeWatch();
    m_lines.clear();
    m_framer.clear();
}

void Informer::closeWatch()
{
    m_liveness.stop();
    if (m_check) {
        m_check->disconnect(this);
        m_check->abort();
        m_check->deleteLater();
    }
    if (!m_watch)
        return;
    // Disconnected first: a stream we close on purpose must not be reported as broken.
    m_watch->disconnect(this);
    m_watch->abort();
    m_watch->deleteLater();
    m_watch = nullptr;
}

void Informer::dropStream()
{
    if (m_watch)
        m_watch->abort();
}

void Informer::setState(InformerStatus::State state, const QString &error)
{
    if (m_status.state != state)
        m_status.since = QDateTime::currentDateTimeUtc();
    if (state != InformerStatus::Retrying)
        m_status.serverUnreachable = false;
    m_status.state = state;
    if (!error.isEmpty() || state == InformerStatus::Live)
        m_status.error = error;
    m_status.scope = m_namespace;
    emit statusChanged();
}

void Informer::markSynced()
{
    if (m_synced)
        return;
    m_synced = true;
    emit synced();
}

void Informer::relist()
{
    ++m_generation;
    dropPages();
    closeWatch();
    m_lines.clear();
    m_framer.clear();
    m_streamEnded = false; // the list's own watch follows it
    m_listing = Delta{};
    m_listing.resource = m_resource;
    m_listing.relist = true;
    m_status.listed = 0; // the last list's figures are not this one's
    m_status.expected = -1;
    setState(InformerStatus::Syncing);
    list({});
}

void Informer::list(const QString &continueToken)
{
    if (continueToken.isEmpty()) { // a list from its start: its progress too
        m_status.listed = 0;
        m_status.expected = -1;
    }
    QUrlQuery q;
    if (!m_unpaged)
        q.addQueryItem(QStringLiteral("limit"), QString::number(kPageSize));
    if (!continueToken.isEmpty())
        q.addQueryItem(QStringLiteral("continue"), continueToken);
    const quint64 generation = m_generation;
    const bool continued = !continueToken.isEmpty();
    const QString query = q.toString(QUrl::FullyEncoded);
    m_client->get(path() + (query.isEmpty() ? QString() : u'?' + query), this,
                  [this, generation, continued](const KubeReply &r) {
                      onListPage(r, generation, continued);
                  });
}

void Informer::onListPage(const KubeReply &reply, quint64 generation, bool continued)
{
    if (generation != m_generation || !m_running)
        return;
    if (!reply.error.isEmpty()) {
        dropPages(); // pages before it that still decode: the list is not finished this way
        if (reply.httpStatus == 404) {
            // The API group is not installed: a fact about the cluster, not a failure.
            setState(InformerStatus::Unavailable, reply.error);
            markSynced();
            return;
        }
        if (reply.httpStatus == 403 && m_namespace.isEmpty() && !m_fallbackNamespace.isEmpty() &&
            resourceInfo(m_resource).namespaced()) {
            qCDebug(lcInformer) << resourceName(m_resource) << "cluster-wide list denied; using"
                                << m_fallbackNamespace;
            m_namespace = m_fallbackNamespace;
            relist();
            return;
        }
        if (reply.httpStatus == 403) {
            setState(InformerStatus::Forbidden, reply.error);
            markSynced();
            return;
        }
        if (reply.httpStatus == 410) {
            // The continue token expired mid-list (the server compacted past it). client-go's
            // pager then lists once without paging; a server that answers 410 again, or to a
            // first page, is retried with back-off and given up on after a bound, instead of
            // relisting hundreds of times a second.
            ++m_expired;
            const QString error =
                tr("the server expired the list (410 Gone)%1: %2")
                    .arg(continued ? tr(" while paging") : QString(), reply.error);
            if (m_expired > kMaxExpiredLists) {
                setState(InformerStatus::Failed,
                         tr("%1; gave up after %2 lists in a row (F5 tries again)")
                             .arg(error)
                             .arg(m_expired));
                return;
            }
            m_unpaged = true;
            if (continued && m_expired == 1) {
                relist();
                return;
            }
            m_rv.clear(); // the retry lists again instead of watching from a version now gone
            retry(error);
            return;
        }
        retry(reply.error, reply.connectionFailed);
        return;
    }
    auto *watcher = new QFutureWatcher<InformerPage>(this);
    connect(watcher, &QFutureWatcher<InformerPage>::finished, this,
            [this, generation] { onPageDecoded(generation); });
    const Resource resource = m_resource;
    watcher->setFuture(QtConcurrent::run([resource, body = reply.body] {
        yieldToUiThread();
        InformerPage r;
        r.page = Decoder::list(resource, body, &r.delta);
        r.remaining = ListHead::read(body).remaining;
        return r;
    }));
    m_pages.append(watcher);
    // The next page is fetched while this one decodes (on another core), when the list's head
    // names it: a sync then takes about the longer of fetching and decoding, not their sum.
    // Checked against the token the decoder reads (onPageDecoded).
    if (m_ahead.isEmpty() && m_pages.size() <= kPagesDecodingAhead) {
        if (const QString next = ListHead::continueToken(reply.body); !next.isEmpty()) {
            m_ahead.append(next);
            list(next);
        }
    }
}

void Informer::dropPages()
{
    for (QFutureWatcher<InformerPage> *w : std::as_const(m_pages)) {
        w->disconnect(this);
        w->deleteLater(); // its decoding finishes unseen
    }
    m_pages.clear();
    m_ahead.clear();
}

// Pages are taken in the order they were asked for, whichever finished decoding first.
void Informer::onPageDecoded(quint64 generation)
{
    if (generation != m_generation || !m_running)
        return;
    while (!m_pages.isEmpty() && m_pages.first()->isFinished()) {
        QFutureWatcher<InformerPage> *watcher = m_pages.takeFirst();
        watcher->deleteLater();
        // Taken, not copied: the watcher would otherwise keep the page until it is deleted.
        InformerPage result = watcher->future().takeResult();
        if (!result.page.error.isEmpty()) {
            setState(InformerStatus::Failed, result.page.error);
            retry(result.page.error);
            return;
        }
        if (m_resource == Resource::Pods) {
            // Pods, the bulk of a cluster, go to the store page by page: it fills (and the
            // figures show) while the rest arrives, and the list is never held whole twice
            // (here and in the store). The relist at the end names them (Delta::listed).
            Delta page = std::move(result.delta);
            m_status.listed += page.items<PodInfo>().size();
            for (const PodInfo &p : page.items<PodInfo>())
                m_listing.listed.append(p.uid);
            page.resource = m_resource;
            if (!page.isEmpty())
                emit delta(page);
            if (generation != m_generation || !m_running)
                return; // a receiver stopped or restarted this informer
        } else {
            m_status.listed += result.delta.size();
            m_listing.append(std::move(result.delta));
        }
        // Determinate where the server says what is left (a paged list without selectors): the
        // window's progress per collection. An estimate under change: never below what came.
        if (result.remaining >= 0)
            m_status.expected = m_status.listed + result.remaining;
        else if (m_status.expected >= 0)
            m_status.expected = std::max(m_status.expected, m_status.listed);
        const QString &next = result.page.continueToken;
        if (!next.isEmpty()) {
            emit statusChanged();
            if (generation != m_generation || !m_running)
                return; // a receiver stopped or restarted this informer
        }
        if (!m_ahead.isEmpty()) {
            if (m_ahead.first() != next) {
                // The head said another token than the whole page (a server that repeats its
                // metadata after the items): the page fetched ahead is not the next one.
                qCWarning(lcInformer)
                    << resourceName(m_resource) << "a list's head and body disagree; listing again";
                relist();
                return;
            }
            m_ahead.removeFirst();
            continue;
        }
        if (!next.isEmpty()) {
            list(next);
            continue;
        }
        m_rv = result.page.resourceVersion;
        m_status.objects = int(m_listing.size() + m_listing.listed.size());
        m_status.listed = m_status.expected = m_status.objects;
        ++m_status.relists;
        m_attempt = 0;
        m_expired = 0;
        m_unpaged = false;
        m_listing.scope = m_namespace;
        Delta complete = std::move(m_listing);
        m_listing = Delta{};
        emit delta(complete);
        // Current as of the list; the watch carries it on (Retrying if it cannot).
        setState(InformerStatus::Live);
        markSynced();
        watch();
        return;
    }
}

void Informer::watch()
{
    if (!m_running)
        return;
    closeWatch();
    m_framer.clear();
    m_streamEnded = false;
    // As client-go: a random server-side timeout between 5 and 10 minutes spreads reconnects.
    const int timeoutSeconds = 300 + int(QRandomGenerator::global()->bounded(300));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("watch"), QStringLiteral("1"));
    q.addQueryItem(QStringLiteral("allowWatchBookmarks"), QStringLiteral("true"));
    q.addQueryItem(QStringLiteral("resourceVersion"), m_rv);
    q.addQueryItem(QStringLiteral("timeoutSeconds"), QString::number(timeoutSeconds));
    QNetworkRequest req = m_client->request(path() + u'?' + q.toString(QUrl::FullyEncoded));
    // Inactivity limit: servers send bookmarks well within this; silence this long is a dead link.
    req.setTransferTimeout((timeoutSeconds + 60) * 1000);
    QNetworkReply *reply = m_nam.get(req);
    // Qt reads ahead of us by at most this much: a server sending faster than this thread
    // takes it in (a storm of events, or one endless line) is held back by TCP, instead of
    // queueing data without bound and starving every other socket of this thread.
    reply->setReadBufferSize(kWatchReadAheadBytes);
    m_watch = reply;
    // The watch's start counts as a bookmark: the server's first comes one cadence later.
    m_lastBookmarkMs = m_watchStartMs = m_clock.elapsed();
    m_liveness.start(livenessWindowMs());
    const quint64 generation = m_generation;
    connect(reply, &QNetworkReply::readyRead, this, [this, reply, generation] {
        if (generation == m_generation && reply == m_watch)
            onWatchReadyRead();
    });
    connect(reply, &QNetworkReply::metaDataChanged, this, [this, reply, generation] {
        // Live once the server accepted the watch, not when it was merely asked for.
        if (generation == m_generation &&
            reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200) {
            m_lastActivity = QDateTime::currentDateTimeUtc();
            m_liveness.start(livenessWindowMs());
            setState(InformerStatus::Live);
        }
    });
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, generation] { onWatchFinished(reply, generation); });
}

void Informer::onWatchReadyRead()
{
    const qsizetype before = m_lines.size();
    const bool bounded = m_framer.append(m_watch->readAll(), &m_lines);
    noteActivity(m_lines.mid(before));
    if (!bounded) {
        // What was buffered is gone; the new watch starts from the last version applied, so
        // nothing is lost or applied twice.
        retry(tr("the watch sent an event of more than %1 MiB without its end: stopped reading "
                 "it, watching again")
                  .arg(MaxWatchLineBytes >> 20));
        return;
    }
    decodeNext();
}

int Informer::livenessWindowMs() const
{
    if (m_bookmarkGaps.isEmpty())
        return int(kMaxLivenessMs);
    const qint64 cadence = *std::max_element(m_bookmarkGaps.begin(), m_bookmarkGaps.end());
    return int(std::clamp(2 * cadence + kLivenessSlackMs, kMinLivenessMs, kMaxLivenessMs));
}

void Informer::noteActivity(const QList<QByteArray> &newLines)
{
    m_lastActivity = QDateTime::currentDateTimeUtc();
    // The cadence is measured where the bytes arrive, not where they are decoded (a backlog
    // would stretch it). A bookmark is the one event the server sends on a quiet collection.
    for (const QByteArray &line : newLines) {
        if (!line.contains(R"("type":"BOOKMARK")"))
            continue;
        const qint64 now = m_clock.elapsed();
        m_bookmarkGaps.append(now - m_lastBookmarkMs);
        if (m_bookmarkGaps.size() > kBookmarkGapsKept)
            m_bookmarkGaps.removeFirst();
        m_lastBookmarkMs = now;
    }
    m_liveness.start(livenessWindowMs());
}

void Informer::checkLiveness()
{
    if (!m_watch || m_check)
        return;
    const quint64 generation = m_generation;
    const int silentMs = livenessWindowMs();
    // A fresh connection: the watch's own may be the only thing that is dead.
    m_checkNam = std::make_unique<QNetworkAccessManager>();
    m_client->attach(m_checkNam.get());
    QNetworkRequest req = m_client->request(QStringLiteral("/version"));
    req.setTransferTimeout(kLivenessCheckMs);
    QNetworkReply *check = m_checkNam->get(req);
    m_check = check;
    connect(check, &QNetworkReply::finished, this, [this, check, generation, silentMs] {
        check->deleteLater();
        if (generation != m_generation || !m_running)
            return;
        if (check->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() > 0) {
            // The server answers; this stream had gone silent (a proxy or NAT that dropped it
            // without a word). Watch again from the last version applied: nothing is lost.
            qCDebug(lcInformer) << resourceName(m_resource) << "watch silent for" << silentMs
                                << "ms while the server answers: watching again";
            watch();
            return;
        }
        const QDateTime silentSince = m_lastActivity;
        const QString promise =
            m_bookmarkGaps.isEmpty()
                ? tr("no bookmark came yet")
                : tr("it sends one every %1 s")
                      .arg((*std::max_element(m_bookmarkGaps.begin(), m_bookmarkGaps.end()) + 500) /
                           1000);
        retry(tr("%1 sent no event and no bookmark for %2 s (%3) and did not answer a check "
                 "within %4 s: the API server is not responding")
                  .arg(m_client->endpoint().server)
                  .arg(silentMs / 1000)
                  .arg(promise)
                  .arg(kLivenessCheckMs / 1000),
              true);
        // Stale since the last thing the server said, not since the check gave up.
        if (silentSince.isValid())
            m_status.since = silentSince;
        emit statusChanged();
    });
}

void Informer::onWatchFinished(QNetworkReply *reply, quint64 generation)
{
    if (reply == m_watch)
        m_watch = nullptr;
    reply->deleteLater();
    if (generation != m_generation || !m_running)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    // A stream the server (or a proxy) cut after it had run a while: watched again at once from
    // where it got to, as client-go does, without calling the collection stale. Whether the
    // server is gone is told by that next request (refused: the server's failure, said once as
    // the server's), not guessed from one stream. A stream cut as soon as it starts takes the
    // back-off below, so a server that keeps doing so is not hammered.
    const bool cut = reply->error() == QNetworkReply::RemoteHostClosedError && status == 200;
    const bool ranAWhile = m_clock.elapsed() - m_watchStartMs >= kCutStreamMinLifeMs;
    if (reply->error() == QNetworkReply::NoError || (cut && ranAWhile)) {
        if (m_framer.append(reply->readAll(), &m_lines)) {
            const QByteArray last = m_framer.finish();
            if (!last.isEmpty())
                m_lines.append(last);
        }
        // A normal end (the server's timeout) or a cut: watch again once what came is applied.
        if (cut)
            qCDebug(lcInformer) << resourceName(m_resource) << "watch cut; watching again";
        m_streamEnded = true;
        decodeNext();
        return;
    }
    const QByteArray body = reply->readAll();
    const QString server = statusMessage(body);
    const QString error = server.isEmpty() ? m_client->describeError(reply) : server;
    if (needsRelist(status, error)) {
        relist();
        return;
    }
    if (status == 403 || status == 404) {
        setState(status == 403 ? InformerStatus::Forbidden : InformerStatus::Unavailable, error);
        return;
    }
    if (status == 401)
        m_client->unauthorized(); // renewed credentials are picked up by the retry
    retry(error, status == 0 || cut);
}

void Informer::decodeNext()
{
    if (m_decoding)
        return;
    if (m_lines.isEmpty()) {
        if (m_streamEnded && !m_watch) {
            m_streamEnded = false;
            watch();
        }
        return;
    }
    m_decoding = true;
    const quint64 generation = m_generation;
    auto *watcher = new QFutureWatcher<WatchResult>(this);
    connect(watcher, &QFutureWatcher<WatchResult>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        m_decoding = false;
        if (generation != m_generation || !m_running) {
            // A batch of a stream given up on: dropped. Lines of the stream that replaced it
            // may be waiting behind it (decodeNext turned them away while this one ran), and
            // on a quiet collection no new byte would come to take them in for a minute.
            if (m_running)
                decodeNext();
            return;
        }
        WatchResult result = watcher->future().takeResult();
        if (!result.progress.resourceVersion.isEmpty())
            m_rv = result.progress.resourceVersion;
        if (!result.delta.isEmpty()) {
            m_attempt = 0;
            emit delta(result.delta);
        }
        if (result.progress.errorCode != 0) {
            if (needsRelist(result.progress.errorCode, result.progress.errorMessage)) {
                qCDebug(lcInformer)
                    << resourceName(m_resource) << "relists:" << result.progress.errorMessage;
                relist();
            } else {
                retry(result.progress.errorMessage);
            }
            return;
        }
        decodeNext();
    });
    Delta batch;
    batch.resource = m_resource;
    // A decoded batch is applied to the store in one go on the UI thread: a backlog (a burst,
    // or lines that piled up while the thread was busy) is taken in bounded bites.
    QList<QByteArray> lines;
    if (m_lines.size() <= kMaxEventsPerBatch) {
        lines = std::exchange(m_lines, {});
    } else {
        lines = m_lines.first(kMaxEventsPerBatch);
        m_lines.remove(0, kMaxEventsPerBatch);
    }
    watcher->setFuture(
        QtConcurrent::run([resource = m_resource, lines = std::move(lines), batch]() mutable {
            yieldToUiThread();
            WatchResult r{std::move(batch), {}};
            r.progress = Decoder::watchEvents(resource, lines, &r.delta);
            return r;
        }));
}

void Informer::retry(const QString &error, bool serverUnreachable)
{
    ++m_generation;
    dropPages();
    closeWatch();
    m_lines.clear();
    m_streamEnded = false; // the retry timer starts what comes next
    // Capped exponential back-off with ±20 % jitter, so a restarted API server is not hit by
    // every client at the same instant.
    const double base =
        std::min<double>(kMaxBackoffMs, 800.0 * double(1 << std::min(m_attempt, 6)));
    const double jitter = 0.8 + 0.4 * QRandomGenerator::global()->generateDouble();
    ++m_attempt;
    qCDebug(lcInformer) << resourceName(m_resource) << "retrying in" << int(base * jitter)
                        << "ms:" << error;
    m_status.serverUnreachable = serverUnreachable;
    setState(InformerStatus::Retrying, error);
    m_retryTimer.start(int(base * jitter));
}

} // namespace gpudesk
