// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadstatus.h"

#include <QSet>

namespace gpudesk::workloadstatus {

int severity(const QString &s)
{
    static const QSet<QString> bad{
        QStringLiteral("Failed"),           QStringLiteral("Error"),
        QStringLiteral("CrashLoopBackOff"), QStringLiteral("ImagePullBackOff"),
        QStringLiteral("ErrImagePull"),     QStringLiteral("Aborted"),
        QStringLiteral("OOMKilled"),        QStringLiteral("CreateContainerConfigError")};
    // Terminating is a passage, not a failure: one stuck past its grace period is flagged as
    // stuck (WorkloadInfo::stuck), one going away normally is not.
    static const QSet<QString> waiting{
        QStringLiteral("Pending"),     QStringLiteral("Inqueue"),
        QStringLiteral("Created"),     QStringLiteral("Restarting"),
        QStringLiteral("Terminating"), QStringLiteral("ContainerCreating")};
    if (bad.contains(s))
        return 2;
    return waiting.contains(s) ? 1 : 0;
}

Class classOf(const QString &status)
{
    if (status == QLatin1String("Running"))
        return Running;
    if (status == QLatin1String("Completed") || status == QLatin1String("Succeeded"))
        return Finished;
    switch (severity(status)) {
    case 2:
        return Problem;
    case 1:
        return Waiting;
    default:
        return Running;
    }
}

} // namespace gpudesk::workloadstatus
