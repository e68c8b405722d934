// SPDX-License-Identifier: GPL-3.0-or-later
#include "admission.h"

#include "apihelpers.h"
#include "objectfactory.h"

namespace sim {

using nlohmann::json;

std::optional<ApiError> Admission::admit(const ResourceType *type, json &o)
{
    if (type->group.isEmpty() && type->resource == QLatin1String("pods"))
        return pod(o);
    if (type->group.isEmpty() && type->resource == QLatin1String("events"))
        return event(o);
    if (type->group == QLatin1String("policy") &&
        type->resource == QLatin1String("poddisruptionbudgets"))
        return disruptionBudget(o);
    return std::nullopt;
}

std::optional<ApiError> Admission::pod(json &o)
{
    // The defaulting of the pod registry.
    const QString name = QString::fromStdString(o["metadata"].value("name", ""));
    json &spec = o["spec"];
    if (!spec.is_object() || !spec.contains("containers") || !spec["containers"].is_array() ||
        spec["containers"].empty())
        return invalid({}, QStringLiteral("Pod"), name,
                       {{QStringLiteral("spec.containers"), QStringLiteral("FieldValueRequired"),
                         QStringLiteral("Required value")}});
    for (auto &c : spec["containers"]) {
        if (!c.contains("name") || !c.contains("image"))
            return invalid(
                {}, QStringLiteral("Pod"), name,
                {{QStringLiteral("spec.containers[0].image"), QStringLiteral("FieldValueRequired"),
                  QStringLiteral("Required value")}});
        if (!c.contains("terminationMessagePath"))
            c["terminationMessagePath"] = "/dev/termination-log";
        if (!c.contains("imagePullPolicy"))
            c["imagePullPolicy"] = "IfNotPresent";
        if (!c.contains("resources"))
            c["resources"] = json::object();
    }
    if (!spec.contains("restartPolicy"))
        spec["restartPolicy"] = "Always";
    if (!spec.contains("schedulerName"))
        spec["schedulerName"] = "default-scheduler";
    if (!spec.contains("terminationGracePeriodSeconds"))
        spec["terminationGracePeriodSeconds"] = 30;
    if (!spec.contains("serviceAccountName"))
        spec["serviceAccountName"] = "default";
    if (!spec.contains("dnsPolicy"))
        spec["dnsPolicy"] = "ClusterFirst";
    if (!spec.contains("tolerations"))
        spec["tolerations"] = json::array({json{{"key", "node.kubernetes.io/not-ready"},
                                                {"operator", "Exists"},
                                                {"effect", "NoExecute"},
                                                {"tolerationSeconds", 300}},
                                           json{{"key", "node.kubernetes.io/unreachable"},
                                                {"operator", "Exists"},
                                                {"effect", "NoExecute"},
                                                {"tolerationSeconds", 300}}});
    o["status"] = json{{"phase", "Pending"}, {"qosClass", qosClassOf(spec)}};
    return std::nullopt;
}

std::optional<ApiError> Admission::event(json &ev)
{
    // legacyValidateEvent, which every core/v1 Event passes.
    const QString name = QString::fromStdString(ev["metadata"].value("name", ""));
    const std::string ns = ev["metadata"].value("namespace", "");
    const json &involved = sub(ev, "involvedObject");
    const std::string involvedNs = involved.value("namespace", "");
    std::vector<FieldError> errors;
    auto mismatch = [&] {
        errors.push_back({QStringLiteral("involvedObject.namespace"),
                          QStringLiteral("FieldValueInvalid"),
                          QStringLiteral("Invalid value: \"%1\": does not match event.namespace")
                              .arg(QString::fromStdString(involvedNs))});
    };
    const bool hasEventTime = ev.contains("eventTime") && ev["eventTime"].is_string();
    if (!hasEventTime) {
        if (involvedNs.empty() ? (ns != "" && ns != "default") : ns != involvedNs)
            mismatch();
    } else {
        if (involvedNs.empty() && ns != "default" && ns != "kube-system")
            mismatch();
        for (const char *field : {"reportingController", "reportingInstance", "action", "reason"})
            if (ev.value(field, "").empty())
                errors.push_back({QString::fromLatin1(field), QStringLiteral("FieldValueRequired"),
                                  QStringLiteral("Required value")});
    }
    if (!errors.empty())
        return invalid({}, QStringLiteral("Event"), name, errors);
    return std::nullopt;
}

std::optional<ApiError> Admission::disruptionBudget(json &pdb)
{
    const QString name = QString::fromStdString(pdb["metadata"].value("name", ""));
    const json &spec = sub(pdb, "spec");
    std::vector<FieldError> errors;
    if (spec.contains("minAvailable") && spec.contains("maxUnavailable"))
        errors.push_back({QStringLiteral("spec"), QStringLiteral("FieldValueInvalid"),
                          QStringLiteral("Invalid value: policy.PodDisruptionBudgetSpec{...}: "
                                         "minAvailable and maxUnavailable cannot be both set")});
    for (const char *field : {"minAvailable", "maxUnavailable"}) {
        if (!spec.contains(field))
            continue;
        const json &v = spec[field];
        const QString path = QStringLiteral("spec.") + QString::fromLatin1(field);
        if (v.is_number_integer() && v.get<qint64>() < 0)
            errors.push_back({path, QStringLiteral("FieldValueInvalid"),
                              QStringLiteral("Invalid value: %1: must be greater than or equal "
                                             "to 0")
                                  .arg(v.get<qint64>())});
        else if (v.is_string() && !QString::fromStdString(v.get<std::string>()).endsWith(u'%'))
            errors.push_back({path, QStringLiteral("FieldValueInvalid"),
                              QStringLiteral("Invalid value: \"%1\": a valid percent string "
                                             "must be a numeric string followed by an ending '%'")
                                  .arg(QString::fromStdString(v.get<std::string>()))});
    }
    if (!errors.empty())
        return invalid(QStringLiteral("policy"), QStringLiteral("PodDisruptionBudget"), name,
                       errors);
    // A new budget is the disruption controller's to compute: until then it allows nothing.
    pdb["status"] = json{{"disruptionsAllowed", 0},
                         {"currentHealthy", 0},
                         {"desiredHealthy", 0},
                         {"expectedPods", 0}};
    return std::nullopt;
}

} // namespace sim
