// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>

#include "remotefileaccess.h"

#include <QCoreApplication>
#include <QList>

#include <atomic>
#include <functional>
#include <optional>

struct sftp_session_struct;

namespace gpudesk {

class SshConnection;

// SFTP (libssh's client) on a connected session: list a folder, and copy a file either way,
// resuming where a broken copy stopped. Blocking, on the worker that holds the connection;
// every call bounded by the session's timeout, and a copy stops between chunks when `cancel`
// is set. Files are data: no name is ever given to a shell.
class SftpClient : public RemoteFileAccess
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::SftpClient)
public:
    explicit SftpClient(SshConnection *connection);
    ~SftpClient() override;
    SftpClient(const SftpClient &) = delete;
    SftpClient &operator=(const SftpClient &) = delete;

    bool open(QString *error);
    // The folder's entries, without . and .., folders first then by name.
    std::optional<QList<RemoteFile>> list(const QString &dir, QString *error) override;
    // The entry itself (a link is a link: lstat).
    std::optional<RemoteFile> stat(const QString &path, QString *error) override;
    // What the path leads to, links read by the NAS (stat).
    std::optional<RemoteFile> statFollowing(const QString &path, QString *error);
    // A link's target as written in it.
    std::optional<QString> readLink(const QString &path, QString *error);
    // `progress(bytes so far)` after each chunk. download: into `local` from its current size
    // (a resumed copy), to the remote file's end; upload: from `local` into `remote` from the
    // remote file's current size. False with why (cancelled included).
    bool download(const QString &remote, const QString &local, const Progress &progress,
                  const std::atomic<bool> &cancel, QString *error) override;
    bool upload(const QString &local, const QString &remote, const Progress &progress,
                const std::atomic<bool> &cancel, QString *error) override;

    // Renames on the NAS; refused where `to` exists (SFTP version 3 never replaces).
    bool rename(const QString &from, const QString &to, QString *error) override;
    // A file or link (the link itself: never what it points at), and an empty folder.
    bool remove(const QString &path, QString *error) override;
    bool removeFolder(const QString &path, QString *error) override;
    // A folder made (0755 less the server's umask); one already there is fine (a copy that broke
    // made it), anything else there is not.
    bool makeFolder(const QString &path, QString *error) override;
    // Whether the server reads `path` as written — no link on its way (realpath answers the
    // path itself) — so that what acts on it acts there and nowhere else. False with why.
    bool readsAsWritten(const QString &path, QString *why) override;
    // Up to `max` bytes of a regular file from `offset` (below 0: that far before its end),
    // never through a link: the path must be a plain file (lstat), read by the server as itself,
    // and the file opened the same one (no smaller, no older). `from` and `size`: where the
    // bytes start, and the file's size.
    std::optional<QByteArray> readPart(const QString &path, qint64 offset, qint64 max,
                                       QString *error, qint64 *from = nullptr,
                                       qint64 *size = nullptr) override;
    // Whether the last call failed because the path is not there.
    bool lastWasMissing() const override;

    static constexpr int Chunk = 64 * 1024;
    // Reads a download keeps in flight: each is a round trip, so one at a time copies at most a
    // chunk per round trip (64 KiB per 20 ms is 3 MB/s over a WAN). 1: one at a time.
    void setReadAhead(int requests) { m_readAhead = std::clamp(requests, 1, 64); }
    static constexpr int DefaultReadAhead = 16;

private:
    QString said(const QString &path) const;
    std::optional<RemoteFile> attributes(const QString &path, bool follow, QString *error);

    SshConnection *m_connection;
    sftp_session_struct *m_sftp = nullptr;
    int m_readAhead = DefaultReadAhead;
};

} // namespace gpudesk
