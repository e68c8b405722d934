// SPDX-License-Identifier: GPL-3.0-or-later
#include "storagemeter.h"

#include "probeparsers.h"
#include "sshpool.h"
#include "storagecommands.h"
#include "storagewalk.h"

#include <QDateTime>
#include <QTimer>

namespace gpudesk {

namespace {

// What the walk on the worker has counted so far, read by the meter's timer: atomics, so the
// UI thread never waits on the worker.
struct Progress
{
    std::atomic<int> root{-1};
    std::atomic<qint64> entries{0};
    std::atomic<qint64> bytes{0};
};

QString said(const ExecResult &r)
{
    const QString err = QString::fromUtf8(r.err).trimmed();
    return err.isEmpty() ? QCoreApplication::translate("gpudesk::StorageMeter", "exit status %1")
                               .arg(r.exitStatus)
                         : err.section(u'\n', 0, 2);
}

// The walk of one root on the worker, summed as it streams.
StorageRootMeasure walkRoot(SshConnection *c, const StorageMeter::Root &root, Progress &progress,
                            const std::atomic<bool> &cancel, const std::atomic<bool> *stop)
{
    const qint64 started = QDateTime::currentMSecsSinceEpoch();
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
{}

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

QString StorageMeter::pickNode() const
{
    if (!m_pool)
        return QString();
    if (!m_preferred.isEmpty())
        return m_pool->status(m_preferred).usable() ? m_preferred : QString();
    QStringList nodes = m_pool->nodes();
    nodes.sort();
    for (const QString &n : std::as_const(nodes))
        if (m_pool->status(n).usable() && !m_pool->isBusy(n))
            return n;
    return QString();
}

void StorageMeter::tryStart()
{
    const auto fail = [this](const QString &why) {
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
        emit finished(out);
    };
    if (*m_stop)
        return fail(tr("Cancelled."));
    m_node = pickNode();
    auto progress = std::make_shared<Progress>();
    const bool submitted =
        !m_node.isEmpty() &&
        m_pool->submit(
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
                    if (!self)
                        return;
                    self->m_running = false;
                    emit self->finished(out);
                };
            },
            SshPool::Lane::Long);
    if (submitted) {
        // The walk's figures as they grow, for the page's progress.
        auto *timer = new QTimer(this);
        timer->setInterval(250);
        connect(timer, &QTimer::timeout, this, [this, timer, progress] {
            if (!m_running) {
                timer->deleteLater();
                return;
            }
            const int i = progress->root;
            if (i >= 0 && i < m_roots.size())
                emit this->progress(m_roots[i].path, progress->entries, progress->bytes);
        });
        timer->start();
        return;
    }
    if (QDateTime::currentMSecsSinceEpoch() - m_firstTry > GiveUpMs)
        return fail(m_node.isEmpty() ? (m_preferred.isEmpty()
                                            ? tr("No node answered over SSH to measure the NAS on.")
                                            : tr("%1 does not answer over SSH.").arg(m_preferred))
                                     : tr("%1 stayed busy with other long work.").arg(m_node));
    QTimer::singleShot(RetryMs, this, [this] {
        if (m_running)
            tryStart();
    });
}

} // namespace gpudesk
