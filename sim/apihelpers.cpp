// SPDX-License-Identifier: GPL-3.0-or-later
#include "apihelpers.h"

namespace sim {

using nlohmann::json;

namespace {

// Go's %q for plain text: quotes, with the backslash and quote escaped.
QString goQuote(const QString &s)
{
    QString out = QStringLiteral("\"");
    for (const QChar c : s) {
        if (c == u'"' || c == u'\\')
            out += u'\\';
        out += c;
    }
    return out + u'"';
}

} // namespace

QByteArray jsonBytes(const json &j)
{
    return QByteArray::fromStdString(j.dump());
}

json statusObject(const ApiError &e)
{
    json s{{"kind", "Status"},
           {"apiVersion", "v1"},
           {"metadata", json::object()},
           {"status", "Failure"},
           {"message", e.message.toStdString()},
           {"reason", e.reason.toStdString()},
           {"code", e.code}};
    if (e.reason.isEmpty())
        s.erase("reason"); // a Status built by hand (eviction's 500) names no reason
    if (!e.details.is_null())
        s["details"] = e.details;
    return s;
}

void sendJson(HttpConnection *c, int code, const json &body)
{
    c->respond(code, "application/json", jsonBytes(body));
}

void sendError(HttpConnection *c, const ApiError &e)
{
    sendJson(c, e.code, statusObject(e));
}

void sendResult(HttpConnection *c, const StoreResult &res, int code)
{
    if (res.ok())
        c->respond(code, "application/json", res.object.bytes);
    else
        sendError(c, *res.error);
}

std::optional<qint64> queryInt(const HttpRequest &r, const QString &key, bool *bad)
{
    if (!r.hasQuery(key))
        return std::nullopt;
    bool ok = false;
    const qint64 v = r.queryValue(key).toLongLong(&ok);
    if (!ok)
        *bad = true;
    return v;
}

bool queryBool(const HttpRequest &r, const QString &key)
{
    static const QStringList yes{QStringLiteral("1"),    QStringLiteral("t"),
                                 QStringLiteral("T"),    QStringLiteral("true"),
                                 QStringLiteral("True"), QStringLiteral("TRUE")};
    return yes.contains(r.queryValue(key));
}

QStringList queryValues(const HttpRequest &r, const QString &key)
{
    return r.query.allQueryItemValues(key, QUrl::FullyDecoded);
}

ApiError methodNotAllowed()
{
    return {405, QStringLiteral("MethodNotAllowed"),
            QStringLiteral("the server does not allow this method on the requested resource")};
}

ApiError badRequest(const QString &message)
{
    return {400, QStringLiteral("BadRequest"), message};
}

ApiError invalid(const QString &group, const QString &kind, const QString &name,
                 const std::vector<FieldError> &errors)
{
    // errors.NewInvalid: "<Kind>.<group> \"name\" is invalid: field: body[, field: body]".
    QStringList parts;
    json causes = json::array();
    for (const auto &e : errors) {
        parts << e.field + QStringLiteral(": ") + e.body;
        causes.push_back(json{{"reason", e.type.toStdString()},
                              {"message", e.body.toStdString()},
                              {"field", e.field.toStdString()}});
    }
    const QString qualified = group.isEmpty() ? kind : kind + u'.' + group;
    const QString all = parts.size() == 1 ? parts.first()
                                          : QStringLiteral("[") + parts.join(QStringLiteral(", ")) +
                                                QStringLiteral("]");
    json details{{"kind", kind.toStdString()}, {"causes", causes}};
    if (!name.isEmpty())
        details["name"] = name.toStdString();
    if (!group.isEmpty())
        details["group"] = group.toStdString();
    return {422, QStringLiteral("Invalid"),
            QStringLiteral("%1 %2 is invalid: %3").arg(qualified, goQuote(name), all), details};
}

std::optional<ApiError> dryRunOf(const QStringList &values, const char *optionsKind, bool *dryRun)
{
    *dryRun = false;
    bool unknown = false;
    for (const QString &v : values)
        unknown |= v != QLatin1String("All");
    if (!unknown) {
        *dryRun = !values.isEmpty();
        return std::nullopt;
    }
    // field.NotSupported with the []string value printed by %#v.
    QStringList quoted;
    for (const QString &v : values)
        quoted << goQuote(v);
    const QString body = QStringLiteral("Unsupported value: []string{%1}: supported values: "
                                        "\"All\"")
                             .arg(quoted.join(QStringLiteral(", ")));
    return invalid(QStringLiteral("meta.k8s.io"), QString::fromLatin1(optionsKind), QString(),
                   {{QStringLiteral("dryRun"), QStringLiteral("FieldValueNotSupported"), body}});
}

} // namespace sim
