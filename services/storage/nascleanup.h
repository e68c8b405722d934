// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "storageusage.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QSet>
#include <QStringList>

#include <optional>

namespace gpudesk {

// Something on the NAS no one seems to need, with what says so: found in the last walk (never a
// walk of its own), planned for removal only after the NAS is asked again (NasPlanner::cleanup).
struct NasCandidate
{
    enum Class
    {
        StaleFile,    // 1 GiB and more, neither read nor changed for 90 days
        CoreDump,     // core, core.<pid>, older than the options' days
        DepartedUser, // a user's folder whose user has no namespace any more
        JobOutput,    // checkpoints/NAME of a job gone or ended long ago, untouched since
    };
    Class cls = StaleFile;
    QString path;
    char type = 'f';  // 'f' a file, 'd' a folder
    QString owner;    // the user's or group's folder it is in (a departed user: the folder's)
    QString kind;     // "user" or "group"
    qint64 bytes = 0; // a folder: everything below it
    qint64 allocated = 0;
    qint64 files = 0;    // a folder's files
    qint64 modified = 0; // a file's mtime; a folder's newest mtime below it (ms)
    qint64 accessed = 0; // a file's atime (ms)
    qint64 measuredAt = 0;
    QString node; // where the walk that found it ran
    // A job output's job: its name, and when it ended (0: no job of that name is left).
    QString job;
    qint64 jobEnded = 0;
};

// The cluster's jobs by the user they are of (their namespace's gpudesk.io/user): each job's
// and bare pod's name, and when it ended — 0 while it runs or waits, or when its end is not
// known (then its outputs are never offered).
using OwnersJobs = QHash<QString, QHash<QString, qint64>>;

struct NasCleanupOptions
{
    QList<NasCandidate::Class> classes; // empty: every class
    int coreDumpDays = 7;               // a fresh core dump may be under study
    int departedDays = 30; // a folder written to lately is someone's (a job's outputs too)
};

struct NasCleanupFound
{
    QList<NasCandidate> candidates; // the biggest first
    // What could not be judged, and why ("departed users: the namespaces could not be read").
    QStringList notes;
};

// Finds the candidates of each class in the walks' figures, each thing once: what lies in a
// departed user's folder is that folder's, a core dump over 1 GiB and 90 days is a core dump.
class NasCleanup
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::NasCleanup)
public:
    static constexpr int kClassCount = 4;
    // "nas-stale-file", "nas-core-dump", "nas-departed-user", "nas-job-output": --cleanup's
    // names.
    static QString classId(NasCandidate::Class c);
    static std::optional<NasCandidate::Class> classFromId(const QString &id);
    static QString classTitle(NasCandidate::Class c);

    // `users`: the cluster's users now (namespaces labelled gpudesk.io/user); none when they
    // could not be read — then no folder is called a departed user's. `jobs`: their jobs now;
    // none when they could not all be read — then no job's outputs are offered.
    static NasCleanupFound find(const QList<StorageRootMeasure> &measures,
                                const std::optional<QSet<QString>> &users,
                                const NasCleanupOptions &options, qint64 nowMs,
                                const std::optional<OwnersJobs> &jobs = std::nullopt);
    // What says the candidate is not needed, in words (the walk's figures, as of `nowMs`).
    static QString evidence(const NasCandidate &c, qint64 nowMs);
};

} // namespace gpudesk
