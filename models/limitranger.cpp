// SPDX-License-Identifier: GPL-3.0-or-later
#include "limitranger.h"

#include <QMap>
#include <QSet>

#include <optional>
#include <utility>

namespace gpudesk {

namespace {

QString amount(const QString &resource, qint64 milli)
{
    return quantity::format(resource, milli);
}

// The form's field a resource is set in.
QString fieldOf(const QString &resource)
{
    if (resource == QLatin1String("nvidia.com/gpu"))
        return QStringLiteral("gpus");
    if (resource == QLatin1String("cpu") || resource == QLatin1String("memory"))
        return resource;
    return {};
}

// One bound as the LimitRanger says it is passed ("maximum cpu usage per Container is 8, but
// limit is 16", or "….  No limit is specified"); "" within it. A minimum bounds the request,
// a maximum the limit; `value` is what the container (or the pod, summed) gives, if it does.
QString outside(bool maximum, const char *per, const QString &resource, qint64 bound,
                std::optional<qint64> value)
{
    const QLatin1String field(maximum ? "limit" : "request");
    const QString head = QStringLiteral("%1 %2 usage per %3 is %4")
                             .arg(QLatin1String(maximum ? "maximum" : "minimum"), resource,
                                  QLatin1String(per), amount(resource, bound));
    if (!value)
        return head + QStringLiteral(".  No %1 is specified").arg(field);
    if (maximum ? *value > bound : *value < bound)
        return head + QStringLiteral(", but %1 is %2").arg(field, amount(resource, *value));
    return {};
}

// The role's sums again, from its containers as the API server will hold them.
void resum(JobRole &role)
{
    // A Memory /dev/shm without a sizeLimit is bounded by the memory limit, given or defaulted.
    const bool shmFollowsLimit = role.shmBytes >= 0 && role.shmBytes == role.memoryLimitBytes;
    role.gpus = 0;
    role.cpuMilli = role.memoryBytes = role.cpuLimitMilli = role.memoryLimitBytes = 0;
    role.cpuLimitEverywhere = role.memoryLimitEverywhere = true;
    for (const ContainerResources &c : std::as_const(role.containers)) {
        const auto get = [](const ResourceAmounts &a, const char *r) {
            return a.value(QLatin1String(r), 0);
        };
        role.gpus += int(
            std::max(get(c.requests, "nvidia.com/gpu"), get(c.limits, "nvidia.com/gpu")) / 1000);
        role.cpuMilli += get(c.requests, "cpu");
        role.memoryBytes += get(c.requests, "memory") / 1000;
        role.cpuLimitMilli += get(c.limits, "cpu");
        role.memoryLimitBytes += get(c.limits, "memory") / 1000;
        role.cpuLimitEverywhere = role.cpuLimitEverywhere && get(c.limits, "cpu") > 0;
        role.memoryLimitEverywhere = role.memoryLimitEverywhere && get(c.limits, "memory") > 0;
    }
    if (shmFollowsLimit)
        role.shmBytes = role.memoryLimitBytes;
}

} // namespace

QList<StartReason> LimitRanger::admit(JobRequest *job, const QList<LimitRangeInfo> &ranges)
{
    QList<StartReason> out;
    // Pods a controller makes are refused after the job was accepted: said so, since nothing
    // else will say it but an event of the controller's.
    const QString refusedHow =
        job->kind == Resource::Pods
            ? tr("the API server refuses the pod")
            : tr("the job is accepted, but the API server refuses the pods its controller makes: "
                 "it sits with none");
    for (JobRole &role : job->roles) {
        if (role.containers.isEmpty())
            continue; // a running job's shape: its pods were admitted already
        const QString who = role.name.isEmpty() ? job->name : role.name;
        QStringList filled;         // "memory limit 16Gi (LimitRange gpudesk-defaults)"
        QStringList refusals;       // the LimitRanger's words
        QString refusedField;       // the first refusal's
        QList<StartReason> invalid; // request over its (defaulted) limit
        for (int i = 0; i < role.containers.size(); ++i) {
            ContainerResources &c = role.containers[i];
            QSet<QString> defaulted; // the limits the ranges gave it
            // The API's defaulting, before any admission: a request not written is the limit.
            for (auto it = c.limits.cbegin(); it != c.limits.cend(); ++it)
                if (!c.requests.contains(it.key()))
                    c.requests.insert(it.key(), it.value());
            for (const LimitRangeInfo &lr : ranges) {
                for (auto it = lr.defaultLimit.cbegin(); it != lr.defaultLimit.cend(); ++it)
                    if (!c.limits.contains(it.key())) {
                        c.limits.insert(it.key(), it.value());
                        defaulted.insert(it.key());
                        filled << tr("%1 limit %2 for %3 (LimitRange %4)")
                                      .arg(it.key(), amount(it.key(), it.value()), c.name, lr.name);
                    }
                for (auto it = lr.defaultRequest.cbegin(); it != lr.defaultRequest.cend(); ++it)
                    if (!c.requests.contains(it.key())) {
                        c.requests.insert(it.key(), it.value());
                        filled << tr("%1 request %2 for %3 (LimitRange %4)")
                                      .arg(it.key(), amount(it.key(), it.value()), c.name, lr.name);
                    }
            }
            // The bounds, as the LimitRanger words them (the API server's message).
            for (const LimitRangeInfo &lr : ranges)
                for (const auto &[bounds, maximum] : {std::pair{&lr.min, false}, {&lr.max, true}})
                    for (auto it = bounds->cbegin(); it != bounds->cend(); ++it) {
                        const ResourceAmounts &given = maximum ? c.limits : c.requests;
                        const auto value = given.constFind(it.key());
                        const QString said =
                            outside(maximum, "Container", it.key(), it.value(),
                                    value == given.cend() ? std::nullopt : std::optional(*value));
                        if (said.isEmpty())
                            continue;
                        refusals << said;
                        if (refusedField.isEmpty())
                            refusedField = fieldOf(it.key());
                    }
            // The pod's validation, after the defaults: a request above its limit is invalid.
            // (Only for resources that may be overcommitted; an extended one such as a GPU
            // must ask for its limit exactly, which the server's dry run of a pod says.)
            for (auto it = c.requests.cbegin(); it != c.requests.cend(); ++it) {
                const auto limit = c.limits.constFind(it.key());
                if (limit == c.limits.cend() || it.value() <= *limit || it.key().contains(u'/'))
                    continue;
                const QString r = it.key();
                const QString said = QStringLiteral("spec.containers[%1].resources.requests: "
                                                    "Invalid value: \"%2\": must be less than "
                                                    "or equal to %3 limit of %4")
                                         .arg(i)
                                         .arg(amount(r, it.value()), r, amount(r, *limit));
                StartReason s;
                s.severity = StartReason::Never;
                s.code = QStringLiteral("request-over-limit");
                s.field = fieldOf(r);
                s.message =
                    defaulted.contains(r)
                        ? tr("%1: container %2 asks for %3 of %4, but its limit is %5 — the "
                             "namespace's default where none is written: %6 (\"%7\").")
                              .arg(who, c.name, amount(r, it.value()), r, amount(r, *limit),
                                   refusedHow, said)
                        : tr("%1: container %2 asks for %3 of %4, above its limit of %5: %6 "
                             "(\"%7\").")
                              .arg(who, c.name, amount(r, it.value()), r, amount(r, *limit),
                                   refusedHow, said);
                s.fix =
                    tr("Give %1 a %2 limit of at least %3.").arg(c.name, r, amount(r, it.value()));
                s.numbers = {{QStringLiteral("resource"), r},
                             {QStringLiteral("container"), c.name},
                             {QStringLiteral("request"), amount(r, it.value())},
                             {QStringLiteral("limit"), amount(r, *limit)}};
                invalid << s;
            }
        }
        // Type Pod: the containers' sums.
        for (const LimitRangeInfo &lr : ranges) {
            // As the LimitRanger sums a pod: what the containers that set it give (none
            // setting it is "not specified").
            const auto sum = [&](bool limits, const QString &r, bool *anywhere) {
                qint64 total = 0;
                *anywhere = false;
                for (const ContainerResources &c : std::as_const(role.containers)) {
                    const ResourceAmounts &a = limits ? c.limits : c.requests;
                    *anywhere = *anywhere || a.contains(r);
                    total += a.value(r, 0);
                }
                return total;
            };
            for (const auto &[bounds, maximum] : {std::pair{&lr.podMin, false}, {&lr.podMax, true}})
                for (auto it = bounds->cbegin(); it != bounds->cend(); ++it) {
                    bool any = false;
                    const qint64 total = sum(maximum, it.key(), &any);
                    const QString said = outside(maximum, "Pod", it.key(), it.value(),
                                                 any ? std::optional(total) : std::nullopt);
                    if (!said.isEmpty())
                        refusals << said;
                }
        }
        if (!filled.isEmpty()) {
            StartReason s;
            s.code = QStringLiteral("limitrange-default");
            s.message = tr("%1: what its containers do not say, the namespace gives: %2.")
                            .arg(who, filled.join(QStringLiteral(", ")));
            s.numbers = {{QStringLiteral("filled"), filled.size()}};
            out << s;
        }
        if (!refusals.isEmpty()) {
            StartReason s;
            s.severity = StartReason::Never;
            s.code = QStringLiteral("limitrange-refused");
            s.field = refusedField;
            const QString said = refusals.size() == 1
                                     ? refusals.first()
                                     : u'[' + refusals.join(QStringLiteral(", ")) + u']';
            s.message = tr("%1: the namespace's LimitRange bounds what a container may ask for: "
                           "%2 (\"%3\").")
                            .arg(who, refusedHow, said);
            s.fix = tr("Ask for what the LimitRange allows, or ask an administrator to change it.");
            s.numbers = {{QStringLiteral("refusals"), refusals}};
            out << s;
        }
        out << invalid;
        resum(role);
    }
    return out;
}

} // namespace gpudesk
