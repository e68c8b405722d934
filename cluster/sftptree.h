// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace gpudesk {

class RemoteFileAccess;

// A file or a folder with everything below it, over SFTP or through a dev environment pod
// (RemoteFileAccess): counted (what a removal would take) or removed. Links are entries like any
// file: removed themselves, never followed; a folder that cannot be read is said, and what it holds
// stays. Blocking, on the connection's worker.
class SftpTree
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::SftpTree)
public:
    struct Tally
    {
        qint64 files = 0; // entries that are not folders (links included)
        qint64 folders = 0;
        qint64 bytes = 0;     // their sizes as listed (a sparse file's length, not its blocks)
        QStringList problems; // the first few, in words
        qint64 problemCount = 0;
        bool cut = false; // cancelled, or the count stopped at its limit
        void problem(const QString &what);
    };
    static constexpr int KeptProblems = 5;

    explicit SftpTree(RemoteFileAccess &files) : m_sftp(files) {}

    // `path`'s content as a removal would find it; stops after `limit` entries (cut).
    Tally count(const QString &path, qint64 limit, const std::atomic<bool> &cancel);
    // Removes `path` (its type as lstat says: a folder goes depth first, each entry as it is
    // listed; before a folder is listed and before each entry goes, the folder is checked to be
    // read by the NAS as itself — a link swapped in since is not followed). `progress(tally)` after
    // each entry; stops between entries when cancelled (cut). Everything that could not be removed
    // is in the tally's problems.
    using Progress = std::function<void(const Tally &)>;
    Tally remove(const QString &path, const Progress &progress, const std::atomic<bool> &cancel);

private:
    // Every entry of `path` depth first, a folder after its content, the root last: `onEntry`
    // acts on one and says whether it went well. A folder is given only when everything below
    // it went well (a removal keeps a folder whose content stays, and says why once).
    using OnEntry = std::function<bool(const QString &path, char type, qint64 size)>;
    void walk(const QString &path, Tally &t, const std::atomic<bool> &cancel, qint64 limit,
              bool guarded, const OnEntry &onEntry);
    // Whether the NAS reads `dir` as itself (no link on the way); else the problem is told.
    bool readDirectly(const QString &dir, Tally &t);

    RemoteFileAccess &m_sftp;
};

} // namespace gpudesk
