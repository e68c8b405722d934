// SPDX-License-Identifier: GPL-3.0-or-later
#include "quotaadmission.h"

#include "apihelpers.h"
#include "objectfactory.h"

#include <QStringList>

#include <set>

namespace sim {

using nlohmann::json;

namespace {

const std::set<std::string> kCompute = {"cpu", "memory", "ephemeral-storage"};

bool isBytes(const std::string &resource)
{
    return resource.find("memory") != std::string::npos ||
           resource.find("storage") != std::string::npos;
}

qint64 milliOf(const std::string &resource, const json &q)
{
    // Bytes are held in thousandths too, so that every resource compares the same way.
    return isBytes(resource) ? parseQuantityBytes(q) * 1000 : parseQuantityMilli(q);
}

// A quantity as it was written: the API takes "2", "500m" and bare numbers alike.
QString written(const json &q)
{
    return QString::fromStdString(q.is_string() ? q.get<std::string>() : q.dump());
}

// "k=v,k=v", sorted by key, as the quota admission prints its lists.
QString pretty(const Usage &u)
{
    QStringList parts;
    for (const auto &[k, v] : u)
        parts << QString::fromStdString(k + "=" + QuotaAdmission::canonical(k, v));
    return parts.join(u',');
}

ApiError forbidden(const QString &kind, const QString &name, const QString &why)
{
    return {403, QStringLiteral("Forbidden"),
            QStringLiteral("%1 \"%2\" is forbidden: %3").arg(kind, name, why),
            json{{"name", name.toStdString()}, {"kind", kind.toStdString()}}};
}

// The pod's validation, which the API server runs after the mutating admission (the
// LimitRanger's defaults) and before the validating one (its bounds, the quota): a request
// above its limit — typically one written without a limit, under the namespace's default.
std::optional<ApiError> requestsWithinLimits(const json &pod, const QString &name)
{
    std::vector<FieldError> errors;
    int index = 0;
    for (const auto &c : sub(sub(pod, "spec"), "containers")) {
        const json &res = sub(c, "resources");
        for (auto it = sub(res, "requests").begin(); it != sub(res, "requests").end(); ++it) {
            const json &limit = sub(res, "limits").value(it.key(), json());
            if (limit.is_null() || milliOf(it.key(), it.value()) <= milliOf(it.key(), limit))
                continue;
            errors.push_back(
                {QStringLiteral("spec.containers[%1].resources.requests").arg(index),
                 QStringLiteral("FieldValueInvalid"),
                 QStringLiteral("Invalid value: \"%1\": must be less than or equal "
                                "to %2 limit of %3")
                     .arg(written(it.value()), QString::fromStdString(it.key()), written(limit))});
        }
        ++index;
    }
    if (!errors.empty())
        return invalid({}, QStringLiteral("Pod"), name, errors);
    return std::nullopt;
}

} // namespace

QuotaAdmission::QuotaAdmission(const ObjectStore *store)
    : m_store(store), m_pods(type(store, "pods")), m_claims(type(store, "persistentvolumeclaims")),
      m_limitRanges(type(store, "limitranges")), m_quotas(type(store, "resourcequotas"))
{}

const ResourceType *QuotaAdmission::type(const ObjectStore *store, const char *plural)
{
    return store->types()->find({}, QStringLiteral("v1"), QString::fromLatin1(plural));
}

std::string QuotaAdmission::canonical(const std::string &resource, qint64 milli)
{
    if (isBytes(resource)) {
        const qint64 bytes = milli / 1000;
        const std::pair<const char *, qint64> units[] = {
            {"Ti", 1LL << 40}, {"Gi", 1LL << 30}, {"Mi", 1LL << 20}, {"Ki", 1LL << 10}};
        for (const auto &[suffix, size] : units)
            if (bytes != 0 && bytes % size == 0)
                return std::to_string(bytes / size) + suffix;
        return std::to_string(bytes);
    }
    if (milli % 1000 == 0)
        return std::to_string(milli / 1000);
    return std::to_string(milli) + "m";
}

Usage QuotaAdmission::podUsage(const json &pod)
{
    // What the pod evaluator counts: requests (which the API server fills from limits where
    // only limits are given), limits, and the pod itself.
    Usage u{{"pods", 1000}, {"count/pods", 1000}};
    for (const auto &c : sub(sub(pod, "spec"), "containers")) {
        const json &res = sub(c, "resources");
        const json &req = sub(res, "requests");
        const json &lim = sub(res, "limits");
        std::set<std::string> names;
        for (const json *list : {&req, &lim})
            if (list->is_object())
                for (auto it = list->begin(); it != list->end(); ++it)
                    names.insert(it.key());
        for (const std::string &r : names) {
            const json &request = req.contains(r) ? req[r] : lim[r];
            const qint64 amount = milliOf(r, request);
            u["requests." + r] += amount;
            if (kCompute.count(r))
                u[r] += amount;
            if (lim.contains(r) && kCompute.count(r))
                u["limits." + r] += milliOf(r, lim[r]);
        }
    }
    return u;
}

Usage QuotaAdmission::usage(const QString &ns) const
{
    Usage total;
    for (const auto &stored : m_store->list(m_pods, ns)) {
        const json &p = *stored.object;
        const std::string phase = str(sub(p, "status"), "phase");
        if (phase == "Succeeded" || phase == "Failed")
            continue;
        for (const auto &[k, v] : podUsage(p))
            total[k] += v;
    }
    if (m_claims)
        for (const auto &stored : m_store->list(m_claims, ns)) {
            total["persistentvolumeclaims"] += 1000;
            total["count/persistentvolumeclaims"] += 1000;
            total["requests.storage"] +=
                milliOf("storage", sub(sub(sub(*stored.object, "spec"), "resources"), "requests")
                                       .value("storage", json("0")));
        }
    return total;
}

void QuotaAdmission::defaultLimitRange(json &lr)
{
    if (!lr.contains("spec") || !lr["spec"].is_object() || !lr["spec"].contains("limits") ||
        !lr["spec"]["limits"].is_array())
        return;
    auto fill = [](json &item, const char *from, const char *into) {
        if (!item.contains(from) || !item[from].is_object())
            return;
        for (auto it = item[from].begin(); it != item[from].end(); ++it)
            if (!sub(item, into).contains(it.key()))
                item[into][it.key()] = it.value();
    };
    for (auto &item : lr["spec"]["limits"]) {
        if (!item.is_object() || sub(item, "type") != "Container")
            continue;
        fill(item, "max", "default");
        fill(item, "default", "defaultRequest");
        fill(item, "min", "defaultRequest");
    }
}

std::optional<ApiError> QuotaAdmission::limitRanges(json &pod, const QString &name) const
{
    const QString ns = ObjectStore::namespaceOf(pod);
    const auto ranges = m_store->list(m_limitRanges, ns);
    if (ranges.empty())
        return requestsWithinLimits(pod, name);
    json defaultRequest = json::object();
    json defaultLimit = json::object();
    std::vector<json> containerItems;
    for (const auto &stored : ranges)
        for (const auto &item : sub(sub(*stored.object, "spec"), "limits"))
            if (sub(item, "type") == "Container") {
                for (auto it = sub(item, "defaultRequest").begin();
                     it != sub(item, "defaultRequest").end(); ++it)
                    defaultRequest[it.key()] = it.value();
                for (auto it = sub(item, "default").begin(); it != sub(item, "default").end(); ++it)
                    defaultLimit[it.key()] = it.value();
                containerItems.push_back(item);
            }
    QStringList said;
    for (auto &c : pod["spec"]["containers"]) {
        json &res = c["resources"];
        if (!res.is_object())
            res = json::object();
        QStringList requests, limits;
        for (auto it = defaultRequest.begin(); it != defaultRequest.end(); ++it)
            if (!sub(res, "requests").contains(it.key())) {
                res["requests"][it.key()] = it.value();
                requests << QString::fromStdString(it.key());
            }
        for (auto it = defaultLimit.begin(); it != defaultLimit.end(); ++it)
            if (!sub(res, "limits").contains(it.key())) {
                res["limits"][it.key()] = it.value();
                limits << QString::fromStdString(it.key());
            }
        const QString container = QString::fromStdString(str(c, "name"));
        requests.sort();
        limits.sort();
        if (!requests.isEmpty())
            said << requests.join(QStringLiteral(", ")) +
                        QStringLiteral(" request for container ") + container;
        if (!limits.isEmpty())
            said << limits.join(QStringLiteral(", ")) + QStringLiteral(" limit for container ") +
                        container;
    }
    if (!said.isEmpty())
        pod["metadata"]["annotations"]["kubernetes.io/limit-ranger"] =
            QString(QStringLiteral("LimitRanger plugin set: ") + said.join(QStringLiteral("; ")))
                .toStdString();
    if (auto refused = requestsWithinLimits(pod, name))
        return refused;
    // Then the bounds, on the pod as defaulted.
    QStringList violations;
    for (const auto &item : containerItems)
        for (const auto &c : pod["spec"]["containers"]) {
            const json &res = sub(c, "resources");
            for (auto it = sub(item, "max").begin(); it != sub(item, "max").end(); ++it) {
                const std::string r = it.key();
                const json &limit = sub(res, "limits").value(r, json());
                if (limit.is_null())
                    violations << QStringLiteral(
                                      "maximum %1 usage per Container is %2.  No limit is "
                                      "specified")
                                      .arg(QString::fromStdString(r), written(it.value()));
                else if (milliOf(r, limit) > milliOf(r, it.value()))
                    violations << QStringLiteral("maximum %1 usage per Container is %2, but limit "
                                                 "is %3")
                                      .arg(QString::fromStdString(r), written(it.value()),
                                           written(limit));
            }
            for (auto it = sub(item, "min").begin(); it != sub(item, "min").end(); ++it) {
                const std::string r = it.key();
                const json &request = sub(res, "requests").value(r, json());
                if (!request.is_null() && milliOf(r, request) < milliOf(r, it.value()))
                    violations << QStringLiteral(
                                      "minimum %1 usage per Container is %2, but request "
                                      "is %3")
                                      .arg(QString::fromStdString(r), written(it.value()),
                                           written(request));
            }
        }
    if (!violations.isEmpty())
        return forbidden(QStringLiteral("pods"), name,
                         violations.size() == 1
                             ? violations.first()
                             : QStringLiteral("[") + violations.join(QStringLiteral(", ")) +
                                   QStringLiteral("]"));
    return std::nullopt;
}

std::optional<ApiError> QuotaAdmission::quotas(const json &object, const QString &kind,
                                               const QString &name, const Usage &request) const
{
    const QString ns = ObjectStore::namespaceOf(object);
    const auto quotas = m_store->list(m_quotas, ns);
    if (quotas.empty())
        return std::nullopt;
    const Usage used = usage(ns);
    for (const auto &stored : quotas) {
        const json &q = *stored.object;
        const QString quotaName = ObjectStore::nameOf(q);
        const json &hard = sub(sub(q, "spec"), "hard");
        // A compute resource the quota limits must be named by every container.
        if (kind == QLatin1String("pods")) {
            std::set<std::string> missing;
            for (auto it = hard.begin(); it != hard.end(); ++it) {
                const std::string r = it.key();
                const bool compute =
                    kCompute.count(r) ||
                    (r.rfind("requests.", 0) == 0 && kCompute.count(r.substr(9))) ||
                    (r.rfind("limits.", 0) == 0 && kCompute.count(r.substr(7)));
                if (!compute)
                    continue;
                for (const auto &c : sub(sub(object, "spec"), "containers")) {
                    const json &res = sub(c, "resources");
                    const std::string base = r.substr(r.find('.') + 1);
                    const bool named = r.rfind("limits.", 0) == 0
                                           ? sub(res, "limits").contains(base)
                                           : sub(res, "requests").contains(base) ||
                                                 sub(res, "limits").contains(base);
                    if (!named)
                        missing.insert(r);
                }
            }
            if (!missing.empty()) {
                QStringList m;
                for (const auto &r : missing)
                    m << QString::fromStdString(r);
                return forbidden(kind, name,
                                 QStringLiteral("failed quota: %1: must specify %2")
                                     .arg(quotaName, m.join(u',')));
            }
        }
        Usage exceededRequest, exceededUsed, exceededHard;
        for (auto it = hard.begin(); it != hard.end(); ++it) {
            const std::string r = it.key();
            const auto req = request.find(r);
            if (req == request.end() || req->second == 0)
                continue;
            const qint64 limit = milliOf(r, it.value());
            const qint64 now = used.count(r) ? used.at(r) : 0;
            if (now + req->second > limit) {
                exceededRequest[r] = req->second;
                exceededUsed[r] = now;
                exceededHard[r] = limit;
            }
        }
        if (!exceededRequest.empty())
            return forbidden(
                kind, name,
                QStringLiteral("exceeded quota: %1, requested: %2, used: %3, limited: %4")
                    .arg(quotaName, pretty(exceededRequest), pretty(exceededUsed),
                         pretty(exceededHard)));
    }
    return std::nullopt;
}

std::optional<ApiError> QuotaAdmission::admitPod(json &pod) const
{
    const QString name = ObjectStore::nameOf(pod);
    // The API's defaulting, before any admission: a request not written is the limit.
    if (pod.contains("spec") && pod["spec"].contains("containers") &&
        pod["spec"]["containers"].is_array())
        for (auto &c : pod["spec"]["containers"]) {
            if (!c.is_object() || !sub(c, "resources").contains("limits"))
                continue;
            json &res = c["resources"];
            for (auto it = sub(res, "limits").begin(); it != sub(res, "limits").end(); ++it)
                if (!sub(res, "requests").contains(it.key()))
                    res["requests"][it.key()] = it.value();
        }
    if (auto refused = limitRanges(pod, name))
        return refused;
    return quotas(pod, QStringLiteral("pods"), name, podUsage(pod));
}

std::optional<ApiError> QuotaAdmission::admitClaim(const json &claim) const
{
    const Usage request{{"persistentvolumeclaims", 1000},
                        {"count/persistentvolumeclaims", 1000},
                        {"requests.storage",
                         milliOf("storage", sub(sub(sub(claim, "spec"), "resources"), "requests")
                                                .value("storage", json("0")))}};
    return quotas(claim, QStringLiteral("persistentvolumeclaims"), ObjectStore::nameOf(claim),
                  request);
}

} // namespace sim
