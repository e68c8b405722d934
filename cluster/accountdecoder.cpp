// SPDX-License-Identifier: GPL-3.0-or-later
#include "accountdecoder.h"
#include "boundedjson.h"

#include "decoder.h"
#include "jsonfields.h"

#include <nlohmann/json.hpp>

namespace gpudesk {

using nlohmann::json;

namespace {

using namespace jsonfields;

qint64 created(const json &meta)
{
    return Decoder::timestamp(text(meta, "creationTimestamp"));
}

// The items of a list, or an error naming what came instead.
const json *items(const json &doc, QString *error)
{
    if (!doc.is_object() || !member(doc, "items").is_array()) {
        *error = doc.is_discarded() ? QStringLiteral("the answer is not JSON")
                                    : QStringLiteral("the answer is not a list (%1)")
                                          .arg(text(doc, "kind").isEmpty() ? QStringLiteral("?")
                                                                           : text(doc, "kind"));
        return nullptr;
    }
    error->clear();
    return &doc["items"];
}

json parse(const QByteArray &body)
{
    return parseBoundedJson(body);
}

ServiceAccountInfo serviceAccountOf(const json &o)
{
    const json &meta = member(o, "metadata");
    return {text(meta, "uid"), text(meta, "namespace"), text(meta, "name"),
            stringMap(member(meta, "labels")), created(meta)};
}

} // namespace

std::optional<NamespaceObject> AccountDecoder::namespaceObject(const QByteArray &object)
{
    const json o = parse(object);
    const json &meta = member(o, "metadata");
    if (text(meta, "name").isEmpty())
        return std::nullopt;
    NamespaceObject n;
    n.uid = text(meta, "uid");
    n.name = text(meta, "name");
    n.phase = text(member(o, "status"), "phase");
    if (member(meta, "deletionTimestamp").is_string())
        n.phase = QStringLiteral("Terminating");
    n.labels = stringMap(member(meta, "labels"));
    n.annotations = stringMap(member(meta, "annotations"));
    return n;
}

std::optional<ServiceAccountInfo> AccountDecoder::serviceAccount(const QByteArray &object)
{
    const json o = parse(object);
    if (text(member(o, "metadata"), "name").isEmpty())
        return std::nullopt;
    return serviceAccountOf(o);
}

QStringList AccountDecoder::names(const QByteArray &list, QString *error)
{
    QStringList out;
    const json doc = parse(list);
    if (const json *all = items(doc, error))
        for (const json &o : *all)
            out.append(text(member(o, "metadata"), "name"));
    out.removeAll(QString());
    return out;
}

QList<ServiceAccountInfo> AccountDecoder::serviceAccounts(const QByteArray &list, QString *error)
{
    QList<ServiceAccountInfo> out;
    const json doc = parse(list);
    if (const json *all = items(doc, error))
        for (const json &o : *all)
            out.append(serviceAccountOf(o));
    return out;
}

QList<RoleBindingInfo> AccountDecoder::roleBindings(const QByteArray &list, QString *error)
{
    QList<RoleBindingInfo> out;
    const json doc = parse(list);
    const json *all = items(doc, error);
    if (!all)
        return out;
    for (const json &o : *all) {
        const json &meta = member(o, "metadata");
        RoleBindingInfo b;
        b.uid = text(meta, "uid");
        b.ns = text(meta, "namespace");
        b.name = text(meta, "name");
        b.labels = stringMap(member(meta, "labels"));
        b.roleKind = text(member(o, "roleRef"), "kind");
        b.roleName = text(member(o, "roleRef"), "name");
        for (const json &s : member(o, "subjects"))
            b.subjects.append({text(s, "kind"), text(s, "name"), text(s, "namespace")});
        out.append(b);
    }
    return out;
}

QList<QuotaObject> AccountDecoder::quotas(const QByteArray &list, QString *error)
{
    QList<QuotaObject> out;
    const json doc = parse(list);
    const json *all = items(doc, error);
    if (!all)
        return out;
    for (const json &o : *all) {
        const json &meta = member(o, "metadata");
        QuotaObject q;
        // The quota itself as the cluster's store reads it; what follows is the accounts' own.
        q.quota = Decoder::decode<ResourceQuotaInfo>(Resource::ResourceQuotas, o);
        q.appliedHard = text(member(meta, "annotations"), "gpudesk.io/hard");
        // The manager of the newest write that touched spec (the API keeps one entry per
        // manager and operation): who edited the limits last.
        QString newest;
        for (const json &f : member(meta, "managedFields")) {
            const json &fields = member(f, "fieldsV1");
            if (!fields.contains("f:spec"))
                continue;
            const QString t = text(f, "time");
            if (t >= newest) {
                newest = t;
                q.lastManager = text(f, "manager");
            }
        }
        out.append(q);
    }
    return out;
}

QList<LimitRangeInfo> AccountDecoder::limitRanges(const QByteArray &list, QString *error)
{
    QList<LimitRangeInfo> out;
    const json doc = parse(list);
    const json *all = items(doc, error);
    if (!all)
        return out;
    for (const json &o : *all)
        out.append(Decoder::decode<LimitRangeInfo>(Resource::LimitRanges, o));
    return out;
}

QList<TokenSecretInfo> AccountDecoder::tokenSecrets(const QByteArray &list, QString *error)
{
    QList<TokenSecretInfo> out;
    const json doc = parse(list);
    const json *all = items(doc, error);
    if (!all)
        return out;
    for (const json &o : *all) {
        if (text(o, "type") != QLatin1String("kubernetes.io/service-account-token"))
            continue;
        const json &meta = member(o, "metadata");
        TokenSecretInfo t;
        t.uid = text(meta, "uid");
        t.name = text(meta, "name");
        t.serviceAccount = text(member(meta, "annotations"), "kubernetes.io/service-account.name");
        t.filled = !text(member(o, "data"), "token").isEmpty();
        t.created = created(meta);
        out.append(t);
    }
    return out;
}

QList<PvcInfo> AccountDecoder::pvcs(const QByteArray &list, QString *error)
{
    QList<PvcInfo> out;
    const json doc = parse(list);
    const json *all = items(doc, error);
    if (!all)
        return out;
    for (const json &o : *all) {
        const json &meta = member(o, "metadata");
        const json &spec = member(o, "spec");
        PvcInfo p;
        p.uid = text(meta, "uid");
        p.name = text(meta, "name");
        p.storageClass = text(spec, "storageClassName");
        p.phase = text(member(o, "status"), "phase");
        const auto bytes =
            amounts(member(member(spec, "resources"), "requests")).value(QStringLiteral("storage"));
        p.requestBytes = bytes / 1000;
        out.append(p);
    }
    return out;
}

std::optional<AccountDecoder::IssuedToken> AccountDecoder::tokenRequest(const QByteArray &answer)
{
    const json o = parse(answer);
    const json &status = member(o, "status");
    const QString token = text(status, "token");
    if (token.isEmpty())
        return std::nullopt;
    IssuedToken t;
    t.token = token.toUtf8();
    t.expires = QDateTime::fromString(text(status, "expirationTimestamp"), Qt::ISODate);
    const json &spec = member(o, "spec");
    if (spec.contains("expirationSeconds") && spec["expirationSeconds"].is_number_integer())
        t.grantedSeconds = std::max<qint64>(0, spec["expirationSeconds"].get<qint64>());
    return t;
}

std::optional<AccountDecoder::IssuedToken> AccountDecoder::secretToken(const QByteArray &secret,
                                                                       QByteArray *caPem)
{
    const json o = parse(secret);
    const json &data = member(o, "data");
    const QByteArray token = QByteArray::fromBase64(text(data, "token").toLatin1());
    if (token.isEmpty())
        return std::nullopt;
    if (caPem)
        *caPem = QByteArray::fromBase64(text(data, "ca.crt").toLatin1());
    return IssuedToken{token, {}};
}

AccountDecoder::AccessAnswer AccountDecoder::accessReview(const QByteArray &answer)
{
    AccessAnswer a;
    const json o = parse(answer);
    const json &status = member(o, "status");
    if (!status.is_object() || !member(status, "allowed").is_boolean()) {
        a.error = QStringLiteral("the answer is not an access review");
        return a;
    }
    a.allowed = member(status, "allowed").get<bool>();
    a.denied = member(status, "denied") == json(true);
    a.reason = text(status, "reason");
    if (a.reason.isEmpty())
        a.reason = text(status, "evaluationError");
    return a;
}

} // namespace gpudesk
