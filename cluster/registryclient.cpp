// SPDX-License-Identifier: GPL-3.0-or-later
#include "registryclient.h"

#include "boundedbody.h"
#include "registrydecoder.h"

#include <QLoggingCategory>
#include <QNetworkReply>
#include <QPointer>
#include <QSslCertificate>
#include <QUrlQuery>

namespace gpudesk {

Q_LOGGING_CATEGORY(lcRegistry, "gpudesk.registry", QtWarningMsg)

namespace {

constexpr qint64 kMaxTokenBytes = 1 << 20;
constexpr int kMaxRedirects = 5;
constexpr qint64 kReadChunkBytes = 256 << 10;

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    return a.scheme() == b.scheme() && a.host() == b.host() && a.port(-1) == b.port(-1);
}

} // namespace

RegistryClient::RegistryClient(RegistryEndpoint endpoint, QObject *parent)
    : QObject(parent), m_endpoint(std::move(endpoint)),
      m_tls(QSslConfiguration::defaultConfiguration())
{
    // The registry's own CA joins the system's, as docker's certs.d does: a registry behind a
    // public certificate keeps working when a lab CA is also configured.
    QList<QSslCertificate> cas = m_tls.caCertificates();
    for (const QString &f : m_endpoint.caFiles)
        cas += QSslCertificate::fromPath(f, QSsl::Pem);
    m_tls.setCaCertificates(cas);
    m_net.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_net.setAutoDeleteReplies(false);
}

void RegistryClient::setCredentials(const RegistryCredentials &credentials)
{
    m_credentials = credentials;
    m_tokens.clear();
    m_needsLogin = false;
}

QUrl RegistryClient::url(const QString &path) const
{
    QUrl u = m_endpoint.baseUrl();
    u.setPath(path);
    return u;
}

QString RegistryClient::repoScope(const QString &repository, const char *actions)
{
    return QStringLiteral("repository:%1:%2").arg(repository, QLatin1String(actions));
}

void RegistryClient::ping(QObject *context, Done done)
{
    Request r;
    r.verb = "GET";
    r.url = url(QStringLiteral("/v2/"));
    r.what = tr("the API version check");
    send(std::move(r), context, std::move(done));
}

void RegistryClient::catalogPage(const QUrl &next, int pageSize, QObject *context, Done done)
{
    Request r;
    r.verb = "GET";
    r.url = next;
    if (r.url.isEmpty()) {
        r.url = url(QStringLiteral("/v2/_catalog"));
        r.url.setQuery(QStringLiteral("n=%1").arg(pageSize));
    }
    r.scopes = {QStringLiteral("registry:catalog:*")};
    r.what = tr("the catalog");
    sendPaged(std::move(r), context, std::move(done));
}

void RegistryClient::sendPaged(Request r, QObject *context, Done done)
{
    // Distribution refuses a page larger than its catalog.maxentries (400
    // PAGINATION_NUMBER_INVALID) rather than giving fewer: asked again without `n`, it pages by
    // its own size, which its Link header carries on.
    const bool sized = QUrlQuery(r.url).hasQueryItem(QStringLiteral("n"));
    QPointer<QObject> guard(context);
    Request again = r;
    send(std::move(r), context,
         [this, guard, sized, again = std::move(again), done](const RegistryReply &reply) mutable {
             if (sized && reply.httpStatus == 400 &&
                 reply.errorCode == QLatin1String("PAGINATION_NUMBER_INVALID") && guard) {
                 QUrlQuery q(again.url);
                 q.removeAllQueryItems(QStringLiteral("n"));
                 again.url.setQuery(q);
                 send(std::move(again), guard, std::move(done));
                 return;
             }
             done(reply);
         });
}

void RegistryClient::tagsPage(const QString &repository, const QUrl &next, int pageSize,
                              QObject *context, Done done)
{
    Request r;
    r.verb = "GET";
    r.url = next;
    if (r.url.isEmpty()) {
        r.url = url(QStringLiteral("/v2/%1/tags/list").arg(repository));
        r.url.setQuery(QStringLiteral("n=%1").arg(pageSize));
    }
    r.scopes = {repoScope(repository, "pull")};
    r.what = tr("the tags of %1").arg(repository);
    sendPaged(std::move(r), context, std::move(done));
}

void RegistryClient::manifest(const QString &repository, const QString &reference, QObject *context,
                              ManifestDone done)
{
    Request r;
    r.verb = "GET";
    r.url = url(QStringLiteral("/v2/%1/manifests/%2").arg(repository, reference));
    r.accept = RegistryDecoder::manifestAccept();
    r.scopes = {repoScope(repository, "pull")};
    r.maxBytes = kMaxManifestBytes;
    r.what = repository + (reference.contains(u':') ? u'@' : u':') + reference;
    send(std::move(r), context, [reference, done = std::move(done)](const RegistryReply &reply) {
        RegistryReply out = reply;
        RegistryManifest m;
        if (!out.ok()) {
            done(m, out);
            return;
        }
        // Content addressing is the registry's promise; a manifest whose bytes do not hash to
        // the digest asked for or stated is not used (a proxy or a bug changed it).
        const QString computed = RegistryDecoder::sha256Digest(out.body);
        const bool byDigest = RegistryDecoder::isDigest(reference);
        if ((byDigest && reference.startsWith(QLatin1String("sha256:")) && reference != computed) ||
            (out.digest.startsWith(QLatin1String("sha256:")) && out.digest != computed)) {
            out.error = tr("The manifest of %1 does not match its digest (%2 stated, %3 received).")
                            .arg(reference, byDigest ? reference : out.digest, computed);
            done(m, out);
            return;
        }
        QString error;
        m = RegistryDecoder::manifest(out.body, out.contentType, computed, &error);
        out.error = error;
        if (out.digest.isEmpty())
            out.digest = computed;
        done(m, out);
    });
}

void RegistryClient::manifestDigest(const QString &repository, const QString &reference,
                                    QObject *context, Done done)
{
    Request r;
    r.verb = "HEAD";
    r.url = url(QStringLiteral("/v2/%1/manifests/%2").arg(repository, reference));
    // The digest of what a GET would serve: the same Accept, or a registry converts an index
    // to one platform's manifest and answers that digest (distribution#2370's wrong deletes).
    r.accept = RegistryDecoder::manifestAccept();
    r.scopes = {repoScope(repository, "pull")};
    r.what = repository + u':' + reference;
    send(std::move(r), context, [done = std::move(done)](const RegistryReply &reply) {
        RegistryReply out = reply;
        if (out.ok() && !RegistryDecoder::isDigest(out.digest))
            out.error = tr("The registry did not say the digest of %1.").arg(out.location);
        done(out);
    });
}

void RegistryClient::blob(const QString &repository, const QString &digest, qint64 maxBytes,
                          QObject *context, Done done)
{
    Request r;
    r.verb = "GET";
    r.url = url(QStringLiteral("/v2/%1/blobs/%2").arg(repository, digest));
    r.scopes = {repoScope(repository, "pull")};
    r.maxBytes = maxBytes;
    r.what = repository + u'@' + digest;
    send(std::move(r), context, [digest, done = std::move(done)](const RegistryReply &reply) {
        RegistryReply out = reply;
        if (out.ok() && digest.startsWith(QLatin1String("sha256:")) &&
            RegistryDecoder::sha256Digest(out.body) != digest)
            out.error = tr("The blob %1 does not match its digest.").arg(digest);
        done(out);
    });
}

void RegistryClient::deleteManifest(const QString &repository, const QString &digest,
                                    QObject *context, Done done)
{
    if (!RegistryDecoder::isDigest(digest)) {
        // A tag in a DELETE is refused by the spec; deleting "by tag" is deleting its digest,
        // which the caller must have resolved (and shown) first.
        RegistryReply r;
        r.error = tr("Only a digest can be deleted, not \"%1\".").arg(digest);
        done(r);
        return;
    }
    Request r;
    r.verb = "DELETE";
    r.url = url(QStringLiteral("/v2/%1/manifests/%2").arg(repository, digest));
    r.scopes = {repoScope(repository, "delete")};
    r.what = repository + u'@' + digest;
    send(std::move(r), context, std::move(done));
}

void RegistryClient::mountBlob(const QString &repository, const QString &digest,
                               const QString &fromRepository, QObject *context, Done done)
{
    Request r;
    r.verb = "POST";
    r.url = url(QStringLiteral("/v2/%1/blobs/uploads/").arg(repository));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("mount"), digest);
    q.addQueryItem(QStringLiteral("from"), fromRepository);
    r.url.setQuery(q);
    r.scopes = {repoScope(repository, "pull,push"), repoScope(fromRepository, "pull")};
    r.what = tr("%1 into %2").arg(digest, repository);
    send(std::move(r), context,
         [this, context, repository, done = std::move(done)](const RegistryReply &reply) {
             RegistryReply out = reply;
             if (out.ok() && out.httpStatus == 202) {
                 // The registry could not mount (the blob is not readable from there) and began an
                 // upload instead: cancel it, so no half upload is left behind, and say so.
                 out.error =
                     tr("The registry could not mount the blob (it started an upload instead).");
                 if (!out.location.isEmpty()) {
                     Request cancel;
                     cancel.verb = "DELETE";
                     cancel.url = m_endpoint.baseUrl().resolved(QUrl(out.location));
                     cancel.scopes = {repoScope(repository, "pull,push")};
                     cancel.what = tr("the cancelled upload");
                     // Answered first: the caller may go (and its requests with it) once told.
                     send(std::move(cancel), context,
                          [out, done](const RegistryReply &) { done(out); });
                     return;
                 }
             }
             done(out);
         });
}

void RegistryClient::putManifest(const QString &repository, const QString &reference,
                                 const QByteArray &body, const QString &mediaType, QObject *context,
                                 Done done)
{
    Request r;
    r.verb = "PUT";
    r.url = url(QStringLiteral("/v2/%1/manifests/%2").arg(repository, reference));
    r.body = body;
    r.contentType = mediaType;
    r.scopes = {repoScope(repository, "pull,push")};
    r.what = repository + u':' + reference;
    send(std::move(r), context, std::move(done));
}

void RegistryClient::send(Request r, QObject *context, Done done)
{
    const QString key = r.scopes.join(u' ');
    if (r.withAuth && m_auth == Auth::Bearer && r.attempt == 0 && !r.scopes.isEmpty()) {
        const auto it = m_tokens.constFind(key);
        if (it == m_tokens.cend() || it->expires < QDateTime::currentDateTimeUtc()) {
            // A token per scope, asked before the request: one 401 round trip for the first
            // request only, as docker does.
            QPointer<QObject> guard(context);
            fetchToken(m_bearer, r.scopes, context,
                       [this, guard, r, done = std::move(done)](const QString &error) mutable {
                           if (!guard)
                               return;
                           if (!error.isEmpty()) {
                               RegistryReply failed;
                               failed.error = error;
                               done(failed);
                               return;
                           }
                           r.attempt = 1;
                           send(std::move(r), guard, std::move(done));
                       });
            return;
        }
    }
    QNetworkRequest req(r.url);
    req.setTransferTimeout(kTimeoutMs);
    req.setSslConfiguration(m_tls);
    req.setRawHeader("User-Agent", "gpudesk");
    if (!r.accept.isEmpty())
        req.setRawHeader("Accept", r.accept);
    if (!r.contentType.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, r.contentType);
    if (r.withAuth) {
        if (m_auth == Auth::Basic && !m_credentials.secret.isEmpty())
            req.setRawHeader(
                "Authorization",
                "Basic " +
                    (m_credentials.username + u':' + m_credentials.secret).toUtf8().toBase64());
        else if (m_auth == Auth::Bearer && m_tokens.contains(key))
            req.setRawHeader("Authorization", "Bearer " + m_tokens.value(key).value);
    }
    ++m_requests;
    QNetworkReply *reply = r.verb == "GET"    ? m_net.get(req)
                           : r.verb == "HEAD" ? m_net.head(req)
                                              : m_net.sendCustomRequest(req, r.verb, r.body);
    auto answer = BoundedBody::attach(reply, r.maxBytes, kReadChunkBytes);
    QPointer<QObject> guard(context);
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, r = std::move(r), guard, done = std::move(done), answer]() mutable {
                reply->deleteLater();
                if (guard)
                    finished(reply, std::move(r), guard, std::move(done), answer);
            });
}

void RegistryClient::finished(QNetworkReply *reply, Request r, QObject *context, Done done,
                              std::shared_ptr<BoundedBody> answer)
{
    RegistryReply out;
    out.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (answer->tooSlow()) {
        out.connectionFailed = true;
        out.error = tr("%1 sent only %2 bytes in %3 s for %4; gpudesk gave up.")
                        .arg(m_endpoint.host)
                        .arg(answer->slowWindowBytes())
                        .arg(BoundedBody::SlowWindowMs / 1000)
                        .arg(r.what);
        done(out);
        return;
    }
    if (answer->tooLarge()) {
        out.error = tr("%1 sent more than %2 KiB for %3; gpudesk stopped reading.")
                        .arg(m_endpoint.host)
                        .arg(r.maxBytes >> 10)
                        .arg(r.what);
        done(out);
        return;
    }
    out.body = answer->take(reply);
    out.contentType = QString::fromLatin1(reply->rawHeader("Content-Type"));
    out.digest = QString::fromLatin1(reply->rawHeader("Docker-Content-Digest"));
    out.location = QString::fromLatin1(reply->rawHeader("Location"));
    out.next = RegistryDecoder::nextLink(reply->rawHeader("Link"), r.url);
    const int s = out.httpStatus;
    if ((s == 301 || s == 302 || s == 303 || s == 307 || s == 308) && !out.location.isEmpty()) {
        if (r.redirects >= kMaxRedirects) {
            out.error = tr("%1 redirected %2 more than %3 times.")
                            .arg(m_endpoint.host, r.what)
                            .arg(kMaxRedirects);
            done(out);
            return;
        }
        const QUrl to = r.url.resolved(QUrl(out.location));
        // Only to the web (issue 33: a 307 to file://…/.docker/config.json was followed, and
        // the report carried that file's hash), and never from https down to plain http.
        const QString scheme = to.scheme().toLower();
        if ((scheme != QLatin1String("http") && scheme != QLatin1String("https")) ||
            (scheme == QLatin1String("http") &&
             r.url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0)) {
            out.error = tr("%1 redirected %2 to \"%3\", which gpudesk does not follow (only "
                           "http and https, and never from https down to http).")
                            .arg(m_endpoint.host, r.what, to.toDisplayString().left(200));
            done(out);
            return;
        }
        // Blobs often live in object storage: the registry's credentials stay with the registry.
        r.withAuth = r.withAuth && sameOrigin(to, m_endpoint.baseUrl());
        r.url = to;
        ++r.redirects;
        if (s == 303)
            r.verb = "GET";
        send(std::move(r), context, std::move(done));
        return;
    }
    if (s == 401 && r.attempt == 0 && r.withAuth) {
        challenge(reply->rawHeader("WWW-Authenticate"), std::move(r), context, std::move(done),
                  out);
        return;
    }
    if (reply->error() != QNetworkReply::NoError && s == 0) {
        out.connectionFailed = true;
        out.error = describe(reply, r);
    } else if (s < 200 || s >= 300) {
        m_needsLogin = m_needsLogin || (s == 401 && m_auth == Auth::Basic);
        out.error = statusText(out, r);
    } else if (!out.next.isEmpty() && !sameOrigin(out.next, m_endpoint.baseUrl())) {
        // A next page elsewhere is not followed: the registry's credentials would go with it.
        out.error = tr("%1 sent the next page of %2 on another server (%3): not followed, so "
                       "the listing stops here.")
                        .arg(m_endpoint.host, r.what, out.next.host());
        out.next.clear();
    }
    if (!out.ok())
        qCDebug(lcRegistry) << r.verb << r.url.toDisplayString() << s << out.error;
    done(out);
}

void RegistryClient::challenge(const QByteArray &header, Request r, QObject *context, Done done,
                               RegistryReply failed)
{
    const QList<RegistryChallenge> all = RegistryAuth::parseChallenges(header);
    const RegistryChallenge *bearer = nullptr, *basic = nullptr;
    for (const RegistryChallenge &c : all) {
        if (c.scheme == QLatin1String("bearer") && !bearer)
            bearer = &c;
        if (c.scheme == QLatin1String("basic") && !basic)
            basic = &c;
    }
    r.attempt = 1;
    if (bearer) {
        m_auth = Auth::Bearer;
        m_bearer = *bearer;
        QPointer<QObject> guard(context);
        fetchToken(m_bearer, r.scopes, context,
                   [this, guard, r, done = std::move(done), failed](const QString &error) mutable {
                       if (!guard)
                           return;
                       if (!error.isEmpty()) {
                           failed.error = error;
                           done(failed);
                           return;
                       }
                       send(std::move(r), guard, std::move(done));
                   });
        return;
    }
    if (basic && !m_credentials.secret.isEmpty()) {
        m_auth = Auth::Basic;
        send(std::move(r), context, std::move(done));
        return;
    }
    m_needsLogin = m_needsLogin || basic;
    failed.error = basic ? tr("%1 asks for a user name and password, and none is configured for "
                              "it (docker login %1, or enter them in gpudesk).")
                               .arg(m_endpoint.host)
                         : tr("%1 refused access to %2 and offered no way to log in (%3).")
                               .arg(m_endpoint.host, r.what, QString::fromLatin1(header.left(200)));
    done(failed);
}

void RegistryClient::fetchToken(const RegistryChallenge &bearer, const QStringList &scopes,
                                QObject *context, std::function<void(const QString &)> then)
{
    const QUrl tokenUrl = RegistryAuth::tokenUrl(bearer, scopes);
    if (tokenUrl.isEmpty()) {
        then(tr("%1 asks for a token from \"%2\", which is not a web address.")
                 .arg(m_endpoint.host, bearer.params.value(QStringLiteral("realm"))));
        return;
    }
    // The password goes in clear only where the user chose plain http: the registry itself.
    // A token service elsewhere on http:// would read it off the wire (issue 33).
    if (!m_credentials.isEmpty() &&
        tokenUrl.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) != 0 &&
        !sameOrigin(tokenUrl, m_endpoint.baseUrl())) {
        then(tr("%1 asks for the password of %2 to be sent to %3 over plain http, which is not "
                "the registry itself: gpudesk does not send it there. Its token service should "
                "use https.")
                 .arg(m_endpoint.host, m_credentials.username,
                      tokenUrl.adjusted(QUrl::RemoveQuery).toDisplayString()));
        return;
    }
    Request r;
    r.url = tokenUrl;
    r.maxBytes = kMaxTokenBytes;
    r.what = tr("a token");
    r.withAuth = false;
    QNetworkRequest req(tokenUrl);
    req.setTransferTimeout(kTimeoutMs);
    req.setSslConfiguration(m_tls);
    req.setRawHeader("User-Agent", "gpudesk");
    QNetworkReply *reply;
    ++m_requests;
    if (!m_credentials.identityToken.isEmpty()) {
        // An identity token is an OAuth2 refresh token: exchanged by POST, as docker does.
        QUrlQuery form;
        form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("refresh_token"));
        form.addQueryItem(QStringLiteral("client_id"), QStringLiteral("gpudesk"));
        form.addQueryItem(QStringLiteral("refresh_token"), m_credentials.identityToken);
        form.addQueryItem(QStringLiteral("service"),
                          bearer.params.value(QStringLiteral("service")));
        form.addQueryItem(QStringLiteral("scope"), scopes.join(u' '));
        QUrl plain = tokenUrl;
        plain.setQuery(QString());
        req.setUrl(plain);
        req.setHeader(QNetworkRequest::ContentTypeHeader,
                      QByteArrayLiteral("application/x-www-form-urlencoded"));
        reply = m_net.post(req, form.toString(QUrl::FullyEncoded).toLatin1());
    } else {
        if (!m_credentials.secret.isEmpty())
            req.setRawHeader(
                "Authorization",
                "Basic " +
                    (m_credentials.username + u':' + m_credentials.secret).toUtf8().toBase64());
        reply = m_net.get(req);
    }
    auto answer = BoundedBody::attach(reply, kMaxTokenBytes, kReadChunkBytes);
    QPointer<QObject> guard(context);
    const QString key = scopes.join(u' ');
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, r, guard, answer, key, then = std::move(then)] {
                reply->deleteLater();
                if (!guard)
                    return;
                const int s = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                const QString service = r.url.adjusted(QUrl::RemoveQuery).toDisplayString();
                if (answer->tooSlow()) {
                    then(tr("The token service %1 sent only %2 bytes in %3 s; gpudesk gave up.")
                             .arg(service)
                             .arg(answer->slowWindowBytes())
                             .arg(BoundedBody::SlowWindowMs / 1000));
                    return;
                }
                if (answer->tooLarge()) {
                    then(tr("The token service %1 sent more than %2 KiB.")
                             .arg(service)
                             .arg(kMaxTokenBytes >> 10));
                    return;
                }
                const QByteArray body = answer->take(reply);
                if (s == 401 || s == 403) {
                    m_needsLogin = true;
                    then(m_credentials.isEmpty()
                             ? tr("The token service %1 of %2 refused anonymous access; log in "
                                  "to the registry (docker login %2, or enter a user in gpudesk).")
                                   .arg(service, m_endpoint.host)
                             : tr("The token service %1 of %2 refused the user name and password "
                                  "(from %3).")
                                   .arg(service, m_endpoint.host, m_credentials.source));
                    return;
                }
                if (s == 0 && reply->error() != QNetworkReply::NoError) {
                    then(describe(reply, r));
                    return;
                }
                int expires = 60;
                const QByteArray token = RegistryAuth::tokenFromAnswer(body, &expires);
                if (s < 200 || s >= 300 || token.isEmpty()) {
                    then(tr("The token service %1 answered HTTP %2 without a token.")
                             .arg(service)
                             .arg(s));
                    return;
                }
                // Renewed 10 s before it expires, so a request never carries a dying token.
                m_tokens.insert(
                    key, Token{token, QDateTime::currentDateTimeUtc().addSecs(expires - 10)});
                then(QString());
            });
}

QString RegistryClient::describe(QNetworkReply *reply, const Request &r) const
{
    using E = QNetworkReply::NetworkError;
    const QString host =
        r.url.host() + (r.url.port() > 0 ? u':' + QString::number(r.url.port()) : QString());
    switch (reply->error()) {
    case E::OperationCanceledError:
        // Only the transfer timeout cancels: gpudesk's own aborts are flagged before.
        return tr("%1 did not answer for %2 s (%3).").arg(host).arg(kTimeoutMs / 1000).arg(r.what);
    case E::SslHandshakeFailedError:
        return tr("The TLS certificate of %1 is not trusted: %2. If the registry has a CA of its "
                  "own, put it in /etc/docker/certs.d/%1/ca.crt, as for docker.")
            .arg(host, reply->errorString());
    case E::ConnectionRefusedError:
        return tr("%1 refused the connection (nothing listens there).").arg(host);
    case E::HostNotFoundError:
        return tr("No host %1: the name does not resolve.").arg(r.url.host());
    case E::RemoteHostClosedError:
        return tr("%1 closed the connection before answering %2.").arg(host, r.what);
    default:
        return tr("Cannot reach %1: %2").arg(host, reply->errorString());
    }
}

QString RegistryClient::statusText(RegistryReply &reply, const Request &r) const
{
    QString code;
    QString words = RegistryDecoder::errors(reply.body, &code);
    reply.errorCode = code;
    if (words.isEmpty())
        words = QString::fromUtf8(reply.body.left(200)).simplified();
    const QString host = m_endpoint.host;
    switch (reply.httpStatus) {
    case 401:
        return m_auth == Auth::Basic
                   ? tr("%1 refused the user name and password (from %2).")
                         .arg(host, m_credentials.source)
                   : tr("%1 refused the token it issued for %2: %3").arg(host, r.what, words);
    case 403:
        return tr("%1 does not allow you %2: %3").arg(host, r.what, words);
    case 404:
        if (code == QLatin1String("NAME_UNKNOWN"))
            return tr("%1 has no repository for %2.").arg(host, r.what);
        if (code == QLatin1String("MANIFEST_UNKNOWN"))
            return tr("%1 has no such tag or manifest: %2.").arg(host, r.what);
        if (code == QLatin1String("BLOB_UNKNOWN"))
            return tr("%1 has no such blob: %2.").arg(host, r.what);
        return tr("%1 has nothing at %2 (HTTP 404).").arg(host, r.url.path());
    case 405:
        if (r.verb == "DELETE")
            return tr("%1 does not allow deleting images: its operator disabled deletion "
                      "(storage.delete.enabled: false). Nothing was deleted.")
                .arg(host);
        return tr("%1 does not allow %2 on %3 (%4).")
            .arg(host, QString::fromLatin1(r.verb), r.what, words);
    case 429:
        return tr("%1 is limiting the rate of requests; try again later.").arg(host);
    default:
        return tr("%1 answered HTTP %2 for %3: %4")
            .arg(host)
            .arg(reply.httpStatus)
            .arg(r.what, words);
    }
}

} // namespace gpudesk
