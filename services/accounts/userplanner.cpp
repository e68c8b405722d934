// SPDX-License-Identifier: GPL-3.0-or-later
#include "userplanner.h"

#include "clusterstore.h"
#include "userdrift.h"
#include "usermanifests.h"

#include <QDateTime>

#include <nlohmann/json.hpp>

namespace gpudesk {

namespace {

using json = nlohmann::json;

const QString kRbac = QStringLiteral("rbac.authorization.k8s.io");
const QString kDisabled = QStringLiteral("gpudesk.io/disabled");

std::string str(const QString &s)
{
    return s.toStdString();
}

QByteArray bytes(const json &j)
{
    return QByteArray::fromStdString(j.dump());
}

// "requests.nvidia.com/gpu 16 → 8 (6 in use)".
QString change(const QString &resource, std::optional<qint64> from, std::optional<qint64> to,
               qint64 used)
{
    auto f = [&](std::optional<qint64> v) {
        return v ? quantity::format(resource, *v) : QStringLiteral("–");
    };
    return UserPlanner::tr("%1 %2 → %3 (%4 in use)")
        .arg(resource, f(from), f(to), quantity::format(resource, used));
}

const QuotaObject *gpudeskQuota(const UserObjects &u)
{
    for (const QuotaObject &q : u.quotas)
        if (q.quota.name == UserDriftCheck::quotaName())
            return &q;
    return u.quotas.isEmpty() ? nullptr : &u.quotas.first();
}

} // namespace

UserPlanner::UserPlanner(OperationPlanner base) : m_base(std::move(base)) {}

PlanStep UserPlanner::createStep(const ApiKind &k, const QString &ns, const QString &name,
                                 const QByteArray &body) const
{
    PlanStep s;
    s.kind = PlanStep::Kind::Create;
    s.target = StepTarget::toCreate(k, ns, name);
    s.createIn = k.collection(ns);
    s.body = body;
    s.detail = QStringLiteral("POST %1 %2").arg(s.createIn, QString::fromUtf8(body));
    return s;
}

OperationPlan UserPlanner::create(const QList<UserSpec> &users) const
{
    const ClusterStore &store = *m_base.context().store;
    OperationPlan plan =
        m_base.plan(QStringLiteral("user.create"),
                    users.size() == 1 ? tr("Create user %1").arg(users.first().name)
                                      : tr("Create %n users", nullptr, int(users.size())));
    int unit = 0;
    for (const UserSpec &u : users) {
        if (const QStringList errors = UserRules::errors(u, store); !errors.isEmpty()) {
            plan.notes
                << (u.line > 0
                        ? tr("line %1 (%2) not created: %3")
                              .arg(u.line)
                              .arg(u.name, errors.join(QStringLiteral(" ")))
                        : tr("%1 not created: %2").arg(u.name, errors.join(QStringLiteral(" "))));
            continue;
        }
        const QString ns = u.namespaceName();
        const QString why = u.line > 0 ? tr("user %1, line %2 of the file").arg(u.name).arg(u.line)
                                       : tr("new user %1").arg(u.name);
        QList<PlanStep> steps;
        PlanStep s =
            createStep(m_base.kind(Resource::Namespaces), {}, ns, UserManifests::namespaceJson(u));
        s.description = u.vc.isEmpty()
                            ? tr("Create namespace %1 for %2").arg(ns, u.name)
                            : tr("Create namespace %1 for %2, in VC %3").arg(ns, u.name, u.vc);
        steps << s;
        s = createStep(ApiKind::serviceAccounts(), ns, u.name,
                       UserManifests::serviceAccountJson(ns, u.name));
        s.description =
            tr("Create ServiceAccount %1 (the identity of the kubeconfigs handed out)").arg(u.name);
        steps << s;
        s = createStep(ApiKind::roleBindings(), ns, UserDriftCheck::roleBindingName(),
                       UserManifests::roleBindingJson(ns, u.name, u.clusterRole));
        s.description = tr("Bind %1 and its ServiceAccount to the ClusterRole %2 in %3")
                            .arg(u.name, u.clusterRole, ns);
        steps << s;
        QStringList limits;
        for (auto it = u.quota.cbegin(); it != u.quota.cend(); ++it)
            limits << it.key() + u'=' + quantity::format(it.key(), it.value());
        s = createStep(m_base.kind(Resource::ResourceQuotas), ns, UserDriftCheck::quotaName(),
                       UserManifests::quotaJson(ns, u.quota));
        s.description = tr("Limit %1 to %2").arg(ns, limits.join(QStringLiteral(", ")));
        steps << s;
        if (!u.defaultRequest.isEmpty()) {
            s = createStep(ApiKind::limitRanges(), ns, UserDriftCheck::limitRangeName(),
                           UserManifests::limitRangeJson(ns, u.defaultRequest, u.defaultLimit));
            s.description = tr("Give containers without requests default requests (so that the "
                               "quota does not refuse them)");
            steps << s;
        }
        if (!u.viewRole.isEmpty()) {
            s = createStep(ApiKind::clusterRoleBindings(), {},
                           UserDriftCheck::viewBindingName(u.name),
                           UserManifests::viewBindingJson(ns, u.name, u.viewRole));
            s.description =
                tr("Let %1 read cluster-wide (ClusterRole %2: nodes, VCs)").arg(u.name, u.viewRole);
            steps << s;
        }
        // In order, each after the one before; the namespaced ones cannot be asked of the server
        // before their namespace exists.
        const int first = int(plan.steps.size());
        for (int i = 0; i < steps.size(); ++i) {
            PlanStep &step = steps[i];
            step.unit = unit;
            step.why = why;
            step.target.user = u.name;
            if (i > 0)
                step.after = {first + i - 1};
            if (!step.target.ns.isEmpty()) {
                step.dryRun = PlanStep::DryRun::Deferred;
                step.dryRunMessage = tr("Checked when it runs: its namespace is made first");
            }
            plan.steps << step;
        }
        ++unit;
    }
    if (plan.steps.isEmpty())
        plan.refusals << tr("No user can be created as planned.");
    else
        plan.notes << tr("A user whose step fails is rolled back: what was made for them is "
                         "deleted again; the other users are not affected.");
    return plan;
}

void UserPlanner::addQuotaPatch(OperationPlan &plan, const QuotaObject &quota,
                                const ResourceAmounts &hard, bool warnBelowUse) const
{
    const ResourceQuotaInfo &q = quota.quota;
    PlanStep s;
    s.kind = PlanStep::Kind::Patch;
    s.patchType = QStringLiteral("json");
    s.target = m_base.target(Resource::ResourceQuotas, q.ns, q.name, q.uid);
    // The limits are replaced only if the spec is still the one planned on: an edit made
    // meanwhile (by hand, by another admin) makes the server refuse this one.
    json ops = json::array();
    ops.push_back({{"op", "test"},
                   {"path", "/spec"},
                   {"value", json::parse(q.spec.toStdString(), nullptr, false)}});
    ops.push_back(
        {{"op", "replace"}, {"path", "/spec/hard"}, {"value", UserManifests::resourceList(hard)}});
    const std::string annotation = str(UserDriftCheck::hardAnnotation(hard));
    if (q.annotated)
        ops.push_back({{"op", "add"},
                       {"path", "/metadata/annotations/gpudesk.io~1hard"},
                       {"value", annotation}});
    else
        ops.push_back({{"op", "add"},
                       {"path", "/metadata/annotations"},
                       {"value", {{"gpudesk.io/hard", annotation}}}});
    s.body = bytes(ops);
    s.expectPointer = QStringLiteral("/spec/hard");
    s.expectValue = bytes(UserManifests::resourceList(hard));
    s.eventReason = QStringLiteral("GpudeskQuotaChanged");
    QStringList changes;
    QSet<QString> keys;
    for (auto it = hard.cbegin(); it != hard.cend(); ++it)
        keys.insert(it.key());
    for (auto it = q.hard.cbegin(); it != q.hard.cend(); ++it)
        keys.insert(it.key());
    QStringList sorted(keys.cbegin(), keys.cend());
    sorted.sort();
    for (const QString &r : std::as_const(sorted)) {
        const auto from =
            q.hard.contains(r) ? std::optional<qint64>(q.hard.value(r)) : std::nullopt;
        const auto to = hard.contains(r) ? std::optional<qint64>(hard.value(r)) : std::nullopt;
        const qint64 used = q.used.value(r);
        if (from != to)
            changes << change(r, from, to, used);
        if (warnBelowUse && to && used > *to)
            plan.warnings << tr("%1: the new limit %2 is below the %3 in use now. What runs keeps "
                                "running; new pods are refused until use falls below it.")
                                 .arg(r, quantity::format(r, *to), quantity::format(r, used));
    }
    s.description =
        changes.isEmpty()
            ? tr("Set the quota of %1 (no limit changes)").arg(q.ns)
            : tr("Set the quota of %1: %2").arg(q.ns, changes.join(QStringLiteral("; ")));
    s.detail = QStringLiteral("PATCH %1 (JSON patch, tested against the spec as planned) %2")
                   .arg(s.target.apiPath, QString::fromUtf8(s.body));
    plan.steps << s;
}

OperationPlan UserPlanner::editQuota(const QString &ns, const ResourceAmounts &hard) const
{
    const ClusterStore &store = *m_base.context().store;
    const QString user = store.userOf(ns);
    OperationPlan plan =
        m_base.plan(QStringLiteral("user.quota"), tr("Change the quota of %1").arg(user));
    const QList<const ResourceQuotaInfo *> quotas = store.quotasIn(ns);
    const ResourceQuotaInfo *target = nullptr;
    for (const ResourceQuotaInfo *q : quotas)
        if (q->name == UserDriftCheck::quotaName() || !target)
            target = q;
    if (!target) {
        PlanStep s = createStep(m_base.kind(Resource::ResourceQuotas), ns,
                                UserDriftCheck::quotaName(), UserManifests::quotaJson(ns, hard));
        s.target.user = user;
        s.description = tr("Create the quota of %1 (it has none)").arg(ns);
        plan.steps << s;
        return plan;
    }
    QuotaObject q{*target, {}, {}};
    addQuotaPatch(plan, q, hard);
    if (quotas.size() > 1)
        plan.notes << tr("%1 has %2 ResourceQuotas: only %3 is changed; the others still apply.")
                          .arg(ns)
                          .arg(quotas.size())
                          .arg(target->name);
    return plan;
}

PlanStep UserPlanner::namespacePatch(const NamespaceObject &ns, const QByteArray &patch) const
{
    PlanStep s;
    s.kind = PlanStep::Kind::Patch;
    s.patchType = QStringLiteral("merge");
    s.target = m_base.target(Resource::Namespaces, {}, ns.name, ns.uid);
    s.target.user = ns.label(QStringLiteral("gpudesk.io/user"));
    s.body = patch;
    s.detail = QStringLiteral("PATCH %1 %2").arg(s.target.apiPath, QString::fromUtf8(patch));
    return s;
}

OperationPlan UserPlanner::moveToVc(const QString &ns, const QString &vc) const
{
    const ClusterStore &store = *m_base.context().store;
    const NamespaceInfo *n = store.namespaceInfo(ns);
    OperationPlan plan =
        m_base.plan(QStringLiteral("user.move"), tr("Move %1 to VC %2").arg(store.userOf(ns), vc));
    if (!n) {
        plan.refusals << tr("The namespace %1 is gone.").arg(ns);
        return plan;
    }
    const QueueInfo *q = store.queue(vc);
    if (!store.queues().isEmpty() && !q) {
        plan.refusals << tr("The VC %1 does not exist.").arg(vc);
        return plan;
    }
    if (n->vc == vc) {
        plan.refusals << tr("%1 is in VC %2 already.").arg(n->user, vc);
        return plan;
    }
    NamespaceObject obj{
        n->uid, n->name, n->phase, {{QStringLiteral("gpudesk.io/user"), n->user}}, {}};
    PlanStep s =
        namespacePatch(obj, bytes(json{{"metadata", {{"labels", {{"gpudesk.io/vc", str(vc)}}}}}}));
    s.description =
        tr("Label %1 gpudesk.io/vc=%2 (was %3)").arg(ns, vc, n->vc.isEmpty() ? tr("none") : n->vc);
    s.expectPointer = QStringLiteral("/metadata/labels/gpudesk.io~1vc");
    s.expectValue = bytes(json(str(vc)));
    s.eventReason = QStringLiteral("GpudeskMovedVc");
    plan.steps << s;
    int jobs = 0;
    for (const QString &key : store.workloadKeysIn(ns))
        if (const JobInfo *j = store.job(key); j && j->vc != vc)
            ++jobs;
    if (jobs > 0)
        plan.notes << tr("%n job(s) already submitted stay in the VC they name until they end "
                         "(Volcano does not move a job between queues); new jobs go to %1.",
                         nullptr, jobs)
                          .arg(vc);
    if (q && q->state != QLatin1String("Open") && !q->state.isEmpty())
        plan.warnings << tr("%1 is %2: it takes no new jobs until it is opened.").arg(vc, q->state);
    return plan;
}

OperationPlan UserPlanner::disable(const UserObjects &u) const
{
    OperationPlan plan = m_base.plan(QStringLiteral("user.disable"), tr("Disable %1").arg(u.user));
    if (!u.namespaceObject) {
        plan.refusals << tr("The namespace %1 is gone.").arg(u.ns);
        return plan;
    }
    const NamespaceObject &ns = *u.namespaceObject;
    if (!ns.annotation(kDisabled).isEmpty()) {
        plan.refusals << tr("%1 is disabled already.").arg(u.user);
        return plan;
    }
    const QuotaObject *quota = gpudeskQuota(u);
    const RoleBindingInfo *rb = u.roleBinding(UserDriftCheck::roleBindingName());
    // What is taken away, kept on the namespace itself so that enabling needs nothing else.
    json saved{{"by", str(m_base.context().who)},
               {"at", str(QDateTime::currentDateTimeUtc().toString(Qt::ISODate))}};
    if (quota)
        saved["quota"] = {{"name", str(quota->quota.name)},
                          {"hard", UserManifests::resourceList(quota->quota.hard)}};
    if (rb) {
        json subjects = json::array();
        for (const Subject &sub : rb->subjects) {
            json j{{"kind", str(sub.kind)}, {"name", str(sub.name)}};
            if (!sub.ns.isEmpty())
                j["namespace"] = str(sub.ns);
            if (sub.kind != QLatin1String("ServiceAccount"))
                j["apiGroup"] = str(kRbac);
            subjects.push_back(j);
        }
        saved["roleBinding"] = {
            {"name", str(rb->name)},
            {"roleRef",
             {{"apiGroup", str(kRbac)}, {"kind", str(rb->roleKind)}, {"name", str(rb->roleName)}}},
            {"subjects", subjects}};
    }
    PlanStep s = namespacePatch(
        ns, bytes(json{{"metadata", {{"annotations", {{str(kDisabled), saved.dump()}}}}}}));
    s.description =
        tr("Record on %1 what disabling takes away (to give it back on enable)").arg(u.ns);
    s.eventReason = QStringLiteral("GpudeskDisabled");
    s.why = tr("disabled from the Users page");
    plan.steps << s;
    if (quota) {
        ResourceAmounts zero;
        for (auto it = quota->quota.hard.cbegin(); it != quota->quota.hard.cend(); ++it)
            zero.insert(it.key(), 0);
        zero.insert(QStringLiteral("pods"), 0);
        addQuotaPatch(plan, *quota, zero, false);
        plan.steps.last().after = {0};
        plan.steps.last().description =
            tr("Set every limit of %1's quota to 0: no new pod starts").arg(u.user);
    } else {
        plan.warnings
            << tr("%1 has no quota: nothing limits new pods but the missing rights.").arg(u.ns);
    }
    if (rb) {
        PlanStep d;
        d.kind = PlanStep::Kind::Delete;
        d.target = StepTarget::existing(ApiKind::roleBindings(), u.ns, rb->name, rb->uid);
        d.target.user = u.user;
        d.description =
            tr("Delete RoleBinding %1: %2 and their kubeconfigs lose their rights in %3")
                .arg(rb->name, u.user, u.ns);
        d.detail =
            QStringLiteral("DELETE %1 (preconditions.uid=%2)").arg(d.target.apiPath, rb->uid);
        d.after = {0};
        plan.steps << d;
    }
    const ClusterStore &store = *m_base.context().store;
    int pods = 0, gpus = 0;
    for (const PodInfo *p : store.podsIn(u.ns))
        if (!p->finished()) {
            ++pods;
            gpus += p->nodeName.isEmpty() ? 0 : p->gpuRequest;
        }
    if (pods > 0)
        plan.warnings << tr("%n pod(s) of the user keep running (%1 GPUs): stop them from the "
                            "Workloads page if they must stop now.",
                            nullptr, pods)
                             .arg(gpus);
    return plan;
}

OperationPlan UserPlanner::enable(const UserObjects &u) const
{
    OperationPlan plan = m_base.plan(QStringLiteral("user.enable"), tr("Enable %1").arg(u.user));
    if (!u.namespaceObject) {
        plan.refusals << tr("The namespace %1 is gone.").arg(u.ns);
        return plan;
    }
    const NamespaceObject &ns = *u.namespaceObject;
    const json saved = json::parse(str(ns.annotation(kDisabled)), nullptr, false);
    if (!saved.is_object()) {
        plan.refusals
            << tr("%1 is not disabled by gpudesk (no record on its namespace).").arg(u.user);
        return plan;
    }
    QList<int> done;
    if (saved.contains("quota") && saved["quota"].is_object()) {
        const QuotaObject *quota = gpudeskQuota(u);
        ResourceAmounts hard;
        const json &h = saved["quota"].value("hard", json::object());
        for (auto it = h.begin(); it != h.end(); ++it)
            if (it.value().is_string())
                if (const auto v =
                        quantity::parseMilli(QString::fromStdString(it.value().get<std::string>())))
                    hard.insert(QString::fromStdString(it.key()), *v);
        if (quota) {
            addQuotaPatch(plan, *quota, hard);
            plan.steps.last().description = tr("Give %1's quota its limits back").arg(u.user);
        } else {
            PlanStep s =
                createStep(m_base.kind(Resource::ResourceQuotas), u.ns, UserDriftCheck::quotaName(),
                           UserManifests::quotaJson(u.ns, hard));
            s.description = tr("Make %1's quota again with its limits").arg(u.user);
            plan.steps << s;
        }
        done << int(plan.steps.size()) - 1;
    }
    if (saved.contains("roleBinding") && saved["roleBinding"].is_object() &&
        !u.roleBinding(UserDriftCheck::roleBindingName())) {
        json rb = saved["roleBinding"];
        json object{{"apiVersion", "rbac.authorization.k8s.io/v1"},
                    {"kind", "RoleBinding"},
                    {"metadata",
                     {{"name", rb.value("name", str(UserDriftCheck::roleBindingName()))},
                      {"namespace", str(u.ns)},
                      {"labels", {{"gpudesk.io/user", str(u.user)}}}}},
                    {"roleRef", rb.value("roleRef", json::object())},
                    {"subjects", rb.value("subjects", json::array())}};
        PlanStep s =
            createStep(ApiKind::roleBindings(), u.ns,
                       QString::fromStdString(rb.value("name", std::string())), bytes(object));
        s.description =
            tr("Bind %1 to the ClusterRole %2 again")
                .arg(u.user, QString::fromStdString(
                                 rb.value("roleRef", json::object()).value("name", std::string())));
        plan.steps << s;
        done << int(plan.steps.size()) - 1;
    }
    PlanStep s = namespacePatch(
        ns, bytes(json{{"metadata", {{"annotations", {{str(kDisabled), nullptr}}}}}}));
    s.description = tr("Remove the record of the disabling from %1").arg(u.ns);
    s.eventReason = QStringLiteral("GpudeskEnabled");
    s.after = done;
    plan.steps << s;
    return plan;
}

OperationPlan UserPlanner::remove(const UserObjects &u) const
{
    const ClusterStore &store = *m_base.context().store;
    OperationPlan plan = m_base.plan(QStringLiteral("user.delete"),
                                     tr("Delete user %1 and everything in %2").arg(u.user, u.ns));
    if (!u.namespaceObject) {
        plan.refusals << tr("The namespace %1 is gone.").arg(u.ns);
        return plan;
    }
    QList<const PodInfo *> pods;
    int gpus = 0, devEnvs = 0;
    for (const PodInfo *p : store.podsIn(u.ns)) {
        if (p->finished())
            continue;
        pods << p;
        gpus += p->nodeName.isEmpty() ? 0 : p->gpuRequest;
        devEnvs += p->devEnv.isEmpty() ? 0 : 1;
    }
    QStringList jobs;
    for (const QString &key : store.workloadKeysIn(u.ns))
        if (const JobInfo *j = store.job(key))
            jobs << j->name + QStringLiteral(" (") + j->status + u')';
    jobs.sort();
    PlanStep s;
    s.kind = PlanStep::Kind::Delete;
    s.target = m_base.target(Resource::Namespaces, {}, u.ns, u.namespaceObject->uid);
    s.target.user = u.user;
    s.target.gpus = gpus;
    s.target.holds = m_base.holdsOf(pods);
    s.propagationPolicy = QStringLiteral("Background");
    s.description = tr("Delete namespace %1 and everything in it").arg(u.ns);
    s.detail =
        QStringLiteral("DELETE %1 (preconditions.uid=%2)").arg(s.target.apiPath, s.target.uid);
    s.why = tr("deleted from the Users page");
    plan.steps << s;
    for (const RoleBindingInfo &crb : u.clusterRoleBindings) {
        if (crb.name != UserDriftCheck::viewBindingName(u.user)) {
            plan.notes
                << tr("ClusterRoleBinding %1 also names %2: left as it is.").arg(crb.name, u.user);
            continue;
        }
        PlanStep d;
        d.kind = PlanStep::Kind::Delete;
        d.target = StepTarget::existing(ApiKind::clusterRoleBindings(), {}, crb.name, crb.uid);
        d.target.user = u.user;
        d.description = tr("Delete ClusterRoleBinding %1 (cluster-wide read)").arg(crb.name);
        d.detail =
            QStringLiteral("DELETE %1 (preconditions.uid=%2)").arg(d.target.apiPath, crb.uid);
        plan.steps << d;
    }
    // What goes with the namespace, all of it, before anyone types the name.
    plan.warnings << tr("Goes with it: %n pod(s) holding %1 GPUs, %2 dev environment(s).", nullptr,
                        int(pods.size()))
                         .arg(gpus)
                         .arg(devEnvs);
    if (!jobs.isEmpty())
        plan.warnings << tr("Jobs: %1").arg(jobs.join(QStringLiteral(", ")));
    if (!u.pvcs.isEmpty()) {
        QStringList volumes;
        qint64 total = 0;
        for (const PvcInfo &p : u.pvcs) {
            volumes << QStringLiteral("%1 (%2)").arg(
                p.name, quantity::format(QStringLiteral("storage"), p.requestBytes * 1000));
            total += p.requestBytes;
        }
        plan.warnings << tr("Volumes and their data (%1 in all): %2. Whether the data itself is "
                            "deleted depends on each volume's reclaim policy.")
                             .arg(quantity::format(QStringLiteral("storage"), total * 1000),
                                  volumes.join(QStringLiteral(", ")));
    }
    if (!u.tokenSecrets.isEmpty())
        plan.warnings << tr("%n long-lived token(s) stop working.", nullptr,
                            int(u.tokenSecrets.size()));
    for (const QString &e : u.unreadable)
        plan.notes << tr("Not listed (could not be read): %1").arg(e);
    plan.typedWord = u.user;
    return plan;
}

OperationPlan UserPlanner::revoke(const UserObjects &u) const
{
    OperationPlan plan =
        m_base.plan(QStringLiteral("user.revoke"), tr("Revoke every token of %1").arg(u.user));
    const ServiceAccountInfo *sa = u.serviceAccount(u.user);
    if (!sa) {
        plan.refusals << tr("%1 has no ServiceAccount %2: no token was handed out through gpudesk.")
                             .arg(u.ns, u.user);
        return plan;
    }
    PlanStep s;
    s.kind = PlanStep::Kind::RotateServiceAccount;
    s.target = StepTarget::existing(ApiKind::serviceAccounts(), u.ns, sa->name, sa->uid);
    s.target.user = u.user;
    s.body = UserManifests::serviceAccountJson(u.ns, sa->name);
    s.description = tr("Delete and make again the ServiceAccount %1: every token issued for it "
                       "stops working")
                        .arg(sa->name);
    s.detail =
        tr("POST %1/token (a witness token), DELETE %1 (preconditions.uid=%2), POST %3, then "
           "the witness is checked to be refused (401)")
            .arg(s.target.apiPath, sa->uid, ApiKind::serviceAccounts().collection(u.ns));
    s.eventReason = QStringLiteral("GpudeskRevokedTokens");
    s.why = tr("tokens revoked from the Users page");
    plan.steps << s;
    QStringList secrets;
    for (const TokenSecretInfo &t : u.tokenSecrets)
        if (t.serviceAccount == sa->name)
            secrets << t.name;
    if (!secrets.isEmpty())
        plan.notes << tr("The long-lived token Secret(s) %1 go with it (the token controller "
                         "deletes them).")
                          .arg(secrets.join(QStringLiteral(", ")));
    plan.notes << tr("Tools and kubeconfigs of %1 stop working at once; hand out a new kubeconfig "
                     "afterwards if they should go on.")
                      .arg(u.user);
    return plan;
}

OperationPlan UserPlanner::repair(const UserObjects &u) const
{
    OperationPlan plan = m_base.plan(QStringLiteral("user.repair"), tr("Repair %1").arg(u.user));
    for (const UserDrift &d : UserDriftCheck::check(u)) {
        switch (d.kind) {
        case UserDrift::Kind::MissingServiceAccount: {
            PlanStep s = createStep(ApiKind::serviceAccounts(), u.ns, u.user,
                                    UserManifests::serviceAccountJson(u.ns, u.user));
            s.description = d.repair;
            plan.steps << s;
            break;
        }
        case UserDrift::Kind::MissingRoleBinding: {
            PlanStep s =
                createStep(ApiKind::roleBindings(), u.ns, UserDriftCheck::roleBindingName(),
                           UserManifests::roleBindingJson(u.ns, u.user, QStringLiteral("edit")));
            s.description = d.repair;
            plan.steps << s;
            break;
        }
        case UserDrift::Kind::RoleBindingSubjects: {
            const RoleBindingInfo *rb = u.roleBinding(UserDriftCheck::roleBindingName());
            json subjects = json::array();
            for (const Subject &sub : rb->subjects) {
                json j{{"kind", str(sub.kind)}, {"name", str(sub.name)}};
                if (!sub.ns.isEmpty())
                    j["namespace"] = str(sub.ns);
                if (sub.kind != QLatin1String("ServiceAccount"))
                    j["apiGroup"] = str(kRbac);
                subjects.push_back(j);
            }
            for (const json &want : UserManifests::subjectsOf(u.ns, u.user)) {
                const Subject w{QString::fromStdString(want["kind"].get<std::string>()),
                                QString::fromStdString(want["name"].get<std::string>()),
                                QString::fromStdString(want.value("namespace", std::string()))};
                if (!rb->subjects.contains(w))
                    subjects.push_back(want);
            }
            PlanStep s;
            s.kind = PlanStep::Kind::Patch;
            s.patchType = QStringLiteral("merge");
            s.target = StepTarget::existing(ApiKind::roleBindings(), u.ns, rb->name, rb->uid);
            s.target.user = u.user;
            s.body = bytes(json{{"subjects", subjects}});
            s.description = d.repair;
            s.detail =
                QStringLiteral("PATCH %1 %2").arg(s.target.apiPath, QString::fromUtf8(s.body));
            plan.steps << s;
            break;
        }
        case UserDrift::Kind::MissingQuota: {
            PlanStep s =
                createStep(m_base.kind(Resource::ResourceQuotas), u.ns, UserDriftCheck::quotaName(),
                           UserManifests::quotaJson(u.ns, UserSpec::defaults().quota));
            s.description = d.repair;
            plan.steps << s;
            break;
        }
        case UserDrift::Kind::QuotaEdited:
            for (const QuotaObject &q : u.quotas)
                if (q.quota.name == UserDriftCheck::quotaName())
                    if (const auto applied = UserDriftCheck::appliedHard(q)) {
                        addQuotaPatch(plan, q, *applied);
                        plan.steps.last().description =
                            d.repair + u' ' + plan.steps.last().description;
                    }
            break;
        case UserDrift::Kind::MissingLimitRange: {
            const UserSpec defaults = UserSpec::defaults();
            PlanStep s = createStep(ApiKind::limitRanges(), u.ns, UserDriftCheck::limitRangeName(),
                                    UserManifests::limitRangeJson(u.ns, defaults.defaultRequest,
                                                                  defaults.defaultLimit));
            s.description = d.repair;
            plan.steps << s;
            break;
        }
        case UserDrift::Kind::MissingVcLabel:
            plan.notes << tr("%1 names no VC: choose one with Move to VC.").arg(u.ns);
            break;
        }
    }
    for (PlanStep &s : plan.steps) {
        s.target.user = u.user;
        s.why = tr("repair of %1").arg(u.user);
    }
    if (plan.steps.isEmpty() && plan.notes.isEmpty())
        plan.refusals
            << tr("Nothing to repair: %1's objects are as gpudesk made them.").arg(u.user);
    return plan;
}

} // namespace gpudesk
