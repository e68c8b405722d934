// SPDX-License-Identifier: GPL-3.0-or-later
#include "registrypeer.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QUrl>

namespace registrypeer {

QString file(const QString &path)
{
    QFile f(qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/") + path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll().trimmed()) : QString();
}

QString mainHost()
{
    const QUrl url(file(QStringLiteral("main/url")));
    return url.host() + u':' + QString::number(url.port());
}

bool setUpUser(const QString &home, QString *error)
{
    const QString host = mainHost();
    qputenv("DOCKER_CONFIG", (home + QStringLiteral("/docker")).toUtf8());
    qputenv("XDG_CONFIG_HOME", (home + QStringLiteral("/config")).toUtf8());
    const QString certs = home + QStringLiteral("/config/containers/certs.d/") + host;
    if (!QDir().mkpath(home + QStringLiteral("/docker")) || !QDir().mkpath(certs) ||
        !QFile::copy(qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/ca.crt"),
                     certs + QStringLiteral("/ca.crt"))) {
        *error = QStringLiteral("cannot make %1").arg(certs);
        return false;
    }
    const QByteArray auth =
        (file(QStringLiteral("user")) + u':' + file(QStringLiteral("password"))).toUtf8();
    const QJsonObject entry{{QStringLiteral("auth"), QString::fromLatin1(auth.toBase64())}};
    QFile config(home + QStringLiteral("/docker/config.json"));
    if (!config.open(QIODevice::WriteOnly) ||
        config.write(
            QJsonDocument(QJsonObject{{QStringLiteral("auths"), QJsonObject{{host, entry}}}})
                .toJson()) < 0) {
        *error = config.errorString();
        return false;
    }
    return true;
}

QStringList curlArgs(const QString &base)
{
    QStringList args{QStringLiteral("-s"), QStringLiteral("-u"),
                     file(QStringLiteral("user")) + u':' + file(QStringLiteral("password"))};
    if (base.startsWith(QLatin1String("https")))
        args << QStringLiteral("--cacert")
             << qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/ca.crt");
    return args;
}

QString curlDigest(const QString &base, const QString &repository, const QString &reference)
{
    QProcess curl;
    curl.start(
        QStringLiteral("curl"),
        curlArgs(base) << QStringLiteral("-I") << QStringLiteral("-H")
                       << QStringLiteral("Accept: application/vnd.oci.image.manifest.v1+json, "
                                         "application/vnd.oci.image.index.v1+json, "
                                         "application/vnd.docker.distribution.manifest.v2+json")
                       << base + QStringLiteral("/v2/") + repository +
                              QStringLiteral("/manifests/") + reference);
    if (!curl.waitForFinished(30000))
        return QStringLiteral("(curl did not finish)");
    const QList<QByteArray> lines = curl.readAllStandardOutput().split('\n');
    if (lines.isEmpty() || !lines.first().contains(" 200"))
        return QString();
    for (const QByteArray &line : lines)
        if (line.toLower().startsWith("docker-content-digest:"))
            return QString::fromLatin1(line.mid(line.indexOf(':') + 1).trimmed());
    return QStringLiteral("(no digest)");
}

namespace {

QString harborCa()
{
    return qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/ca.crt");
}

QString harborAdmin()
{
    return QStringLiteral("admin:") + file(QStringLiteral("harbor/admin.password"));
}

QByteArray curl(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral("curl"),
            QStringList{QStringLiteral("-s"), QStringLiteral("--cacert"), harborCa()} + args);
    p.waitForFinished(30000);
    return p.readAllStandardOutput();
}

} // namespace

QString harborHost()
{
    const QUrl url(file(QStringLiteral("harbor/url")));
    return url.host() + u':' + QString::number(url.port());
}

QString harborPush(const QString &layout, const QString &reference)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("skopeo"),
            {QStringLiteral("copy"), QStringLiteral("--quiet"), QStringLiteral("--dest-cert-dir"),
             qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/certs"),
             QStringLiteral("--dest-creds"), harborAdmin(),
             QStringLiteral("oci:") + qEnvironmentVariable("GPUDESK_PEERS") +
                 QStringLiteral("/registry/layouts/main/") + layout + QStringLiteral(":seed"),
             QStringLiteral("docker://") + harborHost() + u'/' + reference});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return QStringLiteral("skopeo: ") + QString::fromUtf8(p.readAll());
    return {};
}

int harborRegistryStatus(const QString &method, const QString &repository, const QString &path)
{
    const QByteArray answer =
        curl({QStringLiteral("-u"), harborAdmin(),
              file(QStringLiteral("harbor/api")) +
                  QStringLiteral(
                      "/service/token?service=harbor-registry&scope=repository:%1:pull,delete")
                      .arg(repository)});
    const QString token =
        QJsonDocument::fromJson(answer).object().value(QStringLiteral("token")).toString();
    return curl({QStringLiteral("-o"), QStringLiteral("/dev/null"), QStringLiteral("-w"),
                 QStringLiteral("%{http_code}"), QStringLiteral("-X"), method, QStringLiteral("-H"),
                 QStringLiteral("Authorization: Bearer ") + token, QStringLiteral("-H"),
                 QStringLiteral("Accept: application/vnd.oci.image.manifest.v1+json"),
                 file(QStringLiteral("harbor/url")) + QStringLiteral("/v2/") + repository + path})
        .toInt();
}

bool harborAge(int days)
{
    return curl({QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("-u"), harborAdmin(),
                 file(QStringLiteral("harbor/api")) + QStringLiteral("/sim/age?days=") +
                     QString::number(days)})
        .contains("aged");
}

} // namespace registrypeer
