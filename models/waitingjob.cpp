// SPDX-License-Identifier: GPL-3.0-or-later
#include "waitingjob.h"

#include "clusterstore.h"

namespace gpudesk {

std::optional<JobRequest> WaitingJob::requestOf(const ClusterStore &store,
                                                const QString &workloadKey)
{
    const auto w = store.workload(workloadKey);
    if (!w)
        return std::nullopt;
    JobRequest r;
    r.kind = w->job ? w->job->kind : Resource::Pods;
    r.ns = w->ns;
    r.name = w->name;
    r.workloadKey = workloadKey;
    r.created = w->created;
    // A job always goes through its queue; a bare pod only when it names one (Volcano's).
    r.queue = w->job ? w->vc : QString();
    int bound = 0;
    for (const PodInfo *p : store.podsOfWorkload(workloadKey)) {
        if (p->finished() || p->deleting)
            continue;
        if (!p->nodeName.isEmpty()) {
            ++bound;
            continue;
        }
        // Pods of one shape are one role: the gang's workers, its master.
        auto same = std::find_if(r.roles.begin(), r.roles.end(), [p](const JobRole &role) {
            return role.gpus == p->gpuRequest && role.cpuMilli == p->cpuRequestMilli &&
                   role.memoryBytes == p->memoryRequestBytes &&
                   role.nodeSelector == p->nodeSelector && role.tolerations == p->tolerations;
        });
        if (same != r.roles.end()) {
            ++same->replicas;
            continue;
        }
        if (!w->job && r.queue.isEmpty())
            r.queue = p->vc;
        JobRole role; // unnamed: the job's name stands for it
        role.gpus = p->gpuRequest;
        role.cpuMilli = p->cpuRequestMilli;
        role.memoryBytes = p->memoryRequestBytes;
        role.nodeSelector = p->nodeSelector;
        for (const auto &[key, value] : p->nodeSelector)
            if (key == QLatin1String("nvidia.com/gpu.product"))
                role.gpuModel = value;
        role.tolerations = p->tolerations;
        role.image = p->image;
        r.roles << role;
    }
    const PodGroupInfo *pg = w->podGroup;
    if (r.roles.isEmpty() && pg && bound == 0 &&
        (pg->phase == QLatin1String("Pending") || pg->phase == QLatin1String("Inqueue"))) {
        // A gang Volcano has not admitted has no pods yet: its pod group says what it needs.
        JobRole role;
        role.replicas = std::max(1, pg->minMember);
        role.gpus = (pg->minGpus + role.replicas - 1) / role.replicas;
        r.roles << role;
        r.approximate = true;
    }
    if (r.roles.isEmpty())
        return std::nullopt;
    // What is bound already counts toward the gang: only the rest must still be placed.
    const int needed = pg && pg->minMember > 0 ? pg->minMember - bound : r.pods();
    r.minAvailable = std::clamp(needed, 1, r.pods());
    return r;
}

} // namespace gpudesk
