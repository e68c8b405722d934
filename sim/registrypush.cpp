// SPDX-License-Identifier: GPL-3.0-or-later
#include "registrypush.h"

#include <QCryptographicHash>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTimer>
#include <QUrl>

#include <memory>
#include <thread>

namespace sim {

namespace {

// One HTTP exchange, waited for in a loop of this thread's own (SSH sessions run on plain
// threads). Bounded: a registry that does not answer in 60 s fails the push (10 s a pull).
struct Exchange
{
    int status = 0;
    QByteArray body;
    QByteArray location;
    QByteArray digest; // Docker-Content-Digest
    std::string error;
};

class Http
{
public:
    explicit Http(const RegistryTarget &t, int timeoutMs = 60000)
        : m_target(t), m_timeoutMs(timeoutMs)
    {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        if (!t.caFile.empty()) {
            QFile f(QString::fromStdString(t.caFile));
            if (f.open(QIODevice::ReadOnly))
                ssl.setCaCertificates(QSslCertificate::fromData(f.readAll()));
        }
        m_ssl = ssl;
    }

    QUrl url(const std::string &path) const
    {
        // A Location the registry gave may be absolute already.
        if (path.rfind("http", 0) == 0)
            return QUrl(QString::fromStdString(path));
        return QUrl(QString::fromStdString("https://" + m_target.host + path));
    }

    Exchange run(const QByteArray &verb, const QUrl &url, const QByteArray &body = {},
                 const QByteArray &contentType = {}, bool withAuth = true,
                 const QByteArray &accept = {})
    {
        QNetworkRequest req(url);
        req.setSslConfiguration(m_ssl);
        req.setTransferTimeout(m_timeoutMs);
        if (withAuth && !m_target.username.empty())
            req.setRawHeader(
                "Authorization",
                "Basic " + QByteArray::fromStdString(m_target.username + ":" + m_target.password)
                               .toBase64());
        if (!contentType.isEmpty())
            req.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
        if (!accept.isEmpty())
            req.setRawHeader("Accept", accept);
        QNetworkReply *reply = m_nam.sendCustomRequest(req, verb, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        Exchange e;
        e.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        e.body = reply->readAll();
        e.location = reply->rawHeader("Location");
        e.digest = reply->rawHeader("Docker-Content-Digest");
        if (e.status == 0)
            e.error = reply->errorString().toStdString();
        reply->deleteLater();
        return e;
    }

private:
    RegistryTarget m_target;
    int m_timeoutMs;
    QSslConfiguration m_ssl;
    QNetworkAccessManager m_nam;
};

std::string failure(const std::string &what, const Exchange &e)
{
    if (e.status == 0)
        return what + ": " + e.error;
    std::string body = e.body.left(300).toStdString();
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r'))
        body.pop_back();
    return what + ": unexpected status code " + std::to_string(e.status) +
           (body.empty() ? std::string() : ": " + body);
}

} // namespace

std::string RegistryPush::checkLogin(const RegistryTarget &target)
{
    Http http(target);
    const Exchange e = http.run("GET", http.url("/v2/"));
    if (e.status == 200)
        return {};
    if (e.status == 401)
        return "failed to call tryLoginWithRegHost: failed to call rh.Client.Do: unexpected "
               "status code 401 Unauthorized";
    return failure("failed to call tryLoginWithRegHost", e);
}

RegistryTarget RegistryPush::nodeTarget(const std::string &certsDir, const std::string &host)
{
    RegistryTarget t{host, certsDir + "/" + host + "/ca.crt", {}, {}};
    QFile f(QString::fromStdString(certsDir + "/" + host + "/auth"));
    if (f.open(QIODevice::ReadOnly)) {
        const std::string auth = f.readAll().trimmed().toStdString();
        const size_t colon = auth.find(':');
        if (colon != std::string::npos) {
            t.username = auth.substr(0, colon);
            t.password = auth.substr(colon + 1);
        }
    }
    return t;
}

std::string RegistryPush::resolve(const RegistryTarget &target, const std::string &repository,
                                  const std::string &tag, std::string *digest)
{
    std::string error;
    std::thread worker([&] {
        // The simulation waits for it (a kubelet's pull): a registry gone quiet costs 10 s.
        Http http(target, 10000);
        const Exchange e =
            http.run("HEAD", http.url("/v2/" + repository + "/manifests/" + tag), {}, {}, true,
                     "application/vnd.oci.image.index.v1+json, "
                     "application/vnd.oci.image.manifest.v1+json, "
                     "application/vnd.docker.distribution.manifest.list.v2+json, "
                     "application/vnd.docker.distribution.manifest.v2+json");
        if (e.status == 200 && !e.digest.isEmpty())
            *digest = e.digest.toStdString();
        else if (e.status == 404)
            error = "not found";
        else
            error = failure("unexpected answer", e);
    });
    worker.join();
    return error;
}

std::string RegistryPush::push(const RegistryTarget &target, const std::string &repository,
                               const std::string &tag, const std::vector<PushBlob> &blobs,
                               const QByteArray &manifest, const std::string &manifestType,
                               const std::function<void(const std::string &)> &say)
{
    Http http(target);
    const std::string base = "/v2/" + repository;
    for (const PushBlob &b : blobs) {
        const Exchange head = http.run("HEAD", http.url(base + "/blobs/" + b.digest));
        if (head.status == 200) {
            say("layer-" + b.digest + ": already exists");
            continue;
        }
        if (head.status != 404)
            return failure("failed to check " + b.digest, head);
        const Exchange start = http.run("POST", http.url(base + "/blobs/uploads/"));
        if (start.status != 202 || start.location.isEmpty())
            return failure("failed to start the upload of " + b.digest, start);
        QUrl put = http.url(start.location.toStdString());
        QString query = put.query();
        query += (query.isEmpty() ? QString() : QStringLiteral("&")) + QStringLiteral("digest=") +
                 QString::fromStdString(b.digest);
        put.setQuery(query);
        const Exchange done = http.run("PUT", put, b.data, "application/octet-stream");
        if (done.status != 201)
            return failure("failed to upload " + b.digest, done);
        say("layer-" + b.digest + ": done");
    }
    const Exchange m = http.run("PUT", http.url(base + "/manifests/" + tag), manifest,
                                QByteArray::fromStdString(manifestType));
    if (m.status != 201)
        return failure("failed to push the manifest of " + repository + ":" + tag, m);
    say("manifest-sha256:" +
        QCryptographicHash::hash(manifest, QCryptographicHash::Sha256).toHex().toStdString() +
        ": done");
    return {};
}

} // namespace sim
