// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "auditlog.h"
#include "operationcontext.h"
#include "operationplan.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>

#include <optional>

namespace gpudesk {

// One action on the cluster or its nodes, from its checked plan to its verified results: runs
// in the background with bounded concurrency, a step's dependencies first; cancel lets the
// steps in flight finish and starts no more; each step's result is its own (a refusal of one
// item does not end the batch). Written to the audit log when it starts and when it ends.
class Operation : public QObject
{
    Q_OBJECT
public:
    enum class State
    {
        Planned,  // not checked yet
        Checking, // asking the server (dry runs) and the nodes (PID checks)
        Ready,    // checked: waiting for the user's confirmation
        Running,
        Finished
    };
    static constexpr int MaxApiInFlight = 16;
    static constexpr int MaxSshInFlight = 8;

    Operation(OperationContext context, OperationPlan plan, AuditLog audit,
              QObject *parent = nullptr);
    ~Operation() override;

    QString id() const { return m_id; }
    const OperationPlan &plan() const { return m_plan; }
    const QList<StepOutcome> &outcomes() const { return m_outcomes; }
    State state() const { return m_state; }
    bool isCancelled() const { return m_cancelled; }
    const OperationContext &context() const { return m_ctx; }
    int ended() const { return m_ended; }
    // Steps whose request (or SSH procedure) has been answered, and when the last one was, in
    // ms since start(): the pace the server took the batch at, verification aside.
    int requestsAnswered() const { return m_answered; }
    qint64 lastRequestAnsweredMs() const { return m_lastAnsweredMs; }
    int count(StepOutcome::Result result) const;
    // "5 done, 1 skipped, 1 refused" — what a notification says.
    QString summary() const;

    // Asks the server what each API step would do (dryRun=All) and checks each process to
    // kill; `checked` when every answer is in.
    void check();
    // Runs the plan. False (with the reason) when the audit log cannot be written: nothing is
    // done that is not recorded.
    bool start(QString *error);
    void cancel();

signals:
    void stepChecked(int step);
    void checked();
    void stepChanged(int step);
    void progress(int ended, int total);
    // The server answered a step's request (its effect may still be awaited).
    void requestAnswered(int answered);
    // A step that runs long said how far it is (a push's lines).
    void stepProgress(int step, const QString &line);
    // cancel() was called: steps that can stop midway (a push) do.
    void cancelling();
    void finished();

private:
    void pump();
    void launch(int step);
    void stepEnded(int step, const StepOutcome &outcome);
    void checkNext();
    void finishIfDone();
    bool isSsh(int step) const;
    // Why a step of a group (PlanStep::group) must not run: it or a sibling was refused by the
    // server's check, or a sibling ended refused, skipped or failed. Nothing when it may run.
    std::optional<StepOutcome> heldByGroup(int step) const;
    // A unit's step did not succeed (or the operation was cancelled inside it): its pending
    // steps are skipped and what it created is deleted again, one object at a time.
    void rollBack(int unit, const QString &why);
    void undoNext(QList<int> steps, const QString &why);

    OperationContext m_ctx;
    OperationPlan m_plan;
    AuditLog m_audit;
    QString m_id;
    State m_state = State::Planned;
    QList<StepOutcome> m_outcomes;
    bool m_cancelled = false;
    int m_apiInFlight = 0;
    int m_sshInFlight = 0;
    int m_ended = 0;
    int m_cursor = 0;      // steps before it have started
    int m_checkCursor = 0; // steps before it have been sent for checking
    int m_checksPending = 0;
    int m_answered = 0;
    qint64 m_lastAnsweredMs = 0;
    QElapsedTimer m_running;
    QHash<int, QList<int>> m_groups; // PlanStep::group → its steps
    QSet<int> m_rolledBack;          // units
    int m_rollingBack = 0;
    void answered();
};

} // namespace gpudesk
