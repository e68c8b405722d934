// SPDX-License-Identifier: GPL-3.0-or-later
#include "queueplanner.h"

#include "clusterstore.h"
#include "queuesmodel.h"

#include <nlohmann/json.hpp>

namespace gpudesk {

namespace {

using json = nlohmann::json;

std::string str(const QString &s)
{
    return s.toStdString();
}

json resourceList(const ResourceAmounts &amounts)
{
    json out = json::object();
    for (auto it = amounts.cbegin(); it != amounts.cend(); ++it)
        out[str(it.key())] = str(quantity::format(it.key(), it.value()));
    return out;
}

QString describeAmounts(const ResourceAmounts &a)
{
    QStringList parts;
    for (auto it = a.cbegin(); it != a.cend(); ++it)
        parts << it.key() + u'=' + quantity::format(it.key(), it.value());
    return parts.isEmpty() ? QueuePlanner::tr("none") : parts.join(QStringLiteral(", "));
}

const QString kCommands =
    QStringLiteral("/apis/bus.volcano.sh/v1alpha1/namespaces/default/commands");

} // namespace

QueuePlanner::QueuePlanner(OperationPlanner base) : m_base(std::move(base)) {}

QByteArray QueuePlanner::specJson(const QueueSpec &spec, const QByteArray &base)
{
    json s = base.isEmpty() ? json::object() : json::parse(base.toStdString(), nullptr, false);
    if (!s.is_object())
        s = json::object();
    s["weight"] = spec.weight;
    s["reclaimable"] = spec.reclaimable;
    for (const auto &[key, amounts] :
         {std::pair<const char *, const ResourceAmounts *>{"capability", &spec.capability},
          {"deserved", &spec.deserved}}) {
        if (amounts->isEmpty())
            s.erase(key);
        else
            s[key] = resourceList(*amounts);
    }
    if (spec.guarantee.isEmpty())
        s.erase("guarantee");
    else
        s["guarantee"] = {{"resource", resourceList(spec.guarantee)}};
    if (spec.parent.isEmpty())
        s.erase("parent");
    else
        s["parent"] = str(spec.parent);
    return QByteArray::fromStdString(s.dump());
}

QStringList QueuePlanner::deleteRefusals(const ClusterStore &store, const QString &name)
{
    QStringList out;
    if (QueueRules::isProtected(name))
        out << tr("%1 is Volcano's own VC and cannot be deleted.").arg(name);
    QStringList children;
    for (const QueueInfo &q : store.queues())
        if (q.parent == name)
            children << q.name;
    if (!children.isEmpty())
        out << tr("%1 has child VCs (%2): move or delete them first.")
                   .arg(name, children.join(QStringLiteral(", ")));
    // Pod groups of jobs that are over are deleted by the plan; those of live jobs hold the VC.
    QStringList jobs;
    for (const PodGroupInfo *g : podGroupsOf(store, name).live)
        jobs << g->ns + u'/' + (g->owner.name.isEmpty() ? g->name : g->owner.name);
    if (!jobs.isEmpty()) {
        jobs.sort();
        out << tr("%1 still holds %n job(s) (%2): close it and wait for them to end, or merge it "
                  "into another VC.",
                  nullptr, int(jobs.size()))
                   .arg(name, jobs.mid(0, 5).join(QStringLiteral(", ")));
    }
    const QStringList users = QueuesModel::usersOf(store, name);
    if (!users.isEmpty())
        out << tr("%n user(s) are bound to %1 (%2): move them to another VC first, or merge.",
                  nullptr, int(users.size()))
                   .arg(name, users.mid(0, 5).join(QStringLiteral(", ")));
    return out;
}

QueuePlanner::PodGroupsOf QueuePlanner::podGroupsOf(const ClusterStore &store, const QString &vc)
{
    // The states after which a job runs nothing again (Volcano's and Kubeflow's words).
    static const QStringList over{QStringLiteral("Completed"), QStringLiteral("Succeeded"),
                                  QStringLiteral("Failed"), QStringLiteral("Aborted"),
                                  QStringLiteral("Terminated")};
    PodGroupsOf out;
    for (const auto &[uid, g] : store.objects<PodGroupInfo>(Resource::PodGroups)) {
        if (g.vc != vc)
            continue;
        const JobInfo *job = g.owner.uid.isEmpty() ? nullptr : store.job(g.owner.uid);
        const bool done =
            g.phase == QLatin1String("Completed") || (job && over.contains(job->status));
        (done ? out.over : out.live).append(&g);
    }
    return out;
}

void QueuePlanner::appendRemoval(OperationPlan &plan, const QueueInfo &q, const PodGroupsOf &groups,
                                 QList<int> after) const
{
    for (const PodGroupInfo *g : groups.over) {
        PlanStep s;
        s.kind = PlanStep::Kind::Delete;
        s.target = m_base.target(Resource::PodGroups, g->ns, g->name, g->uid);
        const QString job = g->owner.name.isEmpty() ? g->name : g->owner.name;
        s.description = tr("Delete the pod group of %1/%2, which is over: it alone keeps %3 open")
                            .arg(g->ns, job, q.name);
        s.detail = QStringLiteral("DELETE %1 (preconditions.uid=%2)").arg(s.target.apiPath, g->uid);
        after << int(plan.steps.size());
        plan.steps << s;
    }
    if (q.state != QLatin1String("Closed")) {
        PlanStep close = commandStep(q, false);
        // Deleted only once Volcano has it Closed (its webhook refuses a Closing queue).
        close.expectStates = {QStringLiteral("Closed")};
        close.after = after;
        after = {int(plan.steps.size())};
        plan.steps << close;
    }
    PlanStep del = deleteStep(q);
    del.after = after;
    // Its server check waits for the close: asked now, Volcano would refuse an Open queue.
    if (q.state != QLatin1String("Closed"))
        del.dryRun = PlanStep::DryRun::Deferred;
    plan.steps << del;
}

PlanStep QueuePlanner::editStep(const QueueInfo &q, const QueueSpec &spec) const
{
    PlanStep s;
    s.kind = PlanStep::Kind::Patch;
    s.patchType = QStringLiteral("json");
    s.target = m_base.target(Resource::Queues, {}, q.name, q.uid);
    const json newSpec = json::parse(specJson(spec, q.spec).toStdString());
    json ops = json::array();
    ops.push_back({{"op", "test"},
                   {"path", "/spec"},
                   {"value", json::parse(q.spec.toStdString(), nullptr, false)}});
    ops.push_back({{"op", "replace"}, {"path", "/spec"}, {"value", newSpec}});
    s.body = QByteArray::fromStdString(ops.dump());
    s.expectPointer = QStringLiteral("/spec");
    s.expectValue = QByteArray::fromStdString(newSpec.dump());
    s.eventReason = QStringLiteral("GpudeskQueueChanged");
    QStringList changes;
    const QueueSpec old = QueueSpec::of(q);
    if (old.capability != spec.capability)
        changes << tr("capability %1 → %2")
                       .arg(describeAmounts(old.capability), describeAmounts(spec.capability));
    if (old.deserved != spec.deserved)
        changes << tr("deserved %1 → %2")
                       .arg(describeAmounts(old.deserved), describeAmounts(spec.deserved));
    if (old.guarantee != spec.guarantee)
        changes << tr("guarantee %1 → %2")
                       .arg(describeAmounts(old.guarantee), describeAmounts(spec.guarantee));
    if (old.weight != spec.weight)
        changes << tr("weight %1 → %2").arg(old.weight).arg(spec.weight);
    if (old.reclaimable != spec.reclaimable)
        changes << (spec.reclaimable ? tr("reclaimable") : tr("not reclaimable"));
    if (old.parent != spec.parent)
        changes << tr("parent %1 → %2")
                       .arg(old.parent.isEmpty() ? tr("none") : old.parent,
                            spec.parent.isEmpty() ? tr("none") : spec.parent);
    s.description = changes.isEmpty()
                        ? tr("Write VC %1 unchanged").arg(q.name)
                        : tr("Change VC %1: %2").arg(q.name, changes.join(QStringLiteral("; ")));
    s.detail = QStringLiteral("PATCH %1 (JSON patch, tested against the spec as planned) %2")
                   .arg(s.target.apiPath, QString::fromUtf8(s.body));
    return s;
}

PlanStep QueuePlanner::commandStep(const QueueInfo &q, bool open) const
{
    const QString action = open ? QStringLiteral("OpenQueue") : QStringLiteral("CloseQueue");
    const json ref{{"apiVersion", str(QStringLiteral("scheduling.volcano.sh/") +
                                      m_base.versionOf(Resource::Queues))},
                   {"kind", "Queue"},
                   {"name", str(q.name)},
                   {"uid", str(q.uid)},
                   {"controller", true},
                   {"blockOwnerDeletion", true}};
    const json command{{"apiVersion", "bus.volcano.sh/v1alpha1"},
                       {"kind", "Command"},
                       {"metadata",
                        {{"generateName", str(q.name + u'-' + action.toLower() + u'-')},
                         {"namespace", "default"},
                         {"ownerReferences", json::array({ref})}}},
                       {"target", ref},
                       {"action", str(action)}};
    PlanStep s;
    s.kind = PlanStep::Kind::Create;
    s.target = m_base.target(Resource::Queues, {}, q.name, q.uid);
    s.createIn = kCommands;
    s.body = QByteArray::fromStdString(command.dump());
    s.expectStates = open ? QStringList{QStringLiteral("Open")}
                          : QStringList{QStringLiteral("Closing"), QStringLiteral("Closed")};
    s.eventReason =
        open ? QStringLiteral("GpudeskOpenedQueue") : QStringLiteral("GpudeskClosedQueue");
    s.description = open ? tr("Open VC %1: it admits new jobs again").arg(q.name)
                         : tr("Close VC %1: it admits no new job; running jobs go on").arg(q.name);
    s.detail = QStringLiteral("POST %1 %2").arg(kCommands, QString::fromUtf8(s.body));
    return s;
}

PlanStep QueuePlanner::deleteStep(const QueueInfo &q) const
{
    PlanStep s;
    s.kind = PlanStep::Kind::Delete;
    s.target = m_base.target(Resource::Queues, {}, q.name, q.uid);
    s.guard = PlanStep::Guard::QueueEmpty;
    s.description = tr("Delete VC %1").arg(q.name);
    s.detail = QStringLiteral("DELETE %1 (preconditions.uid=%2)").arg(s.target.apiPath, q.uid);
    return s;
}

OperationPlan QueuePlanner::create(const QueueSpec &spec) const
{
    const ClusterStore &store = *m_base.context().store;
    OperationPlan plan =
        m_base.plan(QStringLiteral("queue.create"), tr("Create VC %1").arg(spec.name));
    plan.refusals = QueueRules::errors(spec, store.queues(), true);
    plan.warnings = QueueRules::warnings(spec, store);
    plan.notes = QueueRules::effects(spec, store);
    if (!plan.refusals.isEmpty())
        return plan;
    const json object{{"apiVersion", str(QStringLiteral("scheduling.volcano.sh/") +
                                         m_base.versionOf(Resource::Queues))},
                      {"kind", "Queue"},
                      {"metadata", {{"name", str(spec.name)}}},
                      {"spec", json::parse(specJson(spec).toStdString())}};
    PlanStep s;
    s.kind = PlanStep::Kind::Create;
    const ApiKind queues = m_base.kind(Resource::Queues);
    s.target = StepTarget::toCreate(queues, {}, spec.name);
    s.createIn = queues.collection();
    s.body = QByteArray::fromStdString(object.dump());
    s.description = tr("Create VC %1: capability %2, deserved %3, guarantee %4, weight %5")
                        .arg(spec.name, describeAmounts(spec.capability),
                             describeAmounts(spec.deserved), describeAmounts(spec.guarantee))
                        .arg(spec.weight);
    s.detail = QStringLiteral("POST %1 %2").arg(s.createIn, QString::fromUtf8(s.body));
    plan.steps << s;
    return plan;
}

OperationPlan QueuePlanner::edit(const QueueSpec &spec) const
{
    const ClusterStore &store = *m_base.context().store;
    OperationPlan plan =
        m_base.plan(QStringLiteral("queue.edit"), tr("Change VC %1").arg(spec.name));
    plan.refusals = QueueRules::errors(spec, store.queues(), false);
    const QueueInfo *q = store.queue(spec.name);
    if (!plan.refusals.isEmpty() || !q)
        return plan;
    if (q->state == QLatin1String("Closing")) {
        // Volcano's validatequeue webhook refuses any update of a queue whose state is neither
        // Open nor Closed; said here before a request that cannot succeed.
        plan.refusals << tr("%1 is Closing: Volcano refuses changes to a queue in that state. Wait "
                            "until it is Closed, or open it again first.")
                             .arg(spec.name);
        return plan;
    }
    plan.warnings = QueueRules::warnings(spec, store);
    plan.notes = QueueRules::effects(spec, store);
    if (QueueSpec::of(*q) == spec) {
        plan.refusals << tr("Nothing changes.");
        return plan;
    }
    plan.steps << editStep(*q, spec);
    return plan;
}

OperationPlan QueuePlanner::setOpen(const QString &name, bool open) const
{
    const ClusterStore &store = *m_base.context().store;
    OperationPlan plan =
        m_base.plan(open ? QStringLiteral("queue.open") : QStringLiteral("queue.close"),
                    open ? tr("Open VC %1").arg(name) : tr("Close VC %1").arg(name));
    const QueueInfo *q = store.queue(name);
    if (!q) {
        plan.refusals << tr("The VC %1 no longer exists.").arg(name);
        return plan;
    }
    const bool isOpen = q->state.isEmpty() || q->state == QLatin1String("Open");
    if (open == isOpen) {
        plan.refusals
            << (open ? tr("%1 is open already.") : tr("%1 is %2 already.")).arg(name, q->state);
        return plan;
    }
    if (!open) {
        const int jobs = q->running + q->pending + q->inqueue;
        plan.notes << (jobs > 0 ? tr("%1 goes Closing: its %n job(s) keep running, new jobs are "
                                     "refused, and it becomes Closed when they have ended.",
                                     nullptr, jobs)
                                      .arg(name)
                                : tr("%1 has no job: it becomes Closed at once.").arg(name));
        const QStringList users = QueuesModel::usersOf(store, name);
        if (!users.isEmpty())
            plan.warnings << tr("%n user(s) submit to %1 (%2): their new jobs will be refused.",
                                nullptr, int(users.size()))
                                 .arg(name, users.mid(0, 8).join(QStringLiteral(", ")));
    }
    plan.steps << commandStep(*q, open);
    return plan;
}

OperationPlan QueuePlanner::remove(const QString &name) const
{
    const ClusterStore &store = *m_base.context().store;
    OperationPlan plan = m_base.plan(QStringLiteral("queue.delete"), tr("Delete VC %1").arg(name));
    const QueueInfo *q = store.queue(name);
    if (!q) {
        plan.refusals << tr("The VC %1 no longer exists.").arg(name);
        return plan;
    }
    plan.refusals = deleteRefusals(store, name);
    if (!plan.refusals.isEmpty())
        return plan;
    appendRemoval(plan, *q, podGroupsOf(store, name), {});
    plan.typedWord = name;
    return plan;
}

OperationPlan QueuePlanner::merge(const QString &from, const QString &into) const
{
    const ClusterStore &store = *m_base.context().store;
    OperationPlan plan =
        m_base.plan(QStringLiteral("queue.merge"), tr("Merge VC %1 into %2").arg(from, into));
    const QueueInfo *src = store.queue(from);
    const QueueInfo *dst = store.queue(into);
    if (!src || !dst) {
        plan.refusals << tr("Both VCs must exist.");
        return plan;
    }
    if (from == into)
        plan.refusals << tr("A VC cannot be merged into itself.");
    if (QueueRules::isProtected(from))
        plan.refusals << tr("%1 is Volcano's own VC: merge the others into it instead.").arg(from);
    for (const QueueInfo &q : store.queues())
        if (q.parent == from)
            plan.refusals
                << tr("%1 has child VCs (%2 among them): move them first.").arg(from, q.name);
    if (!plan.refusals.isEmpty())
        return plan;

    // The merged VC: capability, deserved and guarantee added up resource by resource. A
    // capability only one of them limits stays as `into` has it (unlimited stays unlimited).
    QueueSpec merged = QueueSpec::of(*dst);
    for (auto it = src->capability.cbegin(); it != src->capability.cend(); ++it)
        if (merged.capability.contains(it.key()))
            merged.capability[it.key()] += it.value();
    for (auto it = dst->capability.cbegin(); it != dst->capability.cend(); ++it)
        if (!src->capability.contains(it.key()))
            plan.warnings << tr("%1 has no %2 capability: %3 keeps its own (%4).")
                                 .arg(from, it.key(), into, quantity::format(it.key(), it.value()));
    for (auto it = src->deserved.cbegin(); it != src->deserved.cend(); ++it)
        merged.deserved[it.key()] += it.value();
    for (auto it = src->guarantee.cbegin(); it != src->guarantee.cend(); ++it)
        merged.guarantee[it.key()] += it.value();
    // Checked as the cluster will be once `from` is gone.
    QList<QueueInfo> after;
    for (const QueueInfo &q : store.queues())
        if (q.name != from)
            after << q;
    plan.refusals = QueueRules::errors(merged, after, false);
    if (!plan.refusals.isEmpty())
        return plan;
    plan.warnings << QueueRules::warnings(merged, store);
    plan.steps << editStep(*dst, merged);
    const int resize = 0;
    QList<int> moved;
    for (const NamespaceInfo &n : store.users()) {
        if (n.vc != from)
            continue;
        PlanStep s;
        s.kind = PlanStep::Kind::Patch;
        s.patchType = QStringLiteral("merge");
        s.target = m_base.target(Resource::Namespaces, {}, n.name, n.uid);
        s.target.user = n.user;
        s.body = QByteArray::fromStdString(
            json{{"metadata", {{"labels", {{"gpudesk.io/vc", str(into)}}}}}}.dump());
        s.expectPointer = QStringLiteral("/metadata/labels/gpudesk.io~1vc");
        s.expectValue = QByteArray::fromStdString(json(str(into)).dump());
        s.eventReason = QStringLiteral("GpudeskMovedVc");
        s.description = tr("Move %1 (%2) from %3 to %4").arg(n.user, n.name, from, into);
        s.detail = QStringLiteral("PATCH %1 %2").arg(s.target.apiPath, QString::fromUtf8(s.body));
        s.after = {resize};
        moved << int(plan.steps.size());
        plan.steps << s;
    }
    QList<int> before = moved;
    before << resize;
    const PodGroupsOf groups = podGroupsOf(store, from);
    if (groups.live.isEmpty()) {
        appendRemoval(plan, *src, groups, before);
    } else {
        // Volcano moves no job between queues: the VC waits, Closing, for its jobs to end.
        PlanStep close = commandStep(*src, false);
        close.after = before;
        plan.steps << close;
        QStringList jobs;
        for (const PodGroupInfo *g : groups.live)
            jobs << g->ns + u'/' + (g->owner.name.isEmpty() ? g->name : g->owner.name);
        jobs.sort();
        plan.notes << tr("%1 keeps its %n running or waiting job(s) (%2) until they end (Volcano "
                         "does not move a job between queues): it stays Closing, admitting no "
                         "new job, and can be deleted from the VCs page once they have ended.",
                         nullptr, int(jobs.size()))
                          .arg(from, jobs.mid(0, 5).join(QStringLiteral(", ")));
    }
    plan.notes << QueueRules::effects(merged, store);
    for (PlanStep &s : plan.steps)
        s.why = tr("merge of %1 into %2").arg(from, into);
    plan.typedWord = from;
    return plan;
}

} // namespace gpudesk
