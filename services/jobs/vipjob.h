// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

namespace gpudesk {

class ClusterStore;

// A VIP job (issue 36 §4, the AI Hub's request): a job that must have chosen machines now. It
// is the job the form or the YAML makes, with every pod that asks for GPUs pinned to those
// machines (required node affinity on kubernetes.io/hostname), at the cluster's highest
// PriorityClass (nothing of lower priority preempts it), and tolerating the reservation that
// keeps the machines for it while the jobs there end (VipPlanner).
//
// A reservation is a NoSchedule taint `vip.gpudesk.io/NAMESPACE=NAME` on each machine: no new
// pod lands there but the VIP job's; what runs there runs on. Its key names the namespace and
// its value the job, so that the Nodes page can say whose it is and release it.
class VipJob
{
    Q_DECLARE_TR_FUNCTIONS(VipJob)

public:
    // A job that holds GPUs on the machines: what the VIP job waits for, or stops.
    struct Occupant
    {
        QString workloadKey;
        QString kind; // Job, PyTorchJob, MPIJob, Pod, ReplicaSet…
        QString ns;
        QString name;
        QString user;
        QString vc;
        QStringList nodes; // those of the machines it holds GPUs on
        int gpus = 0;      // on those machines
        // A job or a bare pod: stopping it ends it. Another controller's pod would come back.
        bool stoppable = false;
    };
    // The workloads whose bound, unfinished pods hold GPUs on `nodes` (pods already being
    // deleted are not: they are going), most GPUs first.
    static QList<Occupant> occupants(const ClusterStore &store, const QStringList &nodes);

    // The job (JSON, as it will be posted) made a VIP job on `nodes` at `priorityClass` ("" to
    // keep its own), in namespace `ns` when it names none. Empty, with why, when it is not a
    // job gpudesk submits (or a field has the wrong type).
    static QByteArray manifest(const QByteArray &job, const QStringList &nodes,
                               const QString &priorityClass, QString *error,
                               const QString &ns = QString());

    // The reservation taint's key and value for a job, and the job a taint key/value names
    // ("" when it is no reservation of gpudesk's).
    static QString reservationKey(const QString &ns);
    static QString reservationValue(const QString &name);
    // "namespace/name" of the job a node's taint ("key=value:Effect", as NodeInfo keeps them)
    // reserves the node for; "" for any other taint.
    static QString reservedFor(const QString &taint);

private:
    static QByteArray vip(const QByteArray &job, const QStringList &nodes,
                          const QString &priorityClass, QString *error, const QString &defaultNs);
};

} // namespace gpudesk
