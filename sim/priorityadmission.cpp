// SPDX-License-Identifier: GPL-3.0-or-later
#include "priorityadmission.h"

#include "objectfactory.h"

namespace sim {

using nlohmann::json;

PriorityAdmission::PriorityAdmission(const ObjectStore *store)
    : m_store(store),
      m_classes(store->types()->find(QStringLiteral("scheduling.k8s.io"), QStringLiteral("v1"),
                                     QStringLiteral("priorityclasses")))
{}

int PriorityAdmission::priorityOf(const json &pod)
{
    const json &p = sub(sub(pod, "spec"), "priority");
    return p.is_number_integer() ? p.get<int>() : 0;
}

std::optional<ApiError> PriorityAdmission::admit(json &pod) const
{
    if (!pod.contains("spec") || !pod["spec"].is_object())
        return std::nullopt; // the pod's validation says what is missing
    json &spec = pod["spec"];
    const std::string wanted = sub(spec, "priorityClassName").is_string()
                                   ? spec["priorityClassName"].get<std::string>()
                                   : std::string();
    const json *cls = nullptr;
    std::vector<StoredObject> all;
    StoreResult named;
    if (!wanted.empty()) {
        named = m_store->get(m_classes, {}, QString::fromStdString(wanted));
        if (!named.ok())
            return ApiError{
                403, QStringLiteral("Forbidden"),
                QStringLiteral("pods \"%1\" is forbidden: no PriorityClass with name "
                               "%2 was found")
                    .arg(ObjectStore::nameOf(pod), QString::fromStdString(wanted)),
                json{{"name", ObjectStore::nameOf(pod).toStdString()}, {"kind", "pods"}}};
        cls = named.object.object.get();
    } else {
        all = m_store->list(m_classes);
        for (const auto &c : all)
            if (c.object->value("globalDefault", false))
                cls = c.object.get();
    }
    const int value = cls ? cls->value("value", 0) : 0;
    // A client may not choose the number itself, only the class (the API server's words).
    if (spec.contains("priority") && spec["priority"].is_number_integer() &&
        spec["priority"].get<int>() != value && !(spec["priority"] == 0 && !cls))
        return ApiError{403, QStringLiteral("Forbidden"),
                        QStringLiteral("pods \"%1\" is forbidden: the integer value of priority "
                                       "(%2) must not be provided in pod spec; priority admission "
                                       "controller computed %3 from the given PriorityClass name")
                            .arg(ObjectStore::nameOf(pod))
                            .arg(spec["priority"].get<int>())
                            .arg(value),
                        json{{"name", ObjectStore::nameOf(pod).toStdString()}, {"kind", "pods"}}};
    spec["priority"] = value;
    if (cls) {
        spec["priorityClassName"] = (*cls)["metadata"].value("name", "");
        spec["preemptionPolicy"] = cls->value("preemptionPolicy", "PreemptLowerPriority");
    }
    return std::nullopt;
}

void PriorityAdmission::seed(ObjectStore *store)
{
    const ResourceType *classes =
        store->types()->find(QStringLiteral("scheduling.k8s.io"), QStringLiteral("v1"),
                             QStringLiteral("priorityclasses"));
    auto add = [&](const char *name, int value, const char *description,
                   const char *policy = "PreemptLowerPriority") {
        store->create(classes, json{{"apiVersion", "scheduling.k8s.io/v1"},
                                    {"kind", "PriorityClass"},
                                    {"metadata", {{"name", name}}},
                                    {"value", value},
                                    {"globalDefault", false},
                                    {"preemptionPolicy", policy},
                                    {"description", description}});
    };
    add("system-cluster-critical", 2000000000,
        "Used for system critical pods that must run in the cluster, but can be moved to another "
        "node if necessary.");
    add("system-node-critical", 2000001000,
        "Used for system critical pods that must not be moved from their current node.");
    add("high-priority", 1000,
        "Deadline work: may preempt normal jobs of its own queue (Volcano's preempt action).");
    add("vip", 100000, "VIP jobs on chosen machines: nothing below preempts them.");
    // Kubernetes' non-preempting class (its docs' "high-priority-nonpreempting"): a VIP job
    // that waits for its machines to free, ahead of every other, without evicting anyone.
    add("vip-waiting", 100000,
        "VIP jobs waiting for their machines: never preempts; nothing below preempts them.",
        "Never");
}

} // namespace sim
