// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "specfixes.h"

#include <QString>

namespace gpudesk {

// The job doctor's fixes that are a change of the spec, made on an object's YAML (a copy to run
// again): every pod template it holds — a Pod's own spec, a Job's or a Deployment's template,
// Volcano's tasks, Kubeflow's replica specs — gets the change. The result goes through the
// re-run dialog, where the server's dry run checks it and the diff shows it.
class SpecFix
{
public:
    // /dev/shm as a Memory emptyDir of `sizeLimit` ("" chooses: half the first container's
    // memory limit, 16Gi without one), mounted in every container; a volume already mounted
    // there is replaced. "" with `error` when the YAML holds no pod template.
    static QString sharedMemory(const QString &yaml, const QString &sizeLimit, QString *error);
    // Every container's memory limit raised by half (whole GiB, rounded up), its request with
    // it where the request was the limit. "" with `error` when no container has a limit.
    static QString memoryLimit(const QString &yaml, QString *error);
    // The variable `name` removed from every container (and init container). "" with `error`
    // when none sets it.
    static QString removeVariable(const QString &yaml, const QString &name, QString *error);
    // A launch script that is a link the container cannot follow: the command runs it by the
    // path the container sees its target at, wherever it names it by its path (each container's
    // and init container's command and args, a shell's line too); else, or without that path,
    // the node's folder of the target mounted read-only where the link leads. "" with `error`
    // when neither can be done.
    static QString resolvedPath(const QString &yaml, const SpecFixes::ResolvedPath &fix,
                                QString *error);
    // A diagnosis's fix (its rule's "specFix", SpecFixes::names()) made on `yaml`. "" with
    // `error` for a fix gpudesk cannot make.
    static QString apply(const QString &fix, const QString &yaml, QString *error);
};

} // namespace gpudesk
