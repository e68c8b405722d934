// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubeconfigwriter.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gpudesk {

QByteArray KubeconfigWriter::yaml(const ClusterEndpoint &from, const Entry &e)
{
    const std::string context = QString(e.userName + u'@' + e.clusterName).toStdString();
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "apiVersion" << YAML::Value << "v1";
    out << YAML::Key << "kind" << YAML::Value << "Config";
    out << YAML::Key << "clusters" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << e.clusterName.toStdString();
    out << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "server" << YAML::Value << from.server.toStdString();
    const QByteArray ca = e.caPem.isEmpty() ? from.caPem : e.caPem;
    if (from.insecureSkipVerify)
        out << YAML::Key << "insecure-skip-tls-verify" << YAML::Value << true;
    else if (!ca.isEmpty())
        out << YAML::Key << "certificate-authority-data" << YAML::Value
            << ca.toBase64().toStdString();
    if (!from.tlsServerName.isEmpty())
        out << YAML::Key << "tls-server-name" << YAML::Value << from.tlsServerName.toStdString();
    if (!from.proxyUrl.isEmpty())
        out << YAML::Key << "proxy-url" << YAML::Value << from.proxyUrl.toStdString();
    out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    out << YAML::Key << "users" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << e.userName.toStdString();
    out << YAML::Key << "user" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "token" << YAML::Value << e.token.toStdString();
    out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    out << YAML::Key << "contexts" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << context;
    out << YAML::Key << "context" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "cluster" << YAML::Value << e.clusterName.toStdString();
    out << YAML::Key << "user" << YAML::Value << e.userName.toStdString();
    out << YAML::Key << "namespace" << YAML::Value << e.ns.toStdString();
    out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    out << YAML::Key << "current-context" << YAML::Value << context;
    out << YAML::EndMap;
    return QByteArray(out.c_str()) + '\n';
}

QString KubeconfigWriter::writePrivate(const QString &path, const QByteArray &data)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return QStringLiteral("cannot make the folder %1").arg(info.absolutePath());
    // QTemporaryFile makes its file with mode 0600: the token is never readable by others,
    // not even for the moment between writing and renaming.
    QTemporaryFile tmp(info.absolutePath() + QStringLiteral("/.gpudesk-kubeconfig-XXXXXX"));
    tmp.setAutoRemove(true);
    if (!tmp.open())
        return QStringLiteral("cannot write in %1: %2").arg(info.absolutePath(), tmp.errorString());
    if (tmp.write(data) != data.size() || !tmp.flush())
        return QStringLiteral("cannot write %1: %2").arg(tmp.fileName(), tmp.errorString());
    tmp.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    tmp.close();
    // rename(2) replaces the target in one step.
    if (std::rename(QFile::encodeName(tmp.fileName()).constData(),
                    QFile::encodeName(info.absoluteFilePath()).constData()) != 0)
        return QStringLiteral("cannot replace %1: %2")
            .arg(info.absoluteFilePath(), QString::fromLocal8Bit(std::strerror(errno)));
    tmp.setAutoRemove(false);
    return {};
}

} // namespace gpudesk
