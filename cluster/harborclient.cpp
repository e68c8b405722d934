// SPDX-License-Identifier: GPL-3.0-or-later
#include "harborclient.h"

#include "boundedbody.h"
#include "harbordecoder.h"
#include "registrydecoder.h"

#include <QLoggingCategory>
#include <QNetworkReply>
#include <QPointer>
#include <QUrlQuery>

#include <memory>

namespace gpudesk {

Q_LOGGING_CATEGORY(lcHarbor, "gpudesk.harbor", QtWarningMsg)

namespace {

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    return a.scheme() == b.scheme() && a.host() == b.host() && a.port(-1) == b.port(-1);
}

QUrl originOf(const QUrl &u)
{
    QUrl o;
    o.setScheme(u.scheme());
    o.setHost(u.host());
    o.setPort(u.port(-1));
    return o;
}

} // namespace

HarborClient::HarborClient(const QUrl &apiBase, const RegistryEndpoint &registry,
                           const RegistryCredentials &credentials, QObject *parent)
    : QObject(parent), m_base(originOf(apiBase)), m_registryHost(registry.host),
      m_credentials(credentials), m_tls(QSslConfiguration::defaultConfiguration())
{
    QList<QSslCertificate> cas = m_tls.caCertificates();
    for (const QString &f : registry.caFiles)
        cas += QSslCertificate::fromPath(f, QSsl::Pem);
    m_tls.setCaCertificates(cas);
    m_net.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_net.setAutoDeleteReplies(false);
}

QList<QUrl> HarborClient::candidates(const RegistryEndpoint &registry, const QUrl &tokenRealm)
{
    QList<QUrl> out{originOf(registry.baseUrl())};
    // Harbor's realm is https://HOST/service/token; a token service elsewhere is not a Harbor.
    if (tokenRealm.isValid() && tokenRealm.path().endsWith(QLatin1String("/service/token")) &&
        (tokenRealm.scheme() == QLatin1String("https") || registry.plainHttp) &&
        !sameOrigin(tokenRealm, out.first()))
        out << originOf(tokenRealm);
    return out;
}

QUrl HarborClient::url(const QString &path, const QList<QPair<QString, QString>> &query) const
{
    QUrl u = m_base;
    u.setPath(QStringLiteral("/api/v2.0/") + path, QUrl::TolerantMode);
    if (!query.isEmpty()) {
        QUrlQuery q;
        q.setQueryItems(query);
        u.setQuery(q);
    }
    return u;
}

QString HarborClient::artifactsPath(const QString &repository)
{
    // Harbor wants the repository's name within its project URL-encoded twice ("a%252Fb").
    const QString project = repository.section(u'/', 0, 0);
    const QString name = repository.section(u'/', 1);
    return QStringLiteral("projects/%1/repositories/%2/artifacts")
        .arg(QString::fromLatin1(QUrl::toPercentEncoding(project)),
             QString::fromLatin1(
                 QUrl::toPercentEncoding(QString::fromLatin1(QUrl::toPercentEncoding(name)))));
}

void HarborClient::send(const QByteArray &verb, const QUrl &url, const QByteArray &body,
                        QObject *context, AnswerDone done)
{
    QNetworkRequest req(url);
    req.setTransferTimeout(kTimeoutMs);
    req.setSslConfiguration(m_tls);
    req.setRawHeader("User-Agent", "gpudesk");
    req.setRawHeader("Accept", "application/json");
    // A project named "2024" is a name, not Harbor's project id.
    req.setRawHeader("X-Is-Resource-Name", "true");
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    if (!m_credentials.secret.isEmpty())
        req.setRawHeader(
            "Authorization",
            "Basic " + (m_credentials.username + u':' + m_credentials.secret).toUtf8().toBase64());
    QNetworkReply *reply =
        verb == "GET" ? m_net.get(req) : m_net.sendCustomRequest(req, verb, body);
    auto bounded = BoundedBody::attach(reply, kMaxAnswerBytes);
    QPointer<QObject> guard(context);
    // QUrl::toString(FullyEncoded) of a path the caller encoded already keeps its escapes.
    const QString what = QString::fromLatin1(verb) + u' ' + url.path(QUrl::FullyEncoded);
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, bounded, guard, done = std::move(done), what, url] {
                reply->deleteLater();
                if (!guard)
                    return;
                Answer a;
                a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                a.location = QString::fromLatin1(reply->rawHeader("Location"));
                if (bounded->tooLarge() || bounded->tooSlow()) {
                    a.error = tr("Harbor at %1 sent too much, or too slowly, for %2.")
                                  .arg(m_base.host(), what);
                    done(a);
                    return;
                }
                a.body = bounded->take(reply);
                a.next = RegistryDecoder::nextLink(reply->rawHeader("Link"), url);
                if (!a.next.isEmpty() && !sameOrigin(a.next, m_base))
                    a.next.clear(); // the credentials stay with this server
                if (a.status == 0) {
                    a.error = tr("Harbor at %1 cannot be reached: %2")
                                  .arg(m_base.authority(), reply->errorString());
                } else if (a.status < 200 || a.status >= 300) {
                    const QString said = HarborDecoder::errorMessage(a.body);
                    a.error =
                        a.status == 401
                            ? tr("Harbor at %1 did not take the login of %2.")
                                  .arg(m_base.authority(), m_credentials.username.isEmpty()
                                                               ? tr("an anonymous user")
                                                               : m_credentials.username)
                        : a.status == 403
                            ? tr("Harbor at %1 does not allow %2 to do this: %3")
                                  .arg(m_base.authority(), m_credentials.username, said)
                            : tr("Harbor at %1 answered %2 to %3: %4")
                                  .arg(m_base.authority())
                                  .arg(a.status)
                                  .arg(what,
                                       said.isEmpty() ? QString::fromUtf8(a.body.left(200)) : said);
                    qCDebug(lcHarbor) << what << a.status << said;
                }
                done(a);
            });
}

void HarborClient::pages(const QUrl &url, QObject *context, QList<QByteArray> bodies,
                         std::function<void(const QList<QByteArray> &, const QString &)> done)
{
    // A next link that never ends (or points back) stops after this many pages.
    if (bodies.size() >= kMaxPages) {
        done(bodies, tr("Harbor at %1 sent more than %2 pages for %3; gpudesk stopped there.")
                         .arg(m_base.authority())
                         .arg(kMaxPages)
                         .arg(url.path()));
        return;
    }
    send("GET", url, {}, context,
         [this, context, bodies = std::move(bodies),
          done = std::move(done)](const Answer &a) mutable {
             if (!a.error.isEmpty()) {
                 done(bodies, a.error);
                 return;
             }
             bodies << a.body;
             if (a.next.isEmpty())
                 done(bodies, {});
             else
                 pages(a.next, context, std::move(bodies), std::move(done));
         });
}

void HarborClient::systemInfo(QObject *context, InfoDone done)
{
    send("GET", url(QStringLiteral("systeminfo")), {}, context,
         [done = std::move(done)](const Answer &a) {
             done(a.error.isEmpty() ? HarborDecoder::systemInfo(a.body) : std::nullopt, a.error);
         });
}

void HarborClient::projects(QObject *context, ProjectsDone done)
{
    pages(url(QStringLiteral("projects"), {{QStringLiteral("page_size"), QStringLiteral("100")}}),
          context, {},
          [this, context, done = std::move(done)](const QList<QByteArray> &bodies,
                                                  const QString &error) {
              QList<HarborProject> all;
              QString decodeError;
              for (const QByteArray &b : bodies)
                  all += HarborDecoder::projects(b, &decodeError);
              const QString firstError = error.isEmpty() ? decodeError : error;
              if (all.isEmpty()) {
                  done(all, firstError);
                  return;
              }
              // Each project's quota and members, two requests each (a few hundred projects).
              auto result = std::make_shared<QList<HarborProject>>(all);
              auto left = std::make_shared<int>(int(all.size()) * 2);
              for (int i = 0; i < all.size(); ++i) {
                  const QString name = QString::fromLatin1(QUrl::toPercentEncoding(all[i].name));
                  send("GET", url(QStringLiteral("projects/%1/summary").arg(name)), {}, context,
                       [=](const Answer &a) {
                           if (a.error.isEmpty())
                               HarborDecoder::summary(a.body, &(*result)[i]);
                           if (--*left == 0)
                               done(*result, firstError);
                       });
                  pages(url(QStringLiteral("projects/%1/members").arg(name),
                            {{QStringLiteral("page_size"), QStringLiteral("100")}}),
                        context, {}, [=](const QList<QByteArray> &bodies, const QString &error) {
                            // Members are shown to project admins and system admins only:
                            // not known otherwise, which is not "no members".
                            QString decodeError;
                            bool groups = false;
                            for (const QByteArray &b : bodies)
                                (*result)[i].members +=
                                    HarborDecoder::members(b, &decodeError, &groups);
                            // A group's users are not listed: such a project's members are not
                            // known, so it is never taken for one whose users left.
                            (*result)[i].membersKnown =
                                error.isEmpty() && decodeError.isEmpty() && !groups;
                            if (--*left == 0)
                                done(*result, firstError);
                        });
              }
          });
}

void HarborClient::repositories(const QString &project, QObject *context, NamesDone done)
{
    pages(url(QStringLiteral("projects/%1/repositories")
                  .arg(QString::fromLatin1(QUrl::toPercentEncoding(project))),
              {{QStringLiteral("page_size"), QStringLiteral("100")}}),
          context, {},
          [done = std::move(done)](const QList<QByteArray> &bodies, const QString &error) {
              QStringList names;
              QString decodeError;
              for (const QByteArray &b : bodies)
                  names += HarborDecoder::repositories(b, &decodeError);
              done(names, error.isEmpty() ? decodeError : error);
          });
}

void HarborClient::artifacts(const QString &repository, QObject *context, ArtifactsDone done)
{
    pages(url(artifactsPath(repository),
              {{QStringLiteral("page_size"), QStringLiteral("100")},
               {QStringLiteral("with_tag"), QStringLiteral("true")},
               {QStringLiteral("with_immutable_status"), QStringLiteral("true")}}),
          context, {},
          [repository, done = std::move(done)](const QList<QByteArray> &bodies,
                                               const QString &error) {
              QList<HarborArtifact> all;
              QString decodeError;
              for (const QByteArray &b : bodies)
                  all += HarborDecoder::artifacts(b, repository, &decodeError);
              done(all, error.isEmpty() ? decodeError : error);
          });
}

void HarborClient::deleteArtifact(const QString &repository, const QString &digest,
                                  QObject *context, Done done)
{
    send("DELETE", url(artifactsPath(repository) + u'/' + digest), {}, context,
         [this, repository, digest, done = std::move(done)](const Answer &a) {
             if (a.status == 412) {
                 done(tr("Harbor refused to delete %1@%2: a tag of it is immutable (%3).")
                          .arg(repository, digest.left(19), HarborDecoder::errorMessage(a.body)));
                 return;
             }
             done(a.status == 404 ? QString() : a.error); // gone already is what was asked
         });
}

void HarborClient::startGc(bool dryRun, bool deleteUntagged, QObject *context, GcStarted done)
{
    const QByteArray body =
        QStringLiteral(R"({"schedule":{"type":"Manual"},"parameters":{"dry_run":%1,)"
                       R"("delete_untagged":%2}})")
            .arg(dryRun ? QStringLiteral("true") : QStringLiteral("false"),
                 deleteUntagged ? QStringLiteral("true") : QStringLiteral("false"))
            .toUtf8();
    send("POST", url(QStringLiteral("system/gc/schedule")), body, context,
         [this, done = std::move(done)](const Answer &a) {
             if (a.status == 409) {
                 done(0, tr("Harbor is running a garbage collection already; wait for it to end."));
                 return;
             }
             // Location: /api/v2.0/system/gc/ID — the run this request started.
             const int id = a.location.section(u'/', -1).toInt();
             done(id, a.error.isEmpty() && id <= 0
                          ? tr("Harbor started a garbage collection but did not say which.")
                          : a.error);
         });
}

void HarborClient::gcRun(int id, QObject *context, GcRunDone done)
{
    send("GET", url(QStringLiteral("system/gc/%1").arg(id)), {}, context,
         [this, done = std::move(done)](const Answer &a) {
             const auto run = a.error.isEmpty() ? HarborDecoder::gcRun(a.body) : std::nullopt;
             done(run.value_or(HarborGcRun{}),
                  run                 ? QString()
                  : a.error.isEmpty() ? tr("Harbor's answer names no garbage collection run.")
                                      : a.error);
         });
}

void HarborClient::gcLog(int id, QObject *context, LogDone done)
{
    send("GET", url(QStringLiteral("system/gc/%1/log").arg(id)), {}, context,
         [done = std::move(done)](const Answer &a) { done(QString::fromUtf8(a.body), a.error); });
}

} // namespace gpudesk
