// SPDX-License-Identifier: GPL-3.0-or-later
#include "startcheck.h"

#include "format.h"
#include "limitranger.h"
#include "nodefit.h"

#include <QHash>

#include <algorithm>
#include <numeric>
#include <tuple>

namespace gpudesk {

namespace {

using Node = CapacitySnapshot::Node;
using Holder = CapacitySnapshot::Holder;

void add(StartVerdict *v, StartReason::Severity severity, const QString &code, const QString &field,
         const QString &message, const QString &fix = {}, const QVariantMap &numbers = {})
{
    v->reasons.append(StartReason{severity, code, message, fix, numbers, field});
}

// Whether a pod of `role` may go to the node at all (ready or not): its selector and GPU model,
// the node's taints, the nodes it is pinned to, and GPUs on the node if it asks for any.
bool eligible(const Node &n, const JobRole &role)
{
    if (!role.pinnedNodes.isEmpty() && !role.pinnedNodes.contains(n.name))
        return false;
    if (!role.gpuModel.isEmpty() && n.model != role.gpuModel)
        return false;
    if (role.gpus > 0 && n.gpuAllocatable <= 0)
        return false;
    if (!nodefit::selects(role.nodeSelector, n.labels))
        return false;
    // The taints Kubernetes puts on a node for its state (cordoned, NotReady, unreachable,
    // under pressure) come and go with it: they make a job wait (available()), not fail.
    static const QString state = QStringLiteral("node.kubernetes.io/");
    if (std::none_of(n.taints.cbegin(), n.taints.cend(),
                     [](const QString &t) { return t.startsWith(state); }))
        return nodefit::tolerates(role.tolerations, n.taints);
    QStringList taints;
    for (const QString &t : n.taints)
        if (!t.startsWith(state))
            taints << t;
    return nodefit::tolerates(role.tolerations, taints);
}

// The GPUs the gang needs at once: its minAvailable pods, the largest first (Volcano admits a
// job on the resources of its minimum, not of every replica).
int gangGpus(const JobRequest &job)
{
    QList<int> pods;
    for (const JobRole &r : job.roles)
        for (int i = 0; i < r.replicas; ++i)
            pods << r.gpus;
    std::sort(pods.begin(), pods.end(), std::greater<>());
    const int n = job.minAvailable > 0 ? std::min<int>(job.minAvailable, pods.size()) : pods.size();
    return std::accumulate(pods.cbegin(), pods.cbegin() + n, 0);
}

bool available(const Node &n)
{
    return n.ready && n.schedulable;
}

QString roleName(const JobRequest &job, const JobRole &role)
{
    return role.name.isEmpty() ? job.name : role.name;
}

// "user-bob/llama-ft (8), user-carol/sd-xl (4)": who holds GPUs, the most first.
QString holdersText(const QList<Holder> &holders, int limit = 3)
{
    QStringList parts;
    for (const Holder &h : holders.mid(0, limit))
        parts << QStringLiteral("%1/%2 (%3)").arg(h.ns, h.name).arg(h.gpus);
    if (holders.size() > limit)
        parts << StartCheck::tr("%n more", nullptr, int(holders.size() - limit));
    return parts.join(QStringLiteral(", "));
}

QVariantList holdersJson(const QList<Holder> &holders, int limit = 10)
{
    QVariantList out;
    for (const Holder &h : holders.mid(0, limit))
        out << QVariantMap{{QStringLiteral("namespace"), h.ns},
                           {QStringLiteral("name"), h.name},
                           {QStringLiteral("user"), h.user},
                           {QStringLiteral("gpus"), h.gpus}};
    return out;
}

// The smallest number of nodes of `perNode` GPUs at most that carries `gpus` in equal parts:
// 16 on nodes of 8 → 2 × 8; 12 on nodes of 8 → 2 × 6. {0, 0} when none divides it.
std::pair<int, int> split(int gpus, int perNode)
{
    for (int nodes = (gpus + perNode - 1) / perNode; nodes <= gpus; ++nodes)
        if (gpus % nodes == 0 && gpus / nodes <= perNode)
            return {nodes, gpus / nodes};
    return {0, 0};
}

} // namespace

QString StartVerdict::kindId(Kind k)
{
    switch (k) {
    case Starts:
        return QStringLiteral("starts");
    case Waits:
        return QStringLiteral("waits");
    case Never:
        break;
    }
    return QStringLiteral("never");
}

bool StartVerdict::has(const QString &code) const
{
    return std::any_of(reasons.cbegin(), reasons.cend(),
                       [&](const StartReason &r) { return r.code == code; });
}

void StartVerdict::add(const QList<StartReason> &found)
{
    for (const StartReason &r : found) {
        if (r.severity == StartReason::Never) {
            kind = Never;
            placement.clear(); // it goes nowhere as it is
        }
        reasons.append(r);
    }
    std::stable_sort(
        reasons.begin(), reasons.end(),
        [](const StartReason &a, const StartReason &b) { return a.severity > b.severity; });
}

QString StartVerdict::summary() const
{
    auto first = [this](StartReason::Severity s) {
        for (const StartReason &r : reasons)
            if (r.severity == s)
                return r.message;
        return QString();
    };
    switch (kind) {
    case Never:
        return StartCheck::tr("Never starts as it is: %1").arg(first(StartReason::Never));
    case Waits:
        return StartCheck::tr("Waits: %1").arg(first(StartReason::Waits));
    case Starts:
        break;
    }
    QStringList nodes;
    for (const StartPlacement &p : placement)
        if (!nodes.contains(p.node))
            nodes << p.node;
    if (nodes.isEmpty())
        return StartCheck::tr("Starts now.");
    return exact ? StartCheck::tr("Starts now on %1.").arg(nodes.join(QStringLiteral(", ")))
                 : StartCheck::tr("Should start now on %1, as far as your account can see.")
                       .arg(nodes.join(QStringLiteral(", ")));
}

StartVerdict StartCheck::check(const CapacitySnapshot &cluster, const JobRequest &job)
{
    StartVerdict v;
    v.exact = cluster.exact;
    // The pods as the API server will hold them: the namespace's defaults filled in.
    JobRequest admitted = job;
    v.reasons << LimitRanger::admit(&admitted, cluster.limitRanges);
    if (!cluster.limitRangesUnreadable.isEmpty())
        add(&v, StartReason::Info, QStringLiteral("limitranges-unknown"),
            QStringLiteral("resources"),
            tr("The namespace's LimitRanges could not be read (%1): the defaults and bounds "
               "they may set are not checked.")
                .arg(cluster.limitRangesUnreadable),
            tr("Ask an admin for list on limitranges in %1 (Kubernetes' view role has it), or "
               "write each container's requests and limits.")
                .arg(job.ns));
    checkShape(cluster, admitted, &v);
    checkQueue(cluster, admitted, &v);
    checkQuota(cluster, admitted, &v);
    const bool never = std::any_of(v.reasons.cbegin(), v.reasons.cend(),
                                   [](const auto &r) { return r.severity == StartReason::Never; });
    // Where it would go is asked only of a job that can start at all.
    if (!never)
        place(cluster, admitted, &v);
    warn(cluster, admitted, &v);
    std::stable_sort(
        v.reasons.begin(), v.reasons.end(),
        [](const StartReason &a, const StartReason &b) { return a.severity > b.severity; });
    const auto worst = v.reasons.isEmpty() ? StartReason::Info : v.reasons.first().severity;
    v.kind = worst == StartReason::Never   ? StartVerdict::Never
             : worst == StartReason::Waits ? StartVerdict::Waits
                                           : StartVerdict::Starts;
    if (v.kind != StartVerdict::Starts)
        v.placement.clear();
    return v;
}

void StartCheck::checkShape(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v)
{
    QStringList models;
    for (const Node &n : cluster.nodes)
        if (!n.model.isEmpty() && !models.contains(n.model))
            models << n.model;
    for (const JobRole &role : job.roles) {
        const QString who = roleName(job, role);
        if (role.shmBytes > 0 && role.memoryLimitBytes > 0 && role.shmBytes > role.memoryLimitBytes)
            add(v, StartReason::Never, QStringLiteral("shm-over-memory-limit"),
                QStringLiteral("shm"),
                tr("%1: /dev/shm of %2 is counted against the memory limit of %3: the container "
                   "is killed (OOMKilled) once shared memory fills.")
                    .arg(who, format::bytes(role.shmBytes), format::bytes(role.memoryLimitBytes)),
                tr("Raise the memory limit above %1, or make /dev/shm smaller.")
                    .arg(format::bytes(role.shmBytes)),
                {{QStringLiteral("shmBytes"), role.shmBytes},
                 {QStringLiteral("memoryLimitBytes"), role.memoryLimitBytes}});
        for (const QString &pin : role.pinnedNodes)
            if (std::none_of(cluster.nodes.cbegin(), cluster.nodes.cend(),
                             [&](const Node &n) { return n.name == pin; }))
                add(v, StartReason::Never, QStringLiteral("node-unknown"), QStringLiteral("nodes"),
                    tr("%1 is pinned to node %2, which the cluster does not have.").arg(who, pin),
                    tr("Choose machines the cluster has, or leave the choice to the scheduler."),
                    {{QStringLiteral("node"), pin}});
        QList<const Node *> candidates;
        for (const Node &n : cluster.nodes)
            if (eligible(n, role))
                candidates << &n;
        if (candidates.isEmpty()) {
            if (!role.gpuModel.isEmpty() && !models.contains(role.gpuModel)) {
                add(v, StartReason::Never, QStringLiteral("gpu-model-unknown"),
                    QStringLiteral("gpuModel"),
                    tr("%1 asks for GPU model %2; no node has it (the cluster has: %3).")
                        .arg(who, role.gpuModel, models.join(QStringLiteral(", "))),
                    tr("Choose one of the cluster's GPU models."),
                    {{QStringLiteral("model"), role.gpuModel}, {QStringLiteral("models"), models}});
            } else {
                // Say what excludes the nodes of the model asked for (or every node).
                QString taint;
                for (const Node &n : cluster.nodes)
                    if (role.gpuModel.isEmpty() || n.model == role.gpuModel)
                        if (nodefit::selects(role.nodeSelector, n.labels))
                            if (taint.isEmpty())
                                taint = nodefit::blockingTaint(role.tolerations, n.taints);
                add(v, StartReason::Never, QStringLiteral("no-node-matches"),
                    QStringLiteral("nodes"),
                    taint.isEmpty()
                        ? tr("No node matches what %1 asks for (node selector, GPU model, pinned "
                             "nodes, GPUs).")
                              .arg(who)
                        : tr("No node matches what %1 asks for: the nodes it selects have the "
                             "taint %2, which it does not tolerate.")
                              .arg(who, taint),
                    tr("Loosen the node selector or choose other machines."),
                    {{QStringLiteral("taint"), taint}});
            }
            continue;
        }
        const Node *biggest = *std::max_element(
            candidates.cbegin(), candidates.cend(),
            [](const Node *a, const Node *b) { return a->gpuAllocatable < b->gpuAllocatable; });
        if (role.gpus > biggest->gpuAllocatable) {
            // The whole job's GPUs: a 2 × 16 job split is 4 × 8, not one role's 2 × 8.
            const auto [nodes, perNode] = split(job.gpus(), biggest->gpuAllocatable);
            const QString model = role.gpuModel.isEmpty() ? biggest->model : role.gpuModel;
            QVariantMap numbers{{QStringLiteral("gpusPerPod"), role.gpus},
                                {QStringLiteral("mostPerNode"), biggest->gpuAllocatable},
                                {QStringLiteral("model"), model}};
            QString fix = tr("Ask for at most %1 GPUs per pod.").arg(biggest->gpuAllocatable);
            if (nodes > 0) {
                numbers.insert(QStringLiteral("suggestedNodes"), nodes);
                numbers.insert(QStringLiteral("suggestedGpusPerNode"), perNode);
                fix = tr("Run it as %1 nodes × %2 GPUs: distributed training (a PyTorchJob or an "
                         "MPIJob).")
                          .arg(nodes)
                          .arg(perNode);
            }
            add(v, StartReason::Never, QStringLiteral("gpus-per-node"), QStringLiteral("gpus"),
                tr("%1 asks for %2 GPUs in one pod; no node it may run on has more than %3 (%4).")
                    .arg(who)
                    .arg(role.gpus)
                    .arg(biggest->gpuAllocatable)
                    .arg(model),
                fix, numbers);
            continue;
        }
        const qint64 mostCpu =
            (*std::max_element(candidates.cbegin(), candidates.cend(), [](auto a, auto b) {
                return a->cpuAllocatableMilli < b->cpuAllocatableMilli;
            }))->cpuAllocatableMilli;
        const qint64 mostMemory =
            (*std::max_element(candidates.cbegin(), candidates.cend(), [](auto a, auto b) {
                return a->memoryAllocatableBytes < b->memoryAllocatableBytes;
            }))->memoryAllocatableBytes;
        if (role.cpuMilli > mostCpu)
            add(v, StartReason::Never, QStringLiteral("cpu-per-node"), QStringLiteral("cpu"),
                tr("%1 asks for %2 CPUs per pod; no node it may run on has more than %3.")
                    .arg(who, format::cores(role.cpuMilli), format::cores(mostCpu)),
                tr("Ask for at most %1 CPUs per pod.").arg(format::cores(mostCpu)),
                {{QStringLiteral("cpuMilli"), role.cpuMilli},
                 {QStringLiteral("mostCpuMilli"), mostCpu}});
        if (role.memoryBytes > mostMemory)
            add(v, StartReason::Never, QStringLiteral("memory-per-node"), QStringLiteral("memory"),
                tr("%1 asks for %2 of memory per pod; no node it may run on has more than %3.")
                    .arg(who, format::bytes(role.memoryBytes), format::bytes(mostMemory)),
                tr("Ask for at most %1 per pod.").arg(format::bytes(mostMemory)),
                {{QStringLiteral("memoryBytes"), role.memoryBytes},
                 {QStringLiteral("mostMemoryBytes"), mostMemory}});
        qint64 total = 0;
        for (const Node *n : std::as_const(candidates))
            total += n->gpuAllocatable;
        if (role.gpus > 0 && qint64(role.gpus) * role.replicas > total)
            add(v, StartReason::Never, QStringLiteral("cluster-too-small"),
                QStringLiteral("replicas"),
                tr("%1 needs %2 GPUs at once (%3 × %4); the nodes it may run on have %5 in all.")
                    .arg(who)
                    .arg(role.gpus * role.replicas)
                    .arg(role.replicas)
                    .arg(role.gpus)
                    .arg(total),
                tr("Use fewer pods or fewer GPUs per pod."),
                {{QStringLiteral("gpus"), role.gpus * role.replicas},
                 {QStringLiteral("allocatable"), total}});
    }
}

void StartCheck::checkQueue(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v)
{
    // Volcano's and Kubeflow's jobs go through a queue (the training operator's gang scheduling
    // makes a PodGroup in it); a bare pod only when it names one or Volcano schedules it.
    const bool queued = job.kind != Resource::Pods || !job.queue.isEmpty() ||
                        job.schedulerName == QLatin1String("volcano");
    if (!queued)
        return;
    const QString name = CapacitySnapshot::queueOf(job);
    if (!cluster.queuesKnown) {
        add(v, StartReason::Info, QStringLiteral("queues-unknown"), QStringLiteral("queue"),
            tr("Volcano's queues could not be read: VC %1 is not checked.").arg(name));
        return;
    }
    if (!cluster.queue) {
        add(v, StartReason::Never, QStringLiteral("queue-missing"), QStringLiteral("queue"),
            tr("VC %1 does not exist: Volcano refuses the job.").arg(name),
            tr("Choose one of the open VCs: %1.")
                .arg(cluster.openQueues.join(QStringLiteral(", "))),
            {{QStringLiteral("queue"), name}, {QStringLiteral("openQueues"), cluster.openQueues}});
        return;
    }
    const QueueInfo &q = *cluster.queue;
    if (!q.state.isEmpty() && q.state != QLatin1String("Open")) {
        add(v, StartReason::Never, QStringLiteral("queue-closed"), QStringLiteral("queue"),
            tr("VC %1 is %2: it takes no new jobs.").arg(name, q.state),
            tr("Choose one of the open VCs: %1.")
                .arg(cluster.openQueues.join(QStringLiteral(", "))),
            {{QStringLiteral("queue"), name}, {QStringLiteral("state"), q.state}});
        return;
    }
    const int gpus = gangGpus(job);
    if (gpus <= 0)
        return;
    if (q.gpuCapability && *q.gpuCapability < gpus) {
        add(v, StartReason::Never, QStringLiteral("queue-capability"), QStringLiteral("queue"),
            *q.gpuCapability == 0
                ? tr("VC %1 has no GPUs (capability 0); the job asks for %2.").arg(name).arg(gpus)
                : tr("VC %1 may hold %2 GPUs at most; the job asks for %3.")
                      .arg(name)
                      .arg(*q.gpuCapability)
                      .arg(gpus),
            tr("Ask for at most %1 GPUs, or choose a larger VC.").arg(*q.gpuCapability),
            {{QStringLiteral("queue"), name},
             {QStringLiteral("capability"), *q.gpuCapability},
             {QStringLiteral("requested"), gpus}});
        return;
    }
    int allocated = 0;
    for (const Holder &h : cluster.queueHolders)
        allocated += h.gpus;
    allocated = std::max(allocated, q.gpuAllocated.value_or(0));
    if (q.gpuCapability && allocated + gpus > *q.gpuCapability) {
        add(v, StartReason::Waits, QStringLiteral("queue-full"), QStringLiteral("queue"),
            tr("VC %1 holds %2 of its %3 GPUs; the job needs %4: it waits until %5 are "
               "released. In use by (GPUs): %6.")
                .arg(name)
                .arg(allocated)
                .arg(*q.gpuCapability)
                .arg(gpus)
                .arg(allocated + gpus - *q.gpuCapability)
                .arg(holdersText(cluster.queueHolders)),
            tr("Wait, ask for fewer GPUs, or choose another VC."),
            {{QStringLiteral("queue"), name},
             {QStringLiteral("capability"), *q.gpuCapability},
             {QStringLiteral("allocated"), allocated},
             {QStringLiteral("requested"), gpus},
             {QStringLiteral("holders"), holdersJson(cluster.queueHolders)}});
        return;
    }
    int ahead = 0;
    QStringList names;
    for (const auto &w : cluster.ahead) {
        ahead += w.gpus;
        names << w.ns + u'/' + w.name;
    }
    if (q.gpuCapability && !cluster.ahead.isEmpty() && allocated + ahead + gpus > *q.gpuCapability)
        add(v, StartReason::Waits, QStringLiteral("queue-ahead"), QStringLiteral("queue"),
            tr("%n job(s) wait in VC %1 before this one (%2 GPUs: %3); after them its %4 GPUs "
               "have no room for %5.",
               nullptr, int(cluster.ahead.size()))
                .arg(name)
                .arg(ahead)
                .arg(names.mid(0, 3).join(QStringLiteral(", ")))
                .arg(*q.gpuCapability)
                .arg(gpus),
            tr("Wait, or choose a VC with room."),
            {{QStringLiteral("queue"), name},
             {QStringLiteral("ahead"), int(cluster.ahead.size())},
             {QStringLiteral("aheadGpus"), ahead}});
    const auto deserved = q.deserved.value(QStringLiteral("nvidia.com/gpu"), -1);
    if (deserved >= 0 && q.reclaimable && (allocated + gpus) * 1000LL > deserved)
        add(v, StartReason::Info, QStringLiteral("queue-over-deserved"), QStringLiteral("queue"),
            tr("With this job VC %1 holds %2 GPUs, above its deserved %3: GPUs beyond its share "
               "may be reclaimed when other VCs need them (the job is then evicted).")
                .arg(name)
                .arg(allocated + gpus)
                .arg(deserved / 1000),
            {}, {{QStringLiteral("deserved"), int(deserved / 1000)}});
}

void StartCheck::checkQuota(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v)
{
    struct Asked
    {
        const char *key;
        const char *plain; // the same key without its prefix ("" none)
        const char *unit;  // how its amounts are written
        qint64 milli;
        const char *field;
    };
    const Asked asked[] = {
        {"requests.nvidia.com/gpu", "nvidia.com/gpu", "nvidia.com/gpu", qint64(job.gpus()) * 1000,
         "gpus"},
        {"requests.cpu", "cpu", "cpu", job.cpuMilli(), "cpu"},
        {"requests.memory", "memory", "memory", job.memoryBytes() * 1000, "memory"},
        {"limits.cpu", "", "cpu", job.cpuLimitMilli(), "cpu"},
        {"limits.memory", "", "memory", job.memoryLimitBytes() * 1000, "memory"},
        {"pods", "count/pods", "count/pods", qint64(job.pods()) * 1000, "replicas"},
    };
    const bool cpuLimits = std::all_of(job.roles.cbegin(), job.roles.cend(),
                                       [](const JobRole &r) { return r.cpuLimitEverywhere; });
    const bool memoryLimits = std::all_of(job.roles.cbegin(), job.roles.cend(),
                                          [](const JobRole &r) { return r.memoryLimitEverywhere; });
    for (const ResourceQuotaInfo &q : cluster.quotas) {
        // A quota on limits refuses a pod with a container that sets none, unless the
        // namespace's LimitRange gives one (filled in above, where the ranges could be read).
        for (const auto &[key, set, what, field] :
             {std::tuple{"limits.cpu", cpuLimits, QT_TR_NOOP("CPU"), "cpu"},
              std::tuple{"limits.memory", memoryLimits, QT_TR_NOOP("memory"), "memory"}}) {
            if (set || q.hard.value(QLatin1String(key), -1) < 0)
                continue;
            add(v, StartReason::Warning, QStringLiteral("quota-limit-missing"),
                QLatin1String(field),
                tr("The quota %1 of namespace %2 caps %3: a container without a %4 limit gets "
                   "the namespace's default (LimitRange), or the pod is refused when there is "
                   "none.")
                    .arg(q.name, job.ns, QLatin1String(key), tr(what)),
                tr("Give every container a %1 limit.").arg(tr(what)),
                {{QStringLiteral("quota"), q.name},
                 {QStringLiteral("resource"), QLatin1String(key)}});
        }
        for (const Asked &a : asked) {
            const QString key = QLatin1String(a.key);
            const qint64 hard =
                q.hard.value(key, *a.plain ? q.hard.value(QLatin1String(a.plain), -1) : qint64(-1));
            if (hard < 0 || a.milli <= 0)
                continue;
            const qint64 used =
                q.used.value(key, *a.plain ? q.used.value(QLatin1String(a.plain), 0) : qint64(0));
            const QString unit = QLatin1String(a.unit);
            // Named as the quota names it where a plain name would mislead (limits.memory).
            const QString resource = *a.plain ? QLatin1String(a.plain) : key;
            const QString fmt = quantity::format(unit, hard);
            const QVariantMap numbers{
                {QStringLiteral("quota"), q.name},
                {QStringLiteral("resource"), key},
                {QStringLiteral("hard"), quantity::format(unit, hard)},
                {QStringLiteral("used"), quantity::format(unit, used)},
                {QStringLiteral("requested"), quantity::format(unit, a.milli)}};
            if (a.milli > hard) {
                add(v, StartReason::Never, QStringLiteral("quota-below-request"),
                    QLatin1String(a.field),
                    tr("The quota of namespace %1 allows %2 of %3; the job asks for %4.")
                        .arg(job.ns, fmt, resource, quantity::format(unit, a.milli)),
                    tr("Ask for at most %1, or ask an admin for a larger quota.").arg(fmt),
                    numbers);
            } else if (used + a.milli > hard) {
                QVariantMap n = numbers;
                if (unit == QLatin1String("nvidia.com/gpu"))
                    n.insert(QStringLiteral("holders"), holdersJson(cluster.namespaceHolders));
                add(v, StartReason::Waits, QStringLiteral("quota-in-use"), QLatin1String(a.field),
                    tr("Namespace %1 uses %2 of its quota of %3 %4; the job needs %5 more. In use "
                       "by (GPUs): %6.")
                        .arg(job.ns, quantity::format(unit, used), fmt, resource,
                             quantity::format(unit, a.milli))
                        .arg(unit == QLatin1String("nvidia.com/gpu")
                                 ? holdersText(cluster.namespaceHolders)
                                 : tr("your running jobs")),
                    tr("Wait for your jobs to end, or stop one."), n);
            }
        }
    }
}

void StartCheck::place(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v)
{
    // The gang's pods, the largest first (as a bin packer places them), up to minAvailable.
    struct Slot
    {
        const JobRole *role;
    };
    QList<Slot> gang;
    for (const JobRole &r : job.roles)
        for (int i = 0; i < r.replicas; ++i)
            gang << Slot{&r};
    std::stable_sort(gang.begin(), gang.end(),
                     [](const Slot &a, const Slot &b) { return a.role->gpus > b.role->gpus; });
    gang = gang.mid(0, job.minAvailable > 0 ? job.minAvailable : gang.size());
    QList<Node> nodes = cluster.nodes;
    QList<StartPlacement> placed;
    for (const Slot &s : std::as_const(gang)) {
        const JobRole &r = *s.role;
        Node *best = nullptr;
        for (Node &n : nodes) {
            if (!available(n) || !eligible(n, r) || n.gpuFree < r.gpus ||
                n.cpuFreeMilli < r.cpuMilli || n.memoryFreeBytes < r.memoryBytes)
                continue;
            // The tightest fit: the fewest GPUs left over, so that whole nodes stay whole.
            if (!best ||
                std::tie(n.gpuFree, n.cpuFreeMilli) < std::tie(best->gpuFree, best->cpuFreeMilli))
                best = &n;
        }
        if (!best) {
            // What it waits for: GPUs (in all, or on enough single nodes), or CPU and memory —
            // told from the cluster as it is, before any of this job's pods were placed.
            int freeGpus = 0, mostFree = 0;
            QList<const Node *> near;
            bool down = true;
            for (const Node &n : cluster.nodes) {
                if (!eligible(n, r))
                    continue;
                down &= !available(n);
                if (!available(n))
                    continue;
                freeGpus += n.gpuFree;
                mostFree = std::max(mostFree, n.gpuFree);
                if (n.gpuFree < r.gpus && n.gpuFree > 0)
                    near << &n;
            }
            // The gang's pods of this size (a Master and its Workers alike).
            const int slotsOfRole =
                int(std::count_if(gang.cbegin(), gang.cend(), [&](const Slot &o) {
                    return o.role == s.role || o.role->gpus == r.gpus;
                }));
            // Would the whole gang fit by its GPUs alone (tightest fit, each pod where it may
            // go)? Then CPU or memory beside the cards is what is short; if not, the cards are.
            int needed = 0;
            QList<int> gpuOnly;
            for (const Node &n : cluster.nodes)
                gpuOnly << (available(n) ? n.gpuFree : 0);
            bool gpusFit = true;
            for (const Slot &o : std::as_const(gang)) {
                needed += o.role == s.role || o.role->gpus == r.gpus ? o.role->gpus : 0;
                int best = -1;
                for (qsizetype i = 0; i < gpuOnly.size(); ++i)
                    if (gpuOnly[i] >= o.role->gpus && eligible(cluster.nodes[i], *o.role) &&
                        (best < 0 || gpuOnly[i] < gpuOnly[best]))
                        best = int(i);
                if (best < 0)
                    gpusFit = false;
                else
                    gpuOnly[best] -= o.role->gpus;
            }
            const QString who = roleName(job, r);
            if (down) {
                add(v, StartReason::Waits, QStringLiteral("nodes-unavailable"),
                    QStringLiteral("nodes"),
                    tr("Every node %1 may run on is NotReady or cordoned.").arg(who),
                    tr("Wait for the nodes to return, or choose others."));
            } else if (r.gpus > 0 && !gpusFit && freeGpus >= needed) {
                std::sort(near.begin(), near.end(),
                          [](auto a, auto b) { return a->gpuFree > b->gpuFree; });
                QStringList where;
                QList<Holder> holders;
                for (const Node *n : near.mid(0, 3)) {
                    where << tr("%1 has %2 free (held by: %3)")
                                 .arg(n->name)
                                 .arg(n->gpuFree)
                                 .arg(holdersText(n->holders, 2));
                    holders << n->holders;
                }
                holders = CapacitySnapshot::merged(holders);
                // A one-pod job split into smaller pods that fit the free cards now.
                int pods = 0, perPod = 0;
                for (int g = mostFree; job.pods() == 1 && g >= 1 && pods == 0; --g) {
                    if (needed % g != 0)
                        continue;
                    int fit = 0;
                    for (const Node &n : cluster.nodes)
                        fit += available(n) && eligible(n, r) ? n.gpuFree / g : 0;
                    if (fit >= needed / g) {
                        pods = needed / g;
                        perPod = g;
                    }
                }
                add(v, StartReason::Waits, QStringLiteral("fragmented"), QStringLiteral("gpus"),
                    mostFree < r.gpus
                        ? tr("%1 GPUs are free on the nodes %2 may run on, but no node has %3 "
                             "free: %4.")
                              .arg(freeGpus)
                              .arg(who)
                              .arg(r.gpus)
                              .arg(where.join(QStringLiteral("; ")))
                        : tr("%1 GPUs are free on the nodes %2 may run on, but scattered: its %3 "
                             "pods of %4 GPUs do not all fit on whole nodes: %5.")
                              .arg(freeGpus)
                              .arg(who)
                              .arg(slotsOfRole)
                              .arg(r.gpus)
                              .arg(where.join(QStringLiteral("; "))),
                    pods > 1 ? tr("As distributed training it fits now: %1 pods × %2 GPUs.")
                                   .arg(pods)
                                   .arg(perPod)
                             : tr("Wait for the jobs named to end, or ask for fewer GPUs per pod."),
                    {{QStringLiteral("freeGpus"), freeGpus},
                     {QStringLiteral("mostFreeOnANode"), mostFree},
                     {QStringLiteral("gpusPerPod"), r.gpus},
                     {QStringLiteral("suggestedPods"), pods},
                     {QStringLiteral("suggestedGpusPerPod"), perPod},
                     {QStringLiteral("holders"), holdersJson(holders)}});
            } else if (r.gpus > 0 && freeGpus < needed) {
                // Who holds the cards of the nodes it may run on, the most first.
                QList<Holder> held;
                for (const Node &n : cluster.nodes)
                    if (available(n) && eligible(n, r))
                        held << n.holders;
                held = CapacitySnapshot::merged(held);
                add(v, StartReason::Waits, QStringLiteral("gpus-in-use"), QStringLiteral("gpus"),
                    held.isEmpty() ? tr("%1 needs %2 GPUs; %3 are free on the nodes it may run on.")
                                         .arg(who)
                                         .arg(needed)
                                         .arg(freeGpus)
                                   : tr("%1 needs %2 GPUs; %3 are free on the nodes it may run "
                                        "on. In use there by (GPUs): %4.")
                                         .arg(who)
                                         .arg(needed)
                                         .arg(freeGpus)
                                         .arg(holdersText(held)),
                    tr("Wait, or ask for fewer GPUs."),
                    {{QStringLiteral("freeGpus"), freeGpus},
                     {QStringLiteral("needed"), needed},
                     {QStringLiteral("holders"), holdersJson(held)}});
            } else {
                // The cards are there: which of CPU and memory beside them is short.
                bool cpuShort = true;
                for (const Node &n : std::as_const(nodes))
                    if (available(n) && eligible(n, r) && n.gpuFree >= r.gpus)
                        cpuShort &= n.cpuFreeMilli < r.cpuMilli;
                const bool cpu = cpuShort && r.cpuMilli > 0;
                add(v, StartReason::Waits,
                    cpu ? QStringLiteral("cpu-in-use") : QStringLiteral("memory-in-use"),
                    cpu ? QStringLiteral("cpu") : QStringLiteral("memory"),
                    cpu ? tr("No node %1 may run on has %2 CPUs free beside the GPUs.")
                              .arg(who, format::cores(r.cpuMilli))
                        : tr("No node %1 may run on has %2 of memory free beside the GPUs.")
                              .arg(who, format::bytes(r.memoryBytes)),
                    tr("Ask for less, or wait."));
            }
            return;
        }
        const int before = best->gpuFree;
        best->gpuFree -= r.gpus;
        best->cpuFreeMilli -= r.cpuMilli;
        best->memoryFreeBytes -= r.memoryBytes;
        const QString role = roleName(job, r);
        auto same = std::find_if(placed.begin(), placed.end(), [&](const StartPlacement &p) {
            return p.role == role && p.node == best->name;
        });
        if (same != placed.end()) {
            ++same->pods;
            same->freeAfter = best->gpuFree;
        } else {
            placed << StartPlacement{role, best->name, 1, r.gpus, before, best->gpuFree};
        }
    }
    v->placement = placed;
    if (!cluster.exact)
        add(v, StartReason::Info, QStringLiteral("partial-view"), QStringLiteral("nodes"),
            tr("Your account sees only the pods of namespace %1: the free GPUs counted are those "
               "not seen in use, so the nodes named may be busier than they look.")
                .arg(cluster.scope));
}

} // namespace gpudesk
