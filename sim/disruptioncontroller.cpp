// SPDX-License-Identifier: GPL-3.0-or-later
#include "disruptioncontroller.h"

#include "objectfactory.h"
#include "selectors.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

#include <cmath>

namespace sim {

using nlohmann::json;

namespace {

// A pod evicted this recently is expected to be gone soon: it counts as disrupted, not healthy.
constexpr qint64 kDeletionTimeoutMs = 2 * 60 * 1000;

bool podReady(const json &pod)
{
    for (const auto &c : sub(sub(pod, "status"), "conditions"))
        if (c.value("type", "") == "Ready")
            return c.value("status", "") == "True";
    return false;
}

bool hasController(const json &pod)
{
    for (const auto &ref : sub(sub(pod, "metadata"), "ownerReferences"))
        if (ref.value("controller", false))
            return true;
    return false;
}

// intstr.GetScaledValueFromIntOrPercent with rounding up; -1 for a malformed value.
int scaled(const json &v, int total)
{
    if (v.is_number_integer())
        return v.get<int>();
    if (!v.is_string())
        return -1;
    const std::string s = v.get<std::string>();
    if (s.empty() || s.back() != '%')
        return -1;
    const int percent = std::atoi(s.c_str());
    return int(std::ceil(double(percent) * total / 100.0));
}

// metav1 SetStatusCondition: the transition time moves only when the status does.
void setDisruptionAllowed(json &status, bool allowed, const std::string &reason,
                          const std::string &message, qint64 generation, const std::string &now)
{
    json conds = json::array();
    std::string since = now;
    for (const auto &c : sub(status, "conditions")) {
        if (c.value("type", "") != "DisruptionAllowed") {
            conds.push_back(c);
            continue;
        }
        if (c.value("status", "") == (allowed ? "True" : "False"))
            since = c.value("lastTransitionTime", now);
    }
    conds.push_back(json{{"type", "DisruptionAllowed"},
                         {"status", allowed ? "True" : "False"},
                         {"observedGeneration", generation},
                         {"lastTransitionTime", since},
                         {"reason", reason},
                         {"message", message}});
    status["conditions"] = conds;
}

} // namespace

void DisruptionController::syncAll()
{
    for (const auto &stored : m_state.store->list(m_state.pdbs))
        sync(*stored.object);
}

void DisruptionController::syncNamespace(const QString &ns)
{
    for (const auto &stored : m_state.store->list(m_state.pdbs, ns))
        sync(*stored.object);
}

void DisruptionController::record(const json &pdb, const std::string &type,
                                  const std::string &reason, const std::string &message)
{
    const std::string ns = pdb["metadata"].value("namespace", "");
    m_state.recordEvent(m_state.objectRef(m_state.pdbs, ns, pdb["metadata"].value("name", "")), ns,
                        type, reason, message, "controllermanager", "");
}

void DisruptionController::sync(const json &pdb)
{
    const qint64 nowMs = m_state.clock->nowMs();
    const std::string now = m_state.clock->nowRfc3339();
    const std::string ns = pdb["metadata"].value("namespace", "");
    const json &spec = sub(pdb, "spec");
    const qint64 generation = pdb["metadata"].value("generation", qint64(1));
    // A budget with no (or an empty) selector matches nothing, not everything.
    std::vector<json> pods;
    const auto selector = LabelSelector::fromObject(sub(spec, "selector"));
    if (selector && !selector->isEmpty()) {
        for (const auto &p : m_state.store->list(m_state.pods, QString::fromStdString(ns)))
            if (selector->matches(sub((*p.object)["metadata"], "labels")))
                pods.push_back(*p.object);
    }
    json status = sub(pdb, "status");
    int expected = 0;
    int desired = 0;
    std::string failure;
    const bool byScale = spec.contains("maxUnavailable") ||
                         (spec.contains("minAvailable") && spec["minAvailable"].is_string());
    if (byScale) {
        // getExpectedScale: pods without a controller are left out (and warned about); a pod
        // whose controller has no scale the controller knows fails the whole computation.
        bool unmanaged = false;
        for (const auto &p : pods) {
            if (!hasController(p)) {
                unmanaged = true;
                continue;
            }
            failure = "found no controllers for pod \"" + p["metadata"].value("name", "") + "\"";
            break;
        }
        // Told once per change of the budget, not on every pass.
        if (unmanaged && status.value("observedGeneration", qint64(0)) < generation)
            record(pdb, "Warning", "UnmanagedPods",
                   "Pods selected by this PodDisruptionBudget (selector: " +
                       sub(spec, "selector").dump() +
                       ") were found to be unmanaged. As a result, the status of the PDB cannot "
                       "be calculated correctly, which may result in undefined behavior. To "
                       "account for these pods please set \".spec.minAvailable\" field of the "
                       "PDB to an integer value.");
        if (spec.contains("maxUnavailable"))
            desired = std::max(0, expected - std::max(0, scaled(spec["maxUnavailable"], 0)));
        else
            desired = std::max(0, scaled(spec["minAvailable"], 0));
    } else if (spec.contains("minAvailable")) {
        desired = spec["minAvailable"].is_number_integer() ? spec["minAvailable"].get<int>() : 0;
        expected = int(pods.size());
    }
    if (!failure.empty()) {
        // failSafe: no disruption allowed, and why.
        json s = status;
        s["disruptionsAllowed"] = 0;
        setDisruptionAllowed(s, false, "SyncFailed", failure,
                             status.value("observedGeneration", qint64(0)), now);
        if (s != status) {
            record(pdb, "Warning", "CalculateExpectedPodCountFailed",
                   "Failed to calculate the number of expected pods: " + failure);
            json updated = pdb;
            updated["status"] = s;
            m_state.store->update(m_state.pdbs, updated, QStringLiteral("kube-controller-manager"));
        }
        return;
    }
    // Evicted pods not yet deleted count as disrupted for DeletionTimeout, then not at all.
    json disrupted = json::object();
    const json &before = sub(status, "disruptedPods");
    for (const auto &p : pods) {
        const std::string name = p["metadata"].value("name", "");
        if (p["metadata"].contains("deletionTimestamp") || !before.contains(name))
            continue;
        if (parseMs(before[name]) + kDeletionTimeoutMs > nowMs)
            disrupted[name] = before[name];
        else
            m_state.recordEvent(
                m_state.objectRef(m_state.pods, ns, name), ns, "Warning", "NotDeleted",
                "Pod was expected by PDB " + ns + "/" + ns + " to be deleted but it wasn't",
                "controllermanager", "");
    }
    int healthy = 0;
    for (const auto &p : pods) {
        if (p["metadata"].contains("deletionTimestamp") ||
            disrupted.contains(p["metadata"].value("name", "")))
            continue;
        healthy += podReady(p) ? 1 : 0;
    }
    int allowed = healthy - desired;
    if (expected <= 0 || allowed <= 0)
        allowed = 0;
    json s = status;
    s["currentHealthy"] = healthy;
    s["desiredHealthy"] = desired;
    s["expectedPods"] = expected;
    s["disruptionsAllowed"] = allowed;
    if (disrupted.empty())
        s.erase("disruptedPods");
    else
        s["disruptedPods"] = disrupted;
    s["observedGeneration"] = generation;
    setDisruptionAllowed(s, allowed > 0, allowed > 0 ? "SufficientPods" : "InsufficientPods", "",
                         generation, now);
    if (s == status)
        return;
    if (pods.empty())
        record(pdb, "Normal", "NoPods", "No matching pods found");
    json updated = pdb;
    updated["status"] = s;
    m_state.store->update(m_state.pdbs, updated, QStringLiteral("kube-controller-manager"));
}

} // namespace sim
