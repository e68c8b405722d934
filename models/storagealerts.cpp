// SPDX-License-Identifier: GPL-3.0-or-later
#include "storagealerts.h"

#include "format.h"

namespace gpudesk {

QString StorageAlerts::describe(const StorageProblem &p, const QString &root)
{
    switch (p.kind) {
    case StorageProblem::Unreadable:
        return tr("%1 could not be read (permission denied): what it holds is not counted.")
            .arg(p.path);
    case StorageProblem::NotRecords:
        return tr("The walk of %1 printed %n line(s) that are not records, left out; the first: "
                  "%2",
                  nullptr, int(p.count))
            .arg(root, p.text);
    case StorageProblem::More:
        return tr("… and %n more complaint(s) of the walk, not listed.", nullptr, int(p.count));
    case StorageProblem::Complaint:
        break;
    }
    return p.text;
}

QStringList StorageAlerts::describe(const StorageRootMeasure &m)
{
    QStringList out;
    for (const StorageProblem &p : m.problems)
        out << describe(p, m.root);
    return out;
}

QList<Problem> StorageAlerts::now(const QList<StorageRootMeasure> &measures,
                                  const StorageHistory &history, const AlertRules &rules)
{
    QList<Problem> out;
    if (!rules.enabled(QStringLiteral("storage")))
        return out;
    constexpr qint64 GiB = 1024LL * 1024 * 1024;
    for (const StorageRootMeasure &m : measures) {
        const int percent = m.percentUsed();
        if (percent >= rules.diskWarningPercent) {
            const bool critical = percent >= rules.diskCriticalPercent;
            out.append({critical ? Problem::Critical : Problem::Warning,
                        QStringLiteral("storage:root:") + m.root,
                        {},
                        tr("NAS %1 is %2 % full: %3 free of %4. Jobs that write checkpoints "
                           "there fail when it is full.")
                            .arg(m.root)
                            .arg(percent)
                            .arg(format::bytes(m.freeBytes), format::bytes(m.capacityBytes)),
                        m.measuredAt});
        }
        for (const StorageFolder &f : m.folders) {
            const bool user = f.kind == QLatin1String("user");
            if (f.bytes >= qint64(rules.storageFolderGiB) * GiB)
                out.append({Problem::Warning,
                            QStringLiteral("storage:size:") + f.path,
                            {},
                            (user ? tr("User %1 keeps %2 on the NAS (%3), over the %4 set.")
                                  : tr("Group %1 keeps %2 on the NAS (%3), over the %4 set."))
                                .arg(f.owner, format::bytes(f.bytes), f.path,
                                     format::bytes(qint64(rules.storageFolderGiB) * GiB)),
                            m.measuredAt});
            // Written (files changed in the day: a rewrite counts whole) or grown (net, from
            // the history): said as what it is.
            const auto net = history.growth(f.path, f.bytes, m.measuredAt, StorageHistory::DayMs);
            const qint64 limit = qint64(rules.storageDayGiB) * GiB;
            if (net && *net >= limit)
                out.append({Problem::Warning,
                            QStringLiteral("storage:growth:") + f.path,
                            {},
                            tr("%1 grew by %2 in the day before %3 (more than %4 a day).")
                                .arg(f.path, format::bytes(*net), format::when(m.measuredAt),
                                     format::bytes(limit)),
                            m.measuredAt});
            else if (f.changedDay >= limit)
                out.append({Problem::Warning,
                            QStringLiteral("storage:growth:") + f.path,
                            {},
                            tr("%1 had %2 written to it in the day before %3 (more than %4 a "
                               "day).")
                                .arg(f.path, format::bytes(f.changedDay),
                                     format::when(m.measuredAt), format::bytes(limit)),
                            m.measuredAt});
        }
    }
    return out;
}

} // namespace gpudesk
