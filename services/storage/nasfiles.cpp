// SPDX-License-Identifier: GPL-3.0-or-later
#include "nasfiles.h"

#include "appsettings.h"
#include "clustersession.h"
#include "contextconnection.h"
#include "format.h"
#include "nasinspect.h"
#include "nasplanner.h"
#include "operation.h"
#include "operationsservice.h"
#include "sftpclient.h"
#include "sshconnection.h"
#include "sshpool.h"
#include "storagecommands.h"
#include "storageservice.h"
#include "storagewalk.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QSet>

#include <algorithm>
#include <mutex>

namespace gpudesk {

struct NasFiles::Shared
{
    std::atomic<bool> stop{false};
    std::atomic<qint64> done{0};
    std::atomic<qint64> total{0};
    std::mutex mutex;
    QString current; // under `mutex`
    void setCurrent(const QString &path)
    {
        std::lock_guard lock(mutex);
        current = path;
    }
};

namespace {

constexpr int GiveUpMs = 30 * 1000;
constexpr int RetryMs = 300;
// A check waits on the NAS no longer than this (a form's verdict, a --check).
constexpr int InspectGiveUpMs = 10 * 1000;

// Where a file of a copy is written until it is whole: PATH.part, or PATH.part1, PATH.part2…
// when the copy itself holds a file of that name (a folder with X and X.part: X's bytes would
// go on into the other file, taken for a copy that broke, and replace it). Chosen from what is
// copied, so that the next try after a break picks the same name and goes on where it stopped.
QString partName(const QString &path, const QSet<QString> &copied)
{
    QString part = path + QStringLiteral(".part");
    for (int k = 1; copied.contains(part); ++k)
        part = path + QStringLiteral(".part") + QString::number(k);
    return part;
}

} // namespace

NasFiles::NasFiles(ClusterSession *session, OperationsService *operations, QObject *parent)
    : QObject(parent), m_session(session)
{
    m_ticker.setInterval(250);
    connect(&m_ticker, &QTimer::timeout, this, &NasFiles::tick);
    if (operations)
        connect(operations, &OperationsService::operationFinished, this, [this](Operation *op) {
            if (op->plan().action.startsWith(QLatin1String("nas.")))
                emit changed();
        });
}

QStringList NasFiles::roots() const
{
    const auto &c = m_session->connection();
    QStringList out;
    if (c)
        for (const StorageMeter::Root &r : StorageService::roots(c->context()))
            out << r.path;
    return out;
}

NasPlanner NasFiles::planner() const
{
    const auto &c = m_session->connection();
    return NasPlanner(c ? c->context() : QString(), c ? c->endpoint().server : QString(),
                      pickNode(1), roots());
}

OperationPlan NasFiles::planRemove(const QList<RemoteFile> &entries) const
{
    return planner().remove(entries);
}

OperationPlan NasFiles::planMove(const RemoteFile &entry, const QString &toFolder) const
{
    return planner().move(entry, toFolder);
}

void NasFiles::planCleanup(const QList<NasCandidate> &candidates, QObject *receiver,
                           std::function<void(OperationPlan)> done)
{
    QStringList paths;
    for (const NasCandidate &c : candidates)
        paths << c.path;
    QPointer<NasFiles> self(this);
    QPointer<QObject> to(receiver);
    inspect(
        paths, false, receiver,
        [self, to, candidates, done](const QList<RemotePathInfo> &now, const QString &error) {
            if (!self)
                return;
            // Not asked: nothing is planned, and nothing is said to be gone.
            if (!error.isEmpty()) {
                OperationPlan p =
                    self->planner().cleanup({}, now, QDateTime::currentMSecsSinceEpoch());
                p.refusals << tr("The NAS could not be asked about the candidates: %1").arg(error);
                done(p);
                return;
            }
            // The folders still there are walked again: a change deeper down moves no time of
            // their own.
            QList<NasCandidate> folders;
            for (const NasCandidate &c : candidates)
                for (const RemotePathInfo &i : now)
                    if (c.type == 'd' && i.path == c.path && i.found && i.type == 'd')
                        folders << c;
            const auto plan = [self, candidates, now,
                               done](const QHash<QString, FolderRecheck> &below) {
                if (self)
                    done(self->planner().cleanup(candidates, now,
                                                 QDateTime::currentMSecsSinceEpoch(), below));
            };
            if (folders.isEmpty())
                plan({});
            else if (to)
                self->recheckFolders(folders, to, plan);
        });
}

void NasFiles::recheckFolders(const QList<NasCandidate> &folders, QObject *receiver,
                              std::function<void(QHash<QString, FolderRecheck>)> done)
{
    QPointer<QObject> to(receiver);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    onNodeSession(
        [folders, now, to, done](SshConnection *c, const QString &error,
                                 const std::atomic<bool> &cancel) {
            QHash<QString, FolderRecheck> out;
            for (const NasCandidate &f : folders) {
                FolderRecheck r;
                const QByteArray command = nodecmd::storageRecheckCommand(f.path);
                if (!c) {
                    r.error = error;
                } else if (command.isEmpty()) {
                    r.error = tr("its name cannot be given to find");
                } else {
                    StorageWalk walk(f.path, f.kind, now);
                    const ExecResult x =
                        c->exec(command, RecheckLimitMs, cancel,
                                {QByteArray(), [&walk](const QByteArray &b) { walk.feed(b); },
                                 nullptr, false});
                    const StorageRootMeasure m = walk.finish(x.ok && x.exitStatus == 0);
                    // find says 1 when a folder below could not be read: not all of it seen.
                    if (!x.ok)
                        r.error = x.error;
                    else if (x.exitStatus != 0)
                        r.error = QString::fromUtf8(x.err).trimmed().section(u'\n', 0, 0);
                    if (x.ok && x.exitStatus != 0 && r.error.isEmpty())
                        r.error = tr("find ended with status %1").arg(x.exitStatus);
                    r.entries = m.entries;
                    for (const StorageFolder &below : m.folders)
                        r.newest = std::max(r.newest, below.lastChange);
                }
                out.insert(f.path, r);
            }
            return std::function<void()>([to, done, out] {
                if (to)
                    done(out);
            });
        },
        [to, done, folders](const QString &why) {
            QHash<QString, FolderRecheck> out;
            for (const NasCandidate &f : folders)
                out.insert(f.path, FolderRecheck{0, 0, why});
            if (to)
                done(out);
        },
        QDateTime::currentMSecsSinceEpoch() + GiveUpMs);
}

NasFiles::~NasFiles()
{
    cancel();
}

QString NasFiles::unavailableReason() const
{
    const auto &c = m_session->connection();
    if (!c)
        return tr("Not connected.");
    if (!c->pool())
        return tr("The NAS's files are reached over SSH on a node that mounts it, and gpudesk "
                  "has no SSH to the nodes here (node telemetry is off).");
    return QString();
}

QString NasFiles::pickNode(int lane) const
{
    const auto &c = m_session->connection();
    SshPool *pool = c ? c->pool() : nullptr;
    if (!pool)
        return QString();
    const QString chosen = AppSettings::storage(c->context()).node;
    QStringList nodes = chosen.isEmpty() ? pool->nodes() : QStringList{chosen};
    nodes.sort();
    for (const QString &n : std::as_const(nodes))
        if (pool->status(n).usable() && (lane != 0 || !pool->isBusy(n)))
            return n;
    return QString();
}

void NasFiles::list(const QString &dir)
{
    onFilesSession(
        [dir, self = QPointer<NasFiles>(this)](SftpClient *sftp, QString error) {
            std::optional<QList<RemoteFile>> entries;
            if (sftp)
                entries = sftp->list(dir, &error);
            return std::function<void()>([self, dir, entries, error] {
                if (self)
                    emit self->listed(dir, entries.value_or(QList<RemoteFile>()),
                                      entries ? QString() : error);
            });
        },
        [this, dir](const QString &why) { emit listed(dir, {}, why); },
        QDateTime::currentMSecsSinceEpoch() + GiveUpMs);
}

void NasFiles::inspect(const QStringList &paths, bool follow, QObject *receiver,
                       std::function<void(QList<RemotePathInfo>, QString)> done)
{
    QPointer<QObject> to(receiver);
    onFilesSession(
        [paths, follow, to, done](SftpClient *sftp, QString error) {
            QList<RemotePathInfo> out;
            if (sftp)
                out = NasInspect::read(sftp, paths, follow, &error);
            return std::function<void()>([to, done, out, error, ok = sftp && error.isEmpty()] {
                if (to)
                    done(out, ok ? QString() : error);
            });
        },
        [to, done](const QString &why) {
            if (to)
                done({}, why);
        },
        QDateTime::currentMSecsSinceEpoch() + InspectGiveUpMs);
}

void NasFiles::read(const RemoteFile &file, QObject *receiver,
                    std::function<void(QByteArray, qint64, qint64, QString)> done)
{
    QPointer<QObject> to(receiver);
    const QString path = file.path;
    const QStringList nas = roots();
    if (std::none_of(nas.cbegin(), nas.cend(),
                     [&path](const QString &r) { return path.startsWith(r + u'/'); })) {
        done({}, 0, 0,
             tr("%1 is not inside a NAS root (%2): gpudesk reads nothing outside them.")
                 .arg(path, nas.join(QStringLiteral(", "))));
        return;
    }
    onFilesSession(
        [path, to, done](SftpClient *sftp, QString error) {
            QByteArray bytes;
            qint64 from = 0, size = 0;
            if (sftp) {
                bytes = sftp->readPart(path, -ViewBytes, ViewBytes, &error, &from, &size)
                            .value_or(QByteArray());
                // A cut file starts at its next line, not mid-line.
                if (from > 0 && error.isEmpty()) {
                    const qsizetype nl = bytes.indexOf('\n');
                    from += nl + 1;
                    bytes.remove(0, nl + 1);
                }
            }
            return std::function<void()>([to, done, bytes, from, size, error] {
                if (to)
                    done(bytes, from, size, error);
            });
        },
        [to, done](const QString &why) {
            if (to)
                done({}, 0, 0, why);
        },
        QDateTime::currentMSecsSinceEpoch() + InspectGiveUpMs);
}

void NasFiles::onFilesSession(FilesWork work, std::function<void(const QString &)> giveUp,
                              qint64 until)
{
    onNodeSession(
        [work](SshConnection *c, QString error, const std::atomic<bool> &) {
            if (!c)
                return work(nullptr, error);
            SftpClient sftp(c);
            return sftp.open(&error) ? work(&sftp, QString()) : work(nullptr, error);
        },
        std::move(giveUp), until);
}

void NasFiles::onNodeSession(NasInspect::NodeWork work, std::function<void(const QString &)> giveUp,
                             qint64 until)
{
    if (const QString why = unavailableReason(); !why.isEmpty()) {
        giveUp(why);
        return;
    }
    // One node, the one the plans name (NasPlanner): the chosen one, else the first that
    // answers.
    const QPointer<NasFiles> self(this);
    NasInspect::onNode(
        [self]() -> std::pair<SshPool *, QStringList> {
            const QString node = self ? self->pickNode(1) : QString();
            if (node.isEmpty())
                return {nullptr, {}};
            return {self->m_session->connection()->pool(), {node}};
        },
        std::move(work), std::move(giveUp), until, this);
}

void NasFiles::startCopy(CopyWork work, qint64 since)
{
    if (const QString why = unavailableReason(); !why.isEmpty()) {
        m_copying = false;
        emit finished(false, why);
        return;
    }
    SshPool *pool = m_session->connection()->pool();
    const QString node = pickNode(1);
    const bool submitted =
        !node.isEmpty() && pool->submit(
                               node,
                               [work, self = QPointer<NasFiles>(this)](
                                   SshConnection *c, const SshStatus &status,
                                   const std::atomic<bool> &cancel) -> std::function<void()> {
                                   if (c)
                                       return work(c, cancel);
                                   const QString why = status.message;
                                   return [self, why] {
                                       if (!self)
                                           return;
                                       self->m_ticker.stop();
                                       self->m_copying = false;
                                       emit self->finished(false, why);
                                   };
                               },
                               SshPool::Lane::Files);
    if (submitted) {
        m_lastDone = 0;
        m_lastAt = QDateTime::currentMSecsSinceEpoch();
        m_rate = 0;
        m_ticker.start();
        return;
    }
    if (QDateTime::currentMSecsSinceEpoch() - since > GiveUpMs || m_shared->stop) {
        m_copying = false;
        emit finished(false, m_shared->stop   ? tr("Cancelled.")
                             : node.isEmpty() ? tr("No node that mounts the NAS answers over SSH.")
                                              : tr("%1 stayed busy with another copy.").arg(node));
        return;
    }
    QTimer::singleShot(RetryMs, this, [this, work, since] { startCopy(work, since); });
}

std::function<void()> NasFiles::ended(QPointer<NasFiles> self, bool ok, const QString &message)
{
    // On the UI thread, once the worker is done: the last figures, then how it ended.
    return [self, ok, message] {
        if (!self)
            return;
        self->m_ticker.stop();
        self->tick();
        self->m_copying = false;
        emit self->finished(ok, message);
    };
}

void NasFiles::tick()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 done = m_shared ? qint64(m_shared->done) : 0;
    if (now - m_lastAt >= 1000) {
        // Over the last second or so: what the link does now, not since the start.
        m_rate = (done - m_lastDone) * 1000 / qMax<qint64>(1, now - m_lastAt);
        m_lastDone = done;
        m_lastAt = now;
    }
    QString current;
    if (m_shared) {
        std::lock_guard lock(m_shared->mutex);
        current = m_shared->current;
    }
    emit progress(done, m_shared ? qint64(m_shared->total) : 0, m_rate, current);
}

void NasFiles::cancel()
{
    if (m_shared)
        m_shared->stop = true;
}

void NasFiles::download(const RemoteFile &what, const QString &localDir)
{
    if (m_copying)
        return;
    m_copying = true;
    m_shared = std::make_shared<Shared>();
    auto shared = m_shared;
    auto work = [what, localDir, shared, self = QPointer<NasFiles>(this)](
                    SshConnection *c, const std::atomic<bool> &cancel) -> std::function<void()> {
        QString error;
        QStringList left;
        struct Item
        {
            RemoteFile file;
            QString local;
        };
        QList<Item> items;
        SftpClient sftp(c);
        bool ok = sftp.open(&error);
        const QString top = QDir(localDir).filePath(what.name);
        if (ok && what.type == 'd') {
            // Every file below the folder, folders made as they are met; links and special
            // files are named and left (a link may lead anywhere, out of the NAS too).
            QList<std::pair<QString, QString>> dirs{{what.path, top}};
            while (!dirs.isEmpty() && !cancel && !shared->stop) {
                const auto [remote, local] = dirs.takeFirst();
                QString why;
                const auto entries = sftp.list(remote, &why);
                if (!entries) {
                    left << why;
                    continue;
                }
                QDir().mkpath(local);
                for (const RemoteFile &e : *entries) {
                    const QString target = QDir(local).filePath(e.name);
                    if (e.type == 'd')
                        dirs.append({e.path, target});
                    else if (e.type == 'f')
                        items.append({e, target});
                    else
                        left
                            << NasFiles::tr("%1: a link or special file, not followed").arg(e.path);
                }
            }
        } else if (ok && what.type == 'f') {
            items.append({what, top});
        } else if (ok) {
            ok = false;
            error = NasFiles::tr("%1 is a link or special file: only files and folders are "
                                 "copied")
                        .arg(what.path);
        }
        qint64 total = 0;
        QSet<QString> targets;
        for (const Item &i : std::as_const(items)) {
            total += i.file.size;
            targets.insert(i.local);
        }
        shared->total = total;
        qint64 base = 0;
        int copied = 0;
        for (const Item &i : std::as_const(items)) {
            if (!ok)
                break;
            shared->setCurrent(i.file.path);
            const QFileInfo there(i.local);
            if (there.exists() && there.size() == i.file.size) { // copied before
                base += i.file.size;
                shared->done = base;
                ++copied;
                continue;
            }
            const QString part = partName(i.local, targets);
            ok = sftp.download(
                     i.file.path, part, [&](qint64 n) { shared->done = base + n; }, shared->stop,
                     &error) &&
                 !cancel;
            if (ok && QFileInfo(part).size() != i.file.size) {
                ok = false;
                error = NasFiles::tr("%1: %2 copied of %3; the file changed during the copy?")
                            .arg(i.file.path, format::bytes(QFileInfo(part).size()),
                                 format::bytes(i.file.size));
                // Not resumable: a part longer than the file (it shrank, or was replaced) would
                // fail this way at every try. The next one starts afresh.
                QFile::remove(part);
            }
            if (ok) {
                QFile::remove(i.local);
                ok = QFile::rename(part, i.local);
                if (!ok)
                    error = NasFiles::tr("Cannot name %1").arg(i.local);
            }
            base += i.file.size;
            ++copied;
        }
        QString message = ok ? NasFiles::tr("Downloaded %n file(s), %1, into %2.", nullptr, copied)
                                   .arg(format::bytes(total), QDir::toNativeSeparators(top))
                             : error;
        if (!left.isEmpty())
            message += u'\n' + NasFiles::tr("Left: %1").arg(left.join(u'\n'));
        return NasFiles::ended(self, ok, message);
    };
    startCopy(work, QDateTime::currentMSecsSinceEpoch());
}

void NasFiles::upload(const QString &local, const QString &remoteDir)
{
    if (m_copying)
        return;
    m_copying = true;
    m_shared = std::make_shared<Shared>();
    auto shared = m_shared;
    const QString into = remoteDir.endsWith(u'/') ? remoteDir : remoteDir + u'/';
    auto work = [local, into, shared, self = QPointer<NasFiles>(this)](
                    SshConnection *c, const std::atomic<bool> &cancel) -> std::function<void()> {
        QString error;
        QStringList left;
        const QFileInfo top(local);
        const bool folder = top.isDir() && !top.isSymLink();
        const QString remoteTop = into + top.fileName();
        const UploadList list = folder ? listFolder(local, remoteTop)
                                       : UploadList{{}, {{local, remoteTop, top.size()}}, {}};
        left << list.left;
        shared->total = list.bytes();
        SftpClient sftp(c);
        bool ok = sftp.open(&error);
        if (ok && !folder && !top.isFile()) {
            ok = false;
            error = NasFiles::tr("%1 is neither a file nor a folder: not copied").arg(local);
        }
        // The folders first, each before what it holds (a copy that broke made some already).
        for (const QString &d : list.folders)
            ok = ok && !shared->stop && sftp.makeFolder(d, &error);
        qint64 base = 0, placed = 0;
        int copied = 0, already = 0;
        QSet<QString> targets;
        for (const UploadItem &i : list.files)
            targets.insert(i.remote);
        for (const UploadItem &i : list.files) {
            if (!ok)
                break;
            shared->setCurrent(i.remote);
            QString why;
            if (const auto there = sftp.stat(i.remote, &why)) {
                base += i.size;
                shared->done = base;
                if (!folder) {
                    ok = false;
                    error =
                        NasFiles::tr("%1 is there already: nothing was replaced.").arg(i.remote);
                } else if (there->type == 'f' && there->size == i.size) {
                    ++already; // copied before the copy broke
                    placed += i.size;
                } else {
                    left << NasFiles::tr("%1 is there already (%2): not replaced")
                                .arg(i.remote, format::bytes(there->size));
                }
                continue;
            }
            const QString part = partName(i.remote, targets);
            // Gone on with only when it is a plain file: a link planted under that name would
            // send the bytes wherever it points.
            if (const auto there = sftp.stat(part, &why); there && there->type != 'f') {
                ok = false;
                error = NasFiles::tr("%1 is there and is not a plain file: nothing was written.")
                            .arg(part);
                break;
            }
            ok = sftp.upload(
                     i.local, part, [&](qint64 n) { shared->done = base + n; }, shared->stop,
                     &error) &&
                 !cancel;
            if (ok) {
                const auto written = sftp.stat(part, &error);
                ok = written && written->size == i.size;
                if (written && !ok)
                    error = NasFiles::tr("%1: %2 on the NAS of %3")
                                .arg(i.remote, format::bytes(written->size), format::bytes(i.size));
            }
            ok = ok && sftp.rename(part, i.remote, &error);
            base += i.size;
            placed += i.size;
            ++copied;
        }
        QString message = error;
        if (ok && folder)
            message = NasFiles::tr("Uploaded %n file(s), %1, to %2.", nullptr, copied + already)
                          .arg(format::bytes(placed), remoteTop);
        else if (ok)
            message = NasFiles::tr("Uploaded %1 (%2) to %3.")
                          .arg(top.fileName(), format::bytes(top.size()), remoteTop);
        if (ok && already > 0)
            message += u' ' + NasFiles::tr("%n of them were there from a copy that broke.", nullptr,
                                           already);
        if (!left.isEmpty())
            message += u'\n' + NasFiles::tr("Left: %1").arg(left.join(u'\n'));
        return NasFiles::ended(self, ok, message);
    };
    startCopy(work, QDateTime::currentMSecsSinceEpoch());
}

NasFiles::UploadList NasFiles::listFolder(const QString &local, const QString &remoteTop)
{
    UploadList out;
    out.folders << remoteTop;
    // Links are named and left, never followed (a link may lead anywhere); the iterator does
    // not enter linked folders, and lists a folder before what it holds.
    QDirIterator it(local, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    const QDir base(local);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo fi = it.fileInfo();
        const QString remote = remoteTop + u'/' + base.relativeFilePath(path);
        if (fi.isSymLink())
            out.left << tr("%1: a link, not followed").arg(path);
        else if (fi.isDir() && !fi.isReadable())
            out.left << tr("%1: cannot be read").arg(path);
        else if (fi.isDir())
            out.folders << remote;
        else if (!fi.isFile())
            out.left << tr("%1: a special file, not copied").arg(path);
        else if (!fi.isReadable())
            out.left << tr("%1: cannot be read").arg(path);
        else
            out.files.append({path, remote, fi.size()});
    }
    return out;
}

} // namespace gpudesk
