// SPDX-License-Identifier: GPL-3.0-or-later
#include "textdiff.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <optional>
#include <vector>

namespace gpudesk {

namespace {

// Myers' O(ND) difference algorithm in linear space ("An O(ND) Difference Algorithm and Its
// Variations", 1986, §4b): the middle snake of a shortest edit script splits the problem in
// two, recursively — memory O(N + M) whatever the texts (issue 33: the quadratic table took
// 6.4 GB for 40,000 lines). Lines are compared as numbers, one per distinct text. The first
// search gives up past `limit` edits, so that the time is bounded too.
class Myers
{
public:
    Myers(const QStringList &a, const QStringList &b, QList<DiffLine> *out)
        : m_textA(a), m_textB(b), m_out(out)
    {
        // One number per distinct line, shared by both texts.
        QHash<QString, int> ids;
        ids.reserve(a.size() + b.size());
        m_a.reserve(size_t(a.size()));
        m_b.reserve(size_t(b.size()));
        for (const QString &l : a) {
            auto it = ids.constFind(l);
            m_a.push_back(it != ids.cend() ? *it : int(*ids.insert(l, int(ids.size()))));
        }
        for (const QString &l : b) {
            auto it = ids.constFind(l);
            m_b.push_back(it != ids.cend() ? *it : int(*ids.insert(l, int(ids.size()))));
        }
        const size_t n = m_a.size() + m_b.size() + 3;
        m_forward.assign(n * 2, 0);
        m_backward.assign(n * 2, 0);
    }

    // False, with nothing written, when the texts differ by more than `limit` edits.
    bool run(qsizetype limit)
    {
        m_limit = limit;
        return diff(0, qsizetype(m_a.size()), 0, qsizetype(m_b.size()), true);
    }

private:
    struct Snake
    {
        qsizetype x, y, u, v; // from (x, y) to (u, v), along a diagonal
        qsizetype d;          // the edit distance of the whole (sub)problem
    };

    // The middle snake of a[a0, a1) and b[b0, b1), both non-empty; nullopt past the limit.
    std::optional<Snake> middle(qsizetype a0, qsizetype a1, qsizetype b0, qsizetype b1,
                                qsizetype limit)
    {
        const qsizetype n = a1 - a0, m = b1 - b0, delta = n - m;
        const bool odd = (delta & 1) != 0;
        const qsizetype off = n + m + 1; // V index of diagonal 0
        std::vector<qsizetype> &vf = m_forward;
        std::vector<qsizetype> &vb = m_backward;
        vf[size_t(off + 1)] = 0;
        vb[size_t(off + 1)] = 0;
        const qsizetype maxD = (n + m + 1) / 2;
        for (qsizetype d = 0; d <= maxD; ++d) {
            if (2 * d - 1 > limit)
                return std::nullopt;
            for (qsizetype k = -d; k <= d; k += 2) {
                qsizetype x =
                    (k == -d || (k != d && vf[size_t(off + k - 1)] < vf[size_t(off + k + 1)]))
                        ? vf[size_t(off + k + 1)]
                        : vf[size_t(off + k - 1)] + 1;
                qsizetype y = x - k;
                const qsizetype x0 = x, y0 = y;
                while (x < n && y < m && m_a[size_t(a0 + x)] == m_b[size_t(b0 + y)]) {
                    ++x;
                    ++y;
                }
                vf[size_t(off + k)] = x;
                const qsizetype r = delta - k; // the same diagonal, seen from the end
                if (odd && r >= -(d - 1) && r <= d - 1 && x + vb[size_t(off + r)] >= n)
                    return Snake{x0, y0, x, y, 2 * d - 1};
            }
            for (qsizetype r = -d; r <= d; r += 2) {
                qsizetype x =
                    (r == -d || (r != d && vb[size_t(off + r - 1)] < vb[size_t(off + r + 1)]))
                        ? vb[size_t(off + r + 1)]
                        : vb[size_t(off + r - 1)] + 1;
                qsizetype y = x - r;
                const qsizetype x0 = x, y0 = y;
                while (x < n && y < m && m_a[size_t(a1 - 1 - x)] == m_b[size_t(b1 - 1 - y)]) {
                    ++x;
                    ++y;
                }
                vb[size_t(off + r)] = x;
                const qsizetype k = delta - r;
                if (!odd && k >= -d && k <= d && vf[size_t(off + k)] + x >= n)
                    return Snake{n - x, m - y, n - x0, m - y0, 2 * d};
            }
        }
        return std::nullopt; // not reached: maxD edits always suffice
    }

    bool diff(qsizetype a0, qsizetype a1, qsizetype b0, qsizetype b1, bool top)
    {
        qsizetype head = 0;
        while (a0 + head < a1 && b0 + head < b1 && m_a[size_t(a0 + head)] == m_b[size_t(b0 + head)])
            ++head;
        qsizetype tail = 0;
        while (a1 - tail > a0 + head && b1 - tail > b0 + head &&
               m_a[size_t(a1 - 1 - tail)] == m_b[size_t(b1 - 1 - tail)])
            ++tail;
        std::optional<Snake> s;
        if (a0 + head < a1 - tail && b0 + head < b1 - tail) {
            s = middle(a0 + head, a1 - tail, b0 + head, b1 - tail, top ? m_limit : a1 + b1);
            if (!s)
                return false;
        }
        for (qsizetype i = 0; i < head; ++i)
            m_out->append({DiffLine::Same, m_textA[a0 + i]});
        a0 += head;
        b0 += head;
        a1 -= tail;
        b1 -= tail;
        if (a0 == a1) {
            for (qsizetype j = b0; j < b1; ++j)
                m_out->append({DiffLine::Added, m_textB[j]});
        } else if (b0 == b1) {
            for (qsizetype i = a0; i < a1; ++i)
                m_out->append({DiffLine::Removed, m_textA[i]});
        } else {
            diff(a0, a0 + s->x, b0, b0 + s->y, false);
            for (qsizetype i = s->x; i < s->u; ++i)
                m_out->append({DiffLine::Same, m_textA[a0 + i]});
            diff(a0 + s->u, a1, b0 + s->v, b1, false);
        }
        for (qsizetype i = 0; i < tail; ++i)
            m_out->append({DiffLine::Same, m_textA[a1 + i]});
        return true;
    }

    const QStringList &m_textA;
    const QStringList &m_textB;
    QList<DiffLine> *m_out;
    std::vector<int> m_a, m_b;
    std::vector<qsizetype> m_forward, m_backward;
    qsizetype m_limit = 0;
};

} // namespace

std::optional<QList<DiffLine>> diffLines(const QStringList &a, const QStringList &b,
                                         qsizetype maxEdits)
{
    QList<DiffLine> out;
    out.reserve(std::max(a.size(), b.size()));
    Myers myers(a, b, &out);
    if (!myers.run(maxEdits))
        return std::nullopt;
    return out;
}

QString unifiedDiff(const QString &before, const QString &after, const QString &beforeName,
                    const QString &afterName, int context, qsizetype maxEdits)
{
    const QStringList a = before.split(u'\n');
    const QStringList b = after.split(u'\n');
    const auto diffed = diffLines(a, b, maxEdits);
    if (!diffed)
        return QStringLiteral("--- %1\n+++ %2\n").arg(beforeName, afterName) +
               QCoreApplication::translate("gpudesk::TextDiff",
                                           "(the two differ in more than %1 lines: too many to "
                                           "show line by line)")
                   .arg(maxEdits) +
               u'\n';
    const QList<DiffLine> &lines = *diffed;
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
