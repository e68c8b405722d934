// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobrequest.h"
#include "startcheck.h"

#include <QCoreApplication>
#include <QList>

namespace gpudesk {

// What the API server does to a job's pods before the scheduler or a quota sees them, from the
// namespace's LimitRanges: the API's own defaulting (a request not written is the limit), then
// the LimitRanger admission (a limit not written is the range's default, a request its default
// request), then its bounds (min, max; per container and per pod) and the pod's validation
// (every request at most its limit). The ranges of a lab's namespaces are where a job asking for
// 64 GiB of memory without a limit is given a 16 GiB one and refused — as a Volcano or Kubeflow
// job, silently: the job is accepted, its controller's pods are not, and it sits with none.
//
// Applied to roles whose containers are known (JobRole::containers), in place: their sums
// (cpuMilli, memoryBytes, the limits, the "limit everywhere" flags) are then what the API
// server will hold, for the rest of the submit check. Pure, any thread.
class LimitRanger
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::LimitRanger)

public:
    // The reasons: limitrange-default (Info: what was filled in), limitrange-refused and
    // request-over-limit (Never: the pods are refused).
    static QList<StartReason> admit(JobRequest *job, const QList<LimitRangeInfo> &ranges);
};

} // namespace gpudesk
