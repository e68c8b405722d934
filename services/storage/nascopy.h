// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "remotefile.h"

#include <QString>

#include <atomic>
#include <mutex>
#include <utility>

namespace gpudesk {

class RemoteFileAccess;

// What a copy on its worker tells the UI thread (NasFiles' ticker reads it).
struct NasCopyState
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

// The copies of NasFiles, whichever way the NAS is reached (SFTP on a node, exec in a dev
// environment pod): blocking, on the copy's worker; each gives whether it went well and what to
// tell (what was copied where, what was left and why).
namespace NasCopy {

// A file, or a folder with all below it, into `localDir` (a folder of that name made there).
// A file already here at its size is taken as copied before; one cut short goes on from
// NAME.part.
std::pair<bool, QString> download(RemoteFileAccess &files, const RemoteFile &what,
                                  const QString &localDir, NasCopyState *shared,
                                  const std::atomic<bool> &cancel);
// A local file, or a folder with all below it, into the NAS folder `into` (ending in '/').
std::pair<bool, QString> upload(RemoteFileAccess &files, const QString &local, const QString &into,
                                NasCopyState *shared, const std::atomic<bool> &cancel);

} // namespace NasCopy

} // namespace gpudesk
