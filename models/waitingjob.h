// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobrequest.h"

#include <QStringList>

#include <optional>

namespace gpudesk {

class ClusterStore;

// Why a job that was submitted waits, asked the way the submit check asks before it is submitted
// (one code for both, issues 36 and 37): what the job still needs, from the store — its pods
// that are not bound to a node (grouped by shape into roles), or, for a Volcano gang not yet
// admitted (no pods), its pod group's members and GPUs — as a JobRequest for StartCheck.
class WaitingJob
{
public:
    // Nothing when nothing of the workload waits (every pod bound, or finished).
    static std::optional<JobRequest> requestOf(const ClusterStore &store,
                                               const QString &workloadKey);
};

} // namespace gpudesk
