// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "httpserver.h"
#include "objectstore.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QString>

#include <optional>

namespace sim {

// A request's resource path, as the API server's request info parses it.
struct ApiRoute
{
    const ResourceType *type = nullptr;
    QString ns;
    QString name;
    QString subresource;
    bool watchPath = false;
};

QByteArray jsonBytes(const nlohmann::json &j);
// The metav1.Status of a failed request.
nlohmann::json statusObject(const ApiError &error);
void sendJson(HttpConnection *c, int code, const nlohmann::json &body);
void sendError(HttpConnection *c, const ApiError &error);
void sendResult(HttpConnection *c, const StoreResult &result, int code);

std::optional<qint64> queryInt(const HttpRequest &r, const QString &key, bool *bad);
// As Go's strconv.ParseBool, which the API server uses ("true", "True", "1", …).
bool queryBool(const HttpRequest &r, const QString &key);

ApiError methodNotAllowed();
ApiError badRequest(const QString &message);

// One field error of a validation, as k8s.io/apimachinery/pkg/util/validation/field renders it:
// "Unsupported value: \"x\": supported values: \"a\", \"b\"" for `field`.
struct FieldError
{
    QString field;
    QString type; // FieldValueNotSupported, FieldValueInvalid, FieldValueRequired, …
    QString body; // the error without the field name
};
// 422 Invalid for `qualifiedKind` "name" (StatusReasonInvalid, with details.causes), as
// errors.NewInvalid builds it.
ApiError invalid(const QString &group, const QString &kind, const QString &name,
                 const std::vector<FieldError> &errors);

// The dryRun query parameter of a write, validated as ValidateCreateOptions (and the Update,
// Patch and Delete variants) do: only "All" is known. `optionsKind` names the options type in
// the error ("CreateOptions", "UpdateOptions", "PatchOptions", "DeleteOptions").
std::optional<ApiError> dryRunOf(const QStringList &values, const char *optionsKind, bool *dryRun);
QStringList queryValues(const HttpRequest &r, const QString &key);

} // namespace sim
