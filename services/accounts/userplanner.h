// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "accountobjects.h"
#include "operationplan.h"
#include "operationplanner.h"
#include "userspec.h"

#include <QCoreApplication>

namespace gpudesk {

// Plans for the actions on users: each step an object made, changed or deleted, in order, with
// what it is for. Creating users is done a unit per user: a user whose step fails midway is
// rolled back whole, the others go on.
class UserPlanner
{
    Q_DECLARE_TR_FUNCTIONS(UserPlanner)

public:
    explicit UserPlanner(OperationPlanner base);

    OperationPlan create(const QList<UserSpec> &users) const;
    // New limits for the user's quota (its gpudesk-quota, made if missing), with what is in use
    // now beside each, and a warning for each limit set below current use.
    OperationPlan editQuota(const QString &ns, const ResourceAmounts &hard) const;
    OperationPlan moveToVc(const QString &ns, const QString &vc) const;
    // Reversible: the quota's limits to zero and the RoleBinding removed, both kept in the
    // namespace's annotation gpudesk.io/disabled (and the audit) so that enable restores them.
    OperationPlan disable(const UserObjects &user) const;
    OperationPlan enable(const UserObjects &user) const;
    // The namespace and everything in it (listed in the plan: jobs, pods and their GPUs, dev
    // environments, volumes with their sizes), and the user's cluster-wide bindings.
    OperationPlan remove(const UserObjects &user) const;
    // Every token of the user's ServiceAccount stops working: it is deleted and made again.
    OperationPlan revoke(const UserObjects &user) const;
    // The one-click repair of what UserDriftCheck found.
    OperationPlan repair(const UserObjects &user) const;

private:
    PlanStep createStep(const ApiKind &k, const QString &ns, const QString &name,
                        const QByteArray &body) const;
    PlanStep namespacePatch(const NamespaceObject &ns, const QByteArray &patch) const;
    void addQuotaPatch(OperationPlan &plan, const QuotaObject &quota, const ResourceAmounts &hard,
                       bool warnBelowUse = true) const;

    OperationPlanner m_base;
};

} // namespace gpudesk
