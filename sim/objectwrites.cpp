// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectwrites.h"

#include "objectfactory.h"
#include "selectors.h"
#include "simulation.h"

namespace sim {

using nlohmann::json;

namespace {

const QString kMediaTypes = QStringLiteral(
    "the body of the request was in an unknown format - accepted media types include: "
    "application/json-patch+json, application/merge-patch+json, "
    "application/strategic-merge-patch+json");

std::optional<ApiError> propagationError(const QString &policy)
{
    if (policy.isEmpty() || policy == QLatin1String("Orphan") ||
        policy == QLatin1String("Background") || policy == QLatin1String("Foreground"))
        return std::nullopt;
    return invalid(QStringLiteral("meta.k8s.io"), QStringLiteral("DeleteOptions"), QString(),
                   {{QStringLiteral("propagationPolicy"), QStringLiteral("FieldValueNotSupported"),
                     QStringLiteral("Unsupported value: \"%1\": supported values: \"Foreground\", "
                                    "\"Background\", \"Orphan\", \"nil\"")
                         .arg(policy)}});
}

// RFC 6902 as the API server's json-patch library applies it: one operation after another, and
// the first that fails answered in that library's words, as the cause of the generic 422 the
// server wraps them in (handlers/patch.go, errors.NewGenericServerResponse).
std::optional<ApiError> applyJsonPatch(json &doc, const json &patch)
{
    if (!patch.is_array())
        return ApiError{400, QStringLiteral("BadRequest"),
                        QStringLiteral("json: cannot unmarshal object into Go value of type "
                                       "jsonpatch.Patch")};
    for (const json &op : patch) {
        try {
            doc = doc.patch(json::array({op}));
        } catch (const std::exception &) {
            const std::string kind = op.is_object() ? op.value("op", std::string()) : std::string();
            const QString path = QString::fromStdString(
                op.is_object() ? op.value("path", std::string()) : std::string());
            QString why;
            if (kind == "test")
                why = QStringLiteral("testing value %1 failed: test failed").arg(path);
            else if (kind == "replace")
                why = QStringLiteral("replace operation does not apply: doc is missing key: %1: "
                                     "missing value")
                          .arg(path);
            else if (kind == "add" || kind == "remove" || kind == "move" || kind == "copy")
                why = QStringLiteral("%1 operation does not apply: doc is missing path: \"%2\": "
                                     "missing value")
                          .arg(QString::fromStdString(kind), path);
            else
                why = QStringLiteral("Unexpected kind: %1").arg(QString::fromStdString(kind));
            ApiError e{422, QStringLiteral("Invalid"),
                       QStringLiteral("the server rejected our request due to an error in our "
                                      "request")};
            e.details = {{"causes", json::array({{{"reason", "UnexpectedServerResponse"},
                                                  {"message", why.toStdString()}}})}};
            return e;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<ApiError> ObjectWrites::deleteOptions(const json &body, DeleteOptions *out)
{
    if (body.contains("gracePeriodSeconds") && body["gracePeriodSeconds"].is_number_integer())
        out->gracePeriodSeconds = body["gracePeriodSeconds"].get<qint64>();
    if (body.contains("propagationPolicy") && body["propagationPolicy"].is_string())
        out->propagationPolicy =
            QString::fromStdString(body["propagationPolicy"].get<std::string>());
    const json &pre = sub(body, "preconditions");
    if (pre.contains("uid") && pre["uid"].is_string())
        out->preconditionUid = QString::fromStdString(pre["uid"].get<std::string>());
    if (pre.contains("resourceVersion") && pre["resourceVersion"].is_string())
        out->preconditionResourceVersion =
            QString::fromStdString(pre["resourceVersion"].get<std::string>());
    if (body.contains("orphanDependents") && body["orphanDependents"].is_boolean()) {
        if (!out->propagationPolicy.isEmpty())
            return invalid(
                QStringLiteral("meta.k8s.io"), QStringLiteral("DeleteOptions"), QString(),
                {{QStringLiteral("propagationPolicy"), QStringLiteral("FieldValueInvalid"),
                  QStringLiteral("Invalid value: \"%1\": orphanDependents and "
                                 "deletionPropagation cannot be both set")
                      .arg(out->propagationPolicy)}});
        // The deprecated flag, as the registry maps it onto the two policies.
        out->propagationPolicy = body["orphanDependents"].get<bool>()
                                     ? QStringLiteral("Orphan")
                                     : QStringLiteral("Background");
    }
    if (auto e = propagationError(out->propagationPolicy))
        return e;
    QStringList dryRun;
    for (const auto &v : sub(body, "dryRun"))
        if (v.is_string())
            dryRun << QString::fromStdString(v.get<std::string>());
    return dryRunOf(dryRun, "DeleteOptions", &out->dryRun);
}

std::optional<ApiError> ObjectWrites::deleteOptionsOf(const HttpRequest &r, DeleteOptions *out)
{
    // The delete handler decodes DeleteOptions from the body when there is one, and only then
    // from the query.
    if (!r.body.trimmed().isEmpty()) {
        const json body = json::parse(r.body.toStdString(), nullptr, false);
        if (!body.is_object())
            return badRequest(QStringLiteral("the DeleteOptions in the body are not valid JSON"));
        return deleteOptions(body, out);
    }
    json body = json::object();
    bool bad = false;
    if (auto g = queryInt(r, QStringLiteral("gracePeriodSeconds"), &bad))
        body["gracePeriodSeconds"] = *g;
    if (bad)
        return badRequest(QStringLiteral("gracePeriodSeconds: invalid value: %1")
                              .arg(r.queryValue(QStringLiteral("gracePeriodSeconds"))));
    if (r.hasQuery(QStringLiteral("propagationPolicy")))
        body["propagationPolicy"] = r.queryValue(QStringLiteral("propagationPolicy")).toStdString();
    if (r.hasQuery(QStringLiteral("orphanDependents")))
        body["orphanDependents"] = queryBool(r, QStringLiteral("orphanDependents"));
    json dry = json::array();
    for (const QString &v : queryValues(r, QStringLiteral("dryRun")))
        dry.push_back(v.toStdString());
    body["dryRun"] = dry;
    return deleteOptions(body, out);
}

void ObjectWrites::create(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt)
{
    if (!rt.name.isEmpty() || !rt.subresource.isEmpty()) {
        sendError(c, methodNotAllowed());
        return;
    }
    bool dryRun = false;
    if (auto e = dryRunOf(queryValues(r, QStringLiteral("dryRun")), "CreateOptions", &dryRun)) {
        sendError(c, *e);
        return;
    }
    json body = json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object()) {
        sendError(c, badRequest(QStringLiteral("the object provided is not valid JSON")));
        return;
    }
    if (body.contains("kind") && body["kind"] != rt.type->kind.toStdString()) {
        sendError(c, badRequest(QStringLiteral("the API version in the data (%1) does not match "
                                               "the expected API version (%2)")
                                    .arg(QString::fromStdString(body.value("apiVersion", "")),
                                         rt.type->apiVersion())));
        return;
    }
    if (rt.type->namespaced) {
        const std::string bodyNs = sub(body, "metadata").value("namespace", "");
        if (!bodyNs.empty() && bodyNs != rt.ns.toStdString()) {
            sendError(c, badRequest(QStringLiteral("the namespace of the provided object does not "
                                                   "match the namespace sent on the request")));
            return;
        }
        body["metadata"]["namespace"] = rt.ns.toStdString();
    }
    if (auto refused = m_sim->admit(rt.type, body)) {
        sendError(c, *refused);
        return;
    }
    const QString manager = r.queryValue(QStringLiteral("fieldManager")).isEmpty()
                                ? QStringLiteral("kubectl-create")
                                : r.queryValue(QStringLiteral("fieldManager"));
    sendResult(c, m_store->create(rt.type, std::move(body), manager, dryRun), 201);
}

void ObjectWrites::replace(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt)
{
    bool dryRun = false;
    if (auto e = dryRunOf(queryValues(r, QStringLiteral("dryRun")), "UpdateOptions", &dryRun)) {
        sendError(c, *e);
        return;
    }
    json body = json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object() || rt.name.isEmpty()) {
        sendError(c, badRequest(QStringLiteral("the object provided is not valid JSON")));
        return;
    }
    if (sub(body, "metadata").value("name", "") != rt.name.toStdString()) {
        sendError(
            c, badRequest(QStringLiteral("the name of the object (%1) does not match the "
                                         "name on the URL (%2)")
                              .arg(QString::fromStdString(sub(body, "metadata").value("name", "")),
                                   rt.name)));
        return;
    }
    const auto current = m_store->get(rt.type, rt.ns, rt.name);
    if (!current.ok()) {
        sendError(c, *current.error);
        return;
    }
    if (rt.type->namespaced)
        body["metadata"]["namespace"] = rt.ns.toStdString();
    // With a status subresource, the main resource ignores status and /status only takes status.
    const json &old = *current.object.object;
    if (rt.subresource == QLatin1String("status")) {
        json merged = old;
        merged["status"] = sub(body, "status");
        merged["metadata"]["resourceVersion"] = body["metadata"].value("resourceVersion", "");
        body = merged;
    } else if (rt.type->subresources.contains(QStringLiteral("status"))) {
        if (old.contains("status"))
            body["status"] = old["status"];
        else
            body.erase("status");
    }
    if (rt.subresource.isEmpty()) {
        if (auto refused = m_sim->admitUpdate(rt.type, body)) {
            sendError(c, *refused);
            return;
        }
    }
    sendResult(c, m_store->update(rt.type, std::move(body), QStringLiteral("kubectl"), dryRun),
               200);
}

void ObjectWrites::patch(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt)
{
    bool dryRun = false;
    if (auto e = dryRunOf(queryValues(r, QStringLiteral("dryRun")), "PatchOptions", &dryRun)) {
        sendError(c, *e);
        return;
    }
    const auto current = m_store->get(rt.type, rt.ns, rt.name);
    if (!current.ok()) {
        sendError(c, *current.error);
        return;
    }
    const QByteArray type = r.header("content-type").split(';').first().trimmed();
    const json patchDoc = json::parse(r.body.toStdString(), nullptr, false);
    if (patchDoc.is_discarded()) {
        sendError(c, badRequest(kMediaTypes));
        return;
    }
    json patched = *current.object.object;
    try {
        if (type == "application/json-patch+json") {
            if (auto failed = applyJsonPatch(patched, patchDoc)) {
                sendError(c, *failed);
                return;
            }
        } else if (type == "application/merge-patch+json" ||
                   type == "application/strategic-merge-patch+json") {
            // Strategic merge is taken as JSON merge: lists are replaced, not merged by key.
            patched.merge_patch(patchDoc);
        } else {
            sendError(c, {415, QStringLiteral("UnsupportedMediaType"), kMediaTypes});
            return;
        }
    } catch (const std::exception &e) {
        sendError(c, {422, QStringLiteral("Invalid"),
                      QStringLiteral("the server rejected our request due to an error in our "
                                     "request: %1")
                          .arg(QString::fromUtf8(e.what()))});
        return;
    }
    const json &old = *current.object.object;
    if (rt.subresource == QLatin1String("status")) {
        json merged = old;
        merged["status"] = sub(patched, "status");
        patched = merged;
    } else if (rt.type->subresources.contains(QStringLiteral("status")) && old.contains("status")) {
        patched["status"] = old["status"];
    }
    // A patch applies to the latest version unless it names a resourceVersion itself.
    if (!patchDoc.is_object() || !sub(patchDoc, "metadata").contains("resourceVersion"))
        patched["metadata"]["resourceVersion"] = std::to_string(current.object.rv);
    patched["metadata"]["name"] = rt.name.toStdString();
    if (rt.type->namespaced)
        patched["metadata"]["namespace"] = rt.ns.toStdString();
    if (rt.subresource.isEmpty()) {
        if (auto refused = m_sim->admitUpdate(rt.type, patched)) {
            sendError(c, *refused);
            return;
        }
    }
    const QString manager = r.queryValue(QStringLiteral("fieldManager")).isEmpty()
                                ? QStringLiteral("kubectl-patch")
                                : r.queryValue(QStringLiteral("fieldManager"));
    sendResult(c, m_store->update(rt.type, std::move(patched), manager, dryRun), 200);
}

void ObjectWrites::remove(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt)
{
    if (!rt.subresource.isEmpty()) {
        sendError(c, methodNotAllowed());
        return;
    }
    DeleteOptions opts;
    if (auto e = deleteOptionsOf(r, &opts)) {
        sendError(c, *e);
        return;
    }
    if (!rt.name.isEmpty()) {
        if (auto refused = m_sim->admitDelete(rt.type, rt.ns, rt.name)) {
            // Webhooks are called for objects that exist; a missing one is a 404 first.
            const auto current = m_store->get(rt.type, rt.ns, rt.name);
            sendError(c, current.ok() ? *refused : *current.error);
            return;
        }
        sendResult(c, m_store->requestDelete(rt.type, rt.ns, rt.name, opts), 200);
        return;
    }
    // deletecollection: each selected object deleted with the same options.
    QString error;
    const auto labels = LabelSelector::parse(r.queryValue(QStringLiteral("labelSelector")), &error);
    const auto fields = labels ? FieldSelector::parse(r.queryValue(QStringLiteral("fieldSelector")),
                                                      rt.type->resource, &error)
                               : std::nullopt;
    if (!labels || !fields) {
        sendError(c, badRequest(error));
        return;
    }
    json items = json::array();
    for (const auto &o : m_store->list(rt.type, rt.ns)) {
        const json &obj = *o.object;
        if (!labels->matches(sub(obj["metadata"], "labels")) || !fields->matches(obj) ||
            m_sim->admitDelete(rt.type, ObjectStore::namespaceOf(obj), ObjectStore::nameOf(obj)))
            continue;
        const auto res = m_store->requestDelete(rt.type, ObjectStore::namespaceOf(obj),
                                                ObjectStore::nameOf(obj), opts);
        if (res.ok())
            items.push_back(*res.object.object);
    }
    sendJson(c, 200,
             json{{"kind", rt.type->listKind().toStdString()},
                  {"apiVersion", rt.type->apiVersion().toStdString()},
                  {"metadata", {{"resourceVersion", std::to_string(m_store->resourceVersion())}}},
                  {"items", items}});
}

} // namespace sim
