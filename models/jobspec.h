// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QList>
#include <QStringList>

#include <utility>

namespace gpudesk {

// A training job as the New training job form holds it. gpudesk makes of it the object its kind
// wants (services/jobs/jobmanifest): a PyTorchJob (a Master and nodes − 1 Workers), an MPIJob (a
// Launcher without GPUs and `nodes` Workers), a Volcano Job (master and worker tasks, Volcano's
// pytorch, svc and env plugins) or one Pod; each pod with the same GPUs, CPU, memory, /dev/shm,
// variables and data.
struct JobSpec
{
    enum Kind
    {
        PyTorch,
        Mpi,
        Volcano,
        SinglePod,
    };
    Kind kind = PyTorch;
    QString name;
    QString ns;
    QString image;
    QString command; // a shell command line, run with sh -c
    int gpusPerNode = 1;
    QString gpuModel; // nvidia.com/gpu.product ("" any)
    QString cpu = QStringLiteral("8");
    QString memory = QStringLiteral("64Gi");
    QString shm = QStringLiteral("32Gi"); // "" the runtime's 64 MiB
    int nodes = 1;                        // pods that hold GPUs
    QString queue;                        // "" the namespace's VC (Volcano's default)
    QString priorityClass;
    QList<std::pair<QString, QString>> env;
    // Data: "/mnt/…" a host path the nodes mount (the NAS), mounted at the same path; or
    // "CLAIM:/path" a PersistentVolumeClaim.
    QStringList mounts;
    bool alwaysPull = false;
    int hoursLimit = 0; // 0: no limit
    QStringList pinnedNodes;

    // The variables each kind's controller gives the pods, for the form to list by the command.
    static QStringList providedVariables(Kind kind);
    static QString kindName(Kind kind); // "PyTorchJob", "MPIJob", "Volcano Job", "Pod"
};

class JobSpecRules
{
    Q_DECLARE_TR_FUNCTIONS(JobSpecRules)

public:
    // What the form cannot make an object of (the name, the image, an amount that is not one);
    // whether the job will start is the submit check's (StartCheck).
    static QStringList errors(const JobSpec &spec);
    // "8Gi" and the like as Kubernetes reads them; "" or why not.
    static QString quantityError(const QString &what, const QString &value, bool required);
};

} // namespace gpudesk
