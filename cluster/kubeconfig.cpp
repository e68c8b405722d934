// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubeconfig.h"

#include "boundedfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSslCertificate>
#include <QUrl>

#include <yaml-cpp/yaml.h>

namespace gpudesk {

namespace {

QString str(const YAML::Node &n, const char *key)
{
    if (!n.IsMap())
        return {};
    const YAML::Node v = n[key];
    return v && v.IsScalar() ? QString::fromStdString(v.as<std::string>()) : QString();
}

// Paths in a kubeconfig are relative to the file that names them.
QString resolvePath(const QString &path, const QString &file)
{
    if (path.isEmpty() || QDir::isAbsolutePath(path))
        return path;
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return QDir::cleanPath(QFileInfo(file).absoluteDir().filePath(path));
}

bool readField(const YAML::Node &n, const char *dataKey, const char *fileKey, const QString &file,
               const QString &where, QByteArray *out, QString *error)
{
    const QString data = str(n, dataKey);
    if (!data.isEmpty()) {
        const auto decoded = QByteArray::fromBase64Encoding(
            data.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded) {
            *error = QStringLiteral("%1: %2 of %3 is not valid base64")
                         .arg(file, QLatin1String(dataKey), where);
            return false;
        }
        *out = *decoded;
        return true;
    }
    const QString path = resolvePath(str(n, fileKey), file);
    if (path.isEmpty())
        return true;
    QString why;
    const auto contents = readBoundedFile(path, filelimit::Credential, &why);
    if (!contents) {
        *error = QStringLiteral("%1: %2 of %3 names %4, which cannot be read: %5")
                     .arg(file, QLatin1String(fileKey), where, path, why);
        return false;
    }
    *out = *contents;
    return true;
}

bool readExec(const YAML::Node &n, const QString &file, const QString &user, ExecConfig *out,
              QString *error)
{
    if (!n || !n.IsMap())
        return true;
    const QString where = QStringLiteral("%1: exec of user \"%2\"").arg(file, user);
    out->user = user;
    out->file = file;
    out->apiVersion = str(n, "apiVersion");
    out->command = str(n, "command");
    out->installHint = str(n, "installHint");
    out->interactiveMode = str(n, "interactiveMode");
    out->provideClusterInfo = str(n, "provideClusterInfo") == QLatin1String("true");
    if (out->command.isEmpty()) {
        *error = where + QStringLiteral(" has no command");
        return false;
    }
    if (out->apiVersion != QLatin1String("client.authentication.k8s.io/v1") &&
        out->apiVersion != QLatin1String("client.authentication.k8s.io/v1beta1")) {
        *error = where + QStringLiteral(": apiVersion \"%1\" is not supported (use "
                                        "client.authentication.k8s.io/v1 or v1beta1)")
                             .arg(out->apiVersion);
        return false;
    }
    if (out->apiVersion.endsWith(QLatin1String("/v1")) && out->interactiveMode.isEmpty()) {
        *error = where + QStringLiteral(": interactiveMode must be set for apiVersion "
                                        "client.authentication.k8s.io/v1");
        return false;
    }
    // As kubectl: a command with a path separator is relative to the kubeconfig's directory;
    // a bare name is looked up on PATH when it runs.
    if (out->command.contains(u'/'))
        out->command = resolvePath(out->command, file);
    if (const YAML::Node args = n["args"]; args && args.IsSequence()) {
        for (const auto &a : args) {
            if (!a.IsScalar()) {
                *error = where + QStringLiteral(": args must be a list of strings");
                return false;
            }
            out->args << QString::fromStdString(a.as<std::string>());
        }
    }
    if (const YAML::Node env = n["env"]; env && env.IsSequence()) {
        for (const auto &e : env) {
            const QString name = str(e, "name");
            if (name.isEmpty()) {
                *error = where + QStringLiteral(": an env entry has no name");
                return false;
            }
            out->env.append({name, str(e, "value")});
        }
    }
    return true;
}

} // namespace

QStringList KubeConfig::defaultFiles()
{
    const QString env = qEnvironmentVariable("KUBECONFIG");
    if (!env.isEmpty())
        return env.split(u':', Qt::SkipEmptyParts);
    return {QDir::homePath() + QStringLiteral("/.kube/config")};
}

std::optional<KubeConfig> KubeConfig::load(const QStringList &files, QString *error)
{
    KubeConfig cfg;
    bool any = false;
    for (const QString &file : files) {
        if (!QFile::exists(file) && files.size() > 1)
            continue; // kubectl skips missing files in a $KUBECONFIG list
        QString why;
        const auto text = readBoundedFile(file, filelimit::Kubeconfig, &why);
        if (!text) {
            *error = QStringLiteral("cannot read kubeconfig %1: %2").arg(file, why);
            return std::nullopt;
        }
        YAML::Node root;
        try {
            root = YAML::Load(text->toStdString());
        } catch (const YAML::Exception &e) {
            *error = QStringLiteral("%1 is not valid YAML (line %2): %3")
                         .arg(file)
                         .arg(e.mark.line + 1)
                         .arg(QString::fromStdString(e.msg));
            return std::nullopt;
        }
        if (!root.IsMap() && !root.IsNull()) {
            // kubectl reads an empty file as an empty config, and refuses anything else.
            *error = QStringLiteral("%1 is not a kubeconfig: its top level is not a mapping of "
                                    "clusters, users and contexts")
                         .arg(file);
            return std::nullopt;
        }
        any = true;
        auto collect = [&](const char *key, QList<Named> *into) {
            if (!root.IsMap())
                return;
            const YAML::Node list = root[key];
            if (!list || !list.IsSequence())
                return;
            for (const auto &item : list) {
                const QString name = str(item, "name");
                bool seen = false;
                for (const auto &n : *into)
                    seen |= n.name == name;
                if (name.isEmpty() || seen)
                    continue; // first file wins
                YAML::Emitter e;
                e << item;
                into->append({name, file, QByteArray(e.c_str())});
            }
        };
        collect("clusters", &cfg.m_clusters);
        collect("users", &cfg.m_users);
        collect("contexts", &cfg.m_contexts);
        if (cfg.m_currentContext.isEmpty())
            cfg.m_currentContext = str(root, "current-context");
    }
    if (!any) {
        *error = QStringLiteral("no kubeconfig found (looked at %1)")
                     .arg(files.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    return cfg;
}

QStringList KubeConfig::contexts() const
{
    QStringList out;
    for (const auto &c : m_contexts)
        out << c.name;
    return out;
}

std::optional<ClusterEndpoint> KubeConfig::endpoint(const QString &context, QString *error) const
{
    // A kubeconfig of the wrong shape (a scalar where a mapping belongs) makes yaml-cpp throw on
    // a subscript: that is a message naming the context, never a crash.
    auto resolve = [&]() -> std::optional<ClusterEndpoint> {
        const QString name = context.isEmpty() ? m_currentContext : context;
        auto find = [](const QList<Named> &list, const QString &n) -> const Named * {
            for (const auto &x : list) {
                if (x.name == n)
                    return &x;
            }
            return nullptr;
        };
        const Named *ctx = find(m_contexts, name);
        if (!ctx) {
            *error = name.isEmpty()
                         ? QStringLiteral("the kubeconfig has no current-context; choose a context")
                         : QStringLiteral("context \"%1\" is not in the kubeconfig").arg(name);
            return std::nullopt;
        }
        const YAML::Node c = YAML::Load(ctx->yaml.toStdString())["context"];
        const QString clusterName = str(c, "cluster");
        const QString userName = str(c, "user");
        const Named *cluster = find(m_clusters, clusterName);
        if (!cluster) {
            *error = QStringLiteral("%1: context \"%2\" names cluster \"%3\", which is not defined")
                         .arg(ctx->file, name, clusterName);
            return std::nullopt;
        }
        ClusterEndpoint ep;
        ep.context = name;
        ep.userEntry = userName;
        ep.defaultNamespace = str(c, "namespace");
        const YAML::Node cl = YAML::Load(cluster->yaml.toStdString())["cluster"];
        ep.server = str(cl, "server");
        if (ep.server.isEmpty()) {
            *error =
                QStringLiteral("%1: cluster \"%2\" has no server").arg(cluster->file, clusterName);
            return std::nullopt;
        }
        // Checked here, where the field can be named: a typo ("htps://", a missing scheme) would
        // otherwise surface at the first list as "Protocol is unknown".
        if (const QUrl url(ep.server, QUrl::StrictMode);
            !url.isValid() || url.host().isEmpty() ||
            (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http"))) {
            *error = QStringLiteral("%1: server of cluster \"%2\" is \"%3\"; expected "
                                    "https://host[:port] (or http://)")
                         .arg(cluster->file, clusterName, ep.server);
            return std::nullopt;
        }
        ep.tlsServerName = str(cl, "tls-server-name");
        ep.proxyUrl = str(cl, "proxy-url");
        if (!ep.proxyUrl.isEmpty()) {
            const QUrl proxy(ep.proxyUrl);
            const QString scheme = proxy.scheme();
            // Shown without its user info: a proxy's password never reaches a message.
            const QString shown = proxy.toDisplayString(QUrl::RemoveUserInfo);
            if (scheme == QLatin1String("https")) {
                // Qt reaches an HTTP proxy over plain TCP only; a TLS proxy would be spoken to in
                // the clear, so it is refused rather than half-supported.
                *error = QStringLiteral("%1: proxy-url of cluster \"%2\" is \"%3\", an https:// "
                                        "proxy; gpudesk reaches proxies over http:// or socks5:// "
                                        "only")
                             .arg(cluster->file, clusterName, shown);
                return std::nullopt;
            }
            if (!proxy.isValid() || proxy.host().isEmpty() ||
                (scheme != QLatin1String("http") && scheme != QLatin1String("socks5"))) {
                *error = QStringLiteral("%1: proxy-url of cluster \"%2\" is \"%3\"; expected "
                                        "http:// or socks5://host:port")
                             .arg(cluster->file, clusterName, shown);
                return std::nullopt;
            }
        }
        ep.insecureSkipVerify = str(cl, "insecure-skip-tls-verify") == QLatin1String("true");
        const QString clusterWhere = QStringLiteral("cluster \"%1\"").arg(clusterName);
        if (!readField(cl, "certificate-authority-data", "certificate-authority", cluster->file,
                       clusterWhere, &ep.caPem, error))
            return std::nullopt;
        if (!ep.caPem.isEmpty() && QSslCertificate::fromData(ep.caPem, QSsl::Pem).isEmpty()) {
            const QString field =
                QLatin1String(cl["certificate-authority-data"] ? "certificate-authority-data"
                                                               : "certificate-authority");
            *error = QStringLiteral("%1: %2 of %3 is not a PEM certificate (it should decode to "
                                    "\"-----BEGIN CERTIFICATE-----\" …)")
                         .arg(cluster->file, field, clusterWhere);
            return std::nullopt;
        }
        if (const Named *user = find(m_users, userName)) {
            const YAML::Node u = YAML::Load(user->yaml.toStdString())["user"];
            const QString userWhere = QStringLiteral("user \"%1\"").arg(userName);
            ep.token = str(u, "token");
            ep.tokenFile = resolvePath(str(u, "tokenFile"), user->file);
            ep.username = str(u, "username");
            ep.password = str(u, "password");
            if (!readField(u, "client-certificate-data", "client-certificate", user->file,
                           userWhere, &ep.clientCertPem, error) ||
                !readField(u, "client-key-data", "client-key", user->file, userWhere,
                           &ep.clientKeyPem, error))
                return std::nullopt;
            if (!ep.clientCertPem.isEmpty()) {
                // Checked here, where the field and the file can be named: a TLS handshake with an
                // expired certificate only says "certificate expired" from the server's side.
                const QString field =
                    QLatin1String(u["client-certificate-data"] ? "client-certificate-data"
                                                               : "client-certificate");
                const QSslCertificate cert(ep.clientCertPem, QSsl::Pem);
                if (cert.isNull()) {
                    *error = QStringLiteral("%1: %2 of %3 is not a PEM certificate")
                                 .arg(user->file, field, userWhere);
                    return std::nullopt;
                }
                if (cert.expiryDate() < QDateTime::currentDateTimeUtc()) {
                    *error = QStringLiteral("%1: %2 of %3 expired on %4; a new certificate (or "
                                            "kubeconfig) is needed from the cluster's admin")
                                 .arg(user->file, field, userWhere,
                                      cert.expiryDate().toString(Qt::ISODate));
                    return std::nullopt;
                }
            }
            if (!readExec(u["exec"], user->file, userName, &ep.exec, error))
                return std::nullopt;
            if (ep.token.isEmpty() && !ep.tokenFile.isEmpty()) {
                QString why;
                const auto token = readBoundedFile(ep.tokenFile, filelimit::Credential, &why);
                if (!token) {
                    *error =
                        QStringLiteral("%1: tokenFile of %2 names %3, which cannot be read: %4")
                            .arg(user->file, userWhere, ep.tokenFile, why);
                    return std::nullopt;
                }
                ep.token = QString::fromUtf8(*token).trimmed();
            }
        } else if (!userName.isEmpty()) {
            *error = QStringLiteral("%1: context \"%2\" names user \"%3\", which is not defined")
                         .arg(ctx->file, name, userName);
            return std::nullopt;
        }
        return ep;
    };
    try {
        return resolve();
    } catch (const YAML::Exception &e) {
        *error =
            QStringLiteral("context \"%1\" of the kubeconfig is not of the shape kubectl "
                           "reads: %2")
                .arg(context.isEmpty() ? m_currentContext : context, QString::fromStdString(e.msg));
        return std::nullopt;
    }
}

} // namespace gpudesk
