// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubeclient.h"

#include <QLoggingCategory>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QSslKey>
#include <QUrl>

#include <nlohmann/json.hpp>

Q_LOGGING_CATEGORY(lcKube, "gpudesk.kube")

namespace gpudesk {

QString statusMessage(const QByteArray &body)
{
    const auto j = nlohmann::json::parse(body.toStdString(), nullptr, false);
    if (!j.is_object() || j.value("kind", "") != "Status")
        return {};
    return QString::fromStdString(j.value("message", ""));
}

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
    if (!m_endpoint.clientCertPem.isEmpty()) {
        m_tls.setLocalCertificate(QSslCertificate(m_endpoint.clientCertPem, QSsl::Pem));
        QSslKey key(m_endpoint.clientKeyPem, QSsl::Rsa, QSsl::Pem);
        if (key.isNull())
            key = QSslKey(m_endpoint.clientKeyPem, QSsl::Ec, QSsl::Pem);
        if (key.isNull())
            m_setupError = tr("The client key of context %1 is neither an RSA nor an EC key.")
                               .arg(m_endpoint.context);
        m_tls.setPrivateKey(key);
    }
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

void KubeClient::get(const QString &path, QObject *context,
                     std::function<void(const KubeReply &)> done)
{
    QNetworkRequest req = request(path);
    req.setTransferTimeout(30000);
    QNetworkReply *reply = m_nam.get(req);
    QPointer<QObject> guard(context);
    connect(reply, &QNetworkReply::finished, this, [reply, guard, done = std::move(done), path] {
        reply->deleteLater();
        if (!guard)
            return;
        KubeReply r;
        r.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = reply->readAll();
        if (reply->error() != QNetworkReply::NoError) {
            const QString server = statusMessage(r.body);
            r.error = server.isEmpty() ? reply->errorString() : server;
            qCDebug(lcKube) << "GET" << path << "failed:" << r.httpStatus << r.error;
        }
        done(r);
    });
}

} // namespace gpudesk
