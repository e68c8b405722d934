// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubeclient.h"
#include "boundedjson.h"

#include "boundedbody.h"
#include "boundedfile.h"
#include "jsonfields.h"

#include <memory>
#include <mutex>
#include <optional>

#include <QFile>
#include <QHash>
#include <QLoggingCategory>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QSslKey>
#include <QUrl>

#include <nlohmann/json.hpp>

Q_LOGGING_CATEGORY(lcKube, "gpudesk.kube")

namespace gpudesk {

ApiStatus parseStatus(const QByteArray &body)
{
    // Any server answer comes here, errors first: every field is read as it may come (found by
    // fuzz_decoder: {"kind":5} ended gpudesk with an uncaught type_error).
    using jsonfields::member;
    using jsonfields::text;
    ApiStatus s;
    const auto j = parseBoundedJson(body);
    if (!j.is_object() || text(j, "kind") != QLatin1String("Status"))
        return s;
    s.reason = text(j, "reason");
    s.message = text(j, "message");
    if (const auto code = j.find("code"); code != j.end() && code->is_number_integer())
        s.code = code->get<int>();
    const auto &causes = member(member(j, "details"), "causes");
    if (causes.is_array())
        for (const auto &c : causes)
            if (c.is_object())
                s.causes.append({text(c, "field"), text(c, "reason"), text(c, "message")});
    return s;
}

QString withDryRun(const QString &path, bool dryRun)
{
    if (!dryRun)
        return path;
    return path + (path.contains(u'?') ? u'&' : u'?') + QStringLiteral("dryRun=All");
}

namespace {

// Writes name gpudesk as their field manager, so that the object's managedFields say who
// changed what (an edit by hand shows as kubectl's).
QString managed(const QString &path)
{
    return path + (path.contains(u'?') ? u'&' : u'?') + QStringLiteral("fieldManager=gpudesk");
}

// A request with no byte for this long is abandoned (and said to have timed out).
constexpr int kTransferTimeoutMs = 30000;
// No answer gpudesk asks for comes near this: a page is at most 500 objects, and the API server
// refuses to store an object over 1.5 MB. More is a broken or hostile server: stop reading.
constexpr qint64 kMaxBodyBytes = 64ll << 20;
// What Qt may hold of an answer before it is read into ours.
constexpr qint64 kReadChunkBytes = 1 << 20;
} // namespace

QString statusMessage(const QByteArray &body)
{
    return parseStatus(body).message;
}

namespace {

// Exec credentials outlive a client: a context switch and back, or a reconnect, must not run
// the plugin again (it may open a browser or hit a rate-limited identity provider). Clients
// live on several threads (the window's, a NAS copy's worker): the cache is guarded.
struct CredentialCache
{
    std::mutex mutex;
    QHash<QByteArray, ExecCredential> byKey;
};
CredentialCache &credentialCache()
{
    static CredentialCache cache;
    return cache;
}
std::optional<ExecCredential> cachedCredential(const QByteArray &key)
{
    CredentialCache &c = credentialCache();
    std::lock_guard lock(c.mutex);
    const auto it = c.byKey.constFind(key);
    return it == c.byKey.constEnd() ? std::nullopt : std::optional<ExecCredential>(*it);
}
void keepCredential(const QByteArray &key, const ExecCredential &credential)
{
    CredentialCache &c = credentialCache();
    std::lock_guard lock(c.mutex);
    c.byKey.insert(key, credential);
}
void forgetCredential(const QByteArray &key)
{
    CredentialCache &c = credentialCache();
    std::lock_guard lock(c.mutex);
    c.byKey.remove(key);
}

} // namespace

KubeClient::KubeClient(ClusterEndpoint endpoint, QObject *parent)
    : QObject(parent), m_endpoint(std::move(endpoint)),
      m_tls(QSslConfiguration::defaultConfiguration())
{
    if (!m_endpoint.caPem.isEmpty()) {
        const auto cas = QSslCertificate::fromData(m_endpoint.caPem, QSsl::Pem);
        if (cas.isEmpty())
            m_setupError = tr("The certificate authority of context %1 is not a PEM certificate.")
                               .arg(m_endpoint.context);
        m_tls.setCaCertificates(cas);
    }
    if (m_endpoint.insecureSkipVerify)
        m_tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    if (!m_endpoint.clientCertPem.isEmpty())
        setClientCertificate(m_endpoint.clientCertPem, m_endpoint.clientKeyPem);
    if (!m_endpoint.proxyUrl.isEmpty()) {
        const QUrl url(m_endpoint.proxyUrl);
        if (url.scheme() == QLatin1String("https"))
            m_setupError = tr("The proxy-url of context %1 is an https:// proxy; gpudesk speaks "
                              "to proxies over http:// or socks5:// only.")
                               .arg(m_endpoint.context);
        m_proxy = QNetworkProxy(
            url.scheme() == QLatin1String("socks5") ? QNetworkProxy::Socks5Proxy
                                                    : QNetworkProxy::HttpProxy,
            url.host(), quint16(url.port(url.scheme() == QLatin1String("socks5") ? 1080 : 80)),
            url.userName(), url.password());
    }
    attach(&m_nam);
    m_renewTimer.setSingleShot(true);
    connect(&m_renewTimer, &QTimer::timeout, this, &KubeClient::runPlugin);
    if (m_endpoint.exec.isSet()) {
        if (const auto cached = cachedCredential(cacheKey()))
            applyCredential(*cached);
    }
}

void KubeClient::setClientCertificate(const QByteArray &certPem, const QByteArray &keyPem)
{
    const QSslCertificate cert(certPem, QSsl::Pem);
    if (cert.isNull())
        m_setupError = tr("The client certificate of context %1 is not a PEM certificate.")
                           .arg(m_endpoint.context);
    else if (cert.expiryDate() < QDateTime::currentDateTimeUtc())
        m_setupError = tr("The client certificate of context %1 expired on %2.")
                           .arg(m_endpoint.context, cert.expiryDate().toString(Qt::ISODate));
    m_tls.setLocalCertificate(cert);
    QSslKey key(keyPem, QSsl::Rsa, QSsl::Pem);
    if (key.isNull())
        key = QSslKey(keyPem, QSsl::Ec, QSsl::Pem);
    if (key.isNull())
        m_setupError = tr("The client key of context %1 is neither an RSA nor an EC key.")
                           .arg(m_endpoint.context);
    m_tls.setPrivateKey(key);
}

void KubeClient::attach(QNetworkAccessManager *nam) const
{
    nam->setProxy(m_proxy);
}

QByteArray KubeClient::cacheKey() const
{
    const ExecConfig &e = m_endpoint.exec;
    QStringList parts{e.apiVersion, e.command};
    parts += e.args;
    for (const auto &[name, value] : e.env)
        parts << name + u'=' + value;
    if (e.provideClusterInfo)
        parts << m_endpoint.server;
    return parts.join(QChar(0)).toUtf8();
}

bool KubeClient::credentialValid() const
{
    return m_haveCredential && (!m_expiry.isValid() || m_expiry > QDateTime::currentDateTimeUtc());
}

void KubeClient::ensureCredentials(QObject *context, std::function<void(const QString &)> done)
{
    if (!m_endpoint.exec.isSet() || credentialValid()) {
        done({});
        return;
    }
    m_waiters.append({context, std::move(done)});
    runPlugin();
}

void KubeClient::runPlugin()
{
    if (m_runner)
        return; // one run at a time; its answer serves every waiter
    if (m_execFailedAt.isValid() && m_execFailedAt.elapsed() < m_execBackoffMs) {
        // Within the back-off: the last failure is the answer, and it has been said.
        const auto waiters = std::exchange(m_waiters, {});
        for (const Waiter &w : waiters)
            if (w.context)
                w.done(m_execError);
        return;
    }
    ++m_execRuns;
    m_runner = new ExecCredentialRunner(m_endpoint.exec, m_endpoint.server, m_endpoint.caPem, this);
    auto finish = [this](const QString &error) {
        m_runner->deleteLater();
        m_runner = nullptr;
        const auto waiters = std::exchange(m_waiters, {});
        for (const Waiter &w : waiters) {
            if (w.context)
                w.done(error);
        }
    };
    auto fail = [this, finish](const QString &error) {
        m_runAfter401 = false;
        m_execBackoffMs = std::min(m_execBackoffMs > 0 ? 2 * m_execBackoffMs : ExecBackoffFirstMs,
                                   ExecBackoffMaxMs);
        m_execFailedAt.start();
        const bool again = error == m_execError;
        m_execError = error;
        finish(error);
        if (!again)
            emit credentialsFailed(error);
    };
    connect(m_runner, &ExecCredentialRunner::finished, this,
            [this, finish, fail](const ExecCredential &c) {
                if (c.expiry.isValid() && c.expiry <= QDateTime::currentDateTimeUtc()) {
                    // Used, it would be renewed at once, and again: an error instead.
                    // Without the time now: the same answer again is the same error, said once.
                    fail(tr("The credential plugin %1 of context %2 answered with a credential "
                            "that expired at %3 (UTC), by this computer's clock: check the clock, "
                            "or sign in again.")
                             .arg(m_endpoint.exec.command, m_endpoint.context,
                                  c.expiry.toUTC().toString(Qt::ISODate)));
                    return;
                }
                m_execBackoffMs = 0;
                m_execFailedAt.invalidate();
                m_execError.clear();
                m_renewedAfter401 = std::exchange(m_runAfter401, false);
                keepCredential(cacheKey(), c);
                applyCredential(c);
                finish({});
                emit credentialsChanged();
            });
    connect(m_runner, &ExecCredentialRunner::failed, this, fail);
    m_runner->start();
}

void KubeClient::applyCredential(const ExecCredential &c)
{
    m_haveCredential = true;
    m_sinceCredential.start();
    m_expiry = c.expiry;
    if (!c.token.isEmpty())
        m_endpoint.token = c.token;
    if (!c.clientCertPem.isEmpty())
        setClientCertificate(c.clientCertPem, c.clientKeyPem);
    m_renewTimer.stop();
    if (m_expiry.isValid()) {
        // Renew a little before it runs out, so long watches reconnect with a valid one.
        const qint64 left = QDateTime::currentDateTimeUtc().msecsTo(m_expiry);
        const qint64 lead = std::min<qint64>(60000, left / 4);
        m_renewTimer.start(int(std::clamp<qint64>(left - lead, 0, 24 * 3600 * 1000)));
    }
}

bool KubeClient::unauthorized()
{
    if (m_endpoint.exec.isSet()) {
        if (m_runner)
            return true;
        // A credential renewed because of a 401 and refused again at once is refused: say so
        // instead of running the plugin in a loop.
        if (m_haveCredential && m_renewedAfter401 && m_sinceCredential.elapsed() < 5000)
            return false;
        m_haveCredential = false;
        forgetCredential(cacheKey());
        if (m_execFailedAt.isValid() && m_execFailedAt.elapsed() < m_execBackoffMs)
            return false; // the plugin just failed: the 401 stands, its error was said
        m_runAfter401 = true;
        runPlugin();
        return true;
    }
    if (!m_endpoint.tokenFile.isEmpty()) {
        QString why;
        const auto data = readBoundedFile(m_endpoint.tokenFile, filelimit::Credential, &why);
        if (!data)
            return false;
        const QString token = QString::fromUtf8(*data).trimmed();
        if (token.isEmpty() || token == m_endpoint.token)
            return false;
        m_endpoint.token = token;
        emit credentialsChanged();
        return true;
    }
    return false;
}

QNetworkRequest KubeClient::request(const QString &path) const
{
    QNetworkRequest req(QUrl(m_endpoint.server + path));
    req.setSslConfiguration(m_tls);
    if (!m_endpoint.tlsServerName.isEmpty())
        req.setPeerVerifyName(m_endpoint.tlsServerName);
    req.setRawHeader("Accept", "application/json");
    req.setRawHeader("User-Agent", "gpudesk/0.1");
    if (!m_endpoint.token.isEmpty())
        req.setRawHeader("Authorization", "Bearer " + m_endpoint.token.toUtf8());
    else if (!m_endpoint.username.isEmpty())
        req.setRawHeader("Authorization", "Basic " + QByteArray(m_endpoint.username.toUtf8() + ':' +
                                                                m_endpoint.password.toUtf8())
                                                         .toBase64());
    return req;
}

QString KubeClient::describeError(QNetworkReply *reply, qint64 waitedMs) const
{
    using E = QNetworkReply::NetworkError;
    E e = reply->error();
    if (e == E::NoError)
        return {};
    const QString server = QUrl(m_endpoint.server).toDisplayString(QUrl::RemoveUserInfo);
    const QString qt = reply->errorString();
    // Through an http:// proxy an https:// request is a CONNECT tunnel, and Qt reports the
    // proxy's failure as an unknown error whose text names the proxy ("Proxy connection
    // refused"): it is the proxy's all the same.
    if (!m_endpoint.proxyUrl.isEmpty() && e == E::UnknownNetworkError &&
        qt.contains(QLatin1String("proxy"), Qt::CaseInsensitive)) {
        if (qt.contains(QLatin1String("refused"), Qt::CaseInsensitive))
            e = E::ProxyConnectionRefusedError;
        else if (qt.contains(QLatin1String("closed"), Qt::CaseInsensitive))
            e = E::ProxyConnectionClosedError;
        else if (qt.contains(QLatin1String("not found"), Qt::CaseInsensitive))
            e = E::ProxyNotFoundError;
        else if (qt.contains(QLatin1String("timed out"), Qt::CaseInsensitive))
            e = E::ProxyTimeoutError;
        else
            e = E::UnknownProxyError;
    }
    switch (e) {
    case E::ProxyConnectionRefusedError:
    case E::ProxyConnectionClosedError:
    case E::ProxyNotFoundError:
    case E::ProxyTimeoutError:
    case E::ProxyAuthenticationRequiredError:
    case E::UnknownProxyError: {
        // The proxy failed, not the server: say which proxy, from which setting.
        const QString proxy =
            QUrl(m_endpoint.proxyUrl).toDisplayString(QUrl::RemoveUserInfo | QUrl::RemovePath);
        QString what;
        switch (e) {
        case E::ProxyConnectionRefusedError:
            what = tr("refused the connection");
            break;
        case E::ProxyConnectionClosedError:
            what = tr("closed the connection");
            break;
        case E::ProxyNotFoundError:
            what = tr("was not found (its name does not resolve)");
            break;
        case E::ProxyTimeoutError:
            what = tr("did not answer in time");
            break;
        case E::ProxyAuthenticationRequiredError:
            what = tr("asks for credentials the proxy-url does not give");
            break;
        default:
            what = tr("failed: %1").arg(qt);
            break;
        }
        return tr("The proxy %1 (proxy-url of context %2) %3; %4 was not reached.")
            .arg(proxy, m_endpoint.context, what, server);
    }
    case E::OperationCanceledError:
        // Qt ends a request whose transfer timeout ran out as "canceled".
        if (waitedMs >= 0)
            return tr("%1 did not answer within %2 s (timed out).")
                .arg(server)
                .arg(qRound(double(waitedMs) / 1000.0));
        return qt;
    case E::SslHandshakeFailedError:
        return tr("TLS with %1 failed: %2. The server's certificate is not signed by the "
                  "certificate authority of context %3 (certificate-authority in the kubeconfig).")
            .arg(server, qt, m_endpoint.context);
    case E::ConnectionRefusedError:
        return tr("%1 refused the connection (nothing listens there, or a firewall says no).")
            .arg(server);
    case E::HostNotFoundError:
        return tr("The name of %1 does not resolve.").arg(server);
    case E::TimeoutError:
        return tr("%1 did not accept the connection in time.").arg(server);
    case E::RemoteHostClosedError:
        return tr("%1 closed the connection.").arg(server);
    default:
        return qt;
    }
}

void KubeClient::get(const QString &path, QObject *context, Done done)
{
    send("GET", path, {}, {}, context, std::move(done), false);
}

void KubeClient::create(const QString &collectionPath, const QByteArray &object, bool dryRun,
                        QObject *context, Done done)
{
    send("POST", withDryRun(managed(collectionPath), dryRun), object, "application/json", context,
         std::move(done), false);
}

void KubeClient::update(const QString &path, const QByteArray &object, bool dryRun,
                        QObject *context, Done done)
{
    send("PUT", withDryRun(managed(path), dryRun), object, "application/json", context,
         std::move(done), false);
}

void KubeClient::patch(const QString &path, const QByteArray &patch, PatchType type, bool dryRun,
                       QObject *context, Done done)
{
    const QByteArray contentType = type == PatchType::Json ? "application/json-patch+json"
                                   : type == PatchType::StrategicMerge
                                       ? "application/strategic-merge-patch+json"
                                       : "application/merge-patch+json";
    send("PATCH", withDryRun(managed(path), dryRun), patch, contentType, context, std::move(done),
         false);
}

namespace {

nlohmann::json deleteOptionsJson(const DeleteOptions &o, bool dryRun)
{
    nlohmann::json j{{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
    if (o.gracePeriodSeconds)
        j["gracePeriodSeconds"] = *o.gracePeriodSeconds;
    if (!o.propagationPolicy.isEmpty())
        j["propagationPolicy"] = o.propagationPolicy.toStdString();
    if (!o.preconditionUid.isEmpty())
        j["preconditions"]["uid"] = o.preconditionUid.toStdString();
    if (!o.preconditionResourceVersion.isEmpty())
        j["preconditions"]["resourceVersion"] = o.preconditionResourceVersion.toStdString();
    if (dryRun)
        j["dryRun"] = nlohmann::json::array({"All"});
    return j;
}

} // namespace

void KubeClient::remove(const QString &path, const DeleteOptions &options, bool dryRun,
                        QObject *context, Done done)
{
    const std::string body = deleteOptionsJson(options, dryRun).dump();
    send("DELETE", withDryRun(path, dryRun), QByteArray::fromStdString(body), "application/json",
         context, std::move(done), false);
}

void KubeClient::evict(const QString &ns, const QString &pod, const DeleteOptions &options,
                       bool dryRun, QObject *context, Done done)
{
    nlohmann::json eviction{
        {"apiVersion", "policy/v1"},
        {"kind", "Eviction"},
        {"metadata", {{"name", pod.toStdString()}, {"namespace", ns.toStdString()}}},
        {"deleteOptions", deleteOptionsJson(options, dryRun)}};
    send("POST",
         withDryRun(QStringLiteral("/api/v1/namespaces/%1/pods/%2/eviction").arg(ns, pod), dryRun),
         QByteArray::fromStdString(eviction.dump()), "application/json", context, std::move(done),
         false);
}

void KubeClient::sendAs(const QByteArray &token, const QByteArray &verb, const QString &path,
                        const QByteArray &body, QObject *context, Done done)
{
    send(verb, path, body, body.isEmpty() ? QByteArray() : QByteArrayLiteral("application/json"),
         context, std::move(done), true, token);
}

void KubeClient::send(const QByteArray &verb, const QString &path, const QByteArray &body,
                      const QByteArray &contentType, QObject *context, Done done, bool retried,
                      const QByteArray &asToken)
{
    QNetworkRequest req = request(path);
    if (!asToken.isEmpty()) {
        // Only that token speaks: a client certificate would authenticate first and the server
        // would answer for the admin instead.
        req.setRawHeader("Authorization", "Bearer " + asToken);
        QSslConfiguration tls = req.sslConfiguration();
        tls.setLocalCertificate(QSslCertificate());
        tls.setPrivateKey(QSslKey());
        req.setSslConfiguration(tls);
    }
    req.setTransferTimeout(kTransferTimeoutMs);
    if (!contentType.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    QNetworkReply *reply =
        verb == "GET" ? m_nam.get(req) : m_nam.sendCustomRequest(req, verb, body);
    QPointer<QObject> guard(context);
    QElapsedTimer waited;
    waited.start();
    auto answer = BoundedBody::attach(reply, kMaxBodyBytes, kReadChunkBytes);
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, guard, done = std::move(done), verb, path, body, contentType, retried,
             waited, answer]() mutable {
                reply->deleteLater();
                if (!guard)
                    return;
                KubeReply r;
                r.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                if (answer->tooSlow()) {
                    r.httpStatus = 0;
                    r.connectionFailed = true;
                    r.error = tr("%1 sent only %2 bytes in %3 s of its answer to %4 %5: gpudesk "
                                 "gave up (a server that trickles its answer would hold the "
                                 "request for ever)")
                                  .arg(m_endpoint.server)
                                  .arg(answer->slowWindowBytes())
                                  .arg(BoundedBody::SlowWindowMs / 1000)
                                  .arg(QString::fromLatin1(verb), path);
                    qCDebug(lcKube) << r.error;
                    done(r);
                    return;
                }
                if (answer->tooLarge()) {
                    r.httpStatus = 0;
                    r.error = tr("%1 sent more than %2 MiB in answer to %3 %4: gpudesk stopped "
                                 "reading (a page of 500 objects is a few MiB)")
                                  .arg(m_endpoint.server)
                                  .arg(kMaxBodyBytes >> 20)
                                  .arg(QString::fromLatin1(verb), path);
                    qCDebug(lcKube) << r.error;
                    done(r);
                    return;
                }
                r.body = answer->take(reply);
                if (reply->error() != QNetworkReply::NoError) {
                    r.status = parseStatus(r.body);
                    r.error = !r.status.message.isEmpty() ? r.status.message
                                                          : describeError(reply, waited.elapsed());
                    // Below HTTP: the server (or the way to it) failed, not this request —
                    // also when it dropped the connection in the middle of an answer it had
                    // begun (a server killed mid-list: 200, then the connection closed).
                    const int code = int(reply->error());
                    r.connectionFailed = r.httpStatus == 0 || (code > 0 && code < 200);
                    qCDebug(lcKube) << verb << path << "failed:" << r.httpStatus << r.error;
                }
                if (r.httpStatus == 401 && !retried && unauthorized()) {
                    ensureCredentials(
                        guard, [this, guard, verb, path, body, contentType, r,
                                done = std::move(done)](const QString &error) mutable {
                            if (!error.isEmpty() || !guard) {
                                if (guard)
                                    done(r);
                                return;
                            }
                            send(verb, path, body, contentType, guard, std::move(done), true);
                        });
                    return;
                }
                done(r);
            });
}

} // namespace gpudesk
