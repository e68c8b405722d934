// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobrequest.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

namespace gpudesk {

// A job not yet created, as the submit check reads it: the JSON of a Pod, a Volcano Job
// (batch.volcano.sh), a PyTorchJob or an MPIJob (kubeflow.org v1, v2beta1) → JobRequest. Only
// what the check counts with is read; the rest of the object is the server's to judge (its dry
// run). What is not one of these kinds, or not an object at all, is refused with the reason.
class JobRequestDecoder
{
    Q_DECLARE_TR_FUNCTIONS(JobRequestDecoder)

public:
    static bool decode(const QByteArray &json, JobRequest *out, QString *error);

    // More replicas than this (or fewer than none) are refused as they are read.
    static constexpr int MaxReplicas = 10000;
    // The label and annotation that name a pod's Volcano queue.
    static constexpr const char *QueueLabel = "volcano.sh/queue-name";
    static constexpr const char *QueueAnnotation = "scheduling.volcano.sh/queue-name";
};

} // namespace gpudesk
