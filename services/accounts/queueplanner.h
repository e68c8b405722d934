// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operationplan.h"
#include "operationplanner.h"
#include "queuerules.h"

#include <QCoreApplication>

namespace gpudesk {

// Plans for the actions on VCs (Volcano queues): create, edit (a JSON patch that tests the spec
// it was planned on), open and close through Volcano Commands as `vcctl queue operate` does,
// delete what may be deleted, and merge one VC into another. What Volcano's webhook would let
// through and hurt the cluster is refused here, before anything reaches the API
// (QueueRules::errors).
class QueuePlanner
{
    Q_DECLARE_TR_FUNCTIONS(QueuePlanner)

public:
    explicit QueuePlanner(OperationPlanner base);

    OperationPlan create(const QueueSpec &spec) const;
    OperationPlan edit(const QueueSpec &spec) const;
    OperationPlan setOpen(const QString &name, bool open) const;
    OperationPlan remove(const QString &name) const;
    // Moves the users (namespaces) and the capability, deserved and guarantee of `from` into
    // `into`, closes `from` and deletes it — at once when no job of it still runs or waits (the
    // pod groups of jobs that are over are deleted first: they alone would keep it Closing for
    // ever); otherwise it stays Closing until they end, and the plan says so.
    OperationPlan merge(const QString &from, const QString &into) const;

    // The spec of a queue as the API takes it, on top of `base` (the spec as the server holds
    // it, so that fields gpudesk does not edit are kept).
    static QByteArray specJson(const QueueSpec &spec, const QByteArray &base = {});
    // Why a VC may not be deleted now ("" when it may).
    static QStringList deleteRefusals(const ClusterStore &store, const QString &name);
    // A VC's pod groups: of jobs that are over (finished or failed: they only keep the VC
    // Closing, since Volcano closes a queue once it has none and deletes only a Closed one), and
    // of jobs still running or waiting.
    struct PodGroupsOf
    {
        QList<const PodGroupInfo *> over;
        QList<const PodGroupInfo *> live;
    };
    static PodGroupsOf podGroupsOf(const ClusterStore &store, const QString &vc);

private:
    PlanStep editStep(const QueueInfo &queue, const QueueSpec &spec) const;
    PlanStep commandStep(const QueueInfo &queue, bool open) const;
    PlanStep deleteStep(const QueueInfo &queue) const;
    // The steps that take an empty VC away, after the steps `after`: the pod groups of its jobs
    // that are over deleted, the VC closed (until Closed) unless it is, then deleted.
    void appendRemoval(OperationPlan &plan, const QueueInfo &queue, const PodGroupsOf &groups,
                       QList<int> after) const;

    OperationPlanner m_base;
};

} // namespace gpudesk
