// SPDX-License-Identifier: GPL-3.0-or-later
#include "steprunner.h"

#include "harborgcstep.h"
#include "kubestep.h"
#include "operationcontext.h"
#include "processkill.h"
#include "registrystep.h"
#include "saveimagestep.h"
#include "serviceaccountrotation.h"

namespace gpudesk {

StepRunner::Lane StepRunner::laneOf(PlanStep::Kind kind)
{
    return kind == PlanStep::Kind::KillProcess || kind == PlanStep::Kind::SaveImage ? Lane::Ssh
                                                                                    : Lane::Api;
}

StepRunner *makeStepRunner(const OperationContext &context, const PlanStep &step, QObject *parent)
{
    switch (step.kind) {
    case PlanStep::Kind::CollectGarbage:
        return new HarborGcStep(context, step, parent);
    case PlanStep::Kind::SaveImage:
        return new SaveImageStep(context, step, parent);
    case PlanStep::Kind::KillProcess:
        return new ProcessKill(context, step, parent);
    case PlanStep::Kind::DeleteImage:
    case PlanStep::Kind::CopyImage:
        return new RegistryStep(context, step, parent);
    case PlanStep::Kind::RotateServiceAccount:
        return new ServiceAccountRotation(context, step, parent);
    default:
        return new KubeStep(context, step, parent);
    }
}

} // namespace gpudesk
