// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"
#include "resource.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

namespace gpudesk {

// What a job asks of the cluster, as the submit check reads it (from a job not yet created, or
// from the form): the kind, where it goes, and each replica type's pods. One shape for a bare
// Pod, a Volcano Job (its tasks), a PyTorchJob (Master, Worker) and an MPIJob (Launcher, Worker).
// A container's resources as written (thousandths; the API's own defaulting of a missing
// request to the limit not applied): what the namespace's LimitRange fills in and bounds.
struct ContainerResources
{
    QString name;
    ResourceAmounts requests;
    ResourceAmounts limits;
};

struct JobRole
{
    QString name; // the task's or replica type's name ("worker", "Master"), "" for a Pod
    int replicas = 1;
    int gpus = 0;     // nvidia.com/gpu per pod (the limit; a request without it counts too)
    QString gpuModel; // node selector nvidia.com/gpu.product, "" any
    qint64 cpuMilli = 0;
    qint64 memoryBytes = 0;      // request (the limit when no request is given, as the API does)
    qint64 memoryLimitBytes = 0; // 0: none
    qint64 cpuLimitMilli = 0;    // 0: none
    // Whether every container sets a limit: a quota on limits.* refuses a pod with a container
    // that sets none (unless the namespace's LimitRange gives it a default).
    bool cpuLimitEverywhere = true;
    bool memoryLimitEverywhere = true;
    // /dev/shm: a Memory emptyDir mounted there (its sizeLimit, else the memory limit); -1 when
    // none is mounted (the runtime's 64 MiB).
    qint64 shmBytes = -1;
    Labels nodeSelector;
    QStringList tolerations; // "key|operator|value|effect", as PodInfo's
    QStringList pinnedNodes; // required node affinity on kubernetes.io/hostname
    QString image;
    QStringList command;       // command, then args
    bool commandGiven = false; // a command, not only args for the image's own entrypoint
    QString workingDir;        // the container's (""): where relative paths of the command start
    QList<std::pair<QString, QString>> env;
    QStringList mountPaths; // every volumeMount's path
    // The first container's mounts of a node's own folder (hostPath volumes: the NAS every node
    // mounts): the path in the container, and the node's path it shows (subPath included).
    QList<std::pair<QString, QString>> hostMounts;
    // The network the pod sees: the node's own interfaces with hostNetwork; else its own lo and
    // eth0 (the CNI's) and one more per Multus network it asks for (net1…, or as it names them).
    bool hostNetwork = false;
    QStringList extraInterfaces;
    QList<ContainerResources> containers; // every container, in order
};

struct JobRequest
{
    Resource kind = Resource::Pods; // Pods, VolcanoJobs, PyTorchJobs, MPIJobs
    QString apiVersion;
    QString ns; // "" until defaulted to the context's namespace
    QString name;
    QString queue; // Volcano queue: the job's spec.queue or the pods' scheduling annotations
    QString priorityClass;
    QString schedulerName; // "volcano" for gang scheduling
    // Volcano's pytorch plugin (spec.plugins.pytorch): WORLD_SIZE counts pods, not GPUs.
    bool pytorchPlugin = false;
    // The roles whose pods others reach over SSH, so their image must run an SSH server: a
    // Volcano job's mpi plugin's workers (its --worker task, "worker" by default), or with its
    // ssh plugin alone, where a task's name says master or launcher (mpirun's), every other.
    QStringList sshServerRoles;
    // Pods the gang needs at once: Volcano's minAvailable, else every replica.
    int minAvailable = 0;
    QList<JobRole> roles;
    // Asked about a job already submitted (why it waits): its workload key in the store and
    // when it was created — its own pods are then not in its own way, and only jobs created
    // before it are ahead of it. Empty and 0 for a job not yet submitted.
    QString workloadKey;
    qint64 created = 0;
    // The request is the job's pod group's totals, not its pods (a gang not admitted yet): the
    // shape of each pod is a guess.
    bool approximate = false;

    // Where it is created: its apiVersion as written, its namespace, its kind's collection.
    QString collectionPath() const
    {
        const QString base = apiVersion.contains(u'/') ? QStringLiteral("/apis/") + apiVersion
                                                       : QStringLiteral("/api/") + apiVersion;
        return base + QStringLiteral("/namespaces/") + ns + u'/' +
               QLatin1String(resourceInfo(kind).plural);
    }
    // Sums over the gang: every replica of every role.
    template <typename T> T sum(T JobRole::*field) const
    {
        T n = 0;
        for (const JobRole &r : roles)
            n += T(r.replicas) * (field ? r.*field : T(1));
        return n;
    }
    int pods() const { return sum<int>(nullptr); }
    int gpus() const { return sum(&JobRole::gpus); }
    qint64 cpuMilli() const { return sum(&JobRole::cpuMilli); }
    qint64 memoryBytes() const { return sum(&JobRole::memoryBytes); }
    qint64 cpuLimitMilli() const { return sum(&JobRole::cpuLimitMilli); }
    qint64 memoryLimitBytes() const { return sum(&JobRole::memoryLimitBytes); }
};

} // namespace gpudesk
