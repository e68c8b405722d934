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

namespace gpudesk {

struct KubeReply
{
    int httpStatus = 0;
    QByteArray body;
    QString error; // empty on success; a sentence for the user otherwise
    // No HTTP answer at all (refused, TLS, DNS, proxy, timeout): a fact about the server, not
    // about this request.
    bool connectionFailed = false;
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
    // GET with one transparent retry after a 401 that renewed the credentials.
    void get(const QString &path, QObject *context, std::function<void(const KubeReply &)> done);
    // A request for `path` with this context's TLS settings and credentials, for callers that
    // stream (watches, logs) on their own QNetworkAccessManager — which they hand to attach().
    QNetworkRequest request(const QString &path) const;
    void attach(QNetworkAccessManager *nam) const;
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

signals:
    void credentialsChanged();
    void credentialsFailed(const QString &message);

private:
    struct Waiter
    {
        QPointer<QObject> context;
        std::function<void(const QString &)> done;
    };
    void send(const QString &path, QObject *context, std::function<void(const KubeReply &)> done,
              bool retried);
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
};

// The message of a Kubernetes Status body, or "" when the body is not one.
QString statusMessage(const QByteArray &body);

} // namespace gpudesk
