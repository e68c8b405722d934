// SPDX-License-Identifier: GPL-3.0-or-later
// The command palette on a cluster of 100,000 pods: what opening it costs (its entries made
// from the store) and what each keystroke costs (every entry matched, the best 50 kept), on the
// UI thread both. Prints figures; docs/benchmarks.md keeps them.
#include "clusterstore.h"
#include "commandpalette.h"
#include "palettesource.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>

#include <cstdio>

using namespace gpudesk;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    constexpr int kPods = 100000, kNodes = 2000;
    ClusterStore store;
    QList<PodInfo> pods;
    pods.reserve(kPods);
    for (int i = 0; i < kPods; ++i) {
        PodInfo p;
        p.uid = QStringLiteral("uid-%1").arg(i);
        p.ns = QStringLiteral("user-u%1").arg(i % 500);
        p.name = QStringLiteral("train-%1-worker-%2").arg(i / 8).arg(i % 8);
        p.nodeName = QStringLiteral("gpu-node-%1").arg(i % kNodes, 4, 10, QLatin1Char('0'));
        p.phase = QStringLiteral("Running");
        pods << p;
    }
    store.replacePods(pods);
    store.flush();

    QElapsedTimer clock;
    qint64 best = -1;
    QList<PaletteEntry> entries;
    for (int run = 0; run < 5; ++run) {
        clock.start();
        entries = PaletteSource::objects(store);
        best = best < 0 ? clock.elapsed() : std::min(best, clock.elapsed());
    }
    std::printf("open: %lld entries made from a store of %d pods in %lld ms (best of 5)\n",
                qlonglong(entries.size()), kPods, qlonglong(best));

    // The widget, opened and typed into a key at a time: each keystroke matches and lists.
    clock.start();
    CommandPalette palette(entries, {});
    palette.show();
    std::printf("the palette made and shown in %lld ms (its search text folded once)\n",
                qlonglong(clock.elapsed()));
    for (const QString &query : {QStringLiteral("train-4711"), QStringLiteral("gpu-node-0042"),
                                 QStringLiteral("u42 worker-3"), QStringLiteral("zzz")}) {
        palette.input()->clear();
        qint64 first = 0, worst = 0;
        for (qsizetype n = 1; n <= query.size(); ++n) {
            clock.start();
            palette.input()->setText(query.left(n));
            (n == 1 ? first : worst) = std::max(n == 1 ? first : worst, clock.elapsed());
        }
        std::printf("type \"%s\": the first key %lld ms, each next at most %lld ms; %s\n",
                    qPrintable(query), qlonglong(first), qlonglong(worst),
                    qPrintable(palette.count()->text()));
    }
    // Without narrowing (a query pasted whole): every entry searched.
    QElapsedTimer whole;
    whole.start();
    int total = 0;
    CommandPalette::match(entries, CommandPalette::fold(entries), QStringLiteral("train-4711"),
                          CommandPalette::Shown, &total, nullptr, nullptr);
    std::printf("a whole query over every entry (folding included): %lld ms\n",
                qlonglong(whole.elapsed()));
    return 0;
}
