// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobspec.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QStringList>

#include <optional>

namespace gpudesk {

// A job's manifest (a template, or a copy of a job that ran) read back into the New training job
// form: the JobSpec that JobManifest would make the same object of. The reader takes what it
// finds where JobManifest writes it, makes the object again from that, and compares the two:
// where they differ (a second container, tolerations, a Worker unlike the Master, a field the
// form has no place for) the form cannot hold the manifest, and the differences are named so
// that the user knows why the YAML, not the form, is then what will be submitted.
//
// Fields the API server fills in on objects it returns (a pod's dnsPolicy, its service account
// token's volume, the not-ready tolerations, a container's termination message path) are left
// out of the comparison when they hold the server's default: a copy of a job gpudesk made
// comes back to the form.
class JobSpecReader
{
    Q_DECLARE_TR_FUNCTIONS(JobSpecReader)

public:
    struct Result
    {
        std::optional<JobSpec> spec; // empty when it is not a job the form makes at all
        // Where the manifest and the form's object of `spec` differ ("spec.tasks[1].replicas"),
        // at most a few; empty when the form holds the manifest whole.
        QStringList differences;
        int moreDifferences = 0; // beyond those named
        QString error;           // why there is no spec
        bool formHoldsIt() const { return spec && differences.isEmpty(); }
    };
    // `mpiVersion`: the version MPIJobs are made at (JobManifest::of).
    static Result read(const QByteArray &json, const QString &mpiVersion);
};

} // namespace gpudesk
