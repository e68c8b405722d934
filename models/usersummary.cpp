// SPDX-License-Identifier: GPL-3.0-or-later
#include "usersummary.h"

#include "clusterstore.h"
#include "workloadresolver.h"

namespace gpudesk {

UserSummary summarizeUser(const ClusterStore &store, const NamespaceInfo &ns,
                          const QList<const ResourceQuotaInfo *> &quotas)
{
    UserSummary s;
    s.ns = ns.name;
    s.user = ns.user.isEmpty() ? ns.name : ns.user;
    s.vc = ns.vc;
    s.phase = ns.phase;
    s.disabled = !ns.disabled.isEmpty();
    s.quotas = int(quotas.size());
    // Each ResourceQuota is enforced on its own: the tightest limit is the one a pod meets.
    for (const ResourceQuotaInfo *q : quotas) {
        for (auto it = q->hard.cbegin(); it != q->hard.cend(); ++it) {
            const auto known = s.hard.constFind(it.key());
            if (known == s.hard.cend() || it.value() < *known) {
                s.hard.insert(it.key(), it.value());
                s.used.insert(it.key(), q->used.value(it.key()));
            }
        }
    }
    for (const PodInfo *p : store.podsIn(ns.name)) {
        s.lastActivity = std::max(s.lastActivity, p->created);
        if (p->finished())
            continue;
        if (!p->nodeName.isEmpty())
            s.gpusInUse += p->gpuRequest;
        if (!p->devEnv.isEmpty())
            ++s.devEnvs;
    }
    for (const QString &key : store.workloadKeysIn(ns.name))
        if (const JobInfo *j = store.job(key))
            s.lastActivity = std::max(s.lastActivity, j->created);
    const WorkloadCounts c = WorkloadResolver::countsIn(store, ns.name);
    s.running = c.running;
    s.waiting = c.waiting;
    s.failed = c.failed;
    s.stuck = c.stuck;
    return s;
}

} // namespace gpudesk
