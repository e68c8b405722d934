// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "remotefile.h"

#include <QCoreApplication>
#include <QList>
#include <QStringList>

#include <functional>

class QObject;

namespace gpudesk {

class SftpClient;
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
    // On `preferred` ("" the first node of `pool` that takes the work, by name), to `done` on
    // `receiver`'s thread unless it is gone: tried again every RetryMs while every node that
    // answers is busy, until GiveUpMs (`until`: when, ms since the epoch; 0 from now); at
    // once with why when no node answers.
    static void onPool(SshPool *pool, const QString &preferred, const QStringList &paths,
                       bool follow, QObject *receiver, Done done, qint64 until = 0);
    static constexpr int RetryMs = 300;
    static constexpr int GiveUpMs = 10000;
};

} // namespace gpudesk
