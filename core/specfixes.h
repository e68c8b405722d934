// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace gpudesk::SpecFixes {

// The changes of a spec the job doctor's rules may offer as "Re-run with the fix" (a rule's
// "specFix", docs/doctor.md), made by SpecFix on the job's YAML: /dev/shm as a Memory emptyDir,
// the memory limit raised, an environment variable removed from every container.
inline QStringList names()
{
    return {QStringLiteral("shared-memory"), QStringLiteral("memory-limit"),
            QStringLiteral("remove-env:NAME")};
}

// The variable a "remove-env:NAME" fix removes ("" for another fix): a C identifier, as a
// container's variable names that a shell can read are.
inline QString removedVariable(const QString &fix)
{
    static const QRegularExpression re(QStringLiteral("^remove-env:([A-Za-z_][A-Za-z0-9_]*)$"));
    const QRegularExpressionMatch m = re.match(fix);
    return m.hasMatch() ? m.captured(1) : QString();
}

inline bool known(const QString &fix)
{
    return fix == QLatin1String("shared-memory") || fix == QLatin1String("memory-limit") ||
           !removedVariable(fix).isEmpty();
}

} // namespace gpudesk::SpecFixes
