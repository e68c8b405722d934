// SPDX-License-Identifier: GPL-3.0-or-later
#include "waitexplainer.h"

#include "capacitysnapshot.h"
#include "clusterstore.h"
#include "diagnosisbook.h"
#include "startcheck.h"
#include "waitingjob.h"
#include "workloadstatus.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace gpudesk {

namespace {

bool waits(const WorkloadInfo &w)
{
    return workloadstatus::classOf(w.status) == workloadstatus::Waiting &&
           w.status != QLatin1String("Terminating");
}

// Whether a workload waits, without resolving it (a pending pod's resolution weighs its spread
// over every node: 0.8 ms at 2,000 nodes, too much for a thousand of them at once): a job by its
// own state, anything else by a pod of it not bound to a node. When it was made, for the newest
// first.
bool waitsNow(const ClusterStore &store, const QString &key, qint64 *created)
{
    if (const JobInfo *j = store.job(key)) {
        *created = j->created;
        return workloadstatus::classOf(j->status) == workloadstatus::Waiting &&
               j->status != QLatin1String("Terminating");
    }
    for (const PodInfo *p : store.podsOfWorkload(key))
        if (p->nodeName.isEmpty() && !p->finished() && !p->deleting) {
            *created = p->created;
            return true;
        }
    return false;
}

} // namespace

WaitExplainer::WaitExplainer(ClusterStore *store, DiagnosisBook *book, QObject *parent)
    : QObject(parent), m_store(store), m_book(book)
{
    m_slice.setSingleShot(true);
    m_slice.setInterval(SliceMs);
    connect(&m_slice, &QTimer::timeout, this, &WaitExplainer::next);
    m_again.setInterval(AgainMs);
    connect(&m_again, &QTimer::timeout, this, &WaitExplainer::refill);
    connect(m_store, &ClusterStore::updated, this, &WaitExplainer::onStoreUpdated);
}

void WaitExplainer::setEnabled(bool on)
{
    m_enabled = on;
    if (!on) {
        m_again.stop();
        m_slice.stop();
        m_queue.clear();
        m_queued.clear();
        for (const QString &key : m_book->waitKeys())
            m_book->removeWait(key);
        return;
    }
    m_again.start();
    refill();
}

QString WaitExplainer::titleOf(const StartVerdict &verdict, bool approximate, QString *tip,
                               QString *code)
{
    // The weightiest reason that holds the job back; warnings are the submit form's.
    const auto main =
        std::find_if(verdict.reasons.cbegin(), verdict.reasons.cend(), [](const StartReason &r) {
            return r.severity == StartReason::Waits || r.severity == StartReason::Never;
        });
    if (main == verdict.reasons.cend()) {
        // It fits by the cluster as it is: the scheduler's words say more (a pod group's
        // totals say nothing of where its pods would go).
        *tip = QString();
        *code = QString();
        return QString();
    }
    *code = main->code;
    QStringList rest{main->message};
    if (!main->fix.isEmpty())
        rest << tr("Fix: %1").arg(main->fix);
    for (auto r = main + 1; r != verdict.reasons.cend(); ++r)
        if (r->severity >= StartReason::Waits)
            rest << r->message;
    if (approximate)
        rest << tr("(From its pod group's totals: its pods are not made yet.)");
    *tip = rest.join(u'\n');
    return main->message.section(u'\n', 0, 0);
}

void WaitExplainer::onStoreUpdated(const StoreChanges &changes)
{
    if (changes.reset) {
        ++m_generation;
        m_queue.clear();
        m_queued.clear();
        if (m_enabled)
            refill();
        return;
    }
    if (!m_enabled)
        return;
    // A job that stopped waiting loses its reason now; one that started waiting is asked
    // first (the others are asked again on the next round). Only the workloads that can wait
    // are resolved — a pod not bound to a node, a job whose own state waits, one told before —
    // not every workload a busy cluster changes each second.
    QSet<QString> maybe;
    for (const QString &uid : changes.pods)
        if (const PodInfo *p = m_store->pod(uid);
            p && p->nodeName.isEmpty() && !p->finished() && !p->deleting)
            maybe.insert(ClusterStore::workloadKey(*p));
    for (const QString &key : changes.workloads) {
        const JobInfo *j = m_store->job(key);
        if (m_book->wait(key) ||
            (j && workloadstatus::classOf(j->status) == workloadstatus::Waiting))
            maybe.insert(key);
    }
    for (const QString &key : std::as_const(maybe)) {
        const bool told = m_book->wait(key) != nullptr;
        if (!told && m_queued.contains(key))
            continue;
        qint64 created = 0;
        if (!waitsNow(*m_store, key, &created)) {
            m_book->removeWait(key);
        } else if (!told && m_queue.size() < MaxJobs) {
            m_queue.prepend(key);
            m_queued.insert(key);
        }
    }
    if (!m_queue.isEmpty() && !m_running && !m_slice.isActive())
        m_slice.start();
}

void WaitExplainer::refill()
{
    // Candidates without resolving every workload: pods not bound to a node, and jobs whose
    // own state waits (a Volcano gang not admitted has no pods yet).
    QSet<QString> candidates;
    for (const PodInfo &p : m_store->pods())
        if (p.nodeName.isEmpty() && !p.finished() && !p.deleting)
            candidates.insert(ClusterStore::workloadKey(p));
    for (const QString &key : m_store->jobKeys())
        if (const JobInfo *j = m_store->job(key);
            j && workloadstatus::classOf(j->status) == workloadstatus::Waiting)
            candidates.insert(key);
    QList<std::pair<qint64, QString>> waiting;
    for (const QString &key : std::as_const(candidates))
        if (qint64 created = 0; waitsNow(*m_store, key, &created))
            waiting.append({created, key});
    std::sort(waiting.begin(), waiting.end(), std::greater<>()); // the newest first
    if (waiting.size() > MaxJobs)
        waiting.resize(MaxJobs);
    QSet<QString> keep;
    for (const auto &[created, key] : std::as_const(waiting))
        keep.insert(key);
    // Those no longer among the newest waiting: not asked, not told.
    for (auto it = m_queue.begin(); it != m_queue.end();)
        if (keep.contains(*it)) {
            ++it;
        } else {
            m_queued.remove(*it);
            it = m_queue.erase(it);
        }
    for (const QString &key : m_book->waitKeys())
        if (!keep.contains(key))
            m_book->removeWait(key);
    // A round still under way is finished first; a job not told yet joins it.
    const bool round = !m_queue.isEmpty();
    for (const auto &[created, key] : std::as_const(waiting))
        if (!m_queued.contains(key) && (!round || !m_book->wait(key))) {
            m_queue.append(key);
            m_queued.insert(key);
        }
    if (!m_queue.isEmpty() && !m_running && !m_slice.isActive())
        m_slice.start();
    else if (idle())
        emit drained();
}

void WaitExplainer::next()
{
    if (!m_enabled || m_running)
        return;
    std::optional<JobRequest> request;
    QString key;
    while (!request && !m_queue.isEmpty()) {
        key = m_queue.takeFirst();
        m_queued.remove(key);
        const auto w = m_store->workload(key);
        if (w && waits(*w))
            request = WaitingJob::requestOf(*m_store, key);
        if (!request)
            m_book->removeWait(key);
    }
    if (!request) {
        emit drained();
        return;
    }
    // The copy here (the store is this thread's), the check on a worker.
    CapacitySnapshot snapshot = CapacitySnapshot::of(*m_store, *request, m_telemetry);
    m_running = true;
    auto *watcher = new QFutureWatcher<StartVerdict>(this);
    const quint64 generation = m_generation;
    const bool approximate = request->approximate;
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, key, generation, approximate] {
                watcher->deleteLater();
                m_running = false;
                if (generation == m_generation && m_enabled) {
                    const StartVerdict v = watcher->result();
                    QString tip, code;
                    const QString title = titleOf(v, approximate, &tip, &code);
                    const auto w = m_store->workload(key);
                    if (title.isEmpty() || !w || !waits(*w))
                        m_book->removeWait(key);
                    else
                        m_book->putWait(key, {title, tip, code});
                }
                if (!m_queue.isEmpty())
                    m_slice.start();
                else
                    emit drained();
            });
    watcher->setFuture(QtConcurrent::run([snapshot = std::move(snapshot), job = *request] {
        return StartCheck::check(snapshot, job);
    }));
}

} // namespace gpudesk
