// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nascleanup.h"
#include "nasinspect.h"
#include "nasplanner.h"
#include "operationplan.h"
#include "remotefile.h"

#include <QObject>
#include <QPointer>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace gpudesk {

class ClusterSession;
class OperationsService;
class RemoteFileAccess;
class SftpClient;
class SshConnection;
struct NasCopyState;
struct PodNasRoute;

// The NAS's files over SFTP, on a node that mounts it (the one set for the context, else the
// first that answers), on the node's third SSH session so that a walk of the NAS or an image
// push does not hold them up: list a folder, download a file or a whole folder, upload a file —
// one copy at a time, with progress, speed and cancel. A copy that broke goes on where it
// stopped: a download into NAME.part (renamed once whole), an upload into NAME.part on the NAS.
// Names are data (SFTP, no shell); links are not followed when a folder is copied.
// Without SSH to the nodes (a researcher's account) the same browsing and copies go through her
// running dev environment pod, over exec (PodFileClient), on a worker thread of their own:
// the folders of the NAS the pod mounts; removals and moves are planned through it too. The
// cleanup's checks need a node.
class NasFiles : public QObject
{
    Q_OBJECT
public:
    // `operations`: where removals and moves run; their ends are told as changed().
    NasFiles(ClusterSession *session, OperationsService *operations, QObject *parent = nullptr);
    ~NasFiles() override;

    // Why files cannot be reached now ("" when they can).
    QString unavailableReason() const;
    // Whether a node is reached over SSH (the cleanup's checks need one; files and removals go
    // through the user's dev environment otherwise).
    bool reachesNodes() const;
    // Why what needs a node (the cleanup's checks and walks) cannot be done ("" when it can).
    QString nodesUnavailableReason() const;
    // How the files are reached when not over a node's SSH: the dev environment pod, in words
    // ("" over SSH, or before the pod is found); told by routeChanged.
    QString route() const { return m_route; }
    bool isCopying() const { return m_copying; }

    void list(const QString &dir);
    // What the NAS says of each path (lstat, or stat with `follow`; a link's target as
    // written), to `done` on `receiver`'s thread unless it is gone: every path's facts, or none
    // and why the NAS could not be asked.
    void inspect(const QStringList &paths, bool follow, QObject *receiver,
                 std::function<void(QList<gpudesk::RemotePathInfo>, QString)> done);
    // A file, or a folder with all below it, into `localDir` (a folder of that name made there).
    void download(const RemoteFile &what, const QString &localDir);
    // A local file, or a folder with all below it, into `remoteDir` (a folder of that name made
    // there). A file already on the NAS is never replaced: in a folder, one of the same size is
    // taken as copied before (a copy that broke goes on), another is named and left; links and
    // special files are named and left, never followed.
    void upload(const QString &local, const QString &remoteDir);

    struct UploadItem
    {
        QString local;
        QString remote;
        qint64 size = 0;
    };
    struct UploadList
    {
        QStringList folders; // to make, each before what it holds
        QList<UploadItem> files;
        QStringList left; // what is not copied, and why
        qint64 bytes() const
        {
            qint64 n = 0;
            for (const UploadItem &i : files)
                n += i.size;
            return n;
        }
    };
    // What copying the local folder `local` to `remoteTop` takes.
    static UploadList listFolder(const QString &local, const QString &remoteTop);
    void cancel();

    // A text file's content for reading: the whole file up to ViewBytes, else its last
    // ViewBytes from a line's start (a log's end is what is read). To `done` on `receiver`'s
    // thread: the bytes, where they start in the file, the file's size, or why not.
    static constexpr qint64 ViewBytes = 1 << 20;
    void read(const RemoteFile &file, QObject *receiver,
              std::function<void(QByteArray, qint64 from, qint64 size, QString error)> done);

    // The NAS's roots for the current context (the settings', else the seed layout's).
    QStringList roots() const;

    // Plans for the operations framework (NasPlanner), through the node a copy would take.
    OperationPlan planRemove(const QList<RemoteFile> &entries) const;
    OperationPlan planMove(const RemoteFile &entry, const QString &toFolder) const;
    // Cleanup candidates removed (NasPlanner::cleanup), after each path is asked of the NAS
    // again and each folder among them walked again (with the walk's own command, at the idle
    // IO class; RecheckLimitMs at most); to `done` on `receiver`'s thread unless it is gone. A
    // NAS that cannot be asked gives a plan refused with why.
    void planCleanup(const QList<NasCandidate> &candidates, QObject *receiver,
                     std::function<void(gpudesk::OperationPlan)> done);
    static constexpr int RecheckLimitMs = 10 * 60 * 1000;

signals:
    void listed(const QString &dir, const QList<gpudesk::RemoteFile> &entries,
                const QString &error);
    // `current`: the file being copied; `bytesPerSecond` over the last seconds.
    void progress(qint64 done, qint64 total, qint64 bytesPerSecond, const QString &current);
    // How the copy ended: `ok`, and what to tell (what was copied where, what was left and why).
    void finished(bool ok, const QString &message);
    // A removal or move on the NAS ended: listings may be out of date.
    void changed();
    void routeChanged();

private:
    QString pickNode(int lane) const;
    NasPlanner planner() const;
    // `work` on the node's files session (its second when that is busy), the SFTP client open
    // (null, with why, when it could not be); tried again shortly while both are busy, until
    // `giveUp` is told why not (at `until`, ms since the epoch).
    using FilesWork = std::function<std::function<void()>(SftpClient *, QString error)>;
    void onFilesSession(FilesWork work, std::function<void(const QString &)> giveUp, qint64 until);
    // The same with the node's connection itself (a command to run), null with why.
    void onNodeSession(NasInspect::NodeWork work, std::function<void(const QString &)> giveUp,
                       qint64 until);
    // Cleanup's folders walked again right before the plan (FolderRecheck), to `done` on
    // `receiver`'s thread unless it is gone; each with why when the node could not be asked.
    void recheckFolders(const QList<NasCandidate> &folders, QObject *receiver,
                        std::function<void(QHash<QString, FolderRecheck>)> done);
    // Work on the files, whichever way they are reached: `files` null with why when they
    // cannot be; what it returns runs on the UI thread.
    using AccessWork = std::function<std::function<void()>(
        RemoteFileAccess *files, const QString &error, const std::atomic<bool> &cancel)>;
    void onAccess(AccessWork work, std::function<void(const QString &)> giveUp, qint64 until);
    // The work on a thread of its own that execs in the user's dev environment pod (found
    // first); `stop` ends it (its commands are cancelled).
    void onPod(AccessWork work, std::shared_ptr<std::atomic<bool>> stop);
    void findPod(std::function<void(std::optional<PodNasRoute>, QString why)> done);
    void startCopy(AccessWork work, qint64 since);
    void tick();
    static std::function<void()> ended(QPointer<NasFiles> self, bool ok, const QString &message);

    ClusterSession *m_session;
    bool m_copying = false;
    std::shared_ptr<NasCopyState> m_shared;
    QString m_route;
    QString m_pod; // NAMESPACE/NAME of the dev environment last found for the files
    // Set when this goes: the pod route's threads stop, and are waited for.
    std::shared_ptr<std::atomic<bool>> m_closing = std::make_shared<std::atomic<bool>>(false);
    QList<QPointer<QThread>> m_workers;
    QTimer m_ticker;
    qint64 m_lastDone = 0;
    qint64 m_lastAt = 0;
    qint64 m_rate = 0;
};

} // namespace gpudesk
