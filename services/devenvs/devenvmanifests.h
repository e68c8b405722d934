// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "devenvspec.h"

#include <QByteArray>

namespace gpudesk {

struct DevEnvVolume;

// The objects a dev environment is made of, as JSON for the API server.
class DevEnvManifests
{
public:
    // The pod, named NAME-SUFFIX and labelled gpudesk.io/devenv=NAME: the GPUs, CPU and memory
    // asked for as requests (GPUs and memory as limits too), /dev/shm an in-memory emptyDir of
    // the size asked, the home volume and the user's mounts, the services as named ports, and
    // the VC as Volcano reads it (label and annotation).
    static QByteArray podJson(const DevEnvSpec &spec, const QString &suffix);
    // The home volume, labelled gpudesk.io/devenv=NAME, with the pod's manifest (without its
    // name) in the annotation gpudesk.io/devenv-pod so that Start can make the pod again.
    static QByteArray homeClaimJson(const DevEnvSpec &spec, const QByteArray &pod);
    // The pod of a stopped environment again, from its kept manifest, under a new name; "" when
    // the manifest is not one gpudesk kept.
    static QByteArray podFromVolume(const DevEnvVolume &volume, const QString &suffix);
    // Five random lower-case characters, as the API server's generateName adds.
    static QString randomSuffix();
    static QString podAnnotation() { return QStringLiteral("gpudesk.io/devenv-pod"); }
};

} // namespace gpudesk
