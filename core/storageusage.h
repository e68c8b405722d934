// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace gpudesk {

// A file big enough to be named on the Storage page (and, later, offered for cleanup).
struct StorageFile
{
    QString path;         // as the node sees it: "/mnt/user/alice/checkpoints/step-9000.pt"
    qint64 bytes = 0;     // its size (what a download transfers)
    qint64 allocated = 0; // what it takes on the disk: far less for a sparse file
    qint64 modified = 0;  // ms since the epoch
    qint64 accessed = 0;  // ms since the epoch (as the NAS keeps atime: often relatime)
};

// One entry right below a measured folder ("checkpoints", "code"), summed over all below it.
struct StoragePart
{
    QString name;
    qint64 bytes = 0;
    qint64 lastChange = 0; // the newest mtime at or below it, ms since the epoch
};

// The outputs of one job: a folder right below one of its owner's output folders
// (checkpoints/NAME, outputs/NAME, …; see isOutputFolder), summed over all below it. Training
// scripts name these after the job (`--output checkpoints/$JOB`): what a cleanup weighs against
// the jobs the cluster still has.
struct StorageJobOutput
{
    QString path; // as the node sees it: "/mnt/user/alice/checkpoints/bert-zh-pretrain"
    QString job;  // the folder's name
    qint64 bytes = 0;
    qint64 allocated = 0;
    qint64 files = 0;      // entries that are not directories
    qint64 lastChange = 0; // the newest mtime at or below it, ms since the epoch
    qint64 lastRead = 0;   // the newest atime of its files (a checkpoint loaded to resume)
};

// A folder right below a user's or group's folder that holds one folder per job.
inline bool isOutputFolder(QStringView name)
{
    // Not runs/ (TensorBoard names its folders by date and host) nor work_dirs/ (mmdetection
    // by config): what lies there is not named after a job.
    static const QStringList names{QStringLiteral("checkpoints"), QStringLiteral("checkpoint"),
                                   QStringLiteral("ckpt"),        QStringLiteral("ckpts"),
                                   QStringLiteral("outputs"),     QStringLiteral("output")};
    return names.contains(name);
}

// One user's or group's folder on the NAS (/mnt/user/NAME, /mnt/share/GROUP), summed as
// `du -sb` does: the folder itself and every entry below it, directories and symbolic links
// included (their own sizes; links are never followed).
struct StorageFolder
{
    QString path;
    QString owner; // the folder's name: the user or the group
    QString kind;  // "user" or "group"
    qint64 bytes = 0;
    qint64 allocated = 0;
    qint64 files = 0; // entries that are not directories
    qint64 dirs = 0;  // directories below the folder
    qint64 lastChange = 0;
    // Bytes of the files changed within the day and the week before the walk: what was written
    // lately, known from one walk (the history gives the net growth, which deletions lower).
    qint64 changedDay = 0;
    qint64 changedWeek = 0;
    QList<StoragePart> largest;      // biggest first, at most MaxParts
    QList<StorageFile> largestFiles; // biggest first, at most MaxFiles
    QList<StorageFile> coreDumps;    // files named core or core.<number>, biggest first
    // Files of StaleMinBytes and more neither read nor changed for StaleDays, biggest first:
    // what cleanup looks at first (a checkpoint of a job long finished, a dataset copied once).
    QList<StorageFile> staleFiles;
    // Its jobs' output folders (checkpoints/NAME…), biggest first, at most MaxJobOutputs.
    QList<StorageJobOutput> jobOutputs;
    static constexpr int MaxJobOutputs = 20;
    static constexpr int StaleDays = 90;
    static constexpr qint64 StaleMinBytes = 1LL << 30;
    static constexpr int MaxParts = 8;
    static constexpr int MaxFiles = 10;
};

// What a walk could not read or understand: kept as data and put in words where it is shown,
// so that a walk cached in one language reads in the language of the window that shows it.
struct StorageProblem
{
    enum Kind
    {
        Unreadable, // `path` could not be read: what it holds is not counted
        NotRecords, // `count` lines were not records; `text` is the first
        Complaint,  // a line of find's own (its words, as kubectl's are kept)
        More        // `count` more complaints, not kept
    };
    Kind kind = Complaint;
    QString path;
    QString text;
    qint64 count = 0;
};

// One walk of one root on one node, with the root's own capacity from df.
struct StorageRootMeasure
{
    QString root;          // "/mnt/user"
    QString kind;          // "user" or "group"
    QString node;          // the node the walk ran on
    qint64 measuredAt = 0; // when the walk ended, ms since the epoch
    qint64 elapsedMs = 0;
    qint64 entries = 0;        // every entry the walk listed
    qint64 capacityBytes = -1; // -1 when df did not say
    qint64 usedBytes = -1;
    qint64 freeBytes = -1;
    QString filesystem;           // the device df names: "nas.lab.internal:/export/user"
    QList<StorageFolder> folders; // biggest first
    // What the walk could not read or understand: unreadable folders, lines that were not a
    // record. The figures above leave those parts out.
    QList<StorageProblem> problems;
    bool complete = false; // the walk ran to its end (it may still have problems)
    QString error;         // why there are no figures at all, when there are none

    // As df's Use%: used over used and available, rounded up — blocks reserved for root (ext4's
    // 5 %, seen through NFS too) count as neither, so this is 95 where used/size is 90.
    int percentUsed() const
    {
        const qint64 whole = usedBytes + freeBytes;
        return capacityBytes > 0 && usedBytes >= 0 && freeBytes >= 0 && whole > 0
                   ? int((usedBytes * 100 + whole - 1) / whole)
                   : -1;
    }
};

} // namespace gpudesk
