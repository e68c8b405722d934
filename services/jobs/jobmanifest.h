// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobspec.h"

#include <QByteArray>

namespace gpudesk {

// The object a JobSpec stands for, as JSON the API takes (see JobSpec for each kind's shape).
// The submit check reads it back with JobRequestDecoder, so the form, the YAML tab and
// `--submit` are checked by the same path.
class JobManifest
{
public:
    // `mpiVersion`: the version the cluster serves MPIJobs at (v2beta1: the MPI operator; v1:
    // the training operator). Their shape is the same for what gpudesk writes.
    static QByteArray of(const JobSpec &spec,
                         const QString &mpiVersion = QStringLiteral("v2beta1"));
    // The port the pytorch plugin and the PyTorchJob's master listen on.
    static constexpr int MasterPort = 23456;
};

} // namespace gpudesk
