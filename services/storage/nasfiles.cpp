// SPDX-License-Identifier: GPL-3.0-or-later
#include "nasfiles.h"

#include "appsettings.h"
#include "clustersession.h"
#include "contextconnection.h"
#include "format.h"
#include "kubeclient.h"
#include "nascopy.h"
#include "nasinspect.h"
#include "nasplanner.h"
#include "operation.h"
#include "operationsservice.h"
#include "podfileclient.h"
#include "podnasmounts.h"
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
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QSet>
#include <QUrl>

#include <algorithm>
#include <mutex>

namespace gpudesk {

namespace {

constexpr int GiveUpMs = 30 * 1000;
constexpr int RetryMs = 300;
// A check waits on the NAS no longer than this (a form's verdict, a --check).
constexpr int InspectGiveUpMs = 10 * 1000;

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
    const bool nodes = reachesNodes();
    NasPlanner p(c ? c->context() : QString(), c ? c->endpoint().server : QString(),
                 nodes ? pickNode(1) : QString(), roots());
    if (!nodes)
        p.setPod(m_pod); // the dev environment the files were listed through
    return p;
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
    // The pod route's threads stop between commands (their commands are cancelled) and are
    // waited for: none outlives what it reports to.
    *m_closing = true;
    for (const QPointer<QThread> &t : std::as_const(m_workers))
        if (t)
            t->wait();
}

QString NasFiles::unavailableReason() const
{
    // Without SSH to the nodes, the user's dev environment pod is looked for when asked.
    return m_session->connection() ? QString() : tr("Not connected.");
}

bool NasFiles::reachesNodes() const
{
    const auto &c = m_session->connection();
    return c && c->pool();
}

QString NasFiles::nodesUnavailableReason() const
{
    const auto &c = m_session->connection();
    if (!c)
        return tr("Not connected.");
    if (!c->pool())
        return tr("This needs SSH to a node that mounts the NAS, and gpudesk has no SSH to the "
                  "nodes here (node telemetry is off): your dev environment's pod reaches your "
                  "files, but the cleanup's walks and checks are done from a node.");
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
    onAccess(
        [dir, self = QPointer<NasFiles>(this)](RemoteFileAccess *files, QString error,
                                               const std::atomic<bool> &) {
            std::optional<QList<RemoteFile>> entries;
            if (files)
                entries = files->list(dir, &error);
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
    onAccess(
        [path, to, done](RemoteFileAccess *files, QString error, const std::atomic<bool> &) {
            QByteArray bytes;
            qint64 from = 0, size = 0;
            if (files) {
                bytes = files->readPart(path, -ViewBytes, ViewBytes, &error, &from, &size)
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
    if (const QString why = nodesUnavailableReason(); !why.isEmpty()) {
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

void NasFiles::onAccess(AccessWork work, std::function<void(const QString &)> giveUp, qint64 until)
{
    if (const QString why = unavailableReason(); !why.isEmpty()) {
        giveUp(why);
        return;
    }
    if (!reachesNodes()) {
        onPod(std::move(work), m_closing);
        return;
    }
    // A listing or a read: nothing to cancel half-way.
    onFilesSession(
        [work](SftpClient *sftp, const QString &error) {
            const std::atomic<bool> never{false};
            return work(sftp, error, never);
        },
        std::move(giveUp), until);
}

void NasFiles::findPod(std::function<void(std::optional<PodNasRoute>, QString)> done)
{
    KubeClient *client = m_session->connection()->client();
    const QString ns = client->endpoint().defaultNamespace;
    const QString query = QStringLiteral("pods?labelSelector=") +
                          QString::fromLatin1(QUrl::toPercentEncoding(u"gpudesk.io/devenv"_qs));
    const QString path = ns.isEmpty() ? QStringLiteral("/api/v1/") + query
                                      : QStringLiteral("/api/v1/namespaces/%1/%2").arg(ns, query);
    const QStringList nas = roots();
    client->get(path, this, [done, nas, ns](const KubeReply &r) {
        if (!r.ok()) {
            done(std::nullopt, tr("gpudesk has no SSH to the nodes here, and your dev "
                                  "environments could not be read: %1")
                                   .arg(r.error));
            return;
        }
        const QJsonArray items =
            QJsonDocument::fromJson(r.body).object().value(QLatin1String("items")).toArray();
        auto route = PodNasMounts::choose(items, nas, ns);
        if (route)
            done(route, QString());
        else
            done(std::nullopt,
                 tr("gpudesk has no SSH to the nodes here, and none of your dev environments runs "
                    "with a folder of the NAS (%1) mounted: start one to reach your files "
                    "through it.")
                     .arg(nas.join(QStringLiteral(", "))));
    });
}

void NasFiles::onPod(AccessWork work, std::shared_ptr<std::atomic<bool>> stop)
{
    const QPointer<NasFiles> self(this);
    findPod([self, work, stop](const std::optional<PodNasRoute> &route, const QString &why) {
        if (!self)
            return;
        if (!route) {
            const std::atomic<bool> none{false};
            if (const std::function<void()> after = work(nullptr, why, none))
                after();
            return;
        }
        const QString said =
            tr("Through %1, your dev environment's pod (namespace %2): the NAS's folders it "
               "mounts.")
                .arg(route->pod, route->ns);
        self->m_pod = route->ns + u'/' + route->pod;
        if (std::exchange(self->m_route, said) != said)
            emit self->routeChanged();
        // A client of the thread's own: the window's lives on the UI thread.
        const ClusterEndpoint endpoint = self->m_session->connection()->client()->endpoint();
        QThread *thread =
            QThread::create([endpoint, route = *route, work, stop, closing = self->m_closing] {
                KubeClient client(endpoint);
                PodFileClient files(&client, route.ns, route.pod, route.container, route.mounts,
                                    route.mountPoints);
                files.setCancel(closing.get());
                if (std::function<void()> after = work(&files, QString(), *stop))
                    QMetaObject::invokeMethod(QCoreApplication::instance(), std::move(after),
                                              Qt::QueuedConnection);
            });
        thread->setParent(self);
        connect(thread, &QThread::finished, thread, &QObject::deleteLater);
        self->m_workers.removeAll(nullptr);
        self->m_workers.append(thread);
        thread->start();
    });
}

void NasFiles::startCopy(AccessWork work, qint64 since)
{
    if (const QString why = unavailableReason(); !why.isEmpty()) {
        m_copying = false;
        emit finished(false, why);
        return;
    }
    if (!reachesNodes()) {
        // Cancel stops the pod's commands as it stops SFTP's chunks.
        auto stop = std::shared_ptr<std::atomic<bool>>(m_shared, &m_shared->stop);
        m_lastDone = 0;
        m_lastAt = QDateTime::currentMSecsSinceEpoch();
        m_rate = 0;
        m_ticker.start();
        onPod(std::move(work), stop);
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
                                   if (!c)
                                       return work(nullptr, status.message, cancel);
                                   SftpClient sftp(c);
                                   QString error;
                                   if (!sftp.open(&error))
                                       return work(nullptr, error, cancel);
                                   return work(&sftp, QString(), cancel);
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
    m_shared = std::make_shared<NasCopyState>();
    auto shared = m_shared;
    startCopy(
        [what, localDir, shared, self = QPointer<NasFiles>(this)](
            RemoteFileAccess *files, const QString &error,
            const std::atomic<bool> &cancel) -> std::function<void()> {
            if (!files)
                return NasFiles::ended(self, false, error);
            const auto [ok, message] =
                NasCopy::download(*files, what, localDir, shared.get(), cancel);
            return NasFiles::ended(self, ok, message);
        },
        QDateTime::currentMSecsSinceEpoch());
}

void NasFiles::upload(const QString &local, const QString &remoteDir)
{
    if (m_copying)
        return;
    m_copying = true;
    m_shared = std::make_shared<NasCopyState>();
    auto shared = m_shared;
    const QString into = remoteDir.endsWith(u'/') ? remoteDir : remoteDir + u'/';
    startCopy(
        [local, into, shared, self = QPointer<NasFiles>(this)](
            RemoteFileAccess *files, const QString &error,
            const std::atomic<bool> &cancel) -> std::function<void()> {
            if (!files)
                return NasFiles::ended(self, false, error);
            const auto [ok, message] = NasCopy::upload(*files, local, into, shared.get(), cancel);
            return NasFiles::ended(self, ok, message);
        },
        QDateTime::currentMSecsSinceEpoch());
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
