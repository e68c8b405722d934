// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadresolver.h"

#include "clusterstore.h"
#include "nodefit.h"
#include "workloadstatus.h"

#include <algorithm>

namespace gpudesk {

namespace {

QString jobKind(Resource r)
{
    switch (r) {
    case Resource::PyTorchJobs:
        return QStringLiteral("PyTorchJob");
    case Resource::MPIJobs:
        return QStringLiteral("MPIJob");
    default:
        return QStringLiteral("Job");
    }
}

// A duration as people say it, to the nearest unit (45 h 59 min is "46 h").
QString hoursText(qint64 ms)
{
    const qint64 minutes = (ms + 30000) / 60000;
    if (minutes < 120)
        return ClusterStore::tr("%n min", nullptr, int(minutes));
    if (minutes < 48 * 60)
        return ClusterStore::tr("%n h", nullptr, int((minutes + 30) / 60));
    return ClusterStore::tr("%n d", nullptr, int((minutes + 12 * 60) / (24 * 60)));
}

// For a pod that asks more GPUs than any node it may run on has free while those nodes have
// enough together: how to split it as distributed training so that it fits now, in words.
QString distributedAdvice(const ClusterStore &store, const PodInfo &pod)
{
    if (!store.podsComplete() || pod.gpuRequest < 2 || !pod.nodeName.isEmpty() || pod.finished())
        return {};
    QList<std::pair<int, QString>> free; // per eligible node
    int most = 0, sum = 0;
    QString mostOn;
    // The store's own nodes, not nodes()'s copy of each (0.8 ms at 2,000 nodes, paid for every
    // pending pod of two GPUs or more); a node with nothing free adds nothing.
    for (const auto &[name, n] : store.objects<NodeInfo>(Resource::Nodes)) {
        if (!n.ready || n.unschedulable || n.gpuAllocatable <= 0)
            continue;
        const int f = store.nodeGpus(n.name).free;
        if (f <= 0 || !nodefit::mayRunOn(pod, n))
            continue;
        if (f >= pod.gpuRequest)
            return {}; // a node has room for it whole: nothing to advise
        free.append({f, n.name});
        sum += f;
        if (f > most) {
            most = f;
            mostOn = n.name;
        }
    }
    if (most >= pod.gpuRequest || sum < pod.gpuRequest)
        return {};
    for (int perNode = most; perNode >= 1; --perNode) {
        if (pod.gpuRequest % perNode != 0)
            continue;
        const int needed = pod.gpuRequest / perNode;
        const int fit = int(std::count_if(free.cbegin(), free.cend(),
                                          [&](const auto &f) { return f.first >= perNode; }));
        if (fit >= needed)
            return ClusterStore::tr("No single node it may run on has %1 GPUs free (at most %2, "
                                    "on %3); as distributed training it fits now: %4 × %5 GPUs.")
                .arg(pod.gpuRequest)
                .arg(most)
                .arg(mostOn)
                .arg(needed)
                .arg(perNode);
    }
    return {};
}

} // namespace

std::optional<WorkloadInfo> WorkloadResolver::resolve(const ClusterStore &store, const QString &key)
{
    WorkloadInfo w;
    w.key = key;
    const QList<const PodInfo *> pods = store.podsOfWorkload(key);
    if (const JobInfo *j = store.job(key)) {
        w.job = j;
        w.kind = jobKind(j->kind);
        w.ns = j->ns;
        w.name = j->name;
        w.vc = j->vc;
        w.status = j->status;
        w.message = j->message;
        w.created = j->created;
        w.podGroup = store.podGroupOf(key);
    } else if (!pods.isEmpty()) {
        const PodInfo *first = pods.first();
        w.ns = first->ns;
        w.created = first->created;
        if (first->owner.uid == key) {
            w.kind = first->owner.kind;
            w.name = first->owner.name;
        } else {
            w.kind = QStringLiteral("Pod");
            w.name = first->name;
            w.status = first->status;
            w.message = first->message;
            if (const QString caveat = podCaveat(store, *first); !caveat.isEmpty()) {
                w.message = caveat;
                w.stuck = first->deleting;
            }
        }
        w.vc = store.vcOf(*first);
    } else {
        return std::nullopt;
    }
    if (w.vc.isEmpty())
        w.vc = QStringLiteral("default");
    if (w.job) {
        // A job's own conditions lag: a gang that cannot be placed stays "Created" (Kubeflow) or
        // "Pending" with no message (Volcano) while its pod group or its pods say why.
        static const QSet<QString> notStarted{QStringLiteral("Pending"), QStringLiteral("Created"),
                                              QStringLiteral("Inqueue")};
        qint64 since = 0;
        QString why;
        if (w.podGroup && w.podGroup->phase == QLatin1String("Pending")) {
            for (const Condition &c : w.podGroup->conditions)
                if (c.type == QLatin1String("Unschedulable") && c.status == QLatin1String("True")) {
                    why = c.message.isEmpty() ? c.reason : c.message;
                    since = c.lastTransition;
                }
        }
        if (why.isEmpty())
            why = waitingReason(pods, &since);
        if (notStarted.contains(w.status) && !why.isEmpty()) {
            w.status = QStringLiteral("Pending");
            w.message = why;
            w.stuck = since > 0 && store.now() - since >= ClusterStore::StuckPendingMs;
        }
    } else if (!w.stuck) {
        // A pending workload says why through its pods: the scheduler's message of one that
        // waits; waiting for it long enough is stuck.
        qint64 since = 0;
        const QString why = waitingReason(pods, &since);
        if (w.message.isEmpty())
            w.message = why;
        if (!why.isEmpty())
            w.stuck = since > 0 && store.now() - since >= ClusterStore::StuckPendingMs;
    }
    if (w.message.isEmpty() &&
        (w.status == QLatin1String("Failed") || w.status == QLatin1String("Aborted"))) {
        // A job that failed without a word of its own: what its failed pod says.
        for (const PodInfo *p : pods)
            if (p->phase == QLatin1String("Failed")) {
                w.message = p->message.isEmpty()
                                ? ClusterStore::tr("pod %1 failed: %2").arg(p->name, p->status)
                                : ClusterStore::tr("pod %1 failed: %2 — %3")
                                      .arg(p->name, p->status, p->message);
                break;
            }
    }
    if (w.job)
        w.stateLie = stateLie(store, w, pods);
    if (pods.size() == 1 &&
        (w.status == QLatin1String("Pending") || w.kind == QLatin1String("Pod"))) {
        // A job of one pod cannot spread over nodes by itself: say how it could.
        if (const QString advice = distributedAdvice(store, *pods.first()); !advice.isEmpty())
            w.message = w.message.isEmpty() ? advice : advice + u'\n' + w.message;
    }
    return w;
}

QString WorkloadResolver::stateLie(const ClusterStore &store, const WorkloadInfo &w,
                                   const QList<const PodInfo *> &pods)
{
    // Over by the job's word (the statuses the Cleanup page's "finished job still holding
    // GPUs" reads, Kubeflow's Suspended among them).
    static const QSet<QString> over{QStringLiteral("Completed"),  QStringLiteral("Succeeded"),
                                    QStringLiteral("Failed"),     QStringLiteral("Aborted"),
                                    QStringLiteral("Terminated"), QStringLiteral("Suspended")};
    QStringList names;
    int gpus = 0;
    int restarts = 0;
    if (over.contains(w.status)) {
        // Running and holding GPUs (whole cards or MIG slices), as the cleanup finding counts
        // them: not a Terminating pod (the controller cleaning up; one stuck so is told by its
        // caveat), not one left on a node NotReady past the pod's toleration (what it does is
        // not known: its caveat says so, and the cleanup lists it as such).
        for (const PodInfo *p : pods) {
            const int held = p->gpuRequest + migTotal(p->migRequests);
            if (p->phase != QLatin1String("Running") || p->deleting || held <= 0)
                continue;
            if (const NodeInfo *n = store.node(p->nodeName); n && !n->ready) {
                qint64 since = 0;
                for (const Condition &c : n->conditions)
                    if (c.type == QLatin1String("Ready"))
                        since = c.lastTransition;
                if (since > 0 && p->notReadyTolerationSecs >= 0 &&
                    store.now() - since >= p->notReadyTolerationSecs * 1000)
                    continue;
            }
            names << p->name;
            gpus += held;
        }
        if (names.isEmpty())
            return {};
        const QString who =
            ClusterStore::tr("%n pod(s) of it still run: %1", nullptr, int(names.size()))
                .arg(names.mid(0, 3).join(QStringLiteral(", ")));
        return ClusterStore::tr("Says %1, but %2, holding %n GPU(s): they are not free until "
                                "those pods are stopped.",
                                nullptr, gpus)
            .arg(w.status, who);
    }
    if (w.status == QLatin1String("Running")) {
        for (const PodInfo *p : pods)
            if (p->status == QLatin1String("CrashLoopBackOff")) {
                names << p->name;
                restarts = std::max(restarts, p->restarts);
            }
        if (names.isEmpty())
            return {};
        return ClusterStore::tr("Says Running, but %n pod(s) crash-loop (%1; restarted up to %2 "
                                "times): the job makes no progress.",
                                nullptr, int(names.size()))
            .arg(names.mid(0, 3).join(QStringLiteral(", ")))
            .arg(restarts);
    }
    return {};
}

QString WorkloadResolver::waitingReason(const QList<const PodInfo *> &pods, qint64 *since)
{
    for (const PodInfo *p : pods) {
        if (p->nodeName.isEmpty() && !p->finished() && !p->message.isEmpty()) {
            // The pod has waited since it was created at least (the scheduler keeps retrying).
            *since = p->created;
            return p->message;
        }
    }
    return {};
}

QString WorkloadResolver::podCaveat(const ClusterStore &store, const PodInfo &pod)
{
    const qint64 now = store.now();
    if (pod.deleting && pod.deletionTime > 0 &&
        now - pod.deletionTime >= ClusterStore::StuckTerminatingMarginMs) {
        // deletionTimestamp is when the grace period ends: the kubelet should have killed the
        // containers by then.
        return ClusterStore::tr(
                   "Terminating for %1: its grace period of %2 s ended %3 ago and the node has not "
                   "confirmed that its containers stopped.")
            .arg(hoursText(now - pod.deletionTime + pod.gracePeriodSecs * 1000))
            .arg(pod.gracePeriodSecs)
            .arg(hoursText(now - pod.deletionTime));
    }
    if (!pod.nodeName.isEmpty() && !pod.finished() && !pod.deleting) {
        const NodeInfo *n = store.node(pod.nodeName);
        if (n && !n->ready) {
            qint64 notReadySince = 0;
            for (const Condition &c : n->conditions)
                if (c.type == QLatin1String("Ready"))
                    notReadySince = c.lastTransition;
            return notReadySince > 0
                       ? ClusterStore::tr(
                             "Node %1 has been NotReady for %2: what this pod does now is not "
                             "known.")
                             .arg(pod.nodeName, hoursText(now - notReadySince))
                       : ClusterStore::tr(
                             "Node %1 is NotReady: what this pod does now is not known.")
                             .arg(pod.nodeName);
        }
    }
    return {};
}

WorkloadCounts WorkloadResolver::counts(const ClusterStore &store)
{
    QList<const PodInfo *> pods;
    pods.reserve(store.pods().size());
    for (const auto &p : store.pods())
        pods.append(&p);
    return tally(store, store.jobKeys(), pods);
}

WorkloadCounts WorkloadResolver::countsIn(const ClusterStore &store, const QString &ns)
{
    QStringList jobs;
    for (const QString &key : store.workloadKeysIn(ns))
        if (store.job(key))
            jobs.append(key);
    return tally(store, jobs, store.podsIn(ns));
}

WorkloadCounts WorkloadResolver::tally(const ClusterStore &store, const QStringList &jobKeys,
                                       const QList<const PodInfo *> &pods)
{
    WorkloadCounts c;
    tallyInto(store, jobKeys, pods, [&c](const QString &) -> WorkloadCounts & { return c; });
    return c;
}

QHash<QString, WorkloadCounts> WorkloadResolver::countsByVc(const ClusterStore &store)
{
    QList<const PodInfo *> pods;
    pods.reserve(store.pods().size());
    for (const auto &p : store.pods())
        pods.append(&p);
    QHash<QString, WorkloadCounts> out;
    tallyInto(store, store.jobKeys(), pods,
              [&out](const QString &vc) -> WorkloadCounts & { return out[vc]; });
    return out;
}

std::optional<WorkloadResolver::Counted>
WorkloadResolver::countedResolved(const ClusterStore &store, const QString &key)
{
    // By what the Workloads page shows: a job's status as its pods and pod group tell it; a
    // stuck one in its state, and counted as stuck too. A job whose state lies is a problem, as
    // the page classes it (issue 37): "Running" while its pods crash-loop is not running, and
    // "Failed" while a pod of it still holds GPUs is not over.
    const auto w = resolve(store, key);
    if (!w)
        return std::nullopt;
    const workloadstatus::Class cls = workloadstatus::classOf(w->status);
    return Counted{w->vc, w->stateLie.isEmpty() ? cls : workloadstatus::Problem, w->stuck,
                   cls == workloadstatus::Waiting || w->status == QLatin1String("Terminating")};
}

std::optional<WorkloadResolver::Counted> WorkloadResolver::countedBare(const ClusterStore &store,
                                                                       const PodInfo &pod)
{
    // Most of 100,000 pods run where they were placed: only those that wait or go away can be
    // stuck, and only they need the longer look.
    if (pod.deleting || pod.nodeName.isEmpty())
        return countedResolved(store, pod.uid);
    return Counted{store.vcOf(pod), workloadstatus::classOf(pod.status), false, false};
}

std::optional<WorkloadResolver::Counted> WorkloadResolver::counted(const ClusterStore &store,
                                                                   const QString &key)
{
    if (store.job(key))
        return countedResolved(store, key);
    const PodInfo *p = store.pod(key);
    if (!p || !p->owner.uid.isEmpty())
        return std::nullopt;
    return countedBare(store, *p);
}

void WorkloadResolver::add(WorkloadCounts &into, const Counted &c, int sign)
{
    switch (c.cls) {
    case workloadstatus::Waiting:
        into.waiting += sign;
        break;
    case workloadstatus::Problem:
        into.failed += sign;
        break;
    case workloadstatus::Finished:
        into.finished += sign;
        break;
    default:
        into.running += sign;
        break;
    }
    into.stuck += c.stuck ? sign : 0;
}

void WorkloadResolver::tallyInto(const ClusterStore &store, const QStringList &jobKeys,
                                 const QList<const PodInfo *> &pods,
                                 const std::function<WorkloadCounts &(const QString &vc)> &bucket)
{
    for (const QString &key : jobKeys)
        if (const auto c = countedResolved(store, key))
            add(bucket(c->vc), *c);
    // A bare pod as it is (counted(), by key, would look it up twice more).
    for (const PodInfo *p : pods)
        if (p->owner.uid.isEmpty())
            if (const auto c = countedBare(store, *p))
                add(bucket(c->vc), *c);
}

} // namespace gpudesk
