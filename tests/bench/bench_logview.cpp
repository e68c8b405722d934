// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of the log view: a container log of 1,000,000 lines in the viewer's model and list
// view (offscreen, following the end as LogView does), then 5,000 new lines a second for 30 s:
// time to take the million lines, memory per line, the UI thread's longest stall while lines
// stream in, and the time of a search over the whole log. Prints figures; it is not a test.
//   bench_logview [--lines N] [--rate R] [--seconds S]
#include "logmodel.h"
#include "logview.h"
#include "objectref.h"

#include "rss.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace gpudesk;

namespace {

// A training log line of the usual length, numbered so each one is different.
LogLine line(qint64 n)
{
    LogLine l;
    const qint64 ms = 1763800000000 + n;
    l.timestamp = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC)
                      .toString(Qt::ISODateWithMs)
                      .toLatin1()
                      .replace("Z", "000000Z");
    l.text = "step " + QByteArray::number(n) + " | loss " + QByteArray::number(2.5 - n * 1e-7) +
             " | lr 3.0e-04 | grad_norm 0.87 | tokens/s 41230 | rank 0";
    return l;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser p;
    const QCommandLineOption linesOpt(QStringLiteral("lines"), QStringLiteral("initial lines"),
                                      QStringLiteral("n"), QStringLiteral("1000000"));
    const QCommandLineOption rateOpt(QStringLiteral("rate"), QStringLiteral("lines a second"),
                                     QStringLiteral("n"), QStringLiteral("5000"));
    const QCommandLineOption secondsOpt(QStringLiteral("seconds"),
                                        QStringLiteral("seconds of streaming"), QStringLiteral("s"),
                                        QStringLiteral("30"));
    p.addOptions({linesOpt, rateOpt, secondsOpt});
    p.addHelpOption();
    p.process(app);
    const qint64 initial = p.value(linesOpt).toLongLong();
    const int rate = p.value(rateOpt).toInt();
    const int seconds = p.value(secondsOpt).toInt();

    // The real log view, without a pod to stream from: lines are fed to its model directly.
    LogView logView(nullptr, ObjectRef{});
    logView.resize(1400, 900);
    logView.show();
    LogModel &model = *logView.model();
    QTableView &view = *logView.view();
    QCoreApplication::processEvents();
    const long rssBefore = rssKb();
    // Live heap, beside RSS: the allocator keeps freed batch buffers, so RSS overstates.
    const size_t heapBefore = mallinfo2().uordblks + mallinfo2().hblkhd;

    // 1. The million lines, in the 1,000-line batches a log stream delivers.
    QElapsedTimer t;
    t.start();
    qint64 n = 0;
    while (n < initial) {
        QList<LogLine> batch;
        for (int i = 0; i < 1000 && n < initial; ++i)
            batch.append(line(n++));
        model.append(batch);
    }
    model.flush();
    QCoreApplication::processEvents();
    const double heap = double(mallinfo2().uordblks + mallinfo2().hblkhd - heapBefore);
    std::printf("log view: %lld lines taken and shown in %lld ms; %.1f MB of text, live heap "
                "+%.0f MB (%.0f bytes a line), RSS +%.0f MB\n",
                static_cast<long long>(model.rowCount()), static_cast<long long>(t.elapsed()),
                double(model.bytes()) / 1e6, heap / 1e6,
                heap / double(std::max<qint64>(1, initial)), double(rssKb() - rssBefore) / 1024.0);

    // 2. Streaming: a batch every 10 ms, and a 5 ms timer that records how late it fires.
    std::vector<double> late;
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    QTimer meter;
    meter.setTimerType(Qt::PreciseTimer);
    QObject::connect(&meter, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        if (last > 0)
            late.push_back(double(now - last) / 1e6 - 5);
        last = now;
    });
    double carry = 0;
    QElapsedTimer feedClock;
    feedClock.start();
    QTimer feed;
    feed.setTimerType(Qt::PreciseTimer);
    QObject::connect(&feed, &QTimer::timeout, [&] {
        // Nanoseconds: whole milliseconds per 10 ms tick would drop a few per cent of the rate.
        carry += rate * double(feedClock.nsecsElapsed()) / 1e9;
        feedClock.restart();
        QList<LogLine> batch;
        for (; carry >= 1; carry -= 1)
            batch.append(line(n++));
        model.append(batch);
    });
    const int before = model.rowCount();
    meter.start(5);
    feed.start(10);
    QEventLoop loop;
    QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    feed.stop();
    meter.stop();
    model.flush();
    std::sort(late.begin(), late.end());
    const bool atEnd = view.indexAt(view.viewport()->rect().bottomLeft() - QPoint(0, 4)).row() >=
                       model.rowCount() - 2;
    std::printf("log view streaming %d lines/s for %d s: %d lines arrived (none lost: %s), "
                "longest UI stall %.1f ms, 99th percentile %.1f ms, view at the last line: %s, "
                "RSS %.0f MB\n",
                rate, seconds, model.rowCount() - before,
                model.lineText(model.rowCount() - 1).contains(QString::number(n - 1)) ? "yes"
                                                                                      : "NO",
                late.empty() ? 0.0 : late.back(),
                late.empty() ? 0.0 : late[size_t(0.99 * double(late.size() - 1))],
                atEnd ? "yes" : "NO", double(rssKb()) / 1024.0);

    // 3. Search over everything.
    t.restart();
    const int matches = model.matchCount(QStringLiteral("step 99999"));
    const qint64 countMs = t.elapsed();
    t.restart();
    const int found = model.find(QStringLiteral("step 500000 "), 0, true);
    std::printf("search: %d matches of \"step 99999\" counted in %lld ms; \"step 500000 \" found "
                "at line %d in %lld ms\n",
                matches, static_cast<long long>(countMs), found,
                static_cast<long long>(t.elapsed()));
    return 0;
}
