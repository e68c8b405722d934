// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpudesk {

// What gpudesk needs to reach one context's API server.
struct ClusterEndpoint
{
    QString context;
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
