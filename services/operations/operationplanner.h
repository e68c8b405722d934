// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "findings.h"
#include "operationcontext.h"
#include "operationplan.h"

#include <QCoreApplication>

namespace gpudesk {

// Turns what the user chose (findings, workloads, nodes, processes) into the exact steps an
// operation will take, from the stores as they are now: each step names its target as it is
// (uid, start time), why it is there, the request or command, and what it holds.
class OperationPlanner
{
    Q_DECLARE_TR_FUNCTIONS(OperationPlanner)

public:
    explicit OperationPlanner(OperationContext context);

    // A finding's remedy for each finding (none for those gpudesk should not act on: said in the
    // plan's notes). Two findings of one job stop it once. A node remedy (cordon and drain)
    // evicts every pod of the node, most of them healthy and not selected: it is planned only
    // for the nodes named in `drainNodes` — the confirmation by name — its steps collateral;
    // for the others the notes say what it would take.
    OperationPlan cleanup(const QList<Finding> &findings,
                          const QStringList &drainNodes = QStringList()) const;
    // Each workload stopped the way its kind is: a Volcano job by an AbortJob command (deleted
    // where the cluster serves no commands), a PyTorchJob or MPIJob deleted with its pods, a
    // bare pod deleted; other controllers' pods are not stopped (they would come back).
    OperationPlan stopWorkloads(const QStringList &workloadKeys, const QString &why) const;
    OperationPlan deleteWorkloads(const QStringList &workloadKeys, const QString &why) const;
    OperationPlan cordon(const QStringList &nodes, bool cordon) const;
    // Cordon, then evict every pod that is not a DaemonSet's or already finished; evictions
    // respect PodDisruptionBudgets.
    OperationPlan drain(const QString &node, const QString &why) const;
    OperationPlan killProcesses(const QString &node, const QList<qint64> &pids,
                                const QString &why) const;
    // An edit of the object at `apiPath` (JSON with the resourceVersion it was made on: the
    // server refuses it with 409 if the object moved since), and a new object (a job run again).
    OperationPlan update(const QString &apiPath, const QByteArray &object) const;
    OperationPlan create(const QString &collectionPath, const QByteArray &object) const;

    // For the planners of other capabilities (users, VCs): an empty plan for this connection,
    // and an object's path at the version the cluster serves.
    OperationPlan plan(const QString &action, const QString &title) const;
    QString path(Resource r, const QString &ns, const QString &name) const;
    QString versionOf(Resource r) const;
    // A synced kind at the version the cluster serves, and an object of it that exists (its user:
    // its namespace's).
    ApiKind kind(Resource r) const { return ApiKind::of(r, versionOf(r)); }
    StepTarget target(Resource r, const QString &ns, const QString &name, const QString &uid) const;
    const OperationContext &context() const { return m_ctx; }
    // The GPUs these pods hold and on which cards, to check they are free after acting.
    QList<HeldGpus> holdsOf(const QList<const PodInfo *> &pods) const;

private:
    StepTarget podTarget(const PodInfo &pod) const;
    void addStop(OperationPlan &plan, const QString &workloadKey, const QString &why,
                 PlanStep::Guard guard) const;
    void addDelete(OperationPlan &plan, const QString &workloadKey, const QString &why) const;
    void addPodDelete(OperationPlan &plan, const PodInfo &pod, bool force, const QString &why,
                      PlanStep::Guard guard) const;
    int addKill(OperationPlan &plan, const QString &node, const FindingProcess &p,
                const QString &why) const;
    // What a step of a finding must find still true when it runs (guard, since when, its pod).
    void guardFor(PlanStep &step, const Finding &f) const;
    // Cordon, then evictions, all collateral: the user chose the node, not its pods (nor, for
    // a finding's remedy, the node either: `cordonCollateral`).
    void addDrain(OperationPlan &plan, const QString &node, const QString &why,
                  bool cordonCollateral) const;
    // The drain of a node, in words: how many pods of how many users, holding how many GPUs.
    QString drainCost(const QString &node) const;

    OperationContext m_ctx;
};

} // namespace gpudesk
