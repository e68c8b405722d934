// SPDX-License-Identifier: GPL-3.0-or-later
// The NAS walk (issue 38): how fast gpudesk reads a walk's records, and what the walk itself
// costs on a node. Prints figures; not a test.
//   bench_storagewalk [FILES]          synthetic records of FILES files (1,000,000 unless given),
//                                      read in 32 KiB chunks as they come off the SSH channel
//   bench_storagewalk --tree DIR       GNU find over DIR with gpudesk's exact -printf, its
//                                      output read the same way: wall time, find's CPU, bytes
#include "storagewalk.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QProcess>

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <cstdio>

using namespace gpudesk;

namespace {

qint64 peakKiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

void report(const char *what, const StorageRootMeasure &m, qint64 bytes, qint64 ns)
{
    std::printf("%s: %lld entries, %.1f MB of records read in %.0f ms: %.0f MB/s, %.2f M "
                "entries/s; %d folders; peak RSS %lld MiB\n",
                what, qlonglong(m.entries), bytes / 1e6, ns / 1e6, bytes / 1e6 / (ns / 1e9),
                m.entries / 1e6 / (ns / 1e9), int(m.folders.size()), qlonglong(peakKiB() / 1024));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() >= 3 && args[1] == QLatin1String("--tree")) {
        QProcess find;
        find.start(QStringLiteral("find"),
                   {QStringLiteral("-P"), args[2], QStringLiteral("-xdev"),
                    QStringLiteral("-mindepth"), QStringLiteral("1"), QStringLiteral("-printf"),
                    QStringLiteral("%y %s %b %T@ %A@ %n %i %P\\0")});
        StorageWalk walk(args[2], QStringLiteral("user"), QDateTime::currentMSecsSinceEpoch());
        QElapsedTimer t;
        t.start();
        qint64 bytes = 0;
        find.waitForStarted();
        while (find.state() != QProcess::NotRunning || find.bytesAvailable()) {
            find.waitForReadyRead(100);
            const QByteArray chunk = find.readAll();
            bytes += chunk.size();
            walk.feed(chunk);
        }
        const qint64 ns = t.nsecsElapsed();
        rusage child{};
        getrusage(RUSAGE_CHILDREN, &child);
        const StorageRootMeasure m = walk.finish(true);
        report("find over the tree, read as it streams", m, bytes, ns);
        std::printf("find's CPU: %.2f s user, %.2f s system\n",
                    child.ru_utime.tv_sec + child.ru_utime.tv_usec / 1e6,
                    child.ru_stime.tv_sec + child.ru_stime.tv_usec / 1e6);
        return 0;
    }
    const qint64 files = args.size() >= 2 ? args[1].toLongLong() : 1000000;
    // 100 users, each with 100 folders of files: names as long as a lab's. First as runs of
    // their own ("alice-42/run-0042/checkpoints/step-004200.pt"), then as one folder per job
    // below checkpoints/ ("alice-42/checkpoints/run-0042/step-004200.pt"), which the walk also
    // sums per job (the cleanup's job outputs).
    for (const bool perJob : {false, true}) {
        QByteArray records;
        records.reserve(files * 80);
        const QByteArray t = "1790000000.1234567890";
        for (qint64 i = 0; i < files; ++i) {
            const QByteArray user = "user" + QByteArray::number(i % 100);
            const QByteArray dir =
                "run-" + QByteArray::number(i / 100 % 100).rightJustified(4, '0');
            const QByteArray where = perJob ? QByteArray(user + "/checkpoints/" + dir)
                                            : QByteArray(user + '/' + dir + "/checkpoints");
            // One file in a hundred has a second name (a hard link): its inode is remembered.
            records += "f " + QByteArray::number(1000 + i * 7919 % 1000000) + " 8 " + t + ' ' + t +
                       (i % 100 == 0 ? " 2 " : " 1 ") + QByteArray::number(i + 2) + ' ' + where +
                       "/step-" + QByteArray::number(i).rightJustified(6, '0') + ".pt" + '\0';
        }
        StorageWalk walk(QStringLiteral("/mnt/user"), QStringLiteral("user"), 1790000000000);
        QElapsedTimer timer;
        timer.start();
        for (qsizetype off = 0; off < records.size(); off += 32768)
            walk.feed(records.constData() + off, qMin<qsizetype>(32768, records.size() - off));
        const StorageRootMeasure m = walk.finish(true);
        report(perJob ? "synthetic records, one folder per job below checkpoints/"
                      : "synthetic records, runs of their own",
               m, records.size(), timer.nsecsElapsed());
    }
    return 0;
}
