// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobspec.h"

#include "quantity.h"

#include <QRegularExpression>

namespace gpudesk {

QStringList JobSpec::providedVariables(Kind kind)
{
    switch (kind) {
    case PyTorch:
        return {QStringLiteral("MASTER_ADDR"),
                QStringLiteral("MASTER_PORT"),
                QStringLiteral("RANK"),
                QStringLiteral("WORLD_SIZE"),
                QStringLiteral("PET_NNODES"),
                QStringLiteral("PET_NODE_RANK"),
                QStringLiteral("PET_NPROC_PER_NODE"),
                QStringLiteral("PET_MASTER_ADDR"),
                QStringLiteral("PET_MASTER_PORT")};
    case Mpi:
        return {QStringLiteral("OMPI_MCA_orte_default_hostfile"), QStringLiteral("K_MPI_JOB_ROLE")};
    case Volcano:
        // The pytorch plugin; WORLD_SIZE counts pods there, not GPUs.
        return {QStringLiteral("MASTER_ADDR"),
                QStringLiteral("MASTER_PORT"),
                QStringLiteral("RANK"),
                QStringLiteral("WORLD_SIZE"),
                QStringLiteral("VC_MASTER_HOSTS"),
                QStringLiteral("VC_WORKER_HOSTS"),
                QStringLiteral("VC_TASK_INDEX")};
    case SinglePod:
        break;
    }
    return {};
}

QString JobSpec::kindName(Kind kind)
{
    switch (kind) {
    case PyTorch:
        return QStringLiteral("PyTorchJob");
    case Mpi:
        return QStringLiteral("MPIJob");
    case Volcano:
        return QStringLiteral("Volcano Job");
    case SinglePod:
        break;
    }
    return QStringLiteral("Pod");
}

QString JobSpecRules::quantityError(const QString &what, const QString &value, bool required)
{
    if (value.isEmpty())
        return required ? tr("%1: give an amount.").arg(what) : QString();
    const auto parsed = quantity::parseMilli(value);
    if (!parsed || *parsed <= 0)
        return tr("%1: %2 is not an amount Kubernetes reads (such as 8Gi, 500m, 4).")
            .arg(what, value);
    return {};
}

QStringList JobSpecRules::errors(const JobSpec &spec)
{
    QStringList out;
    // The job's pods are named NAME-master-0, NAME-worker-12: room for the suffix in 63.
    static const QRegularExpression name(QStringLiteral("^[a-z0-9]([-a-z0-9]{0,44}[a-z0-9])?$"));
    if (spec.name.isEmpty())
        out << tr("Give the job a name.");
    else if (!name.match(spec.name).hasMatch())
        out << tr("%1 is not a valid name: lower-case letters, digits and '-', at most 46, "
                  "starting and ending with a letter or digit.")
                   .arg(spec.name);
    if (spec.image.trimmed().isEmpty())
        out << tr("Name the image to run.");
    else if (spec.image.trimmed().contains(u' '))
        out << tr("An image reference has no spaces.");
    if (spec.command.trimmed().isEmpty())
        out << tr("Give the command that starts training.");
    if (spec.nodes < 1)
        out << tr("At least one node.");
    for (const auto &[what, value, required] :
         {std::tuple{tr("CPU"), spec.cpu, true}, std::tuple{tr("Memory"), spec.memory, true},
          std::tuple{tr("Shared memory"), spec.shm, false}})
        if (const QString e = quantityError(what, value, required); !e.isEmpty())
            out << e;
    for (const QString &m : spec.mounts) {
        const bool host = m.startsWith(u'/');
        const bool claim = !m.section(u':', 0, 0).isEmpty() && m.section(u':', 1).startsWith(u'/');
        if (!host && !claim)
            out << tr("Data %1: write a path the nodes mount (/mnt/user/NAME) or CLAIM:/path.")
                       .arg(m);
    }
    for (const auto &[key, value] : spec.env)
        if (key.isEmpty() || key.contains(u' '))
            out << tr("Variable \"%1\": a name without spaces, then =value.").arg(key);
    return out;
}

} // namespace gpudesk
