// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "remotefile.h"

#include <QCoreApplication>
#include <QList>
#include <QStringList>

#include <atomic>
#include <functional>
#include <utility>

class QObject;

namespace gpudesk {

class SftpClient;
class SshConnection;
class SshPool;

// What the NAS says of some paths, over SFTP on a node that mounts it: each path's lstat (stat
// with `follow`) and a link's target as written. The window asks through NasFiles (its files
// session, retried while busy); a headless report, which has a pool of its own and no
// NasFiles, asks a node of that pool directly.
class NasInspect
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::NasInspect)
public:
    using Done = std::function<void(QList<RemotePathInfo>, QString error)>;
    // With the client open (on the pool's worker): every path's facts, or none and why the NAS
    // could not say (a path that is not there is a fact, not an error).
    static QList<RemotePathInfo> read(SftpClient *sftp, const QStringList &paths, bool follow,
                                      QString *error);

    // Work on a node's connection (null, with why, when it could not be had), on the pool's
    // worker; what it returns runs on the UI thread.
    using NodeWork = std::function<std::function<void()>(SshConnection *, const QString &error,
                                                         const std::atomic<bool> &cancel)>;
    // Where to try now: the pool and its nodes, in order (none: no node answers yet).
    using Where = std::function<std::pair<SshPool *, QStringList>()>;
    // `work` on the first of those nodes with a session free — the files' own, else the long
    // or the sampling one; asked again every RetryMs while none takes it, until `until` (ms
    // since the epoch), then `giveUp` is told why. Both on `context`'s thread, unless it is
    // gone. The window's NAS (NasFiles) and a headless report's share it.
    static void onNode(const Where &where, NodeWork work,
                       std::function<void(const QString &)> giveUp, qint64 until, QObject *context);
    // The paths asked on a node of `pool` (`preferred`, else the first that answers by
    // name), for up to GiveUpMs.
    static void onPool(SshPool *pool, const QString &preferred, const QStringList &paths,
                       bool follow, QObject *receiver, Done done);
    static constexpr int RetryMs = 300;
    static constexpr int GiveUpMs = 10000;
};

} // namespace gpudesk
