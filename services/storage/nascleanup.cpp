// SPDX-License-Identifier: GPL-3.0-or-later
#include "nascleanup.h"

#include "format.h"

#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>

namespace gpudesk {

namespace {

constexpr qint64 kDayMs = 24LL * 3600 * 1000;

QString day(qint64 ms)
{
    return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd"))
                  : QStringLiteral("—");
}

qint64 daysSince(qint64 ms, qint64 nowMs)
{
    return ms > 0 ? std::max<qint64>(0, (nowMs - ms) / kDayMs) : 0;
}

bool inside(const QString &path, const QStringList &folders)
{
    return std::any_of(folders.cbegin(), folders.cend(),
                       [&path](const QString &f) { return path.startsWith(f + u'/'); });
}

NasCandidate fileCandidate(NasCandidate::Class cls, const StorageFile &f,
                           const StorageFolder &folder, const StorageRootMeasure &m)
{
    NasCandidate c;
    c.cls = cls;
    c.path = f.path;
    c.type = 'f';
    c.owner = folder.owner;
    c.kind = folder.kind;
    c.bytes = f.bytes;
    c.allocated = f.allocated;
    c.files = 1;
    c.modified = f.modified;
    c.accessed = f.accessed;
    c.measuredAt = m.measuredAt;
    c.node = m.node;
    return c;
}

// A folder offered whole, in `folder` (a user's), as the walk summed it.
NasCandidate folderCandidate(NasCandidate::Class cls, const QString &path,
                             const StorageFolder &folder, qint64 bytes, qint64 allocated,
                             qint64 files, qint64 modified, const StorageRootMeasure &m)
{
    NasCandidate c;
    c.cls = cls;
    c.path = path;
    c.type = 'd';
    c.owner = folder.owner;
    c.kind = folder.kind;
    c.bytes = bytes;
    c.allocated = allocated;
    c.files = files;
    c.modified = modified;
    c.measuredAt = m.measuredAt;
    c.node = m.node;
    return c;
}

} // namespace

QString NasCleanup::classId(NasCandidate::Class c)
{
    switch (c) {
    case NasCandidate::StaleFile:
        return QStringLiteral("nas-stale-file");
    case NasCandidate::CoreDump:
        return QStringLiteral("nas-core-dump");
    case NasCandidate::DepartedUser:
        return QStringLiteral("nas-departed-user");
    case NasCandidate::JobOutput:
        return QStringLiteral("nas-job-output");
    }
    return QString();
}

std::optional<NasCandidate::Class> NasCleanup::classFromId(const QString &id)
{
    for (int i = 0; i < kClassCount; ++i)
        if (classId(NasCandidate::Class(i)) == id)
            return NasCandidate::Class(i);
    return std::nullopt;
}

QString NasCleanup::classTitle(NasCandidate::Class c)
{
    switch (c) {
    case NasCandidate::StaleFile:
        return tr("Stale large file");
    case NasCandidate::CoreDump:
        return tr("Core dump");
    case NasCandidate::DepartedUser:
        return tr("Folder of a user who left");
    case NasCandidate::JobOutput:
        return tr("Outputs of a job gone or long ended");
    }
    return QString();
}

bool NasCleanup::namedAfter(const QString &folder, const QString &name)
{
    QString f = folder.toLower();
    f.replace(u'_', u'-');
    return name == f ||
           (name.size() > f.size() + 1 && name.startsWith(f) && name[f.size()] == u'-');
}

bool NasCleanup::jobLike(const QString &folder)
{
    static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"));
    static const QRegularExpression letter(QStringLiteral("[a-z]"));
    QString f = folder.toLower();
    f.replace(u'_', u'-');
    return label.match(f).hasMatch() && letter.match(f).hasMatch();
}

NasCleanupFound NasCleanup::find(const QList<StorageRootMeasure> &measures,
                                 const std::optional<QSet<QString>> &users,
                                 const NasCleanupOptions &options, qint64 nowMs,
                                 const std::optional<ClusterJobs> &jobs)
{
    const auto wanted = [&options](NasCandidate::Class c) {
        return options.classes.isEmpty() || options.classes.contains(c);
    };
    NasCleanupFound out;
    // Folders offered whole (a departed user's, a job's outputs): what lies in them is not
    // listed again.
    QStringList departed;
    if (wanted(NasCandidate::DepartedUser)) {
        if (!users || users->isEmpty()) {
            out.notes << tr("Folders of users who left: not judged, the cluster's users could not "
                            "be read (namespaces labelled gpudesk.io/user).");
        } else {
            const qint64 cutoff = nowMs - options.departedDays * kDayMs;
            for (const StorageRootMeasure &m : measures) {
                if (m.kind != QLatin1String("user"))
                    continue;
                for (const StorageFolder &f : m.folders) {
                    if (users->contains(f.owner) || f.lastChange > cutoff)
                        continue;
                    out.candidates
                        << folderCandidate(NasCandidate::DepartedUser, f.path, f, f.bytes,
                                           f.allocated, f.files, f.lastChange, m);
                    departed << f.path;
                }
            }
        }
    }
    if (wanted(NasCandidate::JobOutput)) {
        if (!jobs) {
            out.notes << tr("Outputs of jobs: not judged, the cluster's jobs could not all be "
                            "read (pods, Volcano jobs, PyTorchJobs, MPIJobs).");
        } else {
            // A user's checkpoints/NAME neither changed nor read for the days asked, named after
            // no job or pod of the user's that runs, waits or ended lately, nor after one that
            // runs anywhere: its job is gone, or ended as long ago.
            const qint64 cutoff = nowMs - options.jobOutputDays * kDayMs;
            for (const StorageRootMeasure &m : measures) {
                if (m.kind != QLatin1String("user"))
                    continue;
                for (const StorageFolder &f : m.folders) {
                    if (departed.contains(f.path))
                        continue;
                    const QHash<QString, qint64> mine = jobs->byUser.value(f.owner);
                    for (const StorageJobOutput &o : f.jobOutputs) {
                        if (!jobLike(o.job) || o.lastChange <= 0 ||
                            std::max(o.lastChange, o.lastRead) > cutoff)
                            continue;
                        QString name = o.job.toLower();
                        name.replace(u'_', u'-');
                        if (jobs->live.contains(name))
                            continue;
                        bool keep = false;
                        qint64 ended = 0;
                        for (auto it = mine.cbegin(); it != mine.cend() && !keep; ++it)
                            if (namedAfter(o.job, it.key())) {
                                keep = it.value() <= 0 || it.value() > cutoff;
                                ended = std::max(ended, it.value());
                            }
                        if (keep)
                            continue;
                        NasCandidate c =
                            folderCandidate(NasCandidate::JobOutput, o.path, f, o.bytes,
                                            o.allocated, o.files, o.lastChange, m);
                        c.accessed = o.lastRead;
                        c.job = o.job;
                        c.jobEnded = ended;
                        c.lastRead = o.lastRead;
                        out.candidates << c;
                        departed << o.path; // what lies in it is this candidate's
                    }
                }
            }
        }
    }
    const qint64 coreCutoff = nowMs - options.coreDumpDays * kDayMs;
    QSet<QString> seen;
    for (const StorageRootMeasure &m : measures) {
        for (const StorageFolder &f : m.folders) {
            if (departed.contains(f.path))
                continue;
            if (wanted(NasCandidate::CoreDump))
                for (const StorageFile &file : f.coreDumps)
                    if (file.modified <= coreCutoff && !inside(file.path, departed) &&
                        !seen.contains(file.path)) {
                        seen.insert(file.path);
                        out.candidates << fileCandidate(NasCandidate::CoreDump, file, f, m);
                    }
            // A core dump is judged as one when that class is asked, whatever its age.
            if (wanted(NasCandidate::CoreDump))
                for (const StorageFile &file : f.coreDumps)
                    seen.insert(file.path);
            if (wanted(NasCandidate::StaleFile))
                for (const StorageFile &file : f.staleFiles)
                    if (!inside(file.path, departed) && !seen.contains(file.path)) {
                        seen.insert(file.path);
                        out.candidates << fileCandidate(NasCandidate::StaleFile, file, f, m);
                    }
        }
    }
    std::stable_sort(
        out.candidates.begin(), out.candidates.end(),
        [](const NasCandidate &a, const NasCandidate &b) { return a.bytes > b.bytes; });
    return out;
}

QString NasCleanup::evidence(const NasCandidate &c, qint64 nowMs)
{
    const QLocale locale;
    // On disk: a sparse file frees far less than its size says.
    const QString size =
        c.allocated < c.bytes / 2
            ? tr("%1 (%2 on disk)").arg(format::bytes(c.bytes), format::bytes(c.allocated))
            : format::bytes(c.bytes);
    switch (c.cls) {
    case NasCandidate::StaleFile:
        return tr("%1, neither read nor changed for %n day(s) (read %2, changed %3)", nullptr,
                  int(daysSince(std::max(c.accessed, c.modified), nowMs)))
            .arg(size, day(c.accessed), day(c.modified));
    case NasCandidate::CoreDump:
        return tr("%1, a core dump written %n day(s) ago (%2): what a crashed process left",
                  nullptr, int(daysSince(c.modified, nowMs)))
            .arg(size, day(c.modified));
    case NasCandidate::DepartedUser:
        return tr("%1 in %2 file(s); no namespace is labelled gpudesk.io/user=%3 now; nothing "
                  "below it changed since %4")
            .arg(size, locale.toString(c.files), c.owner, day(c.modified));
    case NasCandidate::JobOutput:
        return c.jobEnded > 0
                   ? tr("%1 in %2 file(s), named for job %3, which ended %4; nothing below it "
                        "changed since %5 or was read since %6")
                         .arg(size, locale.toString(c.files), c.job, day(c.jobEnded),
                              day(c.modified), day(c.lastRead))
                   : tr("%1 in %2 file(s), named for job %3: no job or pod of that name is left "
                        "in %4's namespaces, none runs in another; nothing below it changed "
                        "since %5 or was read since %6")
                         .arg(size, locale.toString(c.files), c.job, c.owner, day(c.modified),
                              day(c.lastRead));
    }
    return QString();
}

} // namespace gpudesk
