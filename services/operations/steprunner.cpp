// SPDX-License-Identifier: GPL-3.0-or-later
#include "steprunner.h"

#include "contextconnection.h"
#include "harborgcstep.h"
#include "kubestep.h"
#include "nasstep.h"
#include "operationcontext.h"
#include "processkill.h"
#include "registrystep.h"
#include "saveimagestep.h"
#include "serviceaccountrotation.h"
#include "sshpool.h"

#include <QDateTime>

namespace gpudesk {

StepRunner::Lane StepRunner::laneOf(PlanStep::Kind kind)
{
    switch (kind) {
    case PlanStep::Kind::KillProcess:
    case PlanStep::Kind::SaveImage:
    case PlanStep::Kind::RemoveNasPath:
    case PlanStep::Kind::MoveNasPath:
        return Lane::Ssh;
    default:
        return Lane::Api;
    }
}

SshPool *StepRunner::sshPool(const OperationContext &context, const QString &node, QString *why)
{
    SshPool *pool = context.lease ? context.lease->pool() : nullptr;
    if (!pool) {
        *why = tr("no SSH access to the nodes: node telemetry is off for this context");
        return nullptr;
    }
    if (!pool->nodes().contains(node)) {
        *why = tr("%1 is not among the nodes gpudesk reaches over SSH").arg(node);
        return nullptr;
    }
    return pool;
}

QString StepRunner::sshGiveUp(const SshPool *pool, const QString &node, qint64 firstTry,
                              qint64 giveUpMs)
{
    const SshStatus status = pool->status(node);
    if (status.needsUser())
        return tr("%1 waits for you over SSH: %2").arg(node, status.message);
    if (QDateTime::currentMSecsSinceEpoch() - firstTry > giveUpMs)
        return status.message.isEmpty()
                   ? tr("%1 could not be reached over SSH for a minute").arg(node)
                   : status.message;
    return QString();
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
    case PlanStep::Kind::RemoveNasPath:
    case PlanStep::Kind::MoveNasPath:
        return new NasStep(context, step, parent);
    default:
        return new KubeStep(context, step, parent);
    }
}

} // namespace gpudesk
