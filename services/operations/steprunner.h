// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operationplan.h"

#include <QObject>

namespace gpudesk {

class SshPool;
struct OperationContext;

// One step of an operation, of any kind: asked first with a dry run (what the server, the
// registry or the node would say; nothing changed), then run — with progress, a cancel where the
// work is long, and an outcome that says what was verified. Operation drives every kind through
// this interface; makeStepRunner() is the one place that knows the kinds, so a new kind of step
// is its class, its case in the factory and its planner.
class StepRunner : public QObject
{
    Q_OBJECT
public:
    // Which of the operation's lanes a step takes: the API's requests (their slot freed as soon
    // as the request is answered, `acted`) or a node's SSH link (freed when the step ends).
    enum class Lane
    {
        Api,
        Ssh
    };
    static Lane laneOf(PlanStep::Kind kind);

    using QObject::QObject;

    virtual void dryRun() = 0;
    virtual void run() = 0;
    // Stops work that runs for minutes (a commit, a push); the steps that only wait for an
    // effect end on their own.
    virtual void cancel() {}

    // For steps over SSH: the pool that reaches `node`, or null and why not.
    static SshPool *sshPool(const OperationContext &context, const QString &node, QString *why);
    // The node's lane was busy: "" to try again shortly, or why to give up (the node waits
    // for the user, or has not been reachable since `firstTry` for `giveUpMs`).
    static QString sshGiveUp(const SshPool *pool, const QString &node, qint64 firstTry,
                             qint64 giveUpMs);

signals:
    void dryRunDone(gpudesk::PlanStep::DryRun answer, const QString &message);
    void progress(const QString &line);
    // The request is answered (or the step ended before it): what follows only waits and
    // watches, so the operation may start another step on the API lane.
    void acted();
    void ended(const gpudesk::StepOutcome &outcome);
};

// The runner for a planned step (never null: a step of the API's kinds is a KubeStep).
StepRunner *makeStepRunner(const OperationContext &context, const PlanStep &step, QObject *parent);

} // namespace gpudesk
