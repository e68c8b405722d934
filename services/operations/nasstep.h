// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "steprunner.h"

#include "operationcontext.h"
#include "operationplan.h"
#include "remotefile.h"

#include <QPointer>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>

namespace gpudesk {

// A path on the NAS removed or moved over SFTP (PlanStep::Kind::RemoveNasPath, MoveNasPath), on
// the node's files session — or, for a researcher without SSH to the nodes, through her dev
// environment pod's exec (NasTarget::pod; PodFileClient), on a thread of its own. Before acting,
// and in its check: the path is still what was planned (its kind, size and time), and it is reached
// without a link — the folder it is in, read by the server, is the folder the plan names, inside
// the root — so a link swapped in since the plan cannot send the removal elsewhere. A removal goes
// depth first, each link removed itself, with progress and cancel between entries; it is verified
// gone, and what the NAS's free space did (df of the root) is told: "deleted" is not "freed" while
// a process holds a file open.
class NasStep : public StepRunner
{
    Q_OBJECT
public:
    NasStep(OperationContext context, PlanStep step, QObject *parent = nullptr);
    ~NasStep() override;

    void dryRun() override;
    void run() override;
    void cancel() override { m_cancel->store(true); }

    // Why the path as it is now is not the planned one ("" when it is). Plain, for tests.
    static QString mismatch(const NasTarget &planned, const RemoteFile &now);
    // Below this, what df says is within the NAS's own noise: a removal is verified gone only.
    static constexpr qint64 FreedCheckFrom = qint64(1) << 30;
    static constexpr int FreedRereads = 5; // df read again, a second apart, before Unverified
    static constexpr int BusyRetryMs = 250;
    static constexpr int GiveUpMs = 60000;
    static constexpr qint64 CountLimit = 200000; // entries counted for the check, then "more"

    struct Shared; // what the removal on the worker tells the UI thread

private:
    void submit(bool act);
    // The step through the user's dev environment pod (NasTarget::pod), on a thread of its own.
    void throughPod(bool act);
    void finish(StepOutcome::Result result, const QString &message,
                const QString &verification = QString());
    // What the worker found, on the UI thread: the step's end, or its check's answer.
    void told(bool act, StepOutcome::Result result, const QString &message,
              const QString &verification, PlanStep::DryRun dry);
    void tick();

    OperationContext m_ctx;
    PlanStep m_step;
    QTimer m_retry;
    QTimer m_ticker;
    qint64 m_firstTry = 0;
    bool m_act = false;
    bool m_toldWaiting = false;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<Shared> m_shared;
    QPointer<QThread> m_thread;
};

} // namespace gpudesk
