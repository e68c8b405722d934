// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registryauth.h"

#include <QObject>

#include <functional>

namespace gpudesk {

// The credentials and CAs docker (and podman, skopeo) would use for a registry, found where they
// look: `credHelpers` / `auths` / `credsStore` of `$DOCKER_CONFIG/config.json` (else
// `~/.docker/config.json`), the `docker-credential-*` programs by their protocol, and the
// `certs.d/<host>/*.crt` directories for a registry's own CA.
class DockerCredentials : public QObject
{
    Q_OBJECT
public:
    explicit DockerCredentials(QObject *parent = nullptr);

    static QString configPath();
    // `*.crt` files of docker's and the containers tools' certs.d directories for `host`
    // ("name:port" as in image references), system-wide first.
    static QStringList caFiles(const QString &host);

    using Done = std::function<void(const RegistryCredentials &, const QString &error)>;
    // Empty credentials and no error: none are configured (anonymous access). A helper that fails
    // or a config file that cannot be read is an error, said with the file or program.
    void lookup(const QString &host, QObject *context, Done done);

private:
    void runHelper(const QString &helper, const QString &server, QObject *context, Done done);
};

} // namespace gpudesk
