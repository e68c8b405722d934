// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registryauth.h"
#include "registrytypes.h"

#include <QDateTime>
#include <QHash>
#include <QNetworkAccessManager>
#include <QObject>
#include <QSslConfiguration>
#include <QUrl>

#include <functional>

class QNetworkReply;

namespace gpudesk {

class BoundedBody;

// One answer of the registry, with what it said in words when it was not what was asked.
struct RegistryReply
{
    int httpStatus = 0;
    QByteArray body;
    QString contentType;
    QString digest; // Docker-Content-Digest
    QString location;
    QUrl next; // Link rel="next"
    QString error;
    QString errorCode; // the registry's first error code (UNSUPPORTED, NAME_UNKNOWN, …)
    bool connectionFailed = false;
    bool ok() const { return error.isEmpty(); }
};

// The OCI Distribution API (Docker Registry HTTP API v2) of one registry: auth as docker does it
// (anonymous, basic, bearer tokens per scope from the registry's challenge), TLS verified against
// the system's CAs and the registry's own, every answer read with a bound and a deadline, at most
// one retry after a challenge so a wrong password is one error, never a loop of 401s.
class RegistryClient : public QObject
{
    Q_OBJECT
public:
    explicit RegistryClient(RegistryEndpoint endpoint, QObject *parent = nullptr);
    const RegistryEndpoint &endpoint() const { return m_endpoint; }
    void setCredentials(const RegistryCredentials &credentials);
    const RegistryCredentials &credentials() const { return m_credentials; }
    // The registry wanted a login it did not get: none was configured, or it refused the one
    // given (a wrong password, a token service saying no). What the user can fix by logging in.
    bool needsLogin() const { return m_needsLogin; }
    int requestsSent() const { return m_requests; }
    // The token service a bearer challenge named (empty before one, or for basic auth): where
    // a Harbor's API answers when it is not on the registry's own origin.
    QUrl tokenRealm() const
    {
        return m_auth == Auth::Bearer ? QUrl(m_bearer.params.value(QStringLiteral("realm")))
                                      : QUrl();
    }

    using Done = std::function<void(const RegistryReply &)>;
    using ManifestDone = std::function<void(const RegistryManifest &, const RegistryReply &)>;

    void ping(QObject *context, Done done);
    // One page; `next` empty for the first. The reply's `next` is the following page, if any.
    void catalogPage(const QUrl &next, int pageSize, QObject *context, Done done);
    void tagsPage(const QString &repository, const QUrl &next, int pageSize, QObject *context,
                  Done done);
    // GET with every manifest type accepted; the bytes are checked against the digest asked for
    // and the one the registry states.
    void manifest(const QString &repository, const QString &reference, QObject *context,
                  ManifestDone done);
    // HEAD: the digest a tag points at now (reply.digest), without the manifest.
    void manifestDigest(const QString &repository, const QString &reference, QObject *context,
                        Done done);
    // A blob of at most `maxBytes`, its content checked against its digest; redirects followed,
    // without the registry's credentials where they lead elsewhere (object storage).
    void blob(const QString &repository, const QString &digest, qint64 maxBytes, QObject *context,
              Done done);
    void deleteManifest(const QString &repository, const QString &digest, QObject *context,
                        Done done);
    // Cross-repository mount: 201 mounted; otherwise the reply is an error (the upload the
    // registry may have begun instead is cancelled).
    void mountBlob(const QString &repository, const QString &digest, const QString &fromRepository,
                   QObject *context, Done done);
    void putManifest(const QString &repository, const QString &reference, const QByteArray &body,
                     const QString &mediaType, QObject *context, Done done);

    static constexpr qint64 kMaxPageBytes = 8 << 20;
    static constexpr qint64 kMaxManifestBytes = 4 << 20; // the registry's own limit
    static constexpr int kTimeoutMs = 30000;

private:
    struct Request
    {
        QByteArray verb;
        QUrl url;
        QByteArray accept;
        QByteArray body;
        QString contentType;
        QStringList scopes;
        qint64 maxBytes = kMaxPageBytes;
        QString what; // for messages: "the catalog", "alice/pytorch:2.1"
        int attempt = 0;
        int redirects = 0;
        bool withAuth = true;
    };
    void send(Request r, QObject *context, Done done);
    void sendPaged(Request r, QObject *context, Done done);
    void finished(QNetworkReply *reply, Request r, QObject *context, Done done,
                  std::shared_ptr<BoundedBody> answer);
    void challenge(const QByteArray &header, Request r, QObject *context, Done done,
                   RegistryReply failed);
    void fetchToken(const RegistryChallenge &bearer, const QStringList &scopes, QObject *context,
                    std::function<void(const QString &error)> then);
    QString describe(QNetworkReply *reply, const Request &r) const;
    QString statusText(RegistryReply &reply, const Request &r) const;
    QUrl url(const QString &path) const;
    static QString repoScope(const QString &repository, const char *actions);

    RegistryEndpoint m_endpoint;
    QNetworkAccessManager m_net;
    QSslConfiguration m_tls;
    RegistryCredentials m_credentials;
    enum class Auth
    {
        Unknown,
        Basic,
        Bearer
    } m_auth = Auth::Unknown;
    RegistryChallenge m_bearer;
    bool m_needsLogin = false;
    struct Token
    {
        QByteArray value;
        QDateTime expires;
    };
    QHash<QString, Token> m_tokens; // by scopes joined
    int m_requests = 0;
};

} // namespace gpudesk
