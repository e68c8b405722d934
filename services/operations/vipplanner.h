// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operationplan.h"
#include "operationplanner.h"

#include <QCoreApplication>

namespace gpudesk {

// The plans of a VIP job (VipJob): the machines it must have, and what runs there.
//  - Wait: each machine reserved for it (a NoSchedule taint only the VIP job tolerates), then
//    the job created: the jobs there run to their end, nothing new takes their place, and the
//    VIP job starts as the machines free.
//  - Stop now: the jobs holding GPUs there stopped (each the way its kind is; other users'
//    work, so the VIP job's name is typed to confirm), each with an Event naming the VIP job and
//    who stopped it; once their GPUs are free, the job is created.
// Both list the jobs there with their owners and GPUs, and name the class the job runs at.
class VipPlanner
{
    Q_DECLARE_TR_FUNCTIONS(VipPlanner)

public:
    enum class Mode
    {
        Wait,
        StopNow,
    };
    explicit VipPlanner(OperationPlanner base);

    // `job`: the VIP job as VipJob::manifest made it; `collectionPath` where it is posted.
    OperationPlan plan(const QByteArray &job, const QString &collectionPath,
                       const QStringList &nodes, Mode mode) const;
    // Takes gpudesk's VIP reservations off the nodes (every one there is).
    OperationPlan release(const QStringList &nodes) const;

private:
    PlanStep reserveStep(const QString &node, const QString &ns, const QString &name) const;

    OperationPlanner m_base;
};

} // namespace gpudesk
