// SPDX-License-Identifier: GPL-3.0-or-later
#include "operationjson.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

namespace gpudesk::json {

QString remedyId(Remedy r)
{
    switch (r) {
    case Remedy::None:
        return QStringLiteral("none");
    case Remedy::KillProcesses:
        return QStringLiteral("kill-processes");
    case Remedy::DeletePod:
        return QStringLiteral("delete-pod");
    case Remedy::ForceDeletePod:
        return QStringLiteral("force-delete-pod");
    case Remedy::KillThenForceDelete:
        return QStringLiteral("kill-then-force-delete");
    case Remedy::StopWorkload:
        return QStringLiteral("stop-workload");
    case Remedy::Drain:
        break;
    }
    return QStringLiteral("drain");
}

QString stepKindId(PlanStep::Kind k)
{
    switch (k) {
    case PlanStep::Kind::Delete:
        return QStringLiteral("delete");
    case PlanStep::Kind::ForceDelete:
        return QStringLiteral("force-delete");
    case PlanStep::Kind::Evict:
        return QStringLiteral("evict");
    case PlanStep::Kind::Patch:
        return QStringLiteral("patch");
    case PlanStep::Kind::Update:
        return QStringLiteral("update");
    case PlanStep::Kind::Create:
        return QStringLiteral("create");
    case PlanStep::Kind::RotateServiceAccount:
        return QStringLiteral("rotate-service-account");
    case PlanStep::Kind::DeleteImage:
        return QStringLiteral("delete-image");
    case PlanStep::Kind::CopyImage:
        return QStringLiteral("copy-image");
    case PlanStep::Kind::SaveImage:
        return QStringLiteral("save-image");
    case PlanStep::Kind::CollectGarbage:
        return QStringLiteral("collect-garbage");
    case PlanStep::Kind::RemoveNasPath:
        return QStringLiteral("remove-nas-path");
    case PlanStep::Kind::MoveNasPath:
        return QStringLiteral("move-nas-path");
    case PlanStep::Kind::KillProcess:
        break;
    }
    return QStringLiteral("kill-process");
}

QString dryRunId(PlanStep::DryRun d)
{
    switch (d) {
    case PlanStep::DryRun::NotApplicable:
        return QStringLiteral("not-applicable");
    case PlanStep::DryRun::NotAsked:
        return QStringLiteral("not-asked");
    case PlanStep::DryRun::Accepted:
        return QStringLiteral("accepted");
    case PlanStep::DryRun::Deferred:
        return QStringLiteral("deferred");
    case PlanStep::DryRun::Refused:
        break;
    }
    return QStringLiteral("refused");
}

QString guardId(PlanStep::Guard g)
{
    switch (g) {
    case PlanStep::Guard::None:
        return QStringLiteral("none");
    case PlanStep::Guard::StillTerminating:
        return QStringLiteral("still-terminating");
    case PlanStep::Guard::StillIdle:
        return QStringLiteral("still-idle");
    case PlanStep::Guard::NodeStillNotReady:
        return QStringLiteral("node-still-not-ready");
    case PlanStep::Guard::StillTerminatingOnNotReadyNode:
        return QStringLiteral("still-terminating-on-not-ready-node");
    case PlanStep::Guard::StillTerminatingContainersGone:
        return QStringLiteral("still-terminating-containers-gone");
    case PlanStep::Guard::PodStillGone:
        return QStringLiteral("pod-still-gone");
    case PlanStep::Guard::QueueEmpty:
        break;
    }
    return QStringLiteral("queue-empty");
}

QString rfc3339(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

QJsonObject finding(const Finding &f)
{
    auto orNull = [](const QString &s) { return s.isEmpty() ? QJsonValue() : QJsonValue(s); };
    QJsonArray cards, pids;
    for (int c : f.cards)
        cards.append(c);
    for (const FindingProcess &p : f.processes) {
        QJsonObject o{{QStringLiteral("pid"), p.pid},
                      {QStringLiteral("card"), p.card},
                      {QStringLiteral("command"), p.command}};
        if (p.startTicks >= 0)
            o.insert(QStringLiteral("startTicks"), p.startTicks);
        if (p.state)
            o.insert(QStringLiteral("state"), QString(QChar::fromLatin1(p.state)));
        if (p.memoryMiB)
            o.insert(QStringLiteral("memoryMiB"), *p.memoryMiB);
        if (!p.podUid.isEmpty())
            o.insert(QStringLiteral("podUid"), p.podUid);
        pids.append(o);
    }
    QJsonObject o{
        {QStringLiteral("class"), findingClassId(f.cls)},
        {QStringLiteral("node"), orNull(f.node)},
        {QStringLiteral("namespace"), orNull(f.ns)},
        {QStringLiteral("pod"), orNull(f.pod)},
        {QStringLiteral("podUid"), orNull(f.podUid)},
        {QStringLiteral("user"), orNull(f.user)},
        {QStringLiteral("vc"), orNull(f.vc)},
        {QStringLiteral("gpus"), f.gpus},
        {QStringLiteral("cards"), cards},
        {QStringLiteral("processes"), pids},
        {QStringLiteral("since"), f.since > 0 ? QJsonValue(rfc3339(f.since)) : QJsonValue()},
        {QStringLiteral("sinceAtLeast"), f.sinceAtLeast},
        {QStringLiteral("sinceSource"), f.sinceSource},
        {QStringLiteral("evidence"), f.evidence},
        {QStringLiteral("remedy"), remedyId(f.remedy)},
        {QStringLiteral("remedyNote"), f.remedyNote}};
    if (f.migDevices > 0)
        o.insert(QStringLiteral("migDevices"), f.migDevices);
    if (!f.owner.name.isEmpty())
        o.insert(QStringLiteral("owner"), QJsonObject{{QStringLiteral("kind"), f.owner.kind},
                                                      {QStringLiteral("name"), f.owner.name},
                                                      {QStringLiteral("status"), f.ownerStatus}});
    return o;
}

QJsonArray findings(const QList<Finding> &list)
{
    QJsonArray out;
    for (const Finding &f : list)
        out.append(finding(f));
    return out;
}

QJsonObject target(const StepTarget &t)
{
    QJsonObject o{{QStringLiteral("kind"), t.kind}, {QStringLiteral("name"), t.name}};
    if (!t.ns.isEmpty())
        o.insert(QStringLiteral("namespace"), t.ns);
    if (!t.uid.isEmpty())
        o.insert(QStringLiteral("uid"), t.uid);
    if (!t.node.isEmpty())
        o.insert(QStringLiteral("node"), t.node);
    if (!t.user.isEmpty())
        o.insert(QStringLiteral("user"), t.user);
    if (t.gpus > 0)
        o.insert(QStringLiteral("gpus"), t.gpus);
    if (t.pid > 0) {
        o.insert(QStringLiteral("pid"), t.pid);
        o.insert(QStringLiteral("startTicks"), t.startTime);
        if (!t.podUid.isEmpty())
            o.insert(QStringLiteral("podUid"), t.podUid);
    }
    return o;
}

// What an audit reader needs to find the image again: the registry, the repository, the
// digest (tags move; digests do not), the tags it had and, for a copy, where it went.
QJsonObject image(const ImageTarget &t)
{
    QJsonObject o{{QStringLiteral("registry"), t.registry},
                  {QStringLiteral("repository"), t.repository},
                  {QStringLiteral("digest"), t.digest},
                  {QStringLiteral("tags"), QJsonArray::fromStringList(t.tags)}};
    if (!t.toRepository.isEmpty()) {
        o.insert(QStringLiteral("toRepository"), t.toRepository);
        o.insert(QStringLiteral("toTag"), t.toTag);
        if (!t.toDigest.isEmpty())
            o.insert(QStringLiteral("toTagWas"), t.toDigest);
    }
    if (!t.fromContainer.isEmpty()) {
        o.insert(QStringLiteral("fromContainer"), t.fromContainer);
        o.insert(QStringLiteral("runtime"), t.runtime);
    }
    return o;
}

// The NAS path as planned: what was there (kind, size, time, a folder's content) and, for a
// move, where it went.
QJsonObject nas(const NasTarget &t)
{
    QJsonObject o{{QStringLiteral("node"), t.node},
                  {QStringLiteral("root"), t.root},
                  {QStringLiteral("path"), t.path},
                  {QStringLiteral("type"), QString(QLatin1Char(t.type ? t.type : '?'))},
                  {QStringLiteral("size"), t.size},
                  {QStringLiteral("modified"),
                   QDateTime::fromMSecsSinceEpoch(t.modified, Qt::UTC).toString(Qt::ISODate)}};
    if (t.files >= 0) {
        o.insert(QStringLiteral("files"), t.files);
        o.insert(QStringLiteral("bytes"), t.bytes);
    }
    if (!t.toPath.isEmpty())
        o.insert(QStringLiteral("toPath"), t.toPath);
    if (!t.pod.isEmpty())
        o.insert(QStringLiteral("pod"), t.pod);
    return o;
}

QJsonObject step(const PlanStep &s)
{
    QJsonObject o{{QStringLiteral("kind"), stepKindId(s.kind)},
                  {QStringLiteral("target"), target(s.target)},
                  {QStringLiteral("does"), s.description},
                  {QStringLiteral("why"), s.why},
                  {QStringLiteral("forceful"), s.forceful},
                  {QStringLiteral("dryRun"), dryRunId(s.dryRun)}};
    // The request line, and its JSON body as JSON: a body kept inside the line's string would
    // read as escaped JSON ("{\"spec\": …") in plans, reports and the audit log.
    QString request = s.detail;
    const QString bodyText = QString::fromUtf8(s.body);
    QJsonParseError error;
    const QJsonDocument body = QJsonDocument::fromJson(s.body, &error);
    if (!s.body.isEmpty() && error.error == QJsonParseError::NoError &&
        request.endsWith(bodyText)) {
        request = request.chopped(bodyText.size()).trimmed();
        o.insert(QStringLiteral("body"),
                 body.isObject() ? QJsonValue(body.object()) : QJsonValue(body.array()));
    }
    o.insert(QStringLiteral("request"), request);
    if (!s.dryRunMessage.isEmpty())
        o.insert(QStringLiteral("dryRunMessage"), s.dryRunMessage);
    if (s.unit >= 0)
        o.insert(QStringLiteral("unit"), s.unit);
    if (s.group >= 0)
        o.insert(QStringLiteral("group"), s.group);
    if (s.collateral)
        o.insert(QStringLiteral("collateral"), true);
    if (s.guard != PlanStep::Guard::None)
        o.insert(QStringLiteral("guard"), guardId(s.guard));
    if (!s.after.isEmpty()) {
        QJsonArray after;
        for (int i : s.after)
            after.append(i);
        o.insert(QStringLiteral("after"), after);
    }
    if (!s.image.digest.isEmpty() || !s.image.toRepository.isEmpty())
        o.insert(QStringLiteral("image"), image(s.image));
    if (s.nas.isSet())
        o.insert(QStringLiteral("nas"), nas(s.nas));
    return o;
}

QJsonObject plan(const OperationPlan &p)
{
    QJsonArray steps;
    for (const PlanStep &s : p.steps)
        steps.append(step(s));
    QJsonObject o{{QStringLiteral("action"), p.action},
                  {QStringLiteral("title"), p.title},
                  {QStringLiteral("context"), p.context},
                  {QStringLiteral("server"), p.server},
                  {QStringLiteral("gpus"), p.gpus()},
                  {QStringLiteral("typedConfirmation"), p.needsTypedConfirmation()},
                  {QStringLiteral("confirmation"), p.confirmationWord()},
                  {QStringLiteral("steps"), steps},
                  {QStringLiteral("notes"), QJsonArray::fromStringList(p.notes)},
                  {QStringLiteral("warnings"), QJsonArray::fromStringList(p.warnings)},
                  {QStringLiteral("collateral"), QJsonArray::fromStringList(p.collateral())}};
    if (!p.subject.isEmpty())
        o.insert(QStringLiteral("subject"), p.subject);
    return o;
}

QJsonObject outcome(const StepOutcome &r)
{
    QJsonObject o{{QStringLiteral("result"), StepOutcome::resultName(r.result)}};
    if (!r.message.isEmpty())
        o.insert(QStringLiteral("message"), r.message);
    if (!r.verification.isEmpty())
        o.insert(QStringLiteral("verification"), r.verification);
    if (!r.createdPath.isEmpty()) {
        o.insert(QStringLiteral("created"), r.createdPath);
        o.insert(QStringLiteral("createdUid"), r.createdUid);
    }
    if (r.started.isValid())
        o.insert(QStringLiteral("started"), r.started.toUTC().toString(Qt::ISODateWithMs));
    if (r.finished.isValid())
        o.insert(QStringLiteral("finished"), r.finished.toUTC().toString(Qt::ISODateWithMs));
    return o;
}

QJsonArray results(const OperationPlan &p, const QList<StepOutcome> &outcomes)
{
    QJsonArray out;
    for (int i = 0; i < p.steps.size(); ++i) {
        QJsonObject o = outcome(outcomes.value(i));
        o.insert(QStringLiteral("step"), i);
        o.insert(QStringLiteral("kind"), stepKindId(p.steps[i].kind));
        o.insert(QStringLiteral("target"), target(p.steps[i].target));
        out.append(o);
    }
    return out;
}

} // namespace gpudesk::json
