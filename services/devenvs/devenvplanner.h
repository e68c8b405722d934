// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "devenvspec.h"
#include "operationplan.h"
#include "operationplanner.h"

#include <QCoreApplication>

namespace gpudesk {

class DevEnvsModel;

// Plans for what a researcher does to a dev environment: create it (its home volume, then its
// pod, one unit so that a refused pod takes the new volume with it), stop it (the pod deleted,
// its GPUs checked free, the volume kept), start it again from the manifest the volume keeps,
// and delete it (pod and volume, typed confirmation: the volume's files are lost).
class DevEnvPlanner
{
    Q_DECLARE_TR_FUNCTIONS(DevEnvPlanner)

public:
    DevEnvPlanner(OperationPlanner base, const DevEnvsModel *model);

    OperationPlan create(const DevEnvSpec &spec) const;
    OperationPlan stop(const QString &key) const;
    OperationPlan start(const QString &key) const;
    OperationPlan remove(const QString &key) const;

private:
    PlanStep createPod(const QString &ns, const QString &env, const QString &name,
                       const QByteArray &body) const;

    OperationPlanner m_base;
    const DevEnvsModel *m_model;
};

} // namespace gpudesk
