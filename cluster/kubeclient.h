// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubeconfig.h"

#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QSslConfiguration>

#include <functional>

namespace gpudesk {

struct KubeReply
{
    int httpStatus = 0;
    QByteArray body;
    QString error; // empty on success; a sentence for the user otherwise
};

// REST calls to one API server with the context's credentials. Asynchronous on the calling
// thread's event loop; a callback is dropped when its context object is gone.
class KubeClient : public QObject
{
    Q_OBJECT
public:
    explicit KubeClient(ClusterEndpoint endpoint, QObject *parent = nullptr);

    void get(const QString &path, QObject *context, std::function<void(const KubeReply &)> done);
    // A request for `path` with this context's TLS settings and credentials, for callers that
    // stream (watches, logs) on their own QNetworkAccessManager.
    QNetworkRequest request(const QString &path) const;
    const ClusterEndpoint &endpoint() const { return m_endpoint; }
    bool verifiesTls() const { return !m_endpoint.insecureSkipVerify; }
    // A problem with the credentials found before any request (bad PEM, say).
    QString setupError() const { return m_setupError; }

private:
    ClusterEndpoint m_endpoint;
    QNetworkAccessManager m_nam;
    QSslConfiguration m_tls;
    QString m_setupError;
};

// The message of a Kubernetes Status body, or "" when the body is not one.
QString statusMessage(const QByteArray &body);

} // namespace gpudesk
