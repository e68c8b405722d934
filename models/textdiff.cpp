// SPDX-License-Identifier: GPL-3.0-or-later
#include "textdiff.h"

#include <algorithm>
#include <vector>

namespace gpudesk {

QList<DiffLine> diffLines(const QStringList &a, const QStringList &b)
{
    // Common prefix and suffix first: an edit usually touches a few lines of hundreds, and the
    // quadratic table is then only as large as the changed middle.
    qsizetype head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head])
        ++head;
    qsizetype tail = 0;
    while (tail < a.size() - head && tail < b.size() - head &&
           a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
        ++tail;
    const qsizetype n = a.size() - head - tail;
    const qsizetype m = b.size() - head - tail;
    QList<DiffLine> out;
    for (qsizetype i = 0; i < head; ++i)
        out.append({DiffLine::Same, a[i]});
    // lcs[i][j]: length of the LCS of a[head+i..] and b[head+j..].
    std::vector<std::vector<int>> lcs(size_t(n + 1), std::vector<int>(size_t(m + 1), 0));
    for (qsizetype i = n - 1; i >= 0; --i)
        for (qsizetype j = m - 1; j >= 0; --j)
            lcs[size_t(i)][size_t(j)] =
                a[head + i] == b[head + j]
                    ? lcs[size_t(i + 1)][size_t(j + 1)] + 1
                    : std::max(lcs[size_t(i + 1)][size_t(j)], lcs[size_t(i)][size_t(j + 1)]);
    qsizetype i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[head + i] == b[head + j]) {
            out.append({DiffLine::Same, a[head + i]});
            ++i;
            ++j;
        } else if (j < m &&
                   (i == n || lcs[size_t(i)][size_t(j + 1)] >= lcs[size_t(i + 1)][size_t(j)])) {
            out.append({DiffLine::Added, b[head + j]});
            ++j;
        } else {
            out.append({DiffLine::Removed, a[head + i]});
            ++i;
        }
    }
    for (qsizetype k = a.size() - tail; k < a.size(); ++k)
        out.append({DiffLine::Same, a[k]});
    return out;
}

QString unifiedDiff(const QString &before, const QString &after, const QString &beforeName,
                    const QString &afterName, int context)
{
    const QStringList a = before.split(u'\n');
    const QStringList b = after.split(u'\n');
    const QList<DiffLine> lines = diffLines(a, b);
    if (std::all_of(lines.cbegin(), lines.cend(),
                    [](const DiffLine &l) { return l.kind == DiffLine::Same; }))
        return QString();
    QString out = QStringLiteral("--- %1\n+++ %2\n").arg(beforeName, afterName);
    // Positions of the changes, grouped into hunks that overlap with their context.
    const qsizetype total = lines.size();
    qsizetype i = 0;
    int lineA = 1, lineB = 1; // line numbers at lines[i]
    while (i < total) {
        if (lines[i].kind == DiffLine::Same) {
            ++lineA;
            ++lineB;
            ++i;
            continue;
        }
        // A hunk from `context` lines before this change to `context` after the last change
        // that is no further than 2 × context from the one before it.
        const qsizetype start = std::max<qsizetype>(0, i - context);
        int startA = lineA - int(i - start), startB = lineB - int(i - start);
        qsizetype end = i;
        qsizetype lastChange = i;
        while (end < total) {
            if (lines[end].kind != DiffLine::Same)
                lastChange = end;
            else if (end - lastChange > 2 * context)
                break;
            ++end;
        }
        end = std::min(total, lastChange + 1 + context);
        int countA = 0, countB = 0;
        QString body;
        for (qsizetype k = start; k < end; ++k) {
            const DiffLine &l = lines[k];
            body += (l.kind == DiffLine::Same      ? u' '
                     : l.kind == DiffLine::Removed ? u'-'
                                                   : u'+') +
                    l.text + u'\n';
            countA += l.kind != DiffLine::Added ? 1 : 0;
            countB += l.kind != DiffLine::Removed ? 1 : 0;
        }
        out += QStringLiteral("@@ -%1,%2 +%3,%4 @@\n")
                   .arg(startA)
                   .arg(countA)
                   .arg(startB)
                   .arg(countB) +
               body;
        // Line numbers after the hunk.
        for (qsizetype k = i; k < end; ++k) {
            lineA += lines[k].kind != DiffLine::Added ? 1 : 0;
            lineB += lines[k].kind != DiffLine::Removed ? 1 : 0;
        }
        i = end;
    }
    return out;
}

} // namespace gpudesk
