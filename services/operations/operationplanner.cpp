// SPDX-License-Identifier: GPL-3.0-or-later
#include "operationplanner.h"
#include "contextconnection.h"

#include "clusterstore.h"
#include "clustersync.h"
#include "kubeclient.h"
#include "nodecommands.h"
#include "telemetrystore.h"

#include <QDateTime>
#include <QSet>

#include <nlohmann/json.hpp>

namespace gpudesk {

namespace {

QString grace(const std::optional<qint64> &g)
{
    return g ? QStringLiteral("gracePeriodSeconds=%1").arg(*g) : QStringLiteral("its own grace");
}

} // namespace

OperationPlanner::OperationPlanner(OperationContext context) : m_ctx(std::move(context)) {}

QString OperationPlanner::versionOf(Resource r) const
{
    const ClusterSync *sync = m_ctx.lease ? m_ctx.lease->sync() : nullptr;
    const QString v = sync ? sync->discovered().version(r) : QString();
    return v.isEmpty() ? defaultVersion(r) : v;
}

QString OperationPlanner::path(Resource r, const QString &ns, const QString &name) const
{
    return resourcePath(r, ns, versionOf(r)) + u'/' + name;
}

OperationPlan OperationPlanner::plan(const QString &action, const QString &title) const
{
    OperationPlan p;
    p.action = action;
    p.title = title;
    if (m_ctx.lease) {
        p.context = m_ctx.lease->context();
        p.server = m_ctx.lease->endpoint().server;
    }
    return p;
}

StepTarget OperationPlanner::target(Resource r, const QString &ns, const QString &name,
                                    const QString &uid) const
{
    StepTarget t = StepTarget::existing(kind(r), ns, name, uid);
    if (!t.ns.isEmpty())
        t.user = m_ctx.store->userOf(t.ns);
    return t;
}

StepTarget OperationPlanner::podTarget(const PodInfo &pod) const
{
    StepTarget t = target(Resource::Pods, pod.ns, pod.name, pod.uid);
    t.node = pod.nodeName;
    t.gpus = pod.gpuRequest;
    t.holds = holdsOf({&pod});
    return t;
}

QList<HeldGpus> OperationPlanner::holdsOf(const QList<const PodInfo *> &pods) const
{
    QList<HeldGpus> out;
    for (const PodInfo *p : pods) {
        if (p->gpuRequest <= 0 && p->migRequests.isEmpty())
            continue;
        HeldGpus h{p->uid, p->nodeName, {}};
        if (m_ctx.telemetry)
            for (const PodCard &c : m_ctx.telemetry->cardsOfPods({p->uid}))
                h.cards << c.card;
        out << h;
    }
    return out;
}

void OperationPlanner::addPodDelete(OperationPlan &plan, const PodInfo &pod, bool force,
                                    const QString &why, PlanStep::Guard guard) const
{
    PlanStep s;
    s.kind = force ? PlanStep::Kind::ForceDelete : PlanStep::Kind::Delete;
    s.target = podTarget(pod);
    s.why = why;
    s.guard = guard;
    s.plannedAt = QDateTime::currentMSecsSinceEpoch();
    if (force) {
        s.gracePeriodSeconds = 0;
        s.forceful = true;
        s.description = tr("Force-delete pod %1/%2 (grace period 0)").arg(pod.ns, pod.name);
        s.eventReason = QStringLiteral("GpudeskForceDeleted");
    } else {
        s.description = tr("Delete pod %1/%2").arg(pod.ns, pod.name);
        s.eventReason = QStringLiteral("GpudeskStopped");
    }
    s.detail = QStringLiteral("DELETE %1 (preconditions.uid=%2, %3)")
                   .arg(s.target.apiPath, pod.uid, grace(s.gracePeriodSeconds));
    plan.steps << s;
}

void OperationPlanner::addStop(OperationPlan &plan, const QString &key, const QString &why,
                               PlanStep::Guard guard) const
{
    const auto w = m_ctx.store->workload(key);
    if (!w) {
        plan.notes << tr("%1: gone from the cluster already").arg(key);
        return;
    }
    const QList<const PodInfo *> pods = m_ctx.store->podsOfWorkload(key);
    if (w->kind == QLatin1String("Pod")) {
        if (const PodInfo *p = m_ctx.store->pod(key))
            addPodDelete(plan, *p, false, why, guard);
        return;
    }
    if (!w->job) {
        plan.notes << tr("%1 %2/%3: its controller would start new pods; scale it down instead")
                          .arg(w->kind, w->ns, w->name);
        return;
    }
    const Resource r = w->job->kind;
    PlanStep s;
    s.why = why;
    s.guard = guard;
    s.plannedAt = QDateTime::currentMSecsSinceEpoch();
    s.eventReason = QStringLiteral("GpudeskStopped");
    s.target = target(r, w->ns, w->name, key);
    StepTarget &t = s.target;
    t.holds = holdsOf(pods);
    for (const PodInfo *p : pods)
        t.gpus += p->finished() ? 0 : p->gpuRequest;
    const ClusterSync *sync = m_ctx.lease ? m_ctx.lease->sync() : nullptr;
    const bool commands = sync && sync->discovered()
                                      .groups.value(QStringLiteral("bus.volcano.sh"))
                                      .contains(QStringLiteral("v1alpha1"));
    if (r == Resource::VolcanoJobs && commands) {
        // Volcano's own way: the job controller aborts it (pods killed, the job kept as
        // Aborted for its owner to read, resumable).
        s.kind = PlanStep::Kind::Create;
        s.createIn =
            QStringLiteral("/apis/bus.volcano.sh/v1alpha1/namespaces/%1/commands").arg(w->ns);
        const nlohmann::json cmd{
            {"apiVersion", "bus.volcano.sh/v1alpha1"},
            {"kind", "Command"},
            {"metadata",
             {{"generateName", QString(w->name + QStringLiteral("-abortjob-")).toStdString()},
              {"namespace", w->ns.toStdString()},
              {"ownerReferences",
               {{{"apiVersion", "batch.volcano.sh/v1alpha1"},
                 {"kind", "Job"},
                 {"name", w->name.toStdString()},
                 {"uid", key.toStdString()},
                 {"controller", true}}}}}},
            {"action", "AbortJob"},
            {"target",
             {{"apiVersion", "batch.volcano.sh/v1alpha1"},
              {"kind", "Job"},
              {"name", w->name.toStdString()},
              {"uid", key.toStdString()},
              {"controller", true}}},
            {"reason", "GpudeskStopped"},
            {"message", why.left(512).toStdString()}};
        s.body = QByteArray::fromStdString(cmd.dump());
        s.description = tr("Abort Volcano job %1/%2 (a Command AbortJob: its %n pod(s) end, the "
                           "job stays as Aborted)",
                           nullptr, int(pods.size()))
                            .arg(w->ns, w->name);
        s.detail =
            QStringLiteral("POST %1 {action: AbortJob, target: Job %2}").arg(s.createIn, w->name);
    } else {
        s.kind = PlanStep::Kind::Delete;
        s.propagationPolicy = QStringLiteral("Background");
        s.description = tr("Delete %1 %2/%3 with its %n pod(s)", nullptr, int(pods.size()))
                            .arg(t.kind, w->ns, w->name);
        s.detail = QStringLiteral("DELETE %1 (preconditions.uid=%2, propagationPolicy=Background)")
                       .arg(t.apiPath, key);
    }
    plan.steps << s;
}

void OperationPlanner::addDelete(OperationPlan &plan, const QString &key, const QString &why) const
{
    const auto w = m_ctx.store->workload(key);
    if (!w) {
        plan.notes << tr("%1: gone from the cluster already").arg(key);
        return;
    }
    if (w->kind == QLatin1String("Pod") || !w->job) {
        // The owner reads the verb the admin chose: deleted, not stopped.
        for (const PodInfo *p : m_ctx.store->podsOfWorkload(key)) {
            addPodDelete(plan, *p, false, why, PlanStep::Guard::None);
            plan.steps.last().eventReason = QStringLiteral("GpudeskDeleted");
        }
        if (!w->job && w->kind != QLatin1String("Pod"))
            plan.notes << tr("%1 %2/%3: its controller will start new pods for the deleted ones")
                              .arg(w->kind, w->ns, w->name);
        return;
    }
    // A delete of the job object itself, whatever the cluster's commands.
    OperationPlan tmp = plan;
    tmp.steps.clear();
    addStop(tmp, key, why, PlanStep::Guard::None);
    for (PlanStep s : std::as_const(tmp.steps)) {
        if (s.kind == PlanStep::Kind::Create) {
            s.kind = PlanStep::Kind::Delete;
            s.body.clear();
            s.createIn.clear();
            s.propagationPolicy = QStringLiteral("Background");
            s.description = tr("Delete %1 %2/%3 with its pods").arg(s.target.kind, w->ns, w->name);
            s.detail =
                QStringLiteral("DELETE %1 (preconditions.uid=%2, propagationPolicy=Background)")
                    .arg(s.target.apiPath, key);
        }
        s.eventReason = QStringLiteral("GpudeskDeleted");
        plan.steps << s;
    }
    plan.notes << tmp.notes;
}

void OperationPlanner::guardFor(PlanStep &s, const Finding &f) const
{
    const NodeInfo *node = m_ctx.store ? m_ctx.store->node(f.node) : nullptr;
    const bool nodeNotReady = node && !node->ready;
    qint64 since = 0;
    if (node)
        for (const Condition &c : node->conditions)
            if (c.type == QLatin1String("Ready"))
                since = c.lastTransition;
    switch (f.cls) {
    case FindingClass::IdleGpus:
        s.guard = PlanStep::Guard::StillIdle;
        break;
    case FindingClass::StuckTerminating:
        // A force delete rests on what the finding saw: the node NotReady (its kubelet cannot
        // confirm) or its containers gone; its processes' kills, on the pod still Terminating.
        if (s.kind != PlanStep::Kind::ForceDelete || f.remedy == Remedy::KillThenForceDelete)
            s.guard = PlanStep::Guard::StillTerminating;
        else if (nodeNotReady)
            s.guard = PlanStep::Guard::StillTerminatingOnNotReadyNode;
        else
            s.guard = PlanStep::Guard::StillTerminatingContainersGone;
        break;
    case FindingClass::OnNotReadyNode:
        // Only the node's state: a crash-looping pod runs no container on a Ready node either.
        s.guard = PlanStep::Guard::NodeStillNotReady;
        break;
    case FindingClass::OrphanProcess:
        if (!f.podUid.isEmpty())
            s.guard = PlanStep::Guard::PodStillGone;
        break;
    default:
        break;
    }
    if (s.guard == PlanStep::Guard::NodeStillNotReady ||
        s.guard == PlanStep::Guard::StillTerminatingOnNotReadyNode)
        s.guardSince = since > 0 ? since : f.since;
    if (s.kind == PlanStep::Kind::KillProcess && !f.pod.isEmpty() &&
        s.guard != PlanStep::Guard::PodStillGone && s.guard != PlanStep::Guard::None)
        s.guardPath = path(Resource::Pods, f.ns, f.pod);
    s.plannedAt = QDateTime::currentMSecsSinceEpoch();
}

int OperationPlanner::addKill(OperationPlan &plan, const QString &node, const FindingProcess &p,
                              const QString &why) const
{
    PlanStep s;
    s.kind = PlanStep::Kind::KillProcess;
    s.forceful = true; // TERM may be followed by KILL
    s.dryRun = PlanStep::DryRun::NotAsked;
    s.why = why;
    StepTarget &t = s.target;
    t.kind = QStringLiteral("Process");
    t.name = QString::number(p.pid);
    t.node = node;
    t.pid = p.pid;
    t.startTime = p.startTicks;
    t.card = p.card;
    t.podUid = p.podUid;
    t.gpus = p.card >= 0 ? 1 : 0;
    if (p.card >= 0)
        t.holds = {HeldGpus{p.podUid, node, {p.card}}};
    s.description = tr("End PID %1 (%2) on %3, GPU %4: TERM, then KILL after %5 s")
                        .arg(p.pid)
                        .arg(p.command.isEmpty() ? tr("unnamed") : p.command, node)
                        .arg(p.card)
                        .arg(10);
    s.detail =
        QStringLiteral("ssh %1: %2; %3")
            .arg(node, QString::fromLatin1(nodecmd::signalCommand(p.pid, nodecmd::Signal::Term)),
                 QString::fromLatin1(nodecmd::signalCommand(p.pid, nodecmd::Signal::Kill)));
    s.eventReason = QStringLiteral("GpudeskKilledProcess");
    plan.steps << s;
    return int(plan.steps.size()) - 1;
}

void OperationPlanner::addDrain(OperationPlan &plan, const QString &node, const QString &why,
                                bool cordonCollateral) const
{
    const NodeInfo *n = m_ctx.store->node(node);
    if (!n) {
        plan.notes << tr("node %1 is gone from the cluster").arg(node);
        return;
    }
    int cordonStep = -1;
    if (!n->unschedulable) {
        OperationPlan c = cordon({node}, true);
        c.steps.first().why = why;
        c.steps.first().collateral = cordonCollateral;
        plan.steps << c.steps.first();
        cordonStep = int(plan.steps.size()) - 1;
    }
    for (const PodInfo *p : m_ctx.store->podsOnNode(node)) {
        if (p->finished() || p->deleting)
            continue;
        if (p->owner.kind == QLatin1String("DaemonSet") || p->owner.kind == QLatin1String("Node")) {
            plan.notes << tr("%1/%2 left in place: a %3 pod, as kubectl drain leaves it")
                              .arg(p->ns, p->name, p->owner.kind);
            continue;
        }
        PlanStep s;
        s.kind = PlanStep::Kind::Evict;
        s.target = podTarget(*p);
        s.why = why;
        s.forceful = true;
        s.collateral = true; // the user chose the node, not this pod
        if (cordonStep >= 0)
            s.after = {cordonStep};
        s.eventReason = QStringLiteral("GpudeskEvicted");
        s.description = p->owner.kind.isEmpty()
                            ? tr("Evict pod %1/%2 — a bare pod: nothing will start it again")
                                  .arg(p->ns, p->name)
                            : tr("Evict pod %1/%2 (its %3 may start it elsewhere)")
                                  .arg(p->ns, p->name, p->owner.kind);
        s.detail = QStringLiteral("POST /api/v1/namespaces/%1/pods/%2/eviction (policy/v1, "
                                  "preconditions.uid=%3)")
                       .arg(p->ns, p->name, p->uid);
        plan.steps << s;
    }
}

QString OperationPlanner::drainCost(const QString &node) const
{
    int pods = 0, gpus = 0;
    QSet<QString> users;
    for (const PodInfo *p : m_ctx.store->podsOnNode(node)) {
        if (p->finished() || p->deleting || p->owner.kind == QLatin1String("DaemonSet") ||
            p->owner.kind == QLatin1String("Node"))
            continue;
        ++pods;
        gpus += p->gpuRequest;
        users.insert(m_ctx.store->userOf(p->ns));
    }
    return tr("it would evict %n pod(s) of %1 user(s) holding %2 GPUs", nullptr, pods)
        .arg(users.size())
        .arg(gpus);
}

OperationPlan OperationPlanner::cleanup(const QList<Finding> &findings,
                                        const QStringList &drainNodes) const
{
    OperationPlan p = plan(QStringLiteral("cleanup"), QString());
    QSet<QString> stopped; // workloads and nodes already in the plan
    QStringList drained;
    int gpus = 0;
    for (int index = 0; index < findings.size(); ++index) {
        const Finding &f = findings[index];
        const QString why = findingClassTitle(f.cls) + QStringLiteral(": ") + f.evidence;
        const PodInfo *pod = f.podUid.isEmpty() ? nullptr : m_ctx.store->pod(f.podUid);
        const int first = int(p.steps.size());
        gpus += f.gpus;
        switch (f.remedy) {
        case Remedy::None:
            p.notes << tr("%1 on %2: no action — %3")
                           .arg(findingClassTitle(f.cls), f.node, f.remedyNote);
            break;
        case Remedy::KillProcesses:
            for (const FindingProcess &proc : f.processes)
                guardFor(p.steps[addKill(p, f.node, proc, why)], f);
            break;
        case Remedy::DeletePod:
        case Remedy::ForceDeletePod:
            if (!pod) {
                p.notes << tr("pod %1/%2 is gone already").arg(f.ns, f.pod);
                break;
            }
            addPodDelete(p, *pod, f.remedy == Remedy::ForceDeletePod, why, PlanStep::Guard::None);
            guardFor(p.steps.last(), f);
            break;
        case Remedy::KillThenForceDelete: {
            if (!pod) {
                p.notes << tr("pod %1/%2 is gone already").arg(f.ns, f.pod);
                break;
            }
            QList<int> kills;
            for (const FindingProcess &proc : f.processes) {
                kills << addKill(p, f.node, proc, why);
                guardFor(p.steps.last(), f);
            }
            addPodDelete(p, *pod, true, why, PlanStep::Guard::None);
            guardFor(p.steps.last(), f);
            p.steps.last().after = kills;
            break;
        }
        case Remedy::StopWorkload: {
            const QString key = pod ? ClusterStore::workloadKey(*pod) : QString();
            if (key.isEmpty() || stopped.contains(key))
                break;
            stopped.insert(key);
            addStop(p, key, why, PlanStep::Guard::StillIdle);
            break;
        }
        case Remedy::Drain:
            if (stopped.contains(QStringLiteral("node/") + f.node))
                break;
            stopped.insert(QStringLiteral("node/") + f.node);
            if (!drainNodes.contains(f.node)) {
                // Never part of a batch stop by default (issue 33: Select all → Stop evicted
                // another user's running 5-GPU job for memory held on a different card).
                p.notes << tr("%1 on %2: not in this plan — its remedy drains the node, and %3. "
                              "Drain %2 on its own, where each pod it evicts is listed and the "
                              "node's name is typed to confirm.")
                               .arg(findingClassTitle(f.cls), f.node, drainCost(f.node));
                break;
            }
            addDrain(p, f.node, why, true);
            drained << f.node;
            p.notes << tr("%1: reboot it once drained — gpudesk does not reboot nodes").arg(f.node);
            break;
        }
        // One finding's steps stand or fall together: a kill is not sent for a pod whose delete
        // was refused or skipped.
        for (int i = first; i < p.steps.size(); ++i)
            p.steps[i].group = index;
    }
    // What was not selected is confirmed by name: the nodes whose drain the plan holds.
    if (!drained.isEmpty())
        p.typedWord = drained.join(u' ');
    p.title = tr("Clean up %n finding(s) holding %1 GPUs", nullptr, int(findings.size())).arg(gpus);
    return p;
}

OperationPlan OperationPlanner::stopWorkloads(const QStringList &keys, const QString &why) const
{
    OperationPlan p =
        plan(QStringLiteral("workload.stop"), tr("Stop %n workload(s)", nullptr, int(keys.size())));
    for (const QString &k : keys)
        addStop(p, k, why, PlanStep::Guard::None);
    return p;
}

OperationPlan OperationPlanner::deleteWorkloads(const QStringList &keys, const QString &why) const
{
    OperationPlan p = plan(QStringLiteral("workload.delete"),
                           tr("Delete %n workload(s)", nullptr, int(keys.size())));
    for (const QString &k : keys)
        addDelete(p, k, why);
    return p;
}

OperationPlan OperationPlanner::cordon(const QStringList &nodes, bool on) const
{
    OperationPlan p = plan(on ? QStringLiteral("node.cordon") : QStringLiteral("node.uncordon"),
                           on ? tr("Cordon %n node(s)", nullptr, int(nodes.size()))
                              : tr("Uncordon %n node(s)", nullptr, int(nodes.size())));
    for (const QString &name : nodes) {
        const NodeInfo *n = m_ctx.store->node(name);
        if (!n) {
            p.notes << tr("node %1 is gone from the cluster").arg(name);
            continue;
        }
        PlanStep s;
        s.kind = PlanStep::Kind::Patch;
        s.patchType = QStringLiteral("merge");
        s.target = target(Resource::Nodes, {}, name, n->uid);
        s.target.node = name;
        s.body = on ? QByteArrayLiteral(R"({"spec":{"unschedulable":true}})")
                    : QByteArrayLiteral(R"({"spec":{"unschedulable":null}})");
        s.expectPointer = QStringLiteral("/spec/unschedulable");
        s.expectValue = on ? QByteArrayLiteral("true") : QByteArrayLiteral("null");
        s.eventReason =
            on ? QStringLiteral("GpudeskCordoned") : QStringLiteral("GpudeskUncordoned");
        s.description = on ? tr("Cordon %1: no new pods are scheduled there").arg(name)
                           : tr("Uncordon %1: pods may be scheduled there again").arg(name);
        s.detail = QStringLiteral("PATCH %1 %2").arg(s.target.apiPath, QString::fromUtf8(s.body));
        p.steps << s;
    }
    return p;
}

OperationPlan OperationPlanner::drain(const QString &node, const QString &why) const
{
    OperationPlan p = plan(QStringLiteral("node.drain"), tr("Drain %1").arg(node));
    addDrain(p, node, why, false);
    // Evicting pods nobody selected one by one: the node's name is typed, not a count.
    if (!p.collateral().isEmpty())
        p.typedWord = node;
    return p;
}

OperationPlan OperationPlanner::killProcesses(const QString &node, const QList<qint64> &pids,
                                              const QString &why) const
{
    OperationPlan p = plan(QStringLiteral("process.kill"),
                           tr("End %n process(es) on %1", nullptr, int(pids.size())).arg(node));
    const NodeSample *s = m_ctx.telemetry ? m_ctx.telemetry->latest(node) : nullptr;
    for (qint64 pid : pids) {
        const NodeProcess *found = nullptr;
        if (s)
            for (const NodeProcess &np : s->processes)
                if (np.pid == pid)
                    found = &np;
        if (!found) {
            p.notes << tr("PID %1 is no longer listed on %2").arg(pid).arg(node);
            continue;
        }
        FindingProcess fp;
        fp.pid = pid;
        fp.startTicks = found->startTicks;
        fp.card = found->cardIndex;
        fp.command = found->name;
        fp.podUid = found->owner.podUid;
        addKill(p, node, fp, why);
    }
    return p;
}

namespace {

StepTarget targetOf(const QByteArray &object, const QString &path)
{
    const auto o = nlohmann::json::parse(object.begin(), object.end(), nullptr, false);
    StepTarget t;
    auto str = [](const nlohmann::json &j, const char *k) {
        return j.is_object() && j.contains(k) && j[k].is_string()
                   ? QString::fromStdString(j[k].get<std::string>())
                   : QString();
    };
    const nlohmann::json meta =
        o.is_object() ? o.value("metadata", nlohmann::json::object()) : nlohmann::json::object();
    t.kind = str(o, "kind");
    const QString apiVersion = str(o, "apiVersion");
    t.group = apiVersion.contains(u'/') ? apiVersion.section(u'/', 0, 0) : QString();
    t.version = apiVersion.section(u'/', -1);
    t.ns = str(meta, "namespace");
    t.name = str(meta, "name");
    t.uid = str(meta, "uid");
    t.apiPath = path;
    return t;
}

} // namespace

OperationPlan OperationPlanner::update(const QString &apiPath, const QByteArray &object) const
{
    PlanStep s;
    s.kind = PlanStep::Kind::Update;
    s.target = targetOf(object, apiPath);
    s.body = object;
    s.description = tr("Replace %1 with the edited version").arg(s.target.describe());
    s.detail =
        QStringLiteral("PUT %1 (at its resourceVersion: refused if it changed since)").arg(apiPath);
    s.eventReason = QStringLiteral("GpudeskEdited");
    OperationPlan p = plan(QStringLiteral("object.edit"), tr("Edit %1").arg(s.target.describe()));
    p.steps << s;
    return p;
}

OperationPlan OperationPlanner::create(const QString &collectionPath,
                                       const QByteArray &object) const
{
    PlanStep s;
    s.kind = PlanStep::Kind::Create;
    s.target = targetOf(object, QString());
    s.createIn = collectionPath;
    s.body = object;
    s.description = tr("Create %1").arg(s.target.describe());
    s.detail = QStringLiteral("POST %1").arg(collectionPath);
    OperationPlan p =
        plan(QStringLiteral("object.create"), tr("Create %1").arg(s.target.describe()));
    p.steps << s;
    return p;
}

} // namespace gpudesk
