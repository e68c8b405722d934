// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "execcredential.h"
#include "kubeconfig.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QObject>
#include <QPointer>
#include <QSslConfiguration>
#include <QTimer>

#include <functional>
#include <optional>

namespace gpudesk {

// The API's own account of a failure: a Status object (reason, message, the fields it blames).
struct ApiStatus
{
    int code = 0;
    QString reason;  // NotFound, Conflict, Forbidden, TooManyRequests, Invalid, AlreadyExists, …
    QString message; // the server's sentence, shown to the user as it is
    struct Cause
    {
        QString field;
        QString reason;
        QString message;
    };
    QList<Cause> causes;
    bool isEmpty() const { return code == 0 && reason.isEmpty() && message.isEmpty(); }
};

struct KubeReply
{
    int httpStatus = 0;
    QByteArray body;
    QString error; // empty on success; a sentence for the user otherwise
    // No HTTP answer at all (refused, TLS, DNS, proxy, timeout), or the connection lost in the
    // middle of one: a fact about the server, not about this request.
    bool connectionFailed = false;
    ApiStatus status; // when the server answered an error with a Status
    bool ok() const { return error.isEmpty(); }
    bool conflict() const
    {
        return httpStatus == 409 && status.reason == QLatin1String("Conflict");
    }
    bool notFound() const { return httpStatus == 404; }
};

// DeleteOptions as the API takes them: the grace period (none: the object's own), what happens
// to dependents, and preconditions — the object is deleted only if it is still the one planned
// for (same uid, and the same resourceVersion when given).
struct DeleteOptions
{
    std::optional<qint64> gracePeriodSeconds;
    QString propagationPolicy; // Foreground, Background, Orphan; "" the server's default
    QString preconditionUid;
    QString preconditionResourceVersion;
};

enum class PatchType
{
    Merge,          // application/merge-patch+json
    Json,           // application/json-patch+json (with "test" ops as preconditions)
    StrategicMerge, // application/strategic-merge-patch+json (core kinds only)
};

// REST calls to one API server with the context's credentials. Asynchronous on the calling
// thread's event loop; a callback is dropped when its context object is gone.
//
// Credentials: a token, tokenFile (re-read when the server answers 401), basic auth, a client
// certificate, or an exec plugin whose credential is cached until its expirationTimestamp and
// renewed shortly before, or at once after a 401.
class KubeClient : public QObject
{
    Q_OBJECT
public:
    explicit KubeClient(ClusterEndpoint endpoint, QObject *parent = nullptr);

    // Before the first request: runs the exec plugin if the context has one and no valid
    // credential is cached. `done` gets "" or the plugin's error. Immediate when nothing is due.
    void ensureCredentials(QObject *context, std::function<void(const QString &error)> done);
    using Done = std::function<void(const KubeReply &)>;
    // GET with one transparent retry after a 401 that renewed the credentials.
    void get(const QString &path, QObject *context, Done done);
    // Writes. Every one can be a server-side dry run (`dryRun=All`): the API server runs
    // admission and validation and answers what it would have done, changing nothing. A 409
    // Conflict comes back as such (KubeReply::conflict()): nothing is ever overwritten blindly.
    void create(const QString &collectionPath, const QByteArray &object, bool dryRun,
                QObject *context, Done done);
    void update(const QString &path, const QByteArray &object, bool dryRun, QObject *context,
                Done done);
    void patch(const QString &path, const QByteArray &patch, PatchType type, bool dryRun,
               QObject *context, Done done);
    void remove(const QString &path, const DeleteOptions &options, bool dryRun, QObject *context,
                Done done);
    // The Eviction subresource (policy/v1): a delete that respects PodDisruptionBudgets; a
    // budget that forbids it answers 429 with the budget's reason.
    void evict(const QString &ns, const QString &pod, const DeleteOptions &options, bool dryRun,
               QObject *context, Done done);
    // A request made as another identity, with a bearer token gpudesk was just given for it: this
    // context's server and trust, none of its own credentials (no retry after a 401). To prove
    // what a handed-out token may do, or that a revoked one no longer works.
    void sendAs(const QByteArray &token, const QByteArray &verb, const QString &path,
                const QByteArray &body, QObject *context, Done done);
    // A request for `path` with this context's TLS settings and credentials, for callers that
    // stream (watches, logs) on their own QNetworkAccessManager — which they hand to attach().
    QNetworkRequest request(const QString &path) const;
    void attach(QNetworkAccessManager *nam) const;
    // The proxy requests to this server go through (WebSocket streams set it themselves).
    QNetworkProxy proxy() const { return m_proxy; }
    // The server answered 401 to a request made with the current credentials: re-read the
    // token file or renew the exec credential. True when a retry may now succeed (at once for a
    // token file; after credentialsChanged for a plugin).
    bool unauthorized();

    const ClusterEndpoint &endpoint() const { return m_endpoint; }
    // What went wrong with a finished reply, in words that name the real cause and where it is:
    // the proxy (not the server) when the proxy failed, the server and its certificate for TLS,
    // a timeout as a timeout with how long was waited (`waitedMs`; Qt calls it "canceled"). ""
    // when the reply has no network error.
    QString describeError(QNetworkReply *reply, qint64 waitedMs = -1) const;
    bool verifiesTls() const { return !m_endpoint.insecureSkipVerify; }
    // A problem with the credentials found before any request (bad PEM, say).
    QString setupError() const { return m_setupError; }
    // How many times the exec plugin ran for this client (for tests and the status tooltip).
    int execRuns() const { return m_execRuns; }
    // After a plugin's failure, the first wait before it is run again (doubled on each failure
    // in a row, up to the most).
    static constexpr int ExecBackoffFirstMs = 5000;
    static constexpr int ExecBackoffMaxMs = 5 * 60 * 1000;

signals:
    void credentialsChanged();
    void credentialsFailed(const QString &message);

private:
    struct Waiter
    {
        QPointer<QObject> context;
        std::function<void(const QString &)> done;
    };
    void send(const QByteArray &verb, const QString &path, const QByteArray &body,
              const QByteArray &contentType, QObject *context, Done done, bool retried,
              const QByteArray &asToken = {});
    void runPlugin();
    void applyCredential(const ExecCredential &c);
    bool credentialValid() const;
    void setClientCertificate(const QByteArray &certPem, const QByteArray &keyPem);
    QByteArray cacheKey() const;

    ClusterEndpoint m_endpoint;
    QNetworkAccessManager m_nam;
    QNetworkProxy m_proxy = QNetworkProxy(QNetworkProxy::NoProxy);
    QSslConfiguration m_tls;
    QString m_setupError;
    // Exec plugin state.
    bool m_haveCredential = false;
    QDateTime m_expiry;
    QPointer<ExecCredentialRunner> m_runner;
    QList<Waiter> m_waiters;
    QTimer m_renewTimer;
    QElapsedTimer m_sinceCredential;
    bool m_runAfter401 = false;     // the running plugin was started by a 401
    bool m_renewedAfter401 = false; // the current credential came from such a run
    int m_execRuns = 0;
    // After a plugin's failure (an expired answer included) it is not run again before this
    // back-off, doubled on each failure in a row up to 5 minutes: its error is the answer
    // meanwhile, said once (issue 33: an expired answer made it run ~400 times a second).
    int m_execBackoffMs = 0;
    QElapsedTimer m_execFailedAt;
    QString m_execError;
};

// The message of a Kubernetes Status body, or "" when the body is not one.
QString statusMessage(const QByteArray &body);
// The whole Status (code, reason, message, causes); empty when the body is not one.
ApiStatus parseStatus(const QByteArray &body);
// `path` with dryRun=All added to its query when `dryRun`.
QString withDryRun(const QString &path, bool dryRun);

} // namespace gpudesk
