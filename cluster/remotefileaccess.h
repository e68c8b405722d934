// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "remotefile.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace gpudesk {

// What a copy of the NAS's files needs of the way it reaches them: SFTP on a node that mounts
// the NAS (SftpClient), or exec into a dev environment pod that mounts its user's folders
// (PodFileClient). Paths are the NAS's (/mnt/user/alice/ckpt), whichever way is taken. Blocking,
// on the worker the copy runs on; a copy stops between chunks when `cancel` is set.
class RemoteFileAccess
{
public:
    virtual ~RemoteFileAccess() = default;

    // The folder's entries, without . and .., folders first then by name.
    virtual std::optional<QList<RemoteFile>> list(const QString &dir, QString *error) = 0;
    // The entry itself (a link is a link: lstat).
    virtual std::optional<RemoteFile> stat(const QString &path, QString *error) = 0;
    // `progress(bytes so far)` after each chunk. download: into `local` from its current size
    // (a resumed copy), to the remote file's end; upload: from `local` into `remote` from the
    // remote file's current size. False with why (cancelled included).
    using Progress = std::function<void(qint64)>;
    virtual bool download(const QString &remote, const QString &local, const Progress &progress,
                          const std::atomic<bool> &cancel, QString *error) = 0;
    virtual bool upload(const QString &local, const QString &remote, const Progress &progress,
                        const std::atomic<bool> &cancel, QString *error) = 0;
    // A file or link (the link itself: never what it points at), and an empty folder.
    virtual bool remove(const QString &path, QString *error) = 0;
    virtual bool removeFolder(const QString &path, QString *error) = 0;
    // Whether `path` is read as written — no link on its way — so that what acts on it acts
    // there and nowhere else. False with why.
    virtual bool readsAsWritten(const QString &path, QString *why) = 0;
    // Whether the last call failed because the path is not there.
    virtual bool lastWasMissing() const = 0;
    // Renames; refused where `to` exists.
    virtual bool rename(const QString &from, const QString &to, QString *error) = 0;
    // A folder made; one already there is fine (a copy that broke made it), anything else there
    // is not.
    virtual bool makeFolder(const QString &path, QString *error) = 0;
    // Up to `max` bytes of a regular file from `offset` (below 0: that far before its end).
    // `from` and `size`: where the bytes start, and the file's size.
    virtual std::optional<QByteArray> readPart(const QString &path, qint64 offset, qint64 max,
                                               QString *error, qint64 *from = nullptr,
                                               qint64 *size = nullptr) = 0;
};

} // namespace gpudesk
