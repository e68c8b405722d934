// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "storageusage.h"

#include <QByteArray>
#include <QHash>

#include <map>
#include <unordered_map>

namespace gpudesk {

// Sums the output of nodecmd::storageWalkCommand() as it streams in, per folder right below
// the root: one record per entry, `%y %s %b %T@ %A@ %n %i %P` and a NUL, so that any name —
// spaces, newlines, `$(...)` — is data; a file of several names (hard links) counted once. The walk
// of a NAS with millions of files is tens of MB; only the sums and the few largest files are kept,
// never the listing. Not thread-safe: one walk, one worker.
class StorageWalk
{
public:
    // `root`: the path walked ("/mnt/user"); `kind`: "user" or "group"; `nowMs`: when the walk
    // began (what "changed within a day" counts from).
    StorageWalk(QString root, QString kind, qint64 nowMs);

    void feed(const char *data, qsizetype size);
    void feed(const QByteArray &chunk) { feed(chunk.constData(), chunk.size()); }
    // The walk's complaints (find's standard error): a folder it could not read, and its other
    // lines as find said them.
    void addErrors(const QByteArray &stderrText);
    // The folders, biggest first. `complete`: the walk ran to its end.
    StorageRootMeasure finish(bool complete);

    qint64 entries() const { return m_entries; }
    qint64 bytesSoFar() const { return m_bytes; }

    // A record longer than this is not one (PATH_MAX is 4096): skipped up to the next NUL.
    static constexpr qsizetype MaxRecord = 16 * 1024;
    // Entries right below a folder tracked by name (for its largest parts), and folders right
    // below the root; past these, the rest is summed under "…".
    static constexpr qsizetype MaxPartsTracked = 4096;
    static constexpr qsizetype MaxFolders = 100000;
    // Job output folders tracked per folder (checkpoints/NAME…); past it, the others are not
    // told apart (a cleanup never offers what it could not weigh).
    static constexpr qsizetype MaxJobOutputsTracked = 4096;
    // And in the whole walk (100,000 users' folders would otherwise hold 400 million).
    static constexpr qsizetype MaxJobOutputsInWalk = 200000;

private:
    // By inode: how many of its names are still to be met.
    using Names = std::unordered_map<quint64, qint64>;
    // Whether this is the first of the file's names met (then it is remembered).
    static bool firstName(Names &seen, quint64 inode, qint64 links);
    struct Folder
    {
        StorageFolder sums;
        std::map<QString, StoragePart> parts; // by name
        // Its jobs' output folders, by "checkpoints/NAME"; at most MaxJobOutputsTracked. find
        // lists a folder's entries together: the last one met is looked up first.
        std::map<QString, StorageJobOutput> jobOutputs;
        StorageJobOutput *lastJobOutput = nullptr;
        Names linked; // files with several names met here, not all of them yet
    };
    void record(const char *begin, const char *end);
    void malformed(const char *begin, const char *end);
    static void keepLargest(QList<StorageFile> &files, StorageFile file, int max);

    QString m_root;
    QString m_kind;
    qint64 m_now;
    QByteArray m_partial;
    bool m_skipping = false; // inside an over-long record
    QHash<QString, Folder> m_folders;
    QList<StorageProblem> m_problems;
    static constexpr int MaxProblems = 50;
    qint64 m_entries = 0;
    qint64 m_bytes = 0;
    qint64 m_malformed = 0;
    qsizetype m_jobOutputs = 0; // job output folders tracked in all folders
    Names m_linked;             // files with several names met in the root, not all of them yet
};

} // namespace gpudesk
