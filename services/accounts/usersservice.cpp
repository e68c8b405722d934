// SPDX-License-Identifier: GPL-3.0-or-later
#include "usersservice.h"

#include "accountdecoder.h"
#include "clustersession.h"
#include "contextconnection.h"
#include "kubeclient.h"
#include "kubeconfigwriter.h"
#include "operationsservice.h"

#include <QJsonObject>
#include <QPointer>
#include <QRandomGenerator>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <memory>

namespace gpudesk {

namespace {

using json = nlohmann::json;

QString core(const QString &ns, const QString &plural)
{
    return QStringLiteral("/api/v1/namespaces/%1/%2").arg(ns, plural);
}

QString rbac(const QString &ns, const QString &plural)
{
    return ns.isEmpty() ? QStringLiteral("/apis/rbac.authorization.k8s.io/v1/") + plural
                        : QStringLiteral("/apis/rbac.authorization.k8s.io/v1/namespaces/%1/%2")
                              .arg(ns, plural);
}

QString serviceAccountUser(const QString &ns, const QString &sa)
{
    return QStringLiteral("system:serviceaccount:%1:%2").arg(ns, sa);
}

} // namespace

UsersService::UsersService(ClusterSession *session, OperationsService *operations, QObject *parent)
    : QObject(parent), m_session(session), m_operations(operations)
{}

UserPlanner UsersService::planner() const
{
    return UserPlanner(m_operations->planner());
}

QString UsersService::context() const
{
    return m_session->context();
}

QueuePlanner UsersService::queuePlanner() const
{
    return QueuePlanner(m_operations->planner());
}

void UsersService::inspect(const QString &ns, QObject *context, InspectDone done)
{
    const auto &connection = m_session->connection();
    auto result = std::make_shared<UserObjects>();
    result->ns = ns;
    if (!connection) {
        result->unreadable << tr("not connected");
        done(*result);
        return;
    }
    KubeClient *client = connection->client();
    struct Read
    {
        QString path;
        QString what;
        std::function<void(const QByteArray &, UserObjects &, QString *)> decode;
    };
    const QList<Read> reads{
        {QStringLiteral("/api/v1/namespaces/") + ns, QStringLiteral("namespace"),
         [](const QByteArray &b, UserObjects &u, QString *e) {
             u.namespaceObject = AccountDecoder::namespaceObject(b);
             if (!u.namespaceObject)
                 *e = QStringLiteral("not a namespace");
         }},
        {core(ns, QStringLiteral("serviceaccounts")), QStringLiteral("serviceaccounts"),
         [](const QByteArray &b, UserObjects &u, QString *e) {
             u.serviceAccounts = AccountDecoder::serviceAccounts(b, e);
         }},
        {rbac(ns, QStringLiteral("rolebindings")), QStringLiteral("rolebindings"),
         [](const QByteArray &b, UserObjects &u, QString *e) {
             u.roleBindings = AccountDecoder::roleBindings(b, e);
         }},
        {core(ns, QStringLiteral("resourcequotas")), QStringLiteral("resourcequotas"),
         [](const QByteArray &b, UserObjects &u, QString *e) {
             u.quotas = AccountDecoder::quotas(b, e);
         }},
        {core(ns, QStringLiteral("limitranges")), QStringLiteral("limitranges"),
         [](const QByteArray &b, UserObjects &u, QString *e) {
             u.limitRanges = AccountDecoder::limitRanges(b, e);
         }},
        {core(ns, QStringLiteral("secrets")), QStringLiteral("secrets"),
         [](const QByteArray &b, UserObjects &u, QString *e) {
             u.tokenSecrets = AccountDecoder::tokenSecrets(b, e);
         }},
        {core(ns, QStringLiteral("persistentvolumeclaims")),
         QStringLiteral("persistentvolumeclaims"),
         [](const QByteArray &b, UserObjects &u, QString *e) {
             u.pvcs = AccountDecoder::pvcs(b, e);
         }},
        {rbac({}, QStringLiteral("clusterrolebindings")), QStringLiteral("clusterrolebindings"),
         [](const QByteArray &b, UserObjects &u, QString *e) {
             // Only those that name the user or its ServiceAccount; the user's name is known
             // once the namespace is read, so they are filtered at the end.
             u.clusterRoleBindings = AccountDecoder::roleBindings(b, e);
         }},
    };
    auto pending = std::make_shared<int>(int(reads.size()));
    QPointer<QObject> guard(context);
    auto finish = [result, guard, done, ns] {
        if (!guard)
            return;
        UserObjects &u = *result;
        if (u.namespaceObject)
            u.user = u.namespaceObject->label(QStringLiteral("gpudesk.io/user"));
        if (u.user.isEmpty())
            u.user = ns.startsWith(QLatin1String("user-")) ? ns.mid(5) : ns;
        QList<RoleBindingInfo> naming;
        for (const RoleBindingInfo &b : std::as_const(u.clusterRoleBindings))
            for (const Subject &s : b.subjects)
                if ((s.kind == QLatin1String("User") && s.name == u.user) ||
                    (s.kind == QLatin1String("ServiceAccount") && s.ns == ns)) {
                    naming << b;
                    break;
                }
        u.clusterRoleBindings = naming;
        done(u);
    };
    for (const Read &read : reads) {
        client->get(read.path, this, [result, pending, finish, read](const KubeReply &r) {
            QString error;
            if (r.ok())
                read.decode(r.body, *result, &error);
            else if (!(read.what == QLatin1String("namespace") && r.notFound()))
                error = r.error;
            if (!error.isEmpty())
                result->unreadable << read.what + QStringLiteral(": ") + error;
            if (--*pending == 0)
                finish();
        });
    }
}

QList<UsersService::AccessCheck> UsersService::accessChecks()
{
    return {
        {tr("create pods"), QStringLiteral("create"), {}, QStringLiteral("pods"), {}, true},
        {tr("open a shell in pods (exec)"),
         QStringLiteral("create"),
         {},
         QStringLiteral("pods"),
         QStringLiteral("exec"),
         true},
        {tr("forward ports of pods (Jupyter, SSH)"),
         QStringLiteral("create"),
         {},
         QStringLiteral("pods"),
         QStringLiteral("portforward"),
         true},
        {tr("read pod logs"),
         QStringLiteral("get"),
         {},
         QStringLiteral("pods"),
         QStringLiteral("log"),
         true},
        {tr("submit Volcano jobs"),
         QStringLiteral("create"),
         QStringLiteral("batch.volcano.sh"),
         QStringLiteral("jobs"),
         {},
         true},
        {tr("submit PyTorchJobs"),
         QStringLiteral("create"),
         QStringLiteral("kubeflow.org"),
         QStringLiteral("pytorchjobs"),
         {},
         true},
        {tr("submit MPIJobs"),
         QStringLiteral("create"),
         QStringLiteral("kubeflow.org"),
         QStringLiteral("mpijobs"),
         {},
         true},
        {tr("read their quota"),
         QStringLiteral("get"),
         {},
         QStringLiteral("resourcequotas"),
         {},
         true},
        {tr("read nodes"), QStringLiteral("list"), {}, QStringLiteral("nodes"), {}, false},
        {tr("read VCs (queues)"),
         QStringLiteral("list"),
         QStringLiteral("scheduling.volcano.sh"),
         QStringLiteral("queues"),
         {},
         false},
        {tr("read other users' pods"),
         QStringLiteral("list"),
         {},
         QStringLiteral("pods"),
         {},
         false},
    };
}

void UsersService::reviewAccess(const QString &ns, const QString &sa, QObject *context,
                                std::function<void(const QList<AccessResult> &)> done)
{
    const auto &connection = m_session->connection();
    const QList<AccessCheck> checks = accessChecks();
    auto results = std::make_shared<QList<AccessResult>>();
    for (const AccessCheck &c : checks)
        results->append(AccessResult{c, false, {}, {}});
    if (!connection) {
        for (AccessResult &r : *results)
            r.error = tr("not connected");
        done(*results);
        return;
    }
    auto pending = std::make_shared<int>(int(checks.size()));
    QPointer<QObject> guard(context);
    for (int i = 0; i < checks.size(); ++i) {
        const AccessCheck &c = checks[i];
        json attributes{{"verb", c.verb.toStdString()}, {"resource", c.resource.toStdString()}};
        if (!c.group.isEmpty())
            attributes["group"] = c.group.toStdString();
        if (!c.subresource.isEmpty())
            attributes["subresource"] = c.subresource.toStdString();
        if (c.namespaced)
            attributes["namespace"] = ns.toStdString();
        // The groups the API server gives a ServiceAccount's token.
        const json review{
            {"apiVersion", "authorization.k8s.io/v1"},
            {"kind", "SubjectAccessReview"},
            {"spec",
             {{"user", serviceAccountUser(ns, sa).toStdString()},
              {"groups",
               json::array({"system:serviceaccounts",
                            QStringLiteral("system:serviceaccounts:%1").arg(ns).toStdString(),
                            "system:authenticated"})},
              {"resourceAttributes", attributes}}}};
        connection->client()->create(
            QStringLiteral("/apis/authorization.k8s.io/v1/subjectaccessreviews"),
            QByteArray::fromStdString(review.dump()), false, this,
            [results, pending, guard, done, i](const KubeReply &r) {
                AccessResult &out = (*results)[i];
                if (!r.ok()) {
                    out.error = r.error;
                } else {
                    const auto a = AccountDecoder::accessReview(r.body);
                    out.allowed = a.allowed;
                    out.reason = a.reason;
                    out.error = a.error;
                }
                if (--*pending == 0 && guard)
                    done(*results);
            });
    }
}

void UsersService::clusterRoles(QObject *context,
                                std::function<void(const QStringList &, const QString &)> done)
{
    const auto &connection = m_session->connection();
    if (!connection) {
        done({}, tr("not connected"));
        return;
    }
    QPointer<QObject> guard(context);
    connection->client()->get(
        rbac({}, QStringLiteral("clusterroles")), this, [guard, done](const KubeReply &r) {
            if (!guard)
                return;
            QString error = r.error;
            QStringList names;
            if (r.ok())
                names = AccountDecoder::names(r.body, &error);
            names.removeIf([](const QString &n) { return n.startsWith(QLatin1String("system:")); });
            names.sort();
            done(names, error);
        });
}

void UsersService::waitForSecret(
    const QString &path, int attempt, QObject *context,
    std::function<void(const QByteArray &, const QByteArray &, const QString &)> done)
{
    const auto &connection = m_session->connection();
    if (!connection) {
        done({}, {}, tr("not connected"));
        return;
    }
    QPointer<QObject> guard(context);
    connection->client()->get(path, this, [this, path, attempt, guard, done](const KubeReply &r) {
        if (!guard)
            return;
        if (!r.ok()) {
            done({}, {}, r.error);
            return;
        }
        QByteArray ca;
        if (const auto t = AccountDecoder::secretToken(r.body, &ca)) {
            done(t->token, ca, {});
            return;
        }
        // The token controller fills the Secret moments after it is made.
        if (attempt >= 20) {
            done({}, {}, tr("the token controller did not fill the Secret within 10 s"));
            return;
        }
        QTimer::singleShot(500, this, [this, path, attempt, guard, done] {
            if (guard)
                waitForSecret(path, attempt + 1, guard, done);
        });
    });
}

namespace {

// "2 days", "12 hours", "45 minutes": a token's lifetime in words.
QString durationText(qint64 seconds)
{
    if (seconds >= 2 * 86400 && seconds % 86400 == 0)
        return UsersService::tr("%n day(s)", nullptr, int(seconds / 86400));
    if (seconds >= 3600)
        return UsersService::tr("%n hour(s)", nullptr, int(seconds / 3600));
    return UsersService::tr("%n minute(s)", nullptr, int(seconds / 60));
}

} // namespace

void UsersService::handOutKubeconfig(const KubeconfigRequest &request, QObject *context,
                                     std::function<void(const KubeconfigResult &)> done)
{
    const auto &connection = m_session->connection();
    if (!connection) {
        done({tr("not connected"), {}, {}, {}});
        return;
    }
    QPointer<QObject> guard(context);
    const QString saPath =
        core(request.ns, QStringLiteral("serviceaccounts")) + u'/' + request.serviceAccount;
    auto fail = [guard, done](const QString &error) {
        if (guard)
            done({error, {}, {}, {}});
    };
    if (!request.longLived) {
        const json body{{"apiVersion", "authentication.k8s.io/v1"},
                        {"kind", "TokenRequest"},
                        {"spec", {{"expirationSeconds", request.expirationSeconds}}}};
        connection->client()->create(
            saPath + QStringLiteral("/token"), QByteArray::fromStdString(body.dump()), false, this,
            [this, request, guard, done, fail](const KubeReply &r) {
                if (!guard)
                    return;
                const auto t = r.ok() ? AccountDecoder::tokenRequest(r.body) : std::nullopt;
                if (!t) {
                    fail(r.ok() ? tr("the server's answer holds no token") : r.error);
                    return;
                }
                // A server caps what it grants (--service-account-max-token-expiration): a
                // kubeconfig asked for 7 days may be good for 2 — said, not found out then.
                QString shortened;
                if (t->grantedSeconds > 0 && t->grantedSeconds < request.expirationSeconds)
                    shortened = tr("The server granted %1, not the %2 asked for: it caps the "
                                   "tokens it issues.")
                                    .arg(durationText(t->grantedSeconds),
                                         durationText(request.expirationSeconds));
                writeKubeconfig(request, t->token, {}, t->expires,
                                [done, shortened](KubeconfigResult r) {
                                    r.shortened = shortened;
                                    done(r);
                                });
            });
        return;
    }
    // A token Secret: made with a random suffix, filled by the token controller.
    static constexpr char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    QString suffix;
    for (int i = 0; i < 5; ++i)
        suffix +=
            QLatin1Char(alphabet[QRandomGenerator::global()->bounded(int(sizeof alphabet - 1))]);
    const QString name = request.serviceAccount + QStringLiteral("-token-") + suffix;
    const json secret{
        {"apiVersion", "v1"},
        {"kind", "Secret"},
        {"type", "kubernetes.io/service-account-token"},
        {"metadata",
         {{"name", name.toStdString()},
          {"namespace", request.ns.toStdString()},
          {"labels", {{"gpudesk.io/user", request.serviceAccount.toStdString()}}},
          {"annotations",
           {{"kubernetes.io/service-account.name", request.serviceAccount.toStdString()}}}}}};
    const QString secretPath = core(request.ns, QStringLiteral("secrets")) + u'/' + name;
    connection->client()->create(
        core(request.ns, QStringLiteral("secrets")), QByteArray::fromStdString(secret.dump()),
        false, this, [this, request, secretPath, guard, done, fail](const KubeReply &r) {
            if (!guard)
                return;
            if (!r.ok()) {
                fail(r.error);
                return;
            }
            waitForSecret(secretPath, 0, guard,
                          [this, request, done, fail](const QByteArray &token, const QByteArray &ca,
                                                      const QString &error) {
                              if (!error.isEmpty())
                                  fail(error);
                              else
                                  writeKubeconfig(request, token, ca, {}, done);
                          });
        });
}

void UsersService::writeKubeconfig(const KubeconfigRequest &request, const QByteArray &token,
                                   const QByteArray &caPem, const QDateTime &expires,
                                   std::function<void(const KubeconfigResult &)> done)
{
    const auto connection = m_session->connection();
    if (!connection) {
        done({tr("not connected"), {}, {}, {}});
        return;
    }
    // The server must take the token before anyone is handed it.
    const QByteArray review =
        QByteArrayLiteral(
            R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview",)"
            R"("spec":{"resourceAttributes":{"verb":"list","resource":"pods","namespace":")") +
        request.ns.toUtf8() + QByteArrayLiteral(R"("}}})");
    connection->client()->sendAs(
        token, "POST", QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"),
        review, this, [this, connection, request, token, caPem, expires, done](const KubeReply &r) {
            if (!r.ok()) {
                done({tr("the server does not accept the new token (%1): nothing was written")
                          .arg(r.error),
                      {},
                      {},
                      {}});
                return;
            }
            const ClusterEndpoint &endpoint = connection->endpoint();
            KubeconfigWriter::Entry e;
            e.clusterName = connection->context();
            e.userName = request.serviceAccount;
            e.ns = request.ns;
            e.token = token;
            e.caPem = caPem;
            KubeconfigResult result;
            result.path = request.path;
            result.expires = expires;
            result.context = e.userName + u'@' + e.clusterName;
            result.error =
                KubeconfigWriter::writePrivate(request.path, KubeconfigWriter::yaml(endpoint, e));
            QJsonObject details{{QStringLiteral("namespace"), request.ns},
                                {QStringLiteral("serviceAccount"), request.serviceAccount},
                                {QStringLiteral("file"), request.path},
                                {QStringLiteral("longLived"), request.longLived}};
            if (expires.isValid())
                details.insert(QStringLiteral("expires"), expires.toUTC().toString(Qt::ISODate));
            QString auditError;
            m_operations->audit().append(
                AuditLog::done(m_operations->who(), connection->context(), endpoint.server,
                               QStringLiteral("user.kubeconfig"),
                               tr("Kubeconfig for %1").arg(request.serviceAccount),
                               result.error.isEmpty() ? tr("written") : result.error, details),
                &auditError);
            done(result);
        });
}

} // namespace gpudesk
