// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of the job doctor. Prints figures; not a test.
// 5,000 failed pods, each with a 16 KiB log tail of training output ending in one of the
// failures the rules know (or in none), events and container states, diagnosed on a worker as
// the window will (QtConcurrent), the rules read once. Target (issue 37): off the UI thread, in
// seconds, without holding more than the tails themselves.
#include "doctor.h"
#include "rss.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFuture>
#include <QHash>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdio>

using namespace gpudesk;

namespace {

constexpr int Pods = 5000;
constexpr int TailBytes = 16 * 1024;

const char *const endings[] = {
    "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient "
    "shared memory (shm).",
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
    "[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout: "
    "WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 1800341 milliseconds",
    "ModuleNotFoundError: No module named 'deepspeed'",
    "FileNotFoundError: [Errno 2] No such file or directory: '/mnt/share/vision/train'",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "Killed",
};

DiagnosisInput pod(int i)
{
    DiagnosisInput in;
    in.ns = QStringLiteral("user-%1").arg(i % 200);
    in.pod = QStringLiteral("train-%1-worker-0").arg(i);
    in.phase = QStringLiteral("Failed");
    DiagnosisInput::Container c;
    c.name = QStringLiteral("pytorch");
    c.state = QStringLiteral("terminated");
    c.reason = i % 7 == 6 ? QStringLiteral("OOMKilled") : QStringLiteral("Error");
    c.exitCode = i % 7 == 6 ? 137 : 1;
    c.firstLine = 1 + i;
    QByteArray log;
    log.reserve(TailBytes + 256);
    int step = 0;
    while (log.size() < TailBytes)
        log += "step " + QByteArray::number(++step) +
               " | loss 1.2345 | lr 3.0e-4 | "
               "tokens/s 182345 | mem 71.2 GiB | " +
               QByteArray::number(i) + "\n";
    log += endings[i % 7];
    log += '\n';
    c.logTail = log;
    in.containers = {c};
    in.events = {{QStringLiteral("Normal"), QStringLiteral("Started"),
                  QStringLiteral("Started container pytorch"), QStringLiteral("kubelet")},
                 {QStringLiteral("Warning"), QStringLiteral("BackOff"),
                  QStringLiteral("Back-off restarting failed container"),
                  QStringLiteral("kubelet")}};
    return in;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const long rss0 = rssKb();
    QElapsedTimer t;
    t.start();
    const DoctorRules rules = DoctorRules::builtIn();
    const qint64 rulesMs = t.elapsed();
    QList<DiagnosisInput> inputs;
    inputs.reserve(Pods);
    qint64 bytes = 0;
    for (int i = 0; i < Pods; ++i) {
        inputs << pod(i);
        bytes += inputs.last().containers.first().logTail.size();
    }
    const long rssInputs = rssKb();
    t.restart();
    // As the window will: on a worker, the UI thread free; the rules shared, read once.
    QFuture<QHash<QString, int>> future = QtConcurrent::run([&inputs, &rules] {
        const Doctor doctor(rules);
        QHash<QString, int> byClass;
        for (const DiagnosisInput &in : inputs) {
            const QList<Diagnosis> d = doctor.diagnose(in);
            ++byClass[d.isEmpty() ? QStringLiteral("(none)") : d.first().cls];
        }
        return byClass;
    });
    const QHash<QString, int> byClass = future.result();
    const qint64 ms = t.elapsed();
    std::printf("job doctor: %d rules read in %lld ms\n", int(rules.rules().size()), rulesMs);
    std::printf("  %d failed pods, %.1f MiB of log tails: diagnosed in %lld ms on one worker "
                "(%.2f ms a pod, %.0f MiB/s)\n",
                Pods, double(bytes) / (1 << 20), ms, double(ms) / Pods,
                double(bytes) / (1 << 20) / (double(std::max<qint64>(ms, 1)) / 1000));
    std::printf("  RSS: %ld MiB before, %ld MiB with the inputs, %ld MiB after\n", rss0 >> 10,
                rssInputs >> 10, rssKb() >> 10);
    QStringList classes = byClass.keys();
    classes.sort();
    for (const QString &c : classes)
        std::printf("    %-16s %5d\n", qPrintable(c), byClass.value(c));
    return 0;
}
