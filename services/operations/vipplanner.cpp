// SPDX-License-Identifier: GPL-3.0-or-later
#include "vipplanner.h"

#include "clusterstore.h"
#include "vipjob.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace gpudesk {

using json = nlohmann::json;

VipPlanner::VipPlanner(OperationPlanner base) : m_base(std::move(base)) {}

PlanStep VipPlanner::reserveStep(const QString &node, const QString &ns, const QString &name) const
{
    const NodeInfo *n = m_base.context().store->node(node);
    PlanStep s;
    s.kind = PlanStep::Kind::Patch;
    s.patchType = QStringLiteral("json");
    s.target = m_base.target(Resource::Nodes, {}, node, n ? n->uid : QString());
    s.target.node = node;
    const QString key = VipJob::reservationKey(ns);
    const QString value = VipJob::reservationValue(name);
    const json taint{
        {"key", key.toStdString()}, {"value", value.toStdString()}, {"effect", "NoSchedule"}};
    // Appended to the node's taints as the server holds them (or the first, when it has none):
    // the others are not rewritten, so a taint set since the plan is kept.
    const json patch =
        n && !n->taints.isEmpty()
            ? json::array({{{"op", "add"}, {"path", "/spec/taints/-"}, {"value", taint}}})
            : json::array({{{"op", "add"}, {"path", "/spec/taints"}, {"value", {taint}}}});
    s.body = QByteArray::fromStdString(patch.dump());
    s.eventReason = QStringLiteral("GpudeskReserved");
    s.description = tr("Reserve %1 for the VIP job %2/%3: no new pod is scheduled there but its "
                       "(taint %4=%5:NoSchedule)")
                        .arg(node, ns, name, key, value);
    s.detail = QStringLiteral("PATCH %1 %2").arg(s.target.apiPath, QString::fromUtf8(s.body));
    return s;
}

OperationPlan VipPlanner::plan(const QByteArray &job, const QString &collectionPath,
                               const QStringList &nodes, Mode mode) const
{
    OperationPlan create = m_base.create(collectionPath, job);
    PlanStep made = create.steps.first();
    const QString ns = made.target.ns;
    const QString name = made.target.name;
    OperationPlan p = m_base.plan(
        mode == Mode::Wait ? QStringLiteral("job.vip.wait") : QStringLiteral("job.vip.stop"),
        mode == Mode::Wait ? tr("VIP job %1/%2: reserve %n machine(s) and wait for them", nullptr,
                                int(nodes.size()))
                                 .arg(ns, name)
                           : tr("VIP job %1/%2: stop what runs on %n machine(s) and start there",
                                nullptr, int(nodes.size()))
                                 .arg(ns, name));
    p.subject = ns + u'/' + name;
    const ClusterStore *store = m_base.context().store;
    for (const QString &node : nodes)
        if (!store->node(node))
            p.refusals << tr("The cluster has no node %1.").arg(node);
    if (!p.refusals.isEmpty())
        return p;

    // What the job runs at, in the plan's words: a VIP job is one nothing preempts.
    const QJsonObject o = QJsonDocument::fromJson(job).object();
    QString cls = o[u"spec"][u"priorityClassName"].toString();
    if (cls.isEmpty())
        cls = o[u"spec"][u"runPolicy"][u"schedulingPolicy"][u"priorityClass"].toString();
    p.notes << (cls.isEmpty() ? tr("It runs at the default priority: the cluster has no "
                                   "PriorityClass above it, so a job of higher priority could "
                                   "still preempt it.")
                              : tr("It runs at priority class %1, the cluster's highest: no job "
                                   "preempts it.")
                                    .arg(cls));

    const QList<VipJob::Occupant> there = VipJob::occupants(*store, nodes);
    QList<int> before;
    // One reservation a machine: the API server keeps one taint per key and effect, and a
    // machine kept for another VIP job takes none of this one's pods.
    const QString mine = ns + u'/' + VipJob::reservationValue(name);
    QStringList reservedAlready;
    for (const QString &node : nodes) {
        QString held;
        for (const QString &t : store->node(node)->taints)
            if (const QString job = VipJob::reservedFor(t); !job.isEmpty())
                held = job;
        if (held == mine)
            reservedAlready << node;
        else if (!held.isEmpty())
            p.refusals << tr("%1 is reserved for the VIP job %2: release it first (Nodes page), "
                             "or choose another machine.")
                              .arg(node, held);
    }
    if (!p.refusals.isEmpty())
        return p;
    if (mode == Mode::Wait) {
        for (const QString &node : nodes) {
            if (reservedAlready.contains(node)) {
                p.notes << tr("%1 is reserved for this job already.").arg(node);
                continue;
            }
            before << int(p.steps.size());
            p.steps << reserveStep(node, ns, name);
        }
        for (const VipJob::Occupant &o : there)
            p.notes << tr("Left to finish: %1 %2/%3 of %4 — %n GPU(s) on %5", nullptr, o.gpus)
                           .arg(o.kind, o.ns, o.name, o.user, o.nodes.join(QStringLiteral(", ")));
        p.notes << (there.isEmpty()
                        ? tr("Nothing holds GPUs on the machines now: the job starts at once.")
                        : tr("The job waits until these end; nothing new is scheduled there "
                             "meanwhile."));
        p.notes << tr("The reservation stays until it is released (Nodes page), also after the "
                      "job ends.");
    } else {
        QStringList keys;
        for (const VipJob::Occupant &o : there) {
            if (o.stoppable)
                keys << o.workloadKey;
            else
                p.warnings << tr("%1 %2/%3 of %4 holds %n GPU(s) there and is not stopped: its "
                                 "controller would start it again. The job waits for it.",
                                 nullptr, o.gpus)
                                  .arg(o.kind, o.ns, o.name, o.user);
        }
        const QString why =
            tr("to free %1 for the VIP job %2/%3").arg(nodes.join(QStringLiteral(", ")), ns, name);
        const OperationPlan stops = m_base.stopWorkloads(keys, why);
        for (PlanStep s : stops.steps) {
            // Other people's work, stopped for a job they did not choose.
            s.collateral = true;
            before << int(p.steps.size());
            p.steps << s;
        }
        p.notes << stops.notes;
        if (there.isEmpty())
            p.notes << tr("Nothing holds GPUs on the machines now: the job starts at once.");
    }
    // The job last, once the machines are reserved or their GPUs free; it is not created when
    // that did not happen (a target that changed since the plan, a refusal).
    made.after = before;
    made.eventReason = QStringLiteral("GpudeskSubmitted");
    made.why = tr("VIP job on %1").arg(nodes.join(QStringLiteral(", ")));
    p.steps << made;
    if (std::any_of(p.steps.cbegin(), p.steps.cend(),
                    [](const PlanStep &s) { return s.collateral; }))
        p.typedWord = name;
    return p;
}

OperationPlan VipPlanner::release(const QStringList &nodes) const
{
    OperationPlan p =
        m_base.plan(QStringLiteral("node.release"),
                    tr("Release %n machine(s) reserved for a VIP job", nullptr, int(nodes.size())));
    const ClusterStore *store = m_base.context().store;
    for (const QString &node : nodes) {
        const NodeInfo *n = store->node(node);
        if (!n) {
            p.notes << tr("node %1 is gone from the cluster").arg(node);
            continue;
        }
        // Removed by index, each index tested first to still hold that taint: a list changed
        // since the plan makes the server refuse the patch rather than remove another taint.
        json patch = json::array();
        QStringList jobs;
        for (qsizetype i = n->taints.size() - 1; i >= 0; --i) {
            const QString job = VipJob::reservedFor(n->taints[i]);
            if (job.isEmpty())
                continue;
            jobs.prepend(job);
            const std::string at = "/spec/taints/" + std::to_string(i);
            patch.push_back({{"op", "test"},
                             {"path", at + "/key"},
                             {"value", n->taints[i].section(u'=', 0, 0).toStdString()}});
            patch.push_back({{"op", "remove"}, {"path", at}});
        }
        if (jobs.isEmpty()) {
            p.notes << tr("%1 is reserved for no VIP job").arg(node);
            continue;
        }
        PlanStep s;
        s.kind = PlanStep::Kind::Patch;
        s.patchType = QStringLiteral("json");
        s.target = m_base.target(Resource::Nodes, {}, node, n->uid);
        s.target.node = node;
        s.body = QByteArray::fromStdString(patch.dump());
        s.eventReason = QStringLiteral("GpudeskReleased");
        s.description = tr("Release %1, reserved for the VIP job %2: pods may be scheduled "
                           "there again")
                            .arg(node, jobs.join(QStringLiteral(", ")));
        s.detail = QStringLiteral("PATCH %1 %2").arg(s.target.apiPath, QString::fromUtf8(s.body));
        p.steps << s;
    }
    return p;
}

} // namespace gpudesk
