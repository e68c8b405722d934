// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagecheck.h"

#include "format.h"
#include "imagereference.h"
#include "launchscripts.h"

namespace gpudesk {

QStringList ImageCheck::imagesOf(const JobRequest &job)
{
    QStringList out;
    for (const JobRole &r : job.roles)
        if (const QString image = r.image.trimmed(); !image.isEmpty() && !out.contains(image))
            out << image;
    return out;
}

QStringList ImageCheck::sshdImagesOf(const JobRequest &job)
{
    // The MPI operator's MPIJobs (kubeflow.org/v2beta1) start their daemons over SSH; those of
    // the training operator (kubeflow.org/v1) through `kubectl exec` (its kubexec.sh), with no
    // SSH server in the workers.
    // A Volcano job names the tasks reached over SSH by its mpi or ssh plugin.
    QStringList out;
    const bool mpiOperator = job.kind == Resource::MPIJobs &&
                             job.apiVersion.startsWith(QLatin1String("kubeflow.org/v2"));
    if (!mpiOperator && !(job.kind == Resource::VolcanoJobs && !job.sshServerRoles.isEmpty()))
        return out;
    for (const JobRole &r : job.roles) {
        const bool server =
            mpiOperator ? r.name.compare(QLatin1String("Launcher"), Qt::CaseInsensitive) != 0
                        : job.sshServerRoles.contains(r.name);
        if (const QString image = r.image.trimmed();
            server && !image.isEmpty() && !out.contains(image))
            out << image;
    }
    return out;
}

QStringList ImageCheck::sshdPathsOf(const JobRequest &job, const QString &image)
{
    // The programs the workers' command runs, as the launch script check reads a command (a
    // shell's -c line, env, exec, cd): an sshd or Dropbear among them, by its own path.
    const QStringList &standard = standardSshdPaths();
    QStringList out;
    for (const JobRole &r : job.roles) {
        if (r.image.trimmed() != image.trimmed())
            continue;
        for (const auto &[program, direct] : LaunchScripts::programsOf(r)) {
            const QString name = program.section(u'/', -1);
            const QString path = program.mid(1);
            if (direct && program.startsWith(u'/') &&
                (name == QLatin1String("sshd") || name == QLatin1String("dropbear")) &&
                !standard.contains(path) && !out.contains(path))
                out << path;
        }
    }
    return out;
}

StartReason ImageCheck::sshd(const SshdLook &look)
{
    StartReason r;
    r.field = QStringLiteral("image");
    r.numbers = {{QStringLiteral("image"), look.reference},
                 {QStringLiteral("layers"), look.layers},
                 {QStringLiteral("layersRead"), look.layersRead}};
    switch (look.verdict) {
    case SshdLook::Present:
        r.severity = StartReason::Info;
        r.code = QStringLiteral("image-sshd");
        r.message = tr("%1 has an SSH server (%2): mpirun on the launcher can reach the workers.")
                        .arg(look.reference, look.evidence);
        return r;
    case SshdLook::Absent:
        r.severity = StartReason::Never;
        r.code = QStringLiteral("image-no-sshd");
        r.message = tr("%1 has no SSH server (%2): mpirun on the launcher starts its daemons on "
                       "the workers over SSH, so the launch would fail (\"ORTE was unable to "
                       "reliably start one or more daemons\").")
                        .arg(look.reference, look.evidence);
        r.fix = tr("Run the workers on an image with OpenSSH's server installed (apt-get install "
                   "-y openssh-server; the MPI operator's own base images have it).");
        return r;
    case SshdLook::Unknown:
        break;
    }
    return sshdUnchecked(look.reference, look.error);
}

StartReason ImageCheck::sshdUnchecked(const QString &reference, const QString &why)
{
    StartReason r;
    r.severity = StartReason::Info;
    r.field = QStringLiteral("image");
    r.code = QStringLiteral("image-sshd-unchecked");
    r.numbers = {{QStringLiteral("image"), reference}};
    r.message = tr("Whether %1 has an SSH server (the MPI workers need one) was not checked: %2")
                    .arg(reference, why);
    return r;
}

StartReason ImageCheck::unchecked(const QString &reference, const QString &why)
{
    StartReason r;
    r.severity = StartReason::Info;
    r.field = QStringLiteral("image");
    r.code = QStringLiteral("image-unchecked");
    r.numbers = {{QStringLiteral("image"), reference}};
    r.message = tr("%1 was not looked up in its registry: %2").arg(reference, why);
    return r;
}

StartReason ImageCheck::judge(const ImageLook &look, qint64 hugeBytes)
{
    const ImageReference ref = ImageReference::parse(look.reference);
    StartReason r;
    r.field = QStringLiteral("image");
    r.numbers = {{QStringLiteral("image"), look.reference},
                 {QStringLiteral("registry"), ref.registry}};
    if (look.found()) {
        r.numbers.insert(QStringLiteral("bytes"), look.bytes);
        r.code = QStringLiteral("image-found");
        r.severity = StartReason::Info;
        r.message = look.bytes >= 0
                        ? tr("%1 is in %2 (%3 to pull).")
                              .arg(look.reference, ref.registry, format::bytes(look.bytes))
                        : tr("%1 is in %2.").arg(look.reference, ref.registry);
        if (hugeBytes > 0 && look.bytes > hugeBytes) {
            r.code = QStringLiteral("image-huge");
            r.severity = StartReason::Warning;
            r.message = tr("%1 is %2: each node pulls all of it before the pod starts, minutes "
                           "on a node that has not run it yet.")
                            .arg(look.reference, format::bytes(look.bytes));
            r.fix = tr("Keep data and checkpoints on the NAS, not in the image; a slimmer base "
                       "image pulls faster.");
        }
        return r;
    }
    r.numbers.insert(QStringLiteral("httpStatus"), look.httpStatus);
    if (!look.errorCode.isEmpty())
        r.numbers.insert(QStringLiteral("errorCode"), look.errorCode);
    if (look.missing()) {
        r.code = QStringLiteral("image-missing");
        r.severity = StartReason::Never;
        r.message =
            tr("%1 has no %2:%3: every pod would stay in ImagePullBackOff.")
                .arg(ref.registry, ref.repository, ref.digest.isEmpty() ? ref.tag : ref.digest);
        r.fix = tr("Push the image first, or pick a tag the registry has (the Images page lists "
                   "them).");
        return r;
    }
    if (look.refused()) {
        r.code = QStringLiteral("image-refused");
        r.severity = StartReason::Warning;
        r.message = tr("%1 refused gpudesk's credentials for %2 (%3): the nodes pull with the "
                       "namespace's image pull secrets, which may be let in; not checked.")
                        .arg(ref.registry, ref.repository, look.error);
        r.fix = tr("Log in to the registry on the Images page to check it, or make sure the "
                   "namespace has a pull secret for it.");
        return r;
    }
    return unchecked(look.reference, look.error);
}

} // namespace gpudesk
