// SPDX-License-Identifier: GPL-3.0-or-later
#include "serviceaccounttokens.h"

#include "objectfactory.h"
#include "simclock.h"

#include <QRandomGenerator>

namespace sim {

using nlohmann::json;

namespace {
constexpr char kTokenType[] = "kubernetes.io/service-account-token";
constexpr char kNameAnnotation[] = "kubernetes.io/service-account.name";
constexpr char kUidAnnotation[] = "kubernetes.io/service-account.uid";
// The API server's floor for TokenRequest (ValidateTokenRequest), and the simulator's ceiling
// (--service-account-max-token-expiration).
constexpr qint64 kMinSeconds = 600;
constexpr qint64 kMaxSeconds = 48 * 3600;
} // namespace

ServiceAccountTokens::ServiceAccountTokens(ObjectStore *store, Authenticator *authn,
                                           QObject *parent)
    : QObject(parent), m_store(store), m_authn(authn),
      m_accounts(store->types()->find({}, QStringLiteral("v1"), QStringLiteral("serviceaccounts"))),
      m_secrets(store->types()->find({}, QStringLiteral("v1"), QStringLiteral("secrets")))
{
    m_authn->setValidator([this](const TokenBinding &b) { return stillValid(b); });
    connect(store, &ObjectStore::changed, this, &ServiceAccountTokens::onChanged);
}

UserInfo ServiceAccountTokens::userOf(const QString &ns, const QString &serviceAccount)
{
    return {QStringLiteral("system:serviceaccount:%1:%2").arg(ns, serviceAccount),
            {QStringLiteral("system:serviceaccounts"),
             QStringLiteral("system:serviceaccounts:") + ns,
             QStringLiteral("system:authenticated")}};
}

QString ServiceAccountTokens::newToken()
{
    // Opaque and unguessable: the authenticator maps it to the account; nothing can be read
    // from it.
    QByteArray raw(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(raw.data()),
                                         reinterpret_cast<quint32 *>(raw.data() + raw.size()));
    return QStringLiteral("sim-sa.") +
           QString::fromLatin1(
               raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool ServiceAccountTokens::stillValid(const TokenBinding &b) const
{
    if (b.expiresMs > 0 && m_store->clock()->nowMs() >= b.expiresMs)
        return false;
    const auto sa = m_store->get(m_accounts, b.ns, b.serviceAccount);
    if (!sa.ok() ||
        sub(*sa.object.object, "metadata").value("uid", "") != b.serviceAccountUid.toStdString())
        return false;
    if (b.secretName.isEmpty())
        return true;
    const auto secret = m_store->get(m_secrets, b.ns, b.secretName);
    return secret.ok() &&
           sub(*secret.object.object, "metadata").value("uid", "") == b.secretUid.toStdString();
}

void ServiceAccountTokens::tokenRequest(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt)
{
    if (r.method != "POST") {
        sendError(c, methodNotAllowed());
        return;
    }
    const auto sa = m_store->get(rt.type, rt.ns, rt.name);
    if (!sa.ok()) {
        sendError(c, *sa.error);
        return;
    }
    json body = json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object())
        body = json::object();
    const json &spec = sub(body, "spec");
    const json seconds = spec.value("expirationSeconds", json(3600));
    if (!seconds.is_number_integer() || seconds.get<qint64>() < kMinSeconds) {
        const QString value = QString::fromStdString(seconds.dump());
        sendError(c, invalid(QStringLiteral("authentication.k8s.io"),
                             QStringLiteral("TokenRequest"), QString(),
                             {{QStringLiteral("spec.expirationSeconds"),
                               QStringLiteral("FieldValueInvalid"),
                               QStringLiteral("Invalid value: %1: may not specify a duration "
                                              "less than 10 minutes")
                                   .arg(value)}}));
        return;
    }
    const qint64 granted = std::min(seconds.get<qint64>(), kMaxSeconds);
    const qint64 expires = m_store->clock()->nowMs() + granted * 1000;
    const QString tok = newToken();
    TokenBinding binding;
    binding.ns = rt.ns;
    binding.serviceAccount = rt.name;
    binding.serviceAccountUid =
        QString::fromStdString(sub(*sa.object.object, "metadata").value("uid", ""));
    binding.expiresMs = expires;
    m_authn->addBoundToken(tok, userOf(rt.ns, rt.name), binding);
    const json out{
        {"kind", "TokenRequest"},
        {"apiVersion", "authentication.k8s.io/v1"},
        {"metadata",
         {{"name", rt.name.toStdString()},
          {"namespace", rt.ns.toStdString()},
          {"creationTimestamp", nullptr}}},
        {"spec",
         {{"audiences", spec.value("audiences", json::array({"https://kubernetes.default.svc"}))},
          {"expirationSeconds", granted},
          {"boundObjectRef", spec.value("boundObjectRef", json())}}},
        {"status",
         {{"token", tok.toStdString()}, {"expirationTimestamp", SimClock::rfc3339(expires)}}}};
    sendJson(c, 201, out);
}

void ServiceAccountTokens::onChanged(const ResourceType *type, const WatchEvent &ev)
{
    // The token controller works from its informers, after the write: queued, never inside the
    // store's own notification.
    const json &o = *ev.object.object;
    const QString ns = ObjectStore::namespaceOf(o);
    const QString name = ObjectStore::nameOf(o);
    if (type == m_secrets && ev.type == "ADDED" && str(o, "type") == kTokenType) {
        QMetaObject::invokeMethod(
            this, [this, ns, name] { fillSecret(ns, name); }, Qt::QueuedConnection);
    } else if (type == m_accounts && ev.type == "DELETED") {
        QMetaObject::invokeMethod(
            this, [this, ns, name] { deleteSecretsOf(ns, name); }, Qt::QueuedConnection);
    }
}

void ServiceAccountTokens::fillSecret(const QString &ns, const QString &name)
{
    const auto secret = m_store->get(m_secrets, ns, name);
    if (!secret.ok())
        return;
    json s = *secret.object.object;
    if (sub(s, "data").contains("token"))
        return;
    const QString account = QString::fromStdString(
        sub(sub(s, "metadata"), "annotations").value(kNameAnnotation, std::string()));
    const auto sa = m_store->get(m_accounts, ns, account);
    if (account.isEmpty() || !sa.ok()) {
        // The controller deletes a token Secret whose account does not exist.
        m_store->requestDelete(m_secrets, ns, name, {});
        return;
    }
    const std::string saUid = sub(*sa.object.object, "metadata").value("uid", "");
    const QString tok = newToken();
    auto b64 = [](const QByteArray &v) { return v.toBase64().toStdString(); };
    s["metadata"]["annotations"][kUidAnnotation] = saUid;
    s["data"]["token"] = b64(tok.toUtf8());
    s["data"]["ca.crt"] = b64(m_caPem);
    s["data"]["namespace"] = b64(ns.toUtf8());
    const auto written = m_store->update(m_secrets, s, QStringLiteral("kube-controller-manager"));
    if (!written.ok())
        return;
    TokenBinding binding;
    binding.ns = ns;
    binding.serviceAccount = account;
    binding.serviceAccountUid = QString::fromStdString(saUid);
    binding.secretName = name;
    binding.secretUid =
        QString::fromStdString(sub(*written.object.object, "metadata").value("uid", ""));
    m_authn->addBoundToken(tok, userOf(ns, account), binding);
}

void ServiceAccountTokens::deleteSecretsOf(const QString &ns, const QString &serviceAccount)
{
    for (const auto &stored : m_store->list(m_secrets, ns)) {
        const json &s = *stored.object;
        if (str(s, "type") == kTokenType && str(sub(sub(s, "metadata"), "annotations"),
                                                kNameAnnotation) == serviceAccount.toStdString())
            m_store->requestDelete(m_secrets, ns, ObjectStore::nameOf(s), {});
    }
}

} // namespace sim
