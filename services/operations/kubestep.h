// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "steprunner.h"

#include "operationcontext.h"
#include "operationplan.h"

#include <QDateTime>
#include <QObject>
#include <QTimer>

namespace gpudesk {

struct KubeReply;

// One step of an operation that acts through the API: checks that its target is still the one
// planned (uid, state), acts with the uid as a precondition, posts an Event on the object for
// its owner, and checks the effect — gone from the API, and its GPUs free on the node, which
// is not the same thing.
class KubeStep : public StepRunner
{
    Q_OBJECT
public:
    KubeStep(OperationContext context, PlanStep step, QObject *parent = nullptr);

    // The same request with dryRun=All: what the server would say, nothing changed.
    void dryRun() override;
    void run() override;

    // How long an effect is waited for beyond the grace period.
    static constexpr int SettleMs = 60000;
    static constexpr int FreedWaitMs = 30000;

private:
    void send(bool dryRun, std::function<void(const KubeReply &)> done);
    void precheck();
    void checkGuard(const QByteArray &object);
    void act();
    void postEvent();
    void waitGone();
    void waitState();
    void checkGone();
    void pollGone();
    bool kindInStore() const;
    bool deletes() const;
    void emitWhenDone();
    void waitFreed();
    bool checkFreed(bool final);
    void finish(StepOutcome::Result result, const QString &message,
                const QString &verification = QString());
    bool targetGone() const;
    QString eventMessage() const;

    OperationContext m_ctx;
    PlanStep m_step;
    StepOutcome m_outcome;
    qint64 m_actedAt = 0;
    qint64 m_goneAt = 0;
    qint64 m_graceMs = 30000;
    QTimer m_deadline;
    QTimer m_poll;
    QString m_gone; // what was seen gone
    bool m_finished = false;
    bool m_eventPending = false;
    bool m_emitted = false;
    bool m_actedSent = false;
    void sayActed();
    QString m_eventError;
};

} // namespace gpudesk
