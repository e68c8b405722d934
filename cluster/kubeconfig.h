// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpudesk {

// An exec credential plugin as a kubeconfig user names it (client.authentication.k8s.io).
struct ExecConfig
{
    QString apiVersion; // client.authentication.k8s.io/v1 or /v1beta1
    QString command;    // resolved against the kubeconfig's directory when it holds a '/'
    QStringList args;
    QList<QPair<QString, QString>> env;
    QString installHint;
    QString interactiveMode; // Never, IfAvailable, Always (v1 requires one)
    bool provideClusterInfo = false;
    QString user; // for messages: which entry of which file
    QString file;
    bool isSet() const { return !command.isEmpty(); }
};

// What gpudesk needs to reach one context's API server.
struct ClusterEndpoint
{
    QString context;
    QString userEntry; // the context's user entry: who gpudesk acts as, for the audit
    QString server;
    QString tlsServerName;
    QByteArray caPem; // empty: the system's trust store
    bool insecureSkipVerify = false;
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
    QString token; // never logged
    QString tokenFile;
    QString username;
    QString password; // never logged
    QString defaultNamespace;
    QString proxyUrl; // http://, https:// or socks5://; empty: no proxy
    ExecConfig exec;
};

// A kubeconfig read as kubectl reads it: $KUBECONFIG (files merged, first one wins for each
// name and for current-context), else ~/.kube/config, or one file named explicitly.
class KubeConfig
{
public:
    static std::optional<KubeConfig> load(const QStringList &files, QString *error);
    static QStringList defaultFiles();

    QStringList contexts() const;
    QString currentContext() const { return m_currentContext; }
    std::optional<ClusterEndpoint> endpoint(const QString &context, QString *error) const;

private:
    struct Named
    {
        QString name;
        QString file;
        QByteArray yaml; // the entry, re-read on resolve
    };
    QList<Named> m_clusters;
    QList<Named> m_users;
    QList<Named> m_contexts;
    QString m_currentContext;
};

} // namespace gpudesk
