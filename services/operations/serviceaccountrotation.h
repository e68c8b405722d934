// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "steprunner.h"

#include "operationcontext.h"
#include "operationplan.h"

#include <QObject>
#include <QTimer>

namespace gpudesk {

struct KubeReply;

// A step that revokes every token of a ServiceAccount by deleting it and making it again (a new
// uid: tokens are bound to the old one), and proves it: a witness token issued just before is
// refused by the API server afterwards. The witness lives in memory only.
class ServiceAccountRotation : public StepRunner
{
    Q_OBJECT
public:
    ServiceAccountRotation(OperationContext context, PlanStep step, QObject *parent = nullptr);

    void dryRun() override; // the delete, with dryRun=All
    void run() override;

    static constexpr int SettleMs = 30000; // how long the old account may take to go, the
                                           // witness to be refused

private:
    void issueWitness();
    void checkWitness(bool expectRefused);
    void remove();
    void waitGone();
    void recreate();
    void finish(StepOutcome::Result result, const QString &message,
                const QString &verification = {});
    QByteArray reviewBody() const;
    void sayActed();

    OperationContext m_ctx;
    PlanStep m_step;
    StepOutcome m_outcome;
    QByteArray m_witness;
    QTimer m_retry;
    qint64 m_waitStarted = 0;
    bool m_removed = false;
    bool m_finished = false;
    bool m_actedSent = false;
};

} // namespace gpudesk
