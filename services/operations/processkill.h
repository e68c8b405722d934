// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "steprunner.h"

#include "operationcontext.h"
#include "operationplan.h"

#include <QObject>
#include <QTimer>

namespace gpudesk {

// One GPU process ended over SSH: TERM, a wait, then KILL — each signal sent only after the PID
// is checked again to be the same process (its start time), of the same container (its
// cgroup's pod), still on a GPU; a process in uninterruptible sleep is not signalled at all.
// Afterwards nvidia-smi must no longer list it, and its card's memory must be released.
class ProcessKill : public StepRunner
{
    Q_OBJECT
public:
    ProcessKill(OperationContext context, PlanStep step, QObject *parent = nullptr);

    // Checks the PID as run() would before its first signal, and sends none.
    void dryRun() override;
    void run() override;

    static constexpr int TermWaitMs = 10000; // as the kubelet's default grace, a little less
    static constexpr int KillWaitMs = 5000;
    static constexpr int BusyRetryMs = 250; // the node's link is sampling: try again soon
    static constexpr int GiveUpMs = 60000;  // a node whose link stays busy or down this long

    // What a check of the PID found; filled on the SSH worker.
    struct Check
    {
        bool ran = false; // the command ran (else `error`)
        QString error;
        bool exists = false;
        char state = 0;
        qint64 startTicks = -1;
        QString podUid;
        bool onGpu = false;
        int card = -1;
        qint64 cardMemoryMiB = -1;
    };
    // The verdict on a check: "" when the PID is still the planned process, else why not
    // (for a skip).
    static QString mismatch(const PlanStep &step, const Check &c);

private:
    void submit(bool signal);
    void finish(StepOutcome::Result result, const QString &message,
                const QString &verification = QString());
    // finish(), once the node's Event tells what was sent.
    void tellAndFinish(StepOutcome::Result result, const QString &message,
                       const QString &verification);

    OperationContext m_ctx;
    PlanStep m_step;
    StepOutcome m_outcome;
    QTimer m_retry;
    qint64 m_firstTry = 0;
    bool m_signal = false;
};

} // namespace gpudesk
