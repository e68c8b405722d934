// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <QCoreApplication>
#include <QStringList>

namespace gpudesk {

class ClusterStore;

// A user as the admin wants them created: what the form (or a CSV row) holds. gpudesk makes of it
// the objects a user is on these clusters: the namespace user-NAME labelled gpudesk.io/user and
// gpudesk.io/vc, a ServiceAccount NAME, a RoleBinding to the chosen ClusterRole, a ResourceQuota
// and a LimitRange whose default requests keep pods without requests from being refused by the
// quota.
struct UserSpec
{
    QString name;
    QString vc;
    QString clusterRole = QStringLiteral("edit");
    // Cluster-wide read (nodes, queues) through a ClusterRoleBinding to this role; "" for none.
    QString viewRole;
    ResourceAmounts quota;          // spec.hard: requests.nvidia.com/gpu, requests.cpu, …
    ResourceAmounts defaultRequest; // the LimitRange's per-container default requests
    ResourceAmounts defaultLimit;   // …and default limits
    int line = 0;                   // the CSV line it came from (0: the form)

    QString namespaceName() const { return namespaceFor(name); }
    static QString namespaceFor(const QString &user) { return QStringLiteral("user-") + user; }
    // What a user gets unless the admin says otherwise: 8 GPUs with the CPU and memory of the
    // users' own rule of thumb (12 cores and 120 GiB a GPU, 1 CPU per 10 GB), 50 pods; default
    // requests of 1 CPU and 4 GiB a container, a memory limit of 16 GiB.
    static UserSpec defaults();
};

class UserRules
{
    Q_DECLARE_TR_FUNCTIONS(UserRules)

public:
    // A user name: an RFC 1123 label that leaves room for the "user-" prefix ("" or why not).
    static QString nameError(const QString &name);
    // Why `spec` cannot be created on the cluster as the store shows it (an unknown VC where
    // the cluster has Volcano queues, the user or its namespace exists); empty when it can.
    static QStringList errors(const UserSpec &spec, const ClusterStore &store);
    // The quota resources the form shows, in order.
    static QStringList quotaResources();
};

} // namespace gpudesk
