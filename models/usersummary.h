// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"
#include "namespacetally.h"

#include <QString>

namespace gpudesk {

// One user's figures as the Users page and the report show them, from the store: their
// namespace, quota and what they run. Plain data.
struct UserSummary
{
    QString ns;
    QString user;
    QString vc;
    QString phase;         // the namespace's: Active, Terminating
    bool disabled = false; // gpudesk disabled it (annotation gpudesk.io/disabled)
    int gpusInUse = 0;     // GPUs its pods hold on nodes now
    // The namespace's quotas, resource by resource: the tightest limit of its ResourceQuotas and
    // what is used of it as the API server counts (status.used).
    ResourceAmounts hard;
    ResourceAmounts used;
    int quotas = 0; // ResourceQuota objects in the namespace
    int running = 0;
    int waiting = 0;
    int failed = 0;
    int stuck = 0;   // of the waiting ones and the others: held for a reason that will not go away
    int devEnvs = 0; // dev environments (pods labelled gpudesk.io/devenv) not finished
    qint64 lastActivity = 0; // the newest pod or job created in the namespace, ms

    // The quota's limit and use of one resource by its quota name or base name
    // ("requests.nvidia.com/gpu" or "nvidia.com/gpu").
    std::optional<qint64> hardOf(const QString &resource) const { return amountOf(hard, resource); }
    qint64 usedOf(const QString &resource) const { return amountOf(used, resource).value_or(0); }
    bool operator==(const UserSummary &) const = default;
};

// `figures`: the namespace's, from a NamespaceTally kept or made for the purpose.
UserSummary summarizeUser(const NamespaceInfo &ns, const QList<const ResourceQuotaInfo *> &quotas,
                          const NamespaceTally::Figures &figures);

} // namespace gpudesk
