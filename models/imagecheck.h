// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobrequest.h"
#include "registrytypes.h"
#include "sshdlook.h"
#include "startcheck.h"

#include <QCoreApplication>
#include <QStringList>

namespace gpudesk {

// The submit check's look at a job's images in their registries (issue 36): a tag the registry
// does not have leaves every pod in ImagePullBackOff — found before the job is submitted, not
// after the first pull fails on a node. What was looked up (ImageLook, ImagesService::lookImage)
// is judged here; pure, any thread.
class ImageCheck
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::ImageCheck)

public:
    // The images the job's pods run, each once, in the order of its roles ("" left out).
    static QStringList imagesOf(const JobRequest &job);
    // What the verdict says of one image: missing (never starts), credentials refused
    // (warning: the pods pull with their own secrets), not reached (info: not checked), found
    // (info, with its size; a warning over `hugeBytes`, 0: no limit).
    static StartReason judge(const ImageLook &look, qint64 hugeBytes);
    // The image could not be looked up in time: said, not judged.
    static StartReason unchecked(const QString &reference, const QString &why);

    // The images an MPI job's workers run (not its launcher's), each once: mpirun on the
    // launcher of an MPI operator's MPIJob (kubeflow.org/v2beta1) starts its daemons on them
    // over SSH, as on a Volcano job's tasks its mpi or ssh plugin names (sshServerRoles). None
    // for other kinds and for the training operator's MPIJobs (v1: kubectl exec).
    static QStringList sshdImagesOf(const JobRequest &job);
    // Where else the workers that run `image` keep their SSH server: the program their command
    // starts, where it is an sshd or Dropbear by an absolute path gpudesk does not look at
    // anyway ("/opt/openssh/sbin/sshd -D" → "opt/openssh/sbin/sshd").
    static QStringList sshdPathsOf(const JobRequest &job, const QString &image);
    // What the verdict says of a worker image's SSH server: none (never starts: the launch
    // fails), one (info), not known (info, with why).
    static StartReason sshd(const SshdLook &look);
    static StartReason sshdUnchecked(const QString &reference, const QString &why);
};

} // namespace gpudesk
