// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvplanner.h"

#include "clusterstore.h"
#include "devenvmanifests.h"
#include "devenvsmodel.h"

namespace gpudesk {

DevEnvPlanner::DevEnvPlanner(OperationPlanner base, const DevEnvsModel *model)
    : m_base(std::move(base)), m_model(model)
{}

PlanStep DevEnvPlanner::createPod(const QString &ns, const QString &env, const QString &name,
                                  const QByteArray &body) const
{
    PlanStep s;
    s.kind = PlanStep::Kind::Create;
    const ApiKind pods = m_base.kind(Resource::Pods);
    s.target = StepTarget::toCreate(pods, ns, name);
    s.target.user = m_base.context().store->userOf(ns);
    s.createIn = pods.collection(ns);
    s.body = body;
    s.detail = QStringLiteral("POST %1 %2").arg(s.createIn, QString::fromUtf8(body));
    s.why = tr("dev environment %1").arg(env);
    return s;
}

OperationPlan DevEnvPlanner::create(const DevEnvSpec &spec) const
{
    OperationPlan plan = m_base.plan(QStringLiteral("devenv.create"),
                                     tr("Create dev environment %1").arg(spec.name));
    plan.subject = DevEnvsModel::keyOf(spec.ns, spec.name);
    plan.refusals << DevEnvRules::errors(spec, *m_base.context().store);
    if (m_model->rowOf(DevEnvsModel::keyOf(spec.ns, spec.name)) >= 0)
        plan.refusals << tr("%1 already has an environment named %2.").arg(spec.ns, spec.name);
    if (!plan.refusals.isEmpty())
        return plan;
    const QString suffix = DevEnvManifests::randomSuffix();
    const QByteArray pod = DevEnvManifests::podJson(spec, suffix);
    PlanStep claim;
    claim.kind = PlanStep::Kind::Create;
    claim.target =
        StepTarget::toCreate(ApiKind::persistentVolumeClaims(), spec.ns, spec.homeClaim());
    claim.createIn = ApiKind::persistentVolumeClaims().collection(spec.ns);
    claim.body = DevEnvManifests::homeClaimJson(spec, pod);
    claim.detail = QStringLiteral("POST %1 %2").arg(claim.createIn, QString::fromUtf8(claim.body));
    claim.description = tr("Create the home volume %1 (%2 at %3): it stays when the environment "
                           "is stopped")
                            .arg(spec.homeClaim(), spec.homeSize, spec.homePath);
    claim.why = tr("dev environment %1").arg(spec.name);
    claim.unit = 0;
    plan.steps << claim;
    PlanStep s = createPod(spec.ns, spec.name, spec.name + u'-' + suffix, pod);
    QStringList what;
    what << (spec.gpus > 0 ? tr("%n GPU(s)", nullptr, spec.gpus) : tr("no GPU"));
    what << tr("%1 CPU").arg(spec.cpu) << tr("%1 memory").arg(spec.memory);
    if (!spec.shm.isEmpty())
        what << tr("%1 /dev/shm").arg(spec.shm);
    s.description = tr("Start %1 from %2 with %3%4")
                        .arg(s.target.name, spec.image, what.join(QStringLiteral(", ")),
                             spec.vc.isEmpty() ? QString() : tr(", in VC %1").arg(spec.vc));
    s.target.gpus = spec.gpus;
    s.unit = 0;
    plan.steps << s;
    if (spec.shm.isEmpty())
        plan.warnings << tr("No shared memory size: /dev/shm stays at the runtime's 64 MiB, and "
                            "PyTorch DataLoader workers crash with a bus error.");
    return plan;
}

OperationPlan DevEnvPlanner::stop(const QString &key) const
{
    const PodInfo *pod = m_base.context().store->devEnvs().currentPod(key);
    const QString env = key.section(u'/', 1);
    OperationPlan plan =
        m_base.plan(QStringLiteral("devenv.stop"), tr("Stop dev environment %1").arg(env));
    plan.subject = key;
    if (!pod || pod->finished() || pod->deleting) {
        plan.refusals << tr("%1 is not running.").arg(env);
        return plan;
    }
    const OperationPlan stop =
        m_base.stopWorkloads({ClusterStore::workloadKey(*pod)}, tr("stopped by its owner"));
    plan.steps = stop.steps;
    plan.notes = stop.notes;
    for (PlanStep &s : plan.steps)
        s.why = tr("dev environment %1").arg(env);
    if (const DevEnvVolume *v = m_model->volume(key))
        plan.notes << tr("Its home volume %1 (%2) is kept: Start makes the environment again "
                         "with its files.")
                          .arg(v->claim, v->size);
    else
        plan.warnings << tr("%1 has no home volume gpudesk knows of: what is not on a volume is "
                            "lost, and gpudesk cannot start it again.")
                             .arg(env);
    return plan;
}

OperationPlan DevEnvPlanner::start(const QString &key) const
{
    const QString env = key.section(u'/', 1);
    OperationPlan plan =
        m_base.plan(QStringLiteral("devenv.start"), tr("Start dev environment %1").arg(env));
    plan.subject = key;
    const PodInfo *pod = m_base.context().store->devEnvs().currentPod(key);
    if (pod && !pod->finished() && !pod->deleting) {
        plan.refusals << tr("%1 is running already.").arg(env);
        return plan;
    }
    const DevEnvVolume *v = m_model->volume(key);
    const QString suffix = DevEnvManifests::randomSuffix();
    const QByteArray body = v ? DevEnvManifests::podFromVolume(*v, suffix) : QByteArray();
    if (body.isEmpty()) {
        plan.refusals
            << tr("%1 keeps no manifest gpudesk made: it cannot be started from here.").arg(env);
        return plan;
    }
    PlanStep s = createPod(v->ns, env, env + u'-' + suffix, body);
    s.target.gpus = v->gpus;
    s.description =
        tr("Start %1 again from %2, with its volume %3").arg(s.target.name, v->image, v->claim);
    plan.steps << s;
    return plan;
}

OperationPlan DevEnvPlanner::remove(const QString &key) const
{
    const QString ns = key.section(u'/', 0, 0);
    const QString env = key.section(u'/', 1);
    OperationPlan plan =
        m_base.plan(QStringLiteral("devenv.delete"), tr("Delete dev environment %1").arg(env));
    plan.subject = key;
    const PodInfo *pod = m_base.context().store->devEnvs().currentPod(key);
    if (pod && !pod->finished() && !pod->deleting) {
        const OperationPlan del =
            m_base.deleteWorkloads({ClusterStore::workloadKey(*pod)}, tr("deleted by its owner"));
        plan.steps << del.steps;
        plan.notes << del.notes;
    }
    if (const DevEnvVolume *v = m_model->volume(key)) {
        PlanStep s;
        s.kind = PlanStep::Kind::Delete;
        s.target = StepTarget::existing(ApiKind::persistentVolumeClaims(), ns, v->claim, v->uid);
        s.description =
            tr("Delete the home volume %1 (%2): its files are lost").arg(v->claim, v->size);
        s.detail = QStringLiteral("DELETE %1 (preconditions.uid=%2)").arg(s.target.apiPath, v->uid);
        s.why = tr("dev environment %1").arg(env);
        plan.steps << s;
        plan.warnings << tr("Everything in %1 (%2) is lost.").arg(v->claim, v->size);
    }
    if (plan.steps.isEmpty())
        plan.refusals << tr("Nothing is left of %1.").arg(env);
    plan.typedWord = env;
    return plan;
}

} // namespace gpudesk
