// SPDX-License-Identifier: GPL-3.0-or-later
#include "storagemeter.h"

#include "probeparsers.h"
#include "sshpool.h"
#include "storagecommands.h"
#include "storagewalk.h"

#include <QDateTime>
#include <QTimer>

namespace gpudesk {

// What the walk on the worker has counted so far, read by the meter's timer: atomics, so the
// UI thread never waits on the worker.
struct StorageMeter::Progress
{
    std::atomic<int> root{-1};
    std::atomic<qint64> entries{0};
    std::atomic<qint64> bytes{0};
};

namespace {

QString said(const ExecResult &r)
{
    const QString err = QString::fromUtf8(r.err).trimmed();
    return err.isEmpty() ? QCoreApplication::translate("gpudesk::StorageMeter", "exit status %1")
                               .arg(r.exitStatus)
                         : err.section(u'\n', 0, 2);
}

// The walk of one root on the worker, summed as it streams.
StorageRootMeasure walkRoot(SshConnection *c, const StorageMeter::Root &root,
                            StorageMeter::Progress &progress, const std::atomic<bool> &cancel,
                            const std::atomic<bool> *stop)
{
    const qint64 started = QDateTime::currentMSecsSinceEpoch();
    QString invalid;
    if (!nodecmd::validStorageRoot(root.path, &invalid)) {
        StorageRootMeasure m;
        m.root = root.path;
        m.kind = root.kind;
        m.error = invalid;
        m.measuredAt = started;
        return m;
    }
    StorageWalk walk(root.path, root.kind, started);
    qint64 lastTold = 0;
    const ExecResult r =
        c->exec(nodecmd::storageWalkCommand(root.path), StorageMeter::WalkLimitMs, cancel,
                {QByteArray(),
                 [&](const QByteArray &chunk) {
                     walk.feed(chunk);
                     if (walk.entries() - lastTold >= 4096) {
                         lastTold = walk.entries();
                         progress.entries = walk.entries();
                         progress.bytes = walk.bytesSoFar();
                     }
                 },
                 stop, false});
    walk.addErrors(r.err);
    // find says 1 when some folder could not be read; the rest was walked.
    StorageRootMeasure m = walk.finish(r.ok && (r.exitStatus == 0 || r.exitStatus == 1));
    if (!r.ok)
        m.error = r.error;
    else if (r.exitStatus == 127)
        m.error = QCoreApplication::translate("gpudesk::StorageMeter",
                                              "The node has no GNU find (or no nice, ionice): %1")
                      .arg(said(r));
    else if (r.exitStatus != 0 && m.entries == 0)
        m.error = said(r);
    else if (m.entries == 0)
        // An empty root is far more often a node that does not mount the NAS (or mounts it
        // elsewhere) than a NAS with nothing on it: not figures to replace the last ones with.
        m.error = QCoreApplication::translate("gpudesk::StorageMeter",
                                              "The walk found nothing under %1 on %2: is the NAS "
                                              "mounted there?")
                      .arg(root.path, c->target().node);
    else if (!m.complete && m.error.isEmpty())
        m.error = QCoreApplication::translate("gpudesk::StorageMeter",
                                              "The walk of %1 did not finish (exit status %2).")
                      .arg(root.path)
                      .arg(r.exitStatus);
    m.measuredAt = QDateTime::currentMSecsSinceEpoch();
    m.elapsedMs = m.measuredAt - started;
    return m;
}

// df's row for a root: the mount that holds it (the longest mount point it lies under).
void addCapacity(StorageRootMeasure &m, const QList<DiskUse> &disks)
{
    const DiskUse *best = nullptr;
    for (const DiskUse &d : disks) {
        const bool under = m.root == d.mountPoint || d.mountPoint == QLatin1String("/") ||
                           m.root.startsWith(d.mountPoint + u'/');
        if (under && (!best || d.mountPoint.size() > best->mountPoint.size()))
            best = &d;
    }
    if (!best)
        return;
    m.capacityBytes = best->totalKiB * 1024;
    m.usedBytes = best->usedKiB * 1024;
    m.freeBytes = best->availableKiB * 1024;
    m.filesystem = best->filesystem;
}

} // namespace

StorageMeter::StorageMeter(SshPool *pool, QList<Root> roots, QObject *parent)
    : QObject(parent), m_pool(pool), m_roots(std::move(roots))
{
    m_progressTimer.setInterval(250);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] {
        const auto p = m_progress.lock();
        const int i = p ? int(p->root) : -1;
        if (i >= 0 && i < m_roots.size())
            emit progress(m_roots[i].path, p->entries, p->bytes);
    });
    // A pool that goes takes the work and its answer with it: the walk has failed, said now
    // rather than never.
    if (pool)
        connect(pool, &QObject::destroyed, this, [this] {
            if (m_running)
                fail(tr("The connection to the nodes is gone."));
        });
}

StorageMeter::~StorageMeter()
{
    cancel();
}

void StorageMeter::start(const QString &preferred)
{
    if (m_running)
        return;
    m_running = true;
    m_preferred = preferred;
    m_firstTry = QDateTime::currentMSecsSinceEpoch();
    m_stop = std::make_shared<std::atomic<bool>>(false);
    tryStart();
}

void StorageMeter::cancel()
{
    if (m_stop)
        *m_stop = true;
}

QStringList StorageMeter::candidates() const
{
    if (!m_pool)
        return {};
    if (!m_preferred.isEmpty())
        return m_pool->status(m_preferred).usable() ? QStringList{m_preferred} : QStringList();
    QStringList nodes = m_pool->nodes();
    nodes.sort();
    QStringList out;
    for (const QString &n : std::as_const(nodes))
        if (m_pool->status(n).usable())
            out << n;
    return out;
}

void StorageMeter::fail(const QString &why)
{
    QList<StorageRootMeasure> out;
    for (const Root &r : std::as_const(m_roots)) {
        StorageRootMeasure m;
        m.root = r.path;
        m.kind = r.kind;
        m.node = m_node;
        m.error = why;
        m.measuredAt = QDateTime::currentMSecsSinceEpoch();
        out.append(m);
    }
    m_running = false;
    m_progressTimer.stop();
    emit finished(out);
}

void StorageMeter::tryStart()
{
    if (*m_stop)
        return fail(tr("Cancelled."));
    if (!m_pool)
        return fail(tr("The connection to the nodes is gone."));
    auto progress = std::make_shared<StorageMeter::Progress>();
    m_progress = progress;
    // The first node (the one set, else in name order) whose second session takes the work: a
    // node busy with an image push does not keep the NAS unmeasured while others are free.
    bool submitted = false;
    const QStringList nodes = candidates();
    for (const QString &candidate : nodes) {
        m_node = candidate;
        submitted = m_pool->submit(
            m_node,
            [roots = m_roots, progress, stop = m_stop, node = m_node,
             self = QPointer<StorageMeter>(this)](
                SshConnection *c, const SshStatus &status,
                const std::atomic<bool> &cancel) -> std::function<void()> {
                QList<StorageRootMeasure> out;
                for (int i = 0; i < roots.size(); ++i) {
                    progress->root = i;
                    progress->entries = 0;
                    progress->bytes = 0;
                    StorageRootMeasure m;
                    if (!c) {
                        m.root = roots[i].path;
                        m.kind = roots[i].kind;
                        m.error = status.message;
                    } else if (cancel || *stop) {
                        m.root = roots[i].path;
                        m.kind = roots[i].kind;
                        m.error =
                            QCoreApplication::translate("gpudesk::StorageMeter", "Cancelled.");
                    } else {
                        m = walkRoot(c, roots[i], *progress, cancel, stop.get());
                    }
                    m.node = node;
                    out.append(std::move(m));
                }
                if (c && !cancel && !*stop) {
                    QStringList paths;
                    for (const Root &r : roots)
                        paths << r.path;
                    const ExecResult df = c->exec(nodecmd::storageDfCommand(paths), 15000, cancel);
                    const QList<DiskUse> disks = probe::parseDf(df.out);
                    for (StorageRootMeasure &m : out)
                        addCapacity(m, disks);
                }
                return [self, out] {
                    if (!self || !self->m_running)
                        return;
                    self->m_running = false;
                    self->m_progressTimer.stop();
                    emit self->finished(out);
                };
            },
            SshPool::Lane::Long);
        if (submitted)
            break;
    }
    if (submitted) {
        m_progressTimer.start(); // the walk's figures as they grow, for the page's progress
        return;
    }
    if (QDateTime::currentMSecsSinceEpoch() - m_firstTry > m_giveUpMs)
        return fail(nodes.isEmpty() ? (m_preferred.isEmpty()
                                           ? tr("No node answered over SSH to measure the NAS on.")
                                           : tr("%1 does not answer over SSH.").arg(m_preferred))
                                    : tr("%1 stayed busy with other long work.").arg(m_node));
    QTimer::singleShot(RetryMs, this, [this] {
        if (m_running)
            tryStart();
    });
}

} // namespace gpudesk
