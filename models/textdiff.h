// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace gpudesk {

// Line diff of two texts (longest common subsequence), for showing what an edit changes before
// it is applied: each line kept, removed or added, and the unified-diff hunks of it.
struct DiffLine
{
    enum Kind
    {
        Same,
        Removed,
        Added
    };
    Kind kind = Same;
    QString text;
};

QList<DiffLine> diffLines(const QStringList &before, const QStringList &after);
// `diff -u` style: hunks with `context` unchanged lines around changes; "" when equal.
QString unifiedDiff(const QString &before, const QString &after, const QString &beforeName,
                    const QString &afterName, int context = 3);

} // namespace gpudesk
