// SPDX-License-Identifier: GPL-3.0-or-later
#include "accessreviews.h"

#include "objectfactory.h"

namespace sim {

using nlohmann::json;

namespace {

QString text(const json &o, const char *key)
{
    return QString::fromStdString(o.value(key, std::string()));
}

ApiError invalidSpec(const QString &kind, const QString &field, const QString &body)
{
    return invalid(QStringLiteral("authorization.k8s.io"), kind, QString(),
                   {{field, QStringLiteral("FieldValueInvalid"), body}});
}

} // namespace

void AccessReviews::review(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt,
                           const UserInfo &caller) const
{
    json body = json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object() || !body.contains("spec") || !body["spec"].is_object()) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("the review provided is not valid: spec is required")});
        return;
    }
    const QString kind = rt.type->kind;
    body["apiVersion"] = "authorization.k8s.io/v1";
    body["kind"] = kind.toStdString();
    if (!body.contains("metadata") || !body["metadata"].is_object())
        body["metadata"] = json::object();
    body["metadata"]["creationTimestamp"] = nullptr;
    const json &spec = body["spec"];
    if (rt.type->resource == QLatin1String("selfsubjectrulesreviews")) {
        body["status"] = m_authz->rules(caller, text(spec, "namespace"));
        sendJson(c, 201, body);
        return;
    }
    // Whose access: the caller's own, or the subject the spec names.
    UserInfo subject = caller;
    const bool self = rt.type->resource.startsWith(QLatin1String("selfsubject"));
    if (!self) {
        subject = UserInfo{text(spec, "user"), {}};
        for (const auto &g : sub(spec, "groups"))
            if (g.is_string())
                subject.groups << QString::fromStdString(g.get<std::string>());
        if (subject.name.isEmpty() && subject.groups.isEmpty()) {
            sendError(c, invalidSpec(kind, QStringLiteral("spec.user"),
                                     QStringLiteral("Invalid value: \"\": at least one of user or "
                                                    "group must be specified")));
            return;
        }
    }
    RequestAttributes a;
    if (spec.contains("resourceAttributes") && spec.contains("nonResourceAttributes")) {
        sendError(c, invalidSpec(kind, QStringLiteral("spec.nonResourceAttributes"),
                                 QStringLiteral("Invalid value: \"\": cannot be specified in "
                                                "combination with resourceAttributes")));
        return;
    }
    if (spec.contains("resourceAttributes")) {
        const json &ra = spec["resourceAttributes"];
        a.verb = text(ra, "verb");
        a.group = text(ra, "group");
        a.resource = text(ra, "resource");
        a.subresource = text(ra, "subresource");
        a.ns = text(ra, "namespace");
        a.name = text(ra, "name");
    } else if (spec.contains("nonResourceAttributes")) {
        a.isResourceRequest = false;
        a.verb = text(spec["nonResourceAttributes"], "verb");
        a.path = text(spec["nonResourceAttributes"], "path");
    } else {
        sendError(c, invalidSpec(kind, QStringLiteral("spec.resourceAttributes"),
                                 QStringLiteral("Invalid value: \"null\": exactly one of "
                                                "nonResourceAttributes or resourceAttributes "
                                                "must be specified")));
        return;
    }
    // A LocalSubjectAccessReview asks about its own namespace only.
    if (rt.type->resource == QLatin1String("localsubjectaccessreviews")) {
        if (a.isResourceRequest && a.ns != rt.ns) {
            sendError(c, invalidSpec(kind, QStringLiteral("spec.resourceAttributes.namespace"),
                                     QStringLiteral("Invalid value: \"%1\": must match "
                                                    "metadata.namespace")
                                         .arg(a.ns)));
            return;
        }
        body["metadata"]["namespace"] = rt.ns.toStdString();
    }
    QString reason;
    const bool allowed = m_authz->allowed(subject, a, &reason);
    body["status"] = json{{"allowed", allowed}};
    if (!reason.isEmpty())
        body["status"]["reason"] = reason.toStdString();
    sendJson(c, 201, body);
}

} // namespace sim
