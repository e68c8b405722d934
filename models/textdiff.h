// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpudesk {

// Line diff of two texts (a shortest edit script), for showing what an edit changes before
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

// Past this many edits (lines removed plus lines added) a diff is not worth reading line by line,
// and its search is stopped: the time stays bounded (memory is linear anyway).
constexpr qsizetype MaxDiffEdits = 5000;

// A shortest edit script, in linear space; nullopt when the texts differ by more than
// `maxEdits` lines.
std::optional<QList<DiffLine>> diffLines(const QStringList &before, const QStringList &after,
                                         qsizetype maxEdits = MaxDiffEdits);
// `diff -u` style: hunks with `context` unchanged lines around changes; "" when equal; past
// `maxEdits`, the headers and a line that says so. Runs for seconds on large texts: call it
// off the UI thread.
QString unifiedDiff(const QString &before, const QString &after, const QString &beforeName,
                    const QString &afterName, int context = 3, qsizetype maxEdits = MaxDiffEdits);

} // namespace gpudesk
