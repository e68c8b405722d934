// SPDX-License-Identifier: GPL-3.0-or-later
#include "dockercredentials.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

namespace gpudesk {

namespace {

constexpr qint64 kMaxConfigBytes = 4 << 20;
constexpr qint64 kMaxHelperOutput = 64 << 10;
constexpr int kHelperTimeoutMs = 20000;

// docker keeps Docker Hub's credentials under its v1 index URL; others under the host, sometimes
// with a scheme (older `docker login`). All the keys a host may have been saved under.
QStringList keysFor(const QString &host)
{
    if (host == QLatin1String("docker.io") || host == QLatin1String("registry-1.docker.io") ||
        host == QLatin1String("index.docker.io"))
        return {QStringLiteral("https://index.docker.io/v1/"), QStringLiteral("index.docker.io"),
                QStringLiteral("docker.io")};
    return {host, QStringLiteral("https://") + host, QStringLiteral("http://") + host,
            QStringLiteral("https://") + host + QStringLiteral("/v1/")};
}

} // namespace

DockerCredentials::DockerCredentials(QObject *parent) : QObject(parent) {}

QString DockerCredentials::configPath()
{
    const QString dir = qEnvironmentVariable("DOCKER_CONFIG");
    return (dir.isEmpty() ? QDir::homePath() + QStringLiteral("/.docker") : dir) +
           QStringLiteral("/config.json");
}

QStringList DockerCredentials::caFiles(const QString &host)
{
    QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (config.isEmpty())
        config = QDir::homePath() + QStringLiteral("/.config");
    // docker's name for a directory cannot hold ':' on every filesystem, but on Linux it does:
    // "127.0.0.1:5000" is the directory's name, as docker documents.
    const QStringList roots{QStringLiteral("/etc/docker/certs.d"),
                            QStringLiteral("/etc/containers/certs.d"),
                            config + QStringLiteral("/containers/certs.d")};
    QStringList out;
    for (const QString &root : roots) {
        const QDir d(root + u'/' + host);
        for (const QString &f : d.entryList({QStringLiteral("*.crt")}, QDir::Files, QDir::Name))
            out << d.filePath(f);
    }
    return out;
}

void DockerCredentials::lookup(const QString &host, QObject *context, Done done)
{
    const QString path = configPath();
    QFile f(path);
    if (!f.exists()) {
        done({}, {});
        return;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        done({}, tr("Cannot read %1: %2").arg(path, f.errorString()));
        return;
    }
    if (f.size() > kMaxConfigBytes) {
        done({}, tr("%1 is larger than %2 MiB; gpudesk did not read it.")
                     .arg(path)
                     .arg(kMaxConfigBytes >> 20));
        return;
    }
    QJsonParseError pe;
    const QJsonObject root = QJsonDocument::fromJson(f.readAll(), &pe).object();
    if (pe.error != QJsonParseError::NoError) {
        done({}, tr("%1 is not valid JSON: %2").arg(path, pe.errorString()));
        return;
    }
    const QStringList keys = keysFor(host);
    // docker's order: a helper for this registry, then the inline auths, then the store.
    const QJsonObject helpers = root.value(QLatin1String("credHelpers")).toObject();
    for (const QString &k : keys)
        if (helpers.contains(k)) {
            runHelper(helpers.value(k).toString(), k, context, std::move(done));
            return;
        }
    const QJsonObject auths = root.value(QLatin1String("auths")).toObject();
    for (const QString &k : keys) {
        const QJsonObject a = auths.value(k).toObject();
        RegistryCredentials c;
        c.source = path;
        c.identityToken = a.value(QLatin1String("identitytoken")).toString();
        const QByteArray pair =
            QByteArray::fromBase64(a.value(QLatin1String("auth")).toString().toLatin1());
        const qsizetype colon = pair.indexOf(':');
        if (colon > 0) {
            c.username = QString::fromUtf8(pair.left(colon));
            c.secret = QString::fromUtf8(pair.mid(colon + 1));
        } else {
            c.username = a.value(QLatin1String("username")).toString();
            c.secret = a.value(QLatin1String("password")).toString();
        }
        if (!c.isEmpty()) {
            done(c, {});
            return;
        }
    }
    const QString store = root.value(QLatin1String("credsStore")).toString();
    if (!store.isEmpty()) {
        runHelper(store, keys.first(), context, std::move(done));
        return;
    }
    done({}, {});
}

void DockerCredentials::runHelper(const QString &helper, const QString &server, QObject *context,
                                  Done done)
{
    // Only a helper's name is taken from the file, and it names a program docker-credential-NAME
    // on PATH: never a path, never arguments.
    if (helper.isEmpty() || helper.contains(u'/') || helper.startsWith(u'.')) {
        done({}, tr("%1 names the credential helper \"%2\", which is not a helper's name.")
                     .arg(configPath(), helper));
        return;
    }
    const QString program = QStringLiteral("docker-credential-") + helper;
    const QString exe = QStandardPaths::findExecutable(program);
    if (exe.isEmpty()) {
        done({}, tr("%1 asks for the credential helper %2, which is not installed (not on PATH).")
                     .arg(configPath(), program));
        return;
    }
    auto *p = new QProcess(this);
    auto *timer = new QTimer(p);
    timer->setSingleShot(true);
    QPointer<QObject> guard(context);
    auto finish = std::make_shared<Done>(std::move(done));
    auto answered = std::make_shared<bool>(false);
    auto reply = [guard, finish, answered, p](const RegistryCredentials &c, const QString &error) {
        if (*answered)
            return;
        *answered = true;
        p->deleteLater();
        if (guard)
            (*finish)(c, error);
    };
    connect(timer, &QTimer::timeout, p, [p, program, reply] {
        p->kill();
        reply({}, tr("The credential helper %1 did not answer within %2 s.")
                      .arg(program)
                      .arg(kHelperTimeoutMs / 1000));
    });
    connect(p, &QProcess::errorOccurred, p, [p, program, reply](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            reply({}, tr("Cannot run %1: %2").arg(program, p->errorString()));
    });
    connect(p, &QProcess::readyReadStandardOutput, p, [p, program, reply] {
        if (p->bytesAvailable() > kMaxHelperOutput) {
            p->kill();
            reply({}, tr("The credential helper %1 sent more than %2 KiB; gpudesk stopped it.")
                          .arg(program)
                          .arg(kMaxHelperOutput >> 10));
        }
    });
    connect(p, &QProcess::finished, p, [p, program, reply](int code, QProcess::ExitStatus st) {
        const QByteArray out = p->readAllStandardOutput();
        if (st != QProcess::NormalExit || code != 0) {
            // The protocol's "not found" is an answer, not a failure: no credentials.
            const QByteArray err = out + p->readAllStandardError();
            if (err.contains("credentials not found"))
                reply({}, {});
            else
                reply({}, tr("The credential helper %1 failed (exit %2): %3")
                              .arg(program)
                              .arg(code)
                              .arg(QString::fromUtf8(err.trimmed().left(300))));
            return;
        }
        QJsonParseError pe;
        const QJsonObject o = QJsonDocument::fromJson(out, &pe).object();
        if (pe.error != QJsonParseError::NoError) {
            reply({},
                  tr("The credential helper %1 answered something that is not JSON.").arg(program));
            return;
        }
        RegistryCredentials c;
        c.source = program;
        c.username = o.value(QLatin1String("Username")).toString();
        // "<token>" as the user name marks an identity token (docker's convention).
        if (c.username == QLatin1String("<token>")) {
            c.username.clear();
            c.identityToken = o.value(QLatin1String("Secret")).toString();
        } else {
            c.secret = o.value(QLatin1String("Secret")).toString();
        }
        reply(c, {});
    });
    p->setProgram(exe);
    p->setArguments({QStringLiteral("get")});
    timer->start(kHelperTimeoutMs);
    p->start();
    p->write(server.toUtf8() + '\n');
    p->closeWriteChannel();
}

} // namespace gpudesk
