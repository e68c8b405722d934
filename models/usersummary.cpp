// SPDX-License-Identifier: GPL-3.0-or-later
#include "usersummary.h"

namespace gpudesk {

UserSummary summarizeUser(const NamespaceInfo &ns, const QList<const ResourceQuotaInfo *> &quotas,
                          const NamespaceTally::Figures &figures)
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
    s.gpusInUse = figures.gpusInUse;
    s.devEnvs = figures.devEnvs;
    s.lastActivity = figures.lastActivity;
    s.running = figures.counts.running;
    s.waiting = figures.counts.waiting;
    s.failed = figures.counts.failed;
    s.stuck = figures.counts.stuck;
    return s;
}

} // namespace gpudesk
