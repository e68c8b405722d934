// SPDX-License-Identifier: GPL-3.0-or-later
#include "registryreader.h"

#include "tokenissuer.h"

#include <QFile>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QUrl>

namespace sim::harbor {

namespace {

constexpr const char *kManifestTypes =
    "application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json, "
    "application/vnd.docker.distribution.manifest.list.v2+json, "
    "application/vnd.docker.distribution.manifest.v2+json";

} // namespace

RegistryReader::RegistryReader(std::string url, const std::string &caFile,
                               const TokenIssuer *issuer, QObject *parent)
    : QObject(parent), m_url(std::move(url)), m_issuer(issuer),
      m_tls(QSslConfiguration::defaultConfiguration())
{
    QFile f(QString::fromStdString(caFile));
    if (f.open(QIODevice::ReadOnly))
        m_tls.setCaCertificates(QSslCertificate::fromData(f.readAll()));
}

void RegistryReader::manifest(const std::string &repository, const std::string &digest, Done done)
{
    send("GET", repository, "/manifests/" + digest, "pull", kManifestTypes, std::move(done));
}

void RegistryReader::blob(const std::string &repository, const std::string &digest, Done done)
{
    send("GET", repository, "/blobs/" + digest, "pull", {}, std::move(done));
}

void RegistryReader::deleteManifest(const std::string &repository, const std::string &digest,
                                    Done done)
{
    send("DELETE", repository, "/manifests/" + digest, "delete", {}, std::move(done));
}

void RegistryReader::send(const QByteArray &verb, const std::string &repository,
                          const std::string &path, const char *actions, const QByteArray &accept,
                          Done done)
{
    QNetworkRequest req(QUrl(QString::fromStdString(m_url + "/v2/" + repository + path)));
    req.setSslConfiguration(m_tls);
    req.setTransferTimeout(30000);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                     QNetworkRequest::NoLessSafeRedirectPolicy);
    req.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("harbor-core (gpudesk-sim)"));
    if (!accept.isEmpty())
        req.setRawHeader("Accept", accept);
    const nlohmann::json access = nlohmann::json::array(
        {{{"type", "repository"}, {"name", repository}, {"actions", {actions}}}});
    req.setRawHeader("Authorization",
                     "Bearer " + QByteArray::fromStdString(m_issuer->issue(kSubject, access, 300)));
    QNetworkReply *reply = m_net.sendCustomRequest(req, verb);
    connect(reply, &QNetworkReply::finished, this, [reply, done = std::move(done)] {
        reply->deleteLater();
        Reply r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = reply->readAll();
        r.mediaType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
        if (r.status < 200 || r.status >= 300)
            r.error = r.status ? "the registry answered " + std::to_string(r.status) + ": " +
                                     r.body.left(300).toStdString()
                               : reply->errorString().toStdString();
        done(r);
    });
}

} // namespace sim::harbor
