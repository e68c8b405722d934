// SPDX-License-Identifier: GPL-3.0-or-later
#include "openapidocs.h"

#include "apihelpers.h"
#include "httpserver.h"
#include "resourcetypes.h"

#include <QCryptographicHash>

namespace sim {

using nlohmann::json;

namespace {

bool builtIn(const QString &group)
{
    return group.isEmpty() || !group.contains(u'.') || group.endsWith(QLatin1String(".k8s.io"));
}

json gvk(const ResourceType &t)
{
    return json{{"group", t.group.toStdString()},
                {"version", t.version.toStdString()},
                {"kind", t.kind.toStdString()}};
}

json queryParam(const char *name, const char *description)
{
    return json{{"in", "query"},
                {"name", name},
                {"type", "string"},
                {"uniqueItems", true},
                {"description", description}};
}

json operation(const ResourceType &t, const QString &id, const char *action, bool writes)
{
    json op{{"operationId", id.toStdString()},
            {"x-kubernetes-action", action},
            {"x-kubernetes-group-version-kind", gvk(t)},
            {"consumes", {"*/*"}},
            {"produces", {"application/json", "application/yaml"}}};
    json params = json::array();
    if (writes)
        params.push_back(queryParam(
            "dryRun", "When present, indicates that modifications should not be persisted. Valid "
                      "values are: - All: all dry run stages will be processed"));
    if (!params.empty())
        op["parameters"] = params;
    return op;
}

// Protobuf's wire format, for the few field types gnostic's Document uses here.
class ProtoWriter
{
public:
    void string(int field, const std::string &s) { bytes(field, QByteArray::fromStdString(s)); }
    void boolean(int field, bool b)
    {
        key(field, 0);
        varint(b ? 1 : 0);
    }
    void bytes(int field, const QByteArray &b)
    {
        key(field, 2);
        varint(quint64(b.size()));
        m_out.append(b);
    }
    QByteArray take() { return std::exchange(m_out, {}); }

private:
    void key(int field, int wireType) { varint(quint64(field) << 3 | quint64(wireType)); }
    void varint(quint64 v)
    {
        while (v >= 0x80) {
            m_out.append(char(v | 0x80));
            v >>= 7;
        }
        m_out.append(char(v));
    }
    QByteArray m_out;
};

// gnostic's Named* messages, an ordered map's entry: {name 1, value 2}.
QByteArray named(const std::string &name, const QByteArray &value)
{
    ProtoWriter w;
    w.string(1, name);
    w.bytes(2, value);
    return w.take();
}

// The x-… members of `object` as NamedAny{name, Any{yaml 2}} in `field` (JSON is YAML).
void writeExtensions(ProtoWriter &w, int field, const json &object)
{
    for (const auto &[k, v] : object.items())
        if (k.rfind("x-", 0) == 0) {
            ProtoWriter any;
            any.string(2, v.dump());
            w.bytes(field, named(k, any.take()));
        }
}

QByteArray operationProto(const json &op)
{
    ProtoWriter w;
    w.string(5, op.value("operationId", ""));
    for (const auto &p : op.value("produces", json::array()))
        w.string(6, p.get<std::string>());
    for (const auto &c : op.value("consumes", json::array()))
        w.string(7, c.get<std::string>());
    for (const auto &p : op.value("parameters", json::array())) {
        // ParametersItem{parameter: Parameter{non_body_parameter: NonBodyParameter{
        //   query_parameter_sub_schema: QueryParameterSubSchema}}}
        ProtoWriter q;
        q.string(2, p.value("in", ""));
        q.string(3, p.value("description", ""));
        q.string(4, p.value("name", ""));
        q.string(6, p.value("type", ""));
        q.boolean(20, p.value("uniqueItems", false));
        ProtoWriter nonBody;
        nonBody.bytes(3, q.take());
        ProtoWriter param;
        param.bytes(2, nonBody.take());
        ProtoWriter item;
        item.bytes(1, param.take());
        w.bytes(8, item.take());
    }
    writeExtensions(w, 13, op);
    return w.take();
}

QByteArray schemaProto(const json &s)
{
    ProtoWriter w;
    if (s.contains("description"))
        w.string(4, s["description"].get<std::string>());
    for (const auto &r : s.value("required", json::array()))
        w.string(19, r.get<std::string>());
    if (s.contains("type")) {
        ProtoWriter type;
        type.string(1, s["type"].get<std::string>());
        w.bytes(22, type.take());
    }
    if (s.contains("properties")) {
        ProtoWriter props;
        for (const auto &[name, sub] : s["properties"].items())
            props.bytes(1, named(name, schemaProto(sub)));
        w.bytes(25, props.take());
    }
    writeExtensions(w, 31, s);
    return w.take();
}

QByteArray documentProto(const json &doc)
{
    ProtoWriter d;
    d.string(1, doc["swagger"].get<std::string>());
    ProtoWriter info;
    info.string(1, doc["info"]["title"].get<std::string>());
    info.string(2, doc["info"]["version"].get<std::string>());
    d.bytes(2, info.take());
    ProtoWriter paths;
    // gnostic's PathItem: get 2, put 3, post 4, delete 5, patch 8.
    static const std::pair<const char *, int> kMethods[] = {
        {"get", 2}, {"put", 3}, {"post", 4}, {"delete", 5}, {"patch", 8}};
    for (const auto &[path, item] : doc["paths"].items()) {
        ProtoWriter pi;
        for (const auto &[method, field] : kMethods)
            if (item.contains(method))
                pi.bytes(field, operationProto(item[method]));
        paths.bytes(2, named(path, pi.take()));
    }
    d.bytes(8, paths.take());
    ProtoWriter defs;
    for (const auto &[name, schema] : doc["definitions"].items()) {
        defs.bytes(1, named(name, schemaProto(schema)));
    }
    d.bytes(9, defs.take());
    return d.take();
}

json buildV2(const ResourceTypes &types)
{
    json paths = json::object();
    json definitions = json::object();
    for (const ResourceType &t : types.all()) {
        const QString prefix = t.group.isEmpty()
                                   ? QString(QStringLiteral("/api/") + t.version)
                                   : QString(QStringLiteral("/apis/") + t.group + u'/' + t.version);
        const QString collection =
            prefix +
            (t.namespaced ? QStringLiteral("/namespaces/{namespace}/") : QStringLiteral("/")) +
            t.resource;
        const QString item = collection + QStringLiteral("/{name}");
        const QString id = t.kind + (t.namespaced ? QStringLiteral("Namespaced") : QString());
        const QString statusId = id + QStringLiteral("Status");
        const QStringList &v = t.verbs;
        json coll = json::object();
        json one = json::object();
        if (v.contains(QLatin1String("list")))
            coll["get"] = operation(t, QStringLiteral("list") + id, "list", false);
        if (v.contains(QLatin1String("create")))
            coll["post"] = operation(t, QStringLiteral("create") + id, "post", true);
        if (v.contains(QLatin1String("deletecollection")))
            coll["delete"] =
                operation(t, QStringLiteral("deleteCollection") + id, "deletecollection", true);
        if (v.contains(QLatin1String("get")))
            one["get"] = operation(t, QStringLiteral("read") + id, "get", false);
        if (v.contains(QLatin1String("update")))
            one["put"] = operation(t, QStringLiteral("replace") + id, "put", true);
        if (v.contains(QLatin1String("patch")))
            one["patch"] = operation(t, QStringLiteral("patch") + id, "patch", true);
        if (v.contains(QLatin1String("delete")))
            one["delete"] = operation(t, QStringLiteral("delete") + id, "delete", true);
        if (!coll.empty())
            paths[collection.toStdString()] = coll;
        if (!one.empty())
            paths[item.toStdString()] = one;
        if (t.subresources.contains(QLatin1String("status")) && !one.empty()) {
            json status = json::object();
            status["get"] = operation(t, QStringLiteral("read") + statusId, "get", false);
            status["put"] = operation(t, QStringLiteral("replace") + statusId, "put", true);
            status["patch"] = operation(t, QStringLiteral("patch") + statusId, "patch", true);
            paths[QString(item + QStringLiteral("/status")).toStdString()] = status;
        }
        if (builtIn(t.group))
            continue;
        // A custom resource's top level, as a CRD's structural schema publishes it.
        const json object{{"type", "object"}};
        const json string{{"type", "string"}};
        json fields{{"apiVersion", string}, {"kind", string}, {"metadata", object}};
        if (t.kind == QLatin1String("Command")) { // bus.volcano.sh: no spec, no status
            fields["action"] = string;
            fields["target"] = object;
            fields["reason"] = string;
            fields["message"] = string;
        } else {
            fields["spec"] = object;
            fields["status"] = object;
        }
        const QString description = t.kind + QStringLiteral(" (") + t.apiVersion() +
                                    QStringLiteral("), served by gpudesk-sim");
        definitions[OpenApiDocs::definitionName(t.group, t.version, t.kind).toStdString()] =
            json{{"description", description.toStdString()},
                 {"type", "object"},
                 {"properties", fields},
                 {"x-kubernetes-group-version-kind", json::array({gvk(t)})}};
    }
    return json{{"swagger", "2.0"},
                {"info", {{"title", "Kubernetes"}, {"version", "v1.29.4-gpudesk-sim"}}},
                {"paths", paths},
                {"definitions", definitions}};
}

} // namespace

QString OpenApiDocs::definitionName(const QString &group, const QString &version,
                                    const QString &kind)
{
    if (builtIn(group)) {
        const QString api = group.isEmpty() ? QStringLiteral("core") : group.section(u'.', 0, 0);
        return QStringLiteral("io.k8s.api.") + api + u'.' + version + u'.' + kind;
    }
    QStringList parts = group.split(u'.');
    std::reverse(parts.begin(), parts.end());
    return parts.join(u'.') + u'.' + version + u'.' + kind;
}

OpenApiDocs::OpenApiDocs(const ResourceTypes *types)
    : m_v2(buildV2(*types)), m_v2Protobuf(documentProto(m_v2))
{}

bool OpenApiDocs::serve(HttpConnection *c, const HttpRequest &r, const QString &path) const
{
    if (path != QLatin1String("/openapi/v2"))
        return false;
    // kubectl asks for protobuf (application/com.github.proto-openapi.spec.v2@v1.0+protobuf);
    // browsers and scripts get JSON.
    const QByteArray etag = '"' +
                            QCryptographicHash::hash(m_v2Protobuf, QCryptographicHash::Sha256)
                                .toHex()
                                .left(32)
                                .toUpper() +
                            '"';
    c->addResponseHeader("ETag", etag);
    if (r.header("accept").contains("protobuf"))
        c->respond(200, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf", m_v2Protobuf);
    else
        c->respond(200, "application/json", QByteArray::fromStdString(m_v2.dump()));
    return true;
}

} // namespace sim
