// SPDX-License-Identifier: GPL-3.0-or-later
#include "evictionapi.h"

#include "objectfactory.h"
#include "objectwrites.h"
#include "selectors.h"
#include "simclock.h"
#include "simulation.h"

namespace sim {

using nlohmann::json;

namespace {

constexpr int kMaxDisruptedPodSize = 2000;
const QString kViolates =
    QStringLiteral("Cannot evict pod as it would violate the pod's disruption budget.");

ApiError tooManyRequests(const QString &cause, int retryAfter)
{
    json details{{"causes", json::array({json{{"reason", "DisruptionBudget"},
                                              {"message", cause.toStdString()}}})}};
    if (retryAfter > 0)
        details["retryAfterSeconds"] = retryAfter;
    return {429, QStringLiteral("TooManyRequests"), kViolates, details};
}

ApiError forbiddenBudget(const QString &name, const QString &why)
{
    return {
        403, QStringLiteral("Forbidden"),
        QStringLiteral("poddisruptionbudget.policy \"%1\" is forbidden: %2").arg(name, why),
        json{{"name", name.toStdString()}, {"group", "policy"}, {"kind", "poddisruptionbudget"}}};
}

bool podReady(const json &pod)
{
    for (const auto &c : sub(sub(pod, "status"), "conditions"))
        if (c.value("type", "") == "Ready")
            return c.value("status", "") == "True";
    return false;
}

} // namespace

std::optional<ApiError> EvictionApi::checkAndDecrement(const json &pdb, const QString &pod,
                                                       bool dryRun)
{
    const QString name = ObjectStore::nameOf(pdb);
    const json &status = sub(pdb, "status");
    if (status.value("observedGeneration", qint64(0)) < pdb["metadata"].value("generation", 1))
        return tooManyRequests(
            QStringLiteral("The disruption budget %1 is still being processed by the server.")
                .arg(name),
            10);
    const int allowed = status.value("disruptionsAllowed", 0);
    if (allowed < 0)
        return forbiddenBudget(name, QStringLiteral("pdb disruptions allowed is negative"));
    if (int(sub(status, "disruptedPods").size()) > kMaxDisruptedPodSize)
        return forbiddenBudget(name, QStringLiteral("DisruptedPods map too big - too many "
                                                    "evictions not confirmed by PDB controller"));
    if (allowed == 0)
        return tooManyRequests(
            QStringLiteral("The disruption budget %1 needs %2 healthy pods and has %3 currently")
                .arg(name)
                .arg(status.value("desiredHealthy", 0))
                .arg(status.value("currentHealthy", 0)),
            0);
    if (dryRun)
        return std::nullopt;
    // Tell the disruption controller the pod is about to go, so that it does not count it.
    json updated = pdb;
    updated["status"]["disruptionsAllowed"] = allowed - 1;
    updated["status"]["disruptedPods"][pod.toStdString()] = m_store->clock()->nowRfc3339();
    if (allowed - 1 == 0) {
        for (auto &c : updated["status"]["conditions"]) {
            if (c.value("type", "") == "DisruptionAllowed" && c.value("status", "") == "True") {
                c["status"] = "False";
                c["reason"] = "InsufficientPods";
                c["lastTransitionTime"] = m_store->clock()->nowRfc3339();
            }
        }
    }
    const auto res = m_store->update(m_sim->pdbs(), updated, QStringLiteral("kube-apiserver"));
    if (!res.ok())
        return res.error;
    return std::nullopt;
}

void EvictionApi::evict(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt)
{
    if (r.method != "POST") {
        sendError(c, methodNotAllowed());
        return;
    }
    bool dryRun = false;
    if (auto e = dryRunOf(queryValues(r, QStringLiteral("dryRun")), "CreateOptions", &dryRun)) {
        sendError(c, *e);
        return;
    }
    const json body = json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object()) {
        sendError(c, badRequest(QStringLiteral("the object provided is not valid JSON")));
        return;
    }
    const Answer a = evict(rt.ns, rt.name, body, dryRun);
    sendJson(c, a.code, a.status);
}

EvictionApi::Answer EvictionApi::evict(const QString &ns, const QString &name, const json &body,
                                       bool queryDryRun)
{
    auto fail = [](const ApiError &e) { return Answer{e.code, statusObject(e)}; };
    const std::string apiVersion = body.value("apiVersion", "policy/v1");
    if (apiVersion != "policy/v1" && apiVersion != "policy/v1beta1")
        return fail(badRequest(QStringLiteral("the API version in the data (%1) does not match "
                                              "the expected API version (policy/v1)")
                                   .arg(QString::fromStdString(apiVersion))));
    if (QString::fromStdString(sub(body, "metadata").value("name", "")) != name)
        return fail(badRequest(QStringLiteral("name in URL does not match name in Eviction "
                                              "object")));
    DeleteOptions options;
    if (auto e = ObjectWrites::deleteOptions(sub(body, "deleteOptions"), &options))
        return fail(*e);
    // propagateDryRun: the request's dryRun applies to an eviction that names none (only "All"
    // is valid in either, so the two cannot disagree).
    options.dryRun = options.dryRun || queryDryRun;
    const Answer success{201, json{{"kind", "Status"},
                                   {"apiVersion", "v1"},
                                   {"metadata", json::object()},
                                   {"status", "Success"},
                                   {"code", 201}}};
    const ResourceType *pods = m_sim->pods();
    const auto pod = m_store->get(pods, ns, name);
    if (!pod.ok())
        return fail(*pod.error);
    const json &p = *pod.object.object;
    const std::string phase = sub(p, "status").value("phase", "");
    const bool deleting = p["metadata"].contains("deletionTimestamp");
    // A pod that has finished, not started, or is already going disrupts nothing more.
    if (phase == "Succeeded" || phase == "Failed" || phase == "Pending" || deleting) {
        DeleteOptions o = options;
        if (!deleting && phase == "Pending" && !o.preconditionResourceVersion)
            o.preconditionResourceVersion = QString::number(pod.object.rv);
        const auto res = m_store->requestDelete(pods, ns, name, o);
        return res.ok() ? success : fail(*res.error);
    }
    m_sim->syncDisruptionBudgets(ns);
    std::vector<json> budgets;
    for (const auto &b : m_store->list(m_sim->pdbs(), ns)) {
        const auto selector = LabelSelector::fromObject(sub(sub(*b.object, "spec"), "selector"));
        if (selector && !selector->isEmpty() && selector->matches(sub(p["metadata"], "labels")))
            budgets.push_back(*b.object);
    }
    if (budgets.size() > 1)
        return fail({500, QString(),
                     QStringLiteral("This pod has more than one PodDisruptionBudget, which the "
                                    "eviction subresource does not support.")});
    DeleteOptions o = options;
    if (budgets.size() == 1) {
        const json &pdb = budgets.front();
        const json &st = sub(pdb, "status");
        const int desired = st.value("desiredHealthy", 0);
        if (!podReady(p) && st.value("currentHealthy", 0) >= desired && desired > 0) {
            // An unready pod counts for nothing: it may go as long as it stays unready.
            if (!o.preconditionResourceVersion)
                o.preconditionResourceVersion = QString::number(pod.object.rv);
        } else if (auto refused = checkAndDecrement(pdb, name, o.dryRun)) {
            return fail(*refused);
        }
    }
    const auto res = m_store->requestDelete(pods, ns, name, o);
    return res.ok() ? success : fail(*res.error);
}

} // namespace sim
