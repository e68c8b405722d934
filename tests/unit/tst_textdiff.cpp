// SPDX-License-Identifier: GPL-3.0-or-later
// The YAML edit's diff: as short as GNU diff's minimal one (diff --minimal, run here on the same
// texts), both texts rebuilt from it, and bounded on texts of tens of thousands of lines —
// linear memory, and a line that says so past the edits worth reading (issue 33: the quadratic
// table took 17.8 s and 6.4 GB for 40,000 lines).
#include "rss.h"
#include "textdiff.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestTextDiff : public QObject
{
    Q_OBJECT
private slots:
    void asShortAsGnuDiff_data();
    void asShortAsGnuDiff();
    void unifiedHunks();
    void largeTextsStayBounded();
};

namespace {

// Lines from a small alphabet (so that many repeat, as in YAML), then edited at random.
QStringList randomLines(QRandomGenerator &g, int n)
{
    QStringList out;
    for (int i = 0; i < n; ++i)
        out << QStringLiteral("  key%1: %2").arg(g.bounded(8)).arg(g.bounded(4));
    return out;
}

QStringList edited(QRandomGenerator &g, QStringList lines, int edits)
{
    for (int e = 0; e < edits; ++e) {
        const int at = lines.isEmpty() ? 0 : int(g.bounded(quint32(lines.size())));
        switch (g.bounded(3)) {
        case 0:
            if (!lines.isEmpty())
                lines.removeAt(at);
            break;
        case 1:
            lines.insert(at, QStringLiteral("  new%1: x").arg(g.bounded(3)));
            break;
        default:
            if (!lines.isEmpty())
                lines[at] = QStringLiteral("  changed: %1").arg(e);
        }
    }
    return lines;
}

int gnuMinimalEdits(const QStringList &a, const QStringList &b)
{
    QTemporaryDir dir;
    const auto write = [&dir](const char *name, const QStringList &lines) {
        QFile f(dir.filePath(QLatin1String(name)));
        if (!f.open(QIODevice::WriteOnly))
            return QString();
        if (!lines.isEmpty())
            f.write((lines.join(u'\n') + u'\n').toUtf8());
        return f.fileName();
    };
    QProcess diff;
    diff.start(QStringLiteral("diff"), {QStringLiteral("--minimal"), write("a", a), write("b", b)});
    if (!diff.waitForFinished(30000) || diff.exitCode() > 1)
        return -1;
    int n = 0;
    for (const QByteArray &line : diff.readAllStandardOutput().split('\n'))
        n += line.startsWith("< ") || line.startsWith("> ") ? 1 : 0;
    return n;
}

} // namespace

void TestTextDiff::asShortAsGnuDiff_data()
{
    QTest::addColumn<int>("seed");
    QTest::addColumn<int>("lines");
    QTest::addColumn<int>("edits");
    QTest::addRow("empty to some") << 1 << 0 << 5;
    QTest::addRow("one edit") << 2 << 40 << 1;
    QTest::addRow("a few") << 3 << 200 << 6;
    QTest::addRow("many") << 4 << 300 << 120;
    QTest::addRow("more edits than lines") << 5 << 30 << 80;
    for (int seed = 10; seed < 30; ++seed)
        QTest::addRow("random %d", seed) << seed << 60 + seed * 7 << seed * 3;
}

void TestTextDiff::asShortAsGnuDiff()
{
    QFETCH(int, seed);
    QFETCH(int, lines);
    QFETCH(int, edits);
    QRandomGenerator g{quint32(seed)};
    const QStringList a = randomLines(g, lines);
    const QStringList b = edited(g, a, edits);
    const auto d = diffLines(a, b);
    QVERIFY(d);
    QStringList rebuiltA, rebuiltB;
    int changed = 0;
    for (const DiffLine &l : *d) {
        if (l.kind != DiffLine::Added)
            rebuiltA << l.text;
        if (l.kind != DiffLine::Removed)
            rebuiltB << l.text;
        changed += l.kind == DiffLine::Same ? 0 : 1;
    }
    QCOMPARE(rebuiltA, a);
    QCOMPARE(rebuiltB, b);
    // A shortest edit script is as long as GNU diff's minimal one (the scripts may differ).
    QCOMPARE(changed, gnuMinimalEdits(a, b));
}

void TestTextDiff::unifiedHunks()
{
    const QString before = QStringLiteral("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n");
    const QString after = QStringLiteral("a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\n");
    QCOMPARE(unifiedDiff(before, after, u"old"_qs, u"new"_qs),
             u"--- old\n+++ new\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n"
             "@@ -9,4 +9,5 @@\n i\n j\n k\n+l\n \n"_qs);
    QCOMPARE(unifiedDiff(before, before, u"old"_qs, u"new"_qs), QString());
}

void TestTextDiff::largeTextsStayBounded()
{
    QStringList a;
    for (int i = 0; i < 40000; ++i)
        a << QStringLiteral("    - name: item-%1").arg(i);
    const long before = rssKb();
    // The first and the last line changed: four edits among 40,000 lines.
    QStringList b = a;
    b.first() = QStringLiteral("first");
    b.last() = QStringLiteral("last");
    const auto d = diffLines(a, b);
    QVERIFY(d);
    QCOMPARE(std::count_if(d->cbegin(), d->cend(),
                           [](const DiffLine &l) { return l.kind != DiffLine::Same; }),
             4);
    // Wholly different: past the limit, said, not searched for minutes.
    QStringList c;
    for (int i = 0; i < 40000; ++i)
        c << QStringLiteral("other-%1").arg(i);
    QVERIFY(!diffLines(a, c));
    const QString u = unifiedDiff(a.join(u'\n'), c.join(u'\n'), u"old"_qs, u"new"_qs);
    QVERIFY2(u.contains(u"differ in more than 5000 lines"_qs), qPrintable(u.left(200)));
    // Linear memory: tens of MB for 80,000 lines (the table took 6.4 GB); the bound leaves room
    // for a sanitizer's quarantine of freed memory.
    const long grown = rssKb() - before;
    QVERIFY2(grown < 1024 * 1024, qPrintable(QString::number(grown)));
}

QTEST_GUILESS_MAIN(TestTextDiff)
#include "tst_textdiff.moc"
