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
    // A job output's: the folder's name, when its job ended (0: no job of that name is left),
    // and the newest time a file below it was read.
    QString job;
    qint64 jobEnded = 0;
    qint64 lastRead = 0;
};

// The cluster's jobs and pods, by name (as the API has them: lowercase).
struct ClusterJobs
{
    // By the user their namespace is labelled for: when each ended — 0 while it runs or
    // waits, or where its end is not known (then what is named after it is never offered).
    QHash<QString, QHash<QString, qint64>> byUser;
    // Those that run or wait in any namespace (a team's too), each name with every stem of
    // it before a "-" ("x-worker-0": also "x", "x-worker"): what is named after them is kept,
    // whoever's folder it is in. addLive() puts one in.
    QSet<QString> live;
    void addLive(const QString &name)
    {
        live.insert(name);
        for (qsizetype i = name.indexOf(u'-'); i > 0; i = name.indexOf(u'-', i + 1))
            live.insert(name.left(i));
    }
};

struct NasCleanupOptions
{
    QList<NasCandidate::Class> classes; // empty: every class
    int coreDumpDays = 7;               // a fresh core dump may be under study
    int departedDays = 30;              // a folder written to lately is someone's
    int jobOutputDays = 90;             // a job's outputs read or written more lately are in use
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
                                const std::optional<ClusterJobs> &jobs = std::nullopt);
    // Whether a job or pod named `name` may have written the output folder `folder`: the same
    // name, or the folder's name followed by "-…" (the pods of job x are x-worker-0, a name
    // made from x is x-7f3k2), compared as the API spells names (lowercase, "_" as "-").
    static bool namedAfter(const QString &folder, const QString &name);
    // Whether a folder's name can be a job's at all: a DNS-1123 label with a letter in it, once
    // lowercased with "_" as "-" ("2024-11-29", "Bert Large", "v1.2" cannot be).
    static bool jobLike(const QString &folder);
    // What says the candidate is not needed, in words (the walk's figures, as of `nowMs`).
    static QString evidence(const NasCandidate &c, qint64 nowMs);
};

} // namespace gpudesk
