// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace gpudesk {

// An image reference as docker reads it: "[host[:port]/]path[:tag][@digest]". The first part is
// a registry only when it has a '.' or ':' or is "localhost"; otherwise the image is Docker Hub's
// (docker.io, "library/" for one-part names). No tag and no digest means ":latest".
struct ImageReference
{
    QString registry;
    QString repository;
    QString tag;
    QString digest;

    bool isValid() const { return !registry.isEmpty() && !repository.isEmpty(); }
    QString toString() const;

    static ImageReference parse(const QString &reference);
    // A container status's imageID: "docker-pullable://repo@sha256:…", "repo@sha256:…"; an ID
    // that is only a digest (a local image) gives a reference without a repository.
    static ImageReference fromImageId(const QString &imageId);
};

} // namespace gpudesk
