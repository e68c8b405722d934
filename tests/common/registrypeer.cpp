// SPDX-License-Identifier: GPL-3.0-or-later
#include "registrypeer.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
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

} // namespace registrypeer
