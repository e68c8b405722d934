// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operationcontext.h"
#include "operationplan.h"

#include <QObject>

#include <functional>

namespace gpudesk {

// What justified a step, checked again right before it acts (issue 33: kills sent after their
// reason was gone). The object is read from the API then — a process's pod, or the step's own
// target — and so is the node whose state the step relies on: a node Ready again, even for a
// moment since the plan, a pod replaced or no longer Terminating, and the step is skipped.
class StepGuard : public QObject
{
    Q_OBJECT
public:
    // How the check ended: Done when what justified the step still holds (the step may act);
    // otherwise the step's result (Skipped, Refused, Failed) and why, in words.
    using Verdict = std::function<void(StepOutcome::Result result, const QString &why)>;

    StepGuard(OperationContext context, const PlanStep &step, QObject *parent = nullptr);

    // Reads what the guard is about and checks it.
    void check(Verdict verdict);
    // The step's target as just read by the caller (an API step reads it for its own uid
    // check): the guard's part only.
    void checkObject(const QByteArray &object, Verdict verdict);

    // The node's Ready condition as the API has it: "" when it is still NotReady since `since`
    // (ms since the epoch; 0: since whenever), else why not. Plain, for tests.
    static QString nodeStillNotReady(const QByteArray &node, qint64 since);

private:
    void checkNode(const QString &node, Verdict verdict);

    OperationContext m_ctx;
    PlanStep m_step;
};

} // namespace gpudesk
