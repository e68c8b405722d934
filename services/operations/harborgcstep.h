// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "steprunner.h"

#include "harbortypes.h"
#include "operationcontext.h"
#include "operationplan.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>

namespace gpudesk {

class HarborClient;

// Harbor's garbage collection as a step (PlanStep::Kind::CollectGarbage). Its check is Harbor's
// own dry run, which says how much the run could free; the run is followed until Harbor's job
// ends, and its log says what it freed — the verification, since "deleted" is not "freed".
// Untagged artifacts are deleted first when the step's body asks (delete_untagged).
class HarborGcStep : public StepRunner
{
    Q_OBJECT
public:
    HarborGcStep(const OperationContext &context, PlanStep step, QObject *parent = nullptr);

    void dryRun() override;
    void run() override;

    static constexpr int PollMs = 1000;
    // A run still going after this long is left to Harbor and said so (Unverified).
    static constexpr int MaxFollowMs = 6 * 3600 * 1000;

private:
    bool deleteUntagged() const;
    // Starts a run and follows it to its end: `done` gets its status and what its log says, or
    // why it could not (a refusal, a lost connection).
    using Done =
        std::function<void(const HarborGcRun &, const HarborGcResult &, const QString &error)>;
    void runJob(bool dryRun, Done done);
    void follow(int id, Done done);

    PlanStep m_step;
    HarborClient *m_client = nullptr;
    QElapsedTimer m_clock;
};

} // namespace gpudesk
