// SPDX-License-Identifier: GPL-3.0-or-later
#include "tableprinter.h"

#include "objectfactory.h"

#include <QDateTime>

#include <functional>

namespace sim {

using nlohmann::json;

namespace {

struct Column
{
    const char *name;
    const char *type;
    int priority;
    std::function<json(const json &, qint64)> cell;
};

qint64 parseMs(const json &v)
{
    if (!v.is_string())
        return 0;
    return QDateTime::fromString(QString::fromStdString(v.get<std::string>()), Qt::ISODate)
        .toMSecsSinceEpoch();
}

json age(const json &o, qint64 now)
{
    const json &meta = o["metadata"];
    if (!meta.contains("creationTimestamp"))
        return "<unknown>";
    return TablePrinter::humanDuration((now - parseMs(meta["creationTimestamp"])) / 1000);
}

json name(const json &o, qint64)
{
    return o["metadata"].value("name", "");
}

json podReady(const json &o, qint64)
{
    const auto &containers = sub(o["spec"], "containers");
    int ready = 0;
    for (const auto &cs : sub(sub(o, "status"), "containerStatuses"))
        ready += cs.value("ready", false) ? 1 : 0;
    return std::to_string(ready) + '/' + std::to_string(containers.size());
}

json podStatus(const json &o, qint64)
{
    // The reason logic of kubectl's pod printer, in short.
    const json status = sub(o, "status");
    std::string reason = status.value("phase", "Pending");
    if (status.contains("reason"))
        reason = status["reason"].get<std::string>();
    for (const auto &cs : sub(status, "containerStatuses")) {
        const json st = sub(cs, "state");
        if (st.contains("waiting") && st["waiting"].contains("reason") &&
            st["waiting"]["reason"] != "")
            reason = st["waiting"]["reason"].get<std::string>();
        else if (st.contains("terminated") && st["terminated"].contains("reason"))
            reason = st["terminated"]["reason"].get<std::string>();
    }
    if (o["metadata"].contains("deletionTimestamp")) {
        bool nodeLost = status.value("reason", "") == "NodeLost";
        reason = nodeLost ? "Unknown" : "Terminating";
    }
    return reason;
}

json podRestarts(const json &o, qint64 now)
{
    int restarts = 0;
    qint64 last = 0;
    for (const auto &cs : sub(sub(o, "status"), "containerStatuses")) {
        restarts += cs.value("restartCount", 0);
        if (cs.contains("lastState") && cs["lastState"].contains("terminated"))
            last = std::max(last, parseMs(cs["lastState"]["terminated"]["finishedAt"]));
    }
    if (restarts > 0 && last > 0)
        return std::to_string(restarts) + " (" + TablePrinter::humanDuration((now - last) / 1000) +
               " ago)";
    return std::to_string(restarts);
}

json field(const json &o, std::initializer_list<const char *> path, const char *fallback)
{
    const json *cur = &o;
    for (const char *p : path) {
        if (!cur->is_object() || !cur->contains(p))
            return fallback;
        cur = &(*cur)[p];
    }
    if (cur->is_string())
        return *cur;
    if (cur->is_number())
        return cur->dump();
    return fallback;
}

json nodeStatus(const json &o, qint64)
{
    std::string s = "Unknown";
    for (const auto &c : sub(sub(o, "status"), "conditions")) {
        if (c.value("type", "") == "Ready")
            s = c.value("status", "") == "True" ? "Ready" : "NotReady";
    }
    if (sub(o, "spec").value("unschedulable", false))
        s += ",SchedulingDisabled";
    return s;
}

json nodeRoles(const json &o, qint64)
{
    std::string roles;
    const json labels = sub(o["metadata"], "labels");
    for (const auto &[k, v] : labels.items()) {
        const std::string prefix = "node-role.kubernetes.io/";
        if (k.rfind(prefix, 0) == 0) {
            if (!roles.empty())
                roles += ',';
            roles += k.substr(prefix.size());
        }
    }
    return roles.empty() ? "<none>" : roles;
}

json nodeAddress(const json &o, const char *type)
{
    for (const auto &a : sub(sub(o, "status"), "addresses")) {
        if (a.value("type", "") == type)
            return a.value("address", "");
    }
    return "<none>";
}

json eventObject(const json &o, qint64)
{
    // Events written by clients may lack parts of involvedObject.
    const json &involved = sub(o, "involvedObject");
    std::string kind = involved.value("kind", "");
    for (auto &c : kind)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return kind + '/' + involved.value("name", "");
}

// MIN AVAILABLE / MAX UNAVAILABLE of a PodDisruptionBudget: the int or percent, or N/A.
json budgetField(const json &o, const char *key)
{
    const json &spec = sub(o, "spec");
    if (!spec.contains(key))
        return "N/A";
    return spec[key].is_string() ? spec[key].get<std::string>() : spec[key].dump();
}

json eventLastSeen(const json &o, qint64 now)
{
    const json t = o.contains("lastTimestamp") && !o["lastTimestamp"].is_null()
                       ? o["lastTimestamp"]
                       : o.value("eventTime", json());
    return t.is_string() ? json(TablePrinter::humanDuration((now - parseMs(t)) / 1000))
                         : json("<unknown>");
}

json lastConditionType(const json &o, qint64)
{
    const auto conds = sub(sub(o, "status"), "conditions");
    for (auto it = conds.rbegin(); it != conds.rend(); ++it) {
        if ((*it).value("status", "") == "True")
            return (*it).value("type", "");
    }
    return "";
}

std::vector<Column> columnsFor(const ResourceType &type)
{
    const Column nameCol{"Name", "string", 0, name};
    const Column ageCol{"Age", "string", 0, age};
    if (type.resource == QLatin1String("pods"))
        return {nameCol,
                {"Ready", "string", 0, podReady},
                {"Status", "string", 0, podStatus},
                {"Restarts", "string", 0, podRestarts},
                ageCol,
                {"IP", "string", 1,
                 [](const json &o, qint64) {
                     return field(o, {"status", "podIP"}, "<none>");
                 }},
                {"Node", "string", 1,
                 [](const json &o, qint64) {
                     return field(o, {"spec", "nodeName"}, "<none>");
                 }},
                {"Nominated Node", "string", 1,
                 [](const json &o, qint64) {
                     return field(o, {"status", "nominatedNodeName"}, "<none>");
                 }},
                {"Readiness Gates", "string", 1, [](const json &, qint64) { return "<none>"; }}};
    if (type.resource == QLatin1String("nodes"))
        return {
            nameCol,
            {"Status", "string", 0, nodeStatus},
            {"Roles", "string", 0, nodeRoles},
            ageCol,
            {"Version", "string", 0,
             [](const json &o, qint64) {
                 return field(o, {"status", "nodeInfo", "kubeletVersion"}, "");
             }},
            {"Internal-IP", "string", 1,
             [](const json &o, qint64) { return nodeAddress(o, "InternalIP"); }},
            {"External-IP", "string", 1,
             [](const json &o, qint64) { return nodeAddress(o, "ExternalIP"); }},
            {"OS-Image", "string", 1,
             [](const json &o, qint64) {
                 return field(o, {"status", "nodeInfo", "osImage"}, "<unknown>");
             }},
            {"Kernel-Version", "string", 1,
             [](const json &o, qint64) {
                 return field(o, {"status", "nodeInfo", "kernelVersion"}, "<unknown>");
             }},
            {"Container-Runtime", "string", 1, [](const json &o, qint64) {
                 return field(o, {"status", "nodeInfo", "containerRuntimeVersion"}, "<unknown>");
             }}};
    if (type.resource == QLatin1String("events"))
        return {
            {"Last Seen", "string", 0, eventLastSeen},
            {"Type", "string", 0, [](const json &o, qint64) { return field(o, {"type"}, ""); }},
            {"Reason", "string", 0, [](const json &o, qint64) { return field(o, {"reason"}, ""); }},
            {"Object", "string", 0, eventObject},
            {"Subobject", "string", 1,
             [](const json &o, qint64) {
                 return field(o, {"involvedObject", "fieldPath"}, "");
             }},
            {"Source", "string", 1,
             [](const json &o, qint64) {
                 return field(o, {"source", "component"}, "");
             }},
            {"Message", "string", 0,
             [](const json &o, qint64) { return field(o, {"message"}, ""); }},
            {"First Seen", "string", 1,
             [](const json &o, qint64 now) {
                 return o.contains("firstTimestamp")
                            ? json(TablePrinter::humanDuration(
                                  (now - parseMs(o["firstTimestamp"])) / 1000))
                            : json("<unknown>");
             }},
            {"Count", "string", 1,
             [](const json &o, qint64) { return std::to_string(o.value("count", 1)); }},
            {"Name", "string", 1, name}};
    if (type.resource == QLatin1String("namespaces"))
        return {nameCol,
                {"Status", "string", 0,
                 [](const json &o, qint64) {
                     return field(o, {"status", "phase"}, "Active");
                 }},
                ageCol};
    if (type.resource == QLatin1String("jobs") && type.group == QLatin1String("batch.volcano.sh"))
        return {nameCol,
                {"Status", "string", 0,
                 [](const json &o, qint64) {
                     return field(o, {"status", "state", "phase"}, "");
                 }},
                {"minAvailable", "integer", 0,
                 [](const json &o, qint64) { return o["spec"].value("minAvailable", 0); }},
                {"Running", "integer", 0,
                 [](const json &o, qint64) { return sub(o, "status").value("running", 0); }},
                ageCol,
                {"Queue", "string", 1, [](const json &o, qint64) {
                     return field(o, {"spec", "queue"}, "");
                 }}};
    if (type.resource == QLatin1String("queues"))
        return {nameCol,
                ageCol,
                {"State", "string", 0,
                 [](const json &o, qint64) {
                     return field(o, {"status", "state"}, "");
                 }},
                {"Weight", "integer", 0,
                 [](const json &o, qint64) { return o["spec"].value("weight", 1); }}};
    if (type.group == QLatin1String("kubeflow.org"))
        return {nameCol, {"State", "string", 0, lastConditionType}, ageCol};
    if (type.resource == QLatin1String("poddisruptionbudgets"))
        return {
            nameCol,
            {"Min Available", "string", 0,
             [](const json &o, qint64) { return budgetField(o, "minAvailable"); }},
            {"Max Unavailable", "string", 0,
             [](const json &o, qint64) { return budgetField(o, "maxUnavailable"); }},
            {"Allowed Disruptions", "integer", 0,
             [](const json &o, qint64) { return sub(o, "status").value("disruptionsAllowed", 0); }},
            ageCol};
    if (type.resource == QLatin1String("priorityclasses"))
        return {nameCol,
                {"Value", "integer", 0, [](const json &o, qint64) { return o.value("value", 0); }},
                {"Global-Default", "boolean", 0,
                 [](const json &o, qint64) { return o.value("globalDefault", false); }},
                ageCol,
                {"PreemptionPolicy", "string", 0, [](const json &o, qint64) {
                     return o.value("preemptionPolicy", "PreemptLowerPriority");
                 }}};
    if (type.resource == QLatin1String("podgroups"))
        return {nameCol,
                {"Status", "string", 0,
                 [](const json &o, qint64) {
                     return field(o, {"status", "phase"}, "");
                 }},
                {"minMember", "integer", 0,
                 [](const json &o, qint64) { return o["spec"].value("minMember", 0); }},
                {"Running", "integer", 0,
                 [](const json &o, qint64) { return sub(o, "status").value("running", 0); }},
                ageCol,
                {"Queue", "string", 1, [](const json &o, qint64) {
                     return field(o, {"spec", "queue"}, "");
                 }}};
    return {nameCol, ageCol};
}

} // namespace

std::string TablePrinter::humanDuration(qint64 s)
{
    // k8s.io/apimachinery/pkg/util/duration.HumanDuration
    if (s < -1)
        return "<invalid>";
    if (s < 0)
        return "0s";
    if (s < 120)
        return std::to_string(s) + "s";
    const qint64 m = s / 60;
    if (m < 10) {
        const qint64 rs = s % 60;
        return rs == 0 ? std::to_string(m) + "m"
                       : std::to_string(m) + "m" + std::to_string(rs) + "s";
    }
    if (m < 180)
        return std::to_string(m) + "m";
    const qint64 h = s / 3600;
    if (h < 8) {
        const qint64 rm = m % 60;
        return rm == 0 ? std::to_string(h) + "h"
                       : std::to_string(h) + "h" + std::to_string(rm) + "m";
    }
    if (h < 48)
        return std::to_string(h) + "h";
    if (h < 24 * 8) {
        const qint64 rh = h % 24;
        return rh == 0 ? std::to_string(h / 24) + "d"
                       : std::to_string(h / 24) + "d" + std::to_string(rh) + "h";
    }
    if (h < 24 * 365 * 2)
        return std::to_string(h / 24) + "d";
    const qint64 y = h / 24 / 365;
    if (y < 8) {
        const qint64 d = (h / 24) % 365;
        return d == 0 ? std::to_string(y) + "y" : std::to_string(y) + "y" + std::to_string(d) + "d";
    }
    return std::to_string(y) + "y";
}

json TablePrinter::table(const ResourceType &type, const std::vector<const json *> &objects,
                         qint64 nowMs, IncludeObject include, bool withColumns)
{
    const auto cols = columnsFor(type);
    json defs = json::array();
    if (withColumns) {
        for (const auto &c : cols)
            defs.push_back(json{{"name", c.name},
                                {"type", c.type},
                                {"format", std::string(c.name) == "Name" ? "name" : ""},
                                {"description", ""},
                                {"priority", c.priority}});
    }
    json rows = json::array();
    for (const json *o : objects) {
        json cells = json::array();
        for (const auto &c : cols)
            cells.push_back(c.cell(*o, nowMs));
        json row{{"cells", cells}};
        if (include == IncludeObject::Object) {
            row["object"] = *o;
        } else if (include == IncludeObject::Metadata) {
            json meta = (*o)["metadata"];
            meta.erase("managedFields");
            row["object"] = json{{"kind", "PartialObjectMetadata"},
                                 {"apiVersion", "meta.k8s.io/v1"},
                                 {"metadata", meta}};
        }
        rows.push_back(std::move(row));
    }
    return json{{"kind", "Table"},
                {"apiVersion", "meta.k8s.io/v1"},
                {"metadata", json::object()},
                {"columnDefinitions", defs},
                {"rows", rows}};
}

} // namespace sim
