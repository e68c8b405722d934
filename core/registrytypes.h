// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace gpudesk {

// What an OCI descriptor says of one blob or manifest: what it is, its content address and its
// size in bytes as stored (compressed, for layers). Index entries also name their platform.
struct RegistryDescriptor
{
    QString mediaType;
    QString digest; // "sha256:…"
    qint64 size = 0;
    QString os, architecture, variant; // index entries only
    // BuildKit's provenance / SBOM manifests sit in an index as "unknown/unknown": not a platform.
    bool attestation = false;

    QString platform() const
    {
        QString p = os + u'/' + architecture;
        return variant.isEmpty() ? p : p + u'/' + variant;
    }
};

// One manifest as the registry serves it: an image (config + layers) or an index (one image per
// platform). Docker's schema 2 and manifest list and OCI's manifest and index read the same.
struct RegistryManifest
{
    QString digest;    // of the bytes the registry sent, checked against its header
    QString mediaType; // as served
    qint64 bytes = 0;  // of the manifest itself
    bool isIndex = false;
    RegistryDescriptor config;         // image
    QList<RegistryDescriptor> layers;  // image
    QList<RegistryDescriptor> entries; // index: one per platform (attestations flagged)

    // Bytes a registry stores for this image, and a node pulls: config and layers, compressed
    // as pushed, each blob once (an image may list the same layer twice).
    qint64 imageBytes() const
    {
        qint64 sum = config.size;
        QSet<QString> seen{config.digest};
        for (const RegistryDescriptor &l : layers) {
            const qsizetype before = seen.size();
            seen.insert(l.digest);
            if (seen.size() != before)
                sum += l.size;
        }
        return sum;
    }
};

// The image configuration blob: what `docker inspect` shows of an image.
struct RegistryImageConfig
{
    QDateTime created;
    QString os, architecture, variant, author;
    QMap<QString, QString> labels;
    int historySteps = 0;
};

// One tag of one repository and what it points at now.
struct RegistryTag
{
    QString repository;
    QString tag;
    QString digest;
};

// A registry as image references name it ("registry.lab:5000"), and how to reach it.
struct RegistryEndpoint
{
    QString host;
    bool plainHttp = false; // chosen by the user; shown as a warning wherever the registry is
    QStringList caFiles;    // its own CA, added to the system's (certs.d convention)
    // Where `host` is served when registries.conf sends it elsewhere ("name:port"); empty: at
    // `host` itself. Images keep their names; only the connection goes there.
    QString location;

    QString servedAt() const { return location.isEmpty() ? host : location; }

    QUrl baseUrl() const
    {
        // Image references say docker.io; Docker Hub's registry API answers elsewhere.
        const QString served = servedAt();
        const QString at =
            served == QLatin1String("docker.io") ? QStringLiteral("registry-1.docker.io") : served;
        return QUrl((plainHttp ? QStringLiteral("http://") : QStringLiteral("https://")) + at);
    }
};

// What a registry accepts from the user: a user name and password (or a personal access token in
// its place), or an identity token (OAuth2 refresh token) as `docker login` keeps for some.
struct RegistryCredentials
{
    QString username;
    QString secret;
    QString identityToken;
    QString source; // where they came from, in words ("~/.docker/config.json", a helper, …)

    bool isEmpty() const { return secret.isEmpty() && identityToken.isEmpty(); }
};

// An image reference looked up in its registry (ImagesService::lookImage): what a node would pull
// (its linux/amd64 image where the tag names an index), or why the registry did not say.
struct ImageLook
{
    QString reference;
    qint64 bytes = -1;  // as stored, the layers and config; -1 unknown
    int httpStatus = 0; // the registry's answer (0: none came)
    QString errorCode;  // the registry's own (MANIFEST_UNKNOWN, NAME_UNKNOWN, UNAUTHORIZED…)
    QString error;      // in words; "" when found
    bool connectionFailed = false; // not reached: DNS, refused, TLS, a deadline
    bool found() const { return error.isEmpty(); }
    // The registry answered that it has no such tag or repository: a pull fails the same way.
    bool missing() const
    {
        return httpStatus == 404 || errorCode == QLatin1String("MANIFEST_UNKNOWN") ||
               errorCode == QLatin1String("NAME_UNKNOWN");
    }
    bool refused() const { return httpStatus == 401 || httpStatus == 403; }
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::RegistryManifest)
