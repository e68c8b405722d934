// SPDX-License-Identifier: GPL-3.0-or-later
#include "verdictjson.h"

#include "jobrequest.h"
#include "startcheck.h"

#include <QJsonArray>

namespace gpudesk::verdictjson {

namespace {

QString severityId(StartReason::Severity s)
{
    switch (s) {
    case StartReason::Info:
        return QStringLiteral("info");
    case StartReason::Warning:
        return QStringLiteral("warning");
    case StartReason::Waits:
        return QStringLiteral("waits");
    case StartReason::Never:
        break;
    }
    return QStringLiteral("never");
}

} // namespace

QJsonObject job(const JobRequest &job, const JobRequest &written)
{
    QJsonArray roles;
    for (qsizetype i = 0; i < job.roles.size(); ++i) {
        const JobRole &r = job.roles[i];
        QJsonObject role{{QStringLiteral("name"), r.name},
                         {QStringLiteral("replicas"), r.replicas},
                         {QStringLiteral("gpus"), r.gpus},
                         {QStringLiteral("gpuModel"), r.gpuModel},
                         {QStringLiteral("cpuMilli"), r.cpuMilli},
                         {QStringLiteral("memoryBytes"), r.memoryBytes},
                         {QStringLiteral("shmBytes"), r.shmBytes},
                         {QStringLiteral("image"), r.image}};
        if (i < written.roles.size()) {
            const JobRole &w = written.roles[i];
            if (w.cpuMilli != r.cpuMilli || w.memoryBytes != r.memoryBytes ||
                w.shmBytes != r.shmBytes)
                role.insert(QStringLiteral("written"),
                            QJsonObject{{QStringLiteral("cpuMilli"), w.cpuMilli},
                                        {QStringLiteral("memoryBytes"), w.memoryBytes},
                                        {QStringLiteral("shmBytes"), w.shmBytes}});
        }
        roles.append(role);
    }
    return {{QStringLiteral("kind"), QLatin1String(resourceInfo(job.kind).kind)},
            {QStringLiteral("apiVersion"), job.apiVersion},
            {QStringLiteral("namespace"), job.ns},
            {QStringLiteral("name"), job.name},
            {QStringLiteral("queue"), job.queue},
            {QStringLiteral("pods"), job.pods()},
            {QStringLiteral("minAvailable"), job.minAvailable},
            {QStringLiteral("gpus"), job.gpus()},
            {QStringLiteral("roles"), roles}};
}

QJsonObject verdict(const StartVerdict &v)
{
    QJsonArray reasons;
    for (const StartReason &r : v.reasons)
        reasons.append(
            QJsonObject{{QStringLiteral("severity"), severityId(r.severity)},
                        {QStringLiteral("code"), r.code},
                        {QStringLiteral("field"), r.field},
                        {QStringLiteral("message"), r.message},
                        {QStringLiteral("fix"), r.fix},
                        {QStringLiteral("numbers"), QJsonObject::fromVariantMap(r.numbers)}});
    QJsonArray placement;
    for (const StartPlacement &p : v.placement)
        placement.append(QJsonObject{{QStringLiteral("role"), p.role},
                                     {QStringLiteral("node"), p.node},
                                     {QStringLiteral("pods"), p.pods},
                                     {QStringLiteral("gpusPerPod"), p.gpusPerPod},
                                     {QStringLiteral("freeBefore"), p.freeBefore},
                                     {QStringLiteral("freeAfter"), p.freeAfter}});
    return {{QStringLiteral("verdict"), StartVerdict::kindId(v.kind)},
            {QStringLiteral("exact"), v.exact},
            {QStringLiteral("summary"), v.summary()},
            {QStringLiteral("reasons"), reasons},
            {QStringLiteral("placement"), placement}};
}

} // namespace gpudesk::verdictjson
