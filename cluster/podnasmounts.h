// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "podfileclient.h"

#include <QJsonArray>
#include <QJsonObject>

#include <atomic>
#include <optional>

namespace gpudesk {

class KubeClient;

// A dev environment pod through which its user reaches her NAS folders (PodFileClient): which
// container, and which of its mounts are folders of the NAS — a hostPath under a NAS root
// (mounted anywhere), or any volume mounted at a path under a root (the labs' habit: the
// user's NFS export at /mnt/user/NAME in the pod as on the nodes).
struct PodNasRoute
{
    QString ns;
    QString pod;
    QString environment; // the gpudesk.io/devenv label
    QString container;
    QList<PodFileClient::Mount> mounts;
    QStringList mountPoints; // every mount of the container (PodFileClient's)
};

namespace PodNasMounts {

// The mounts of `container` in the pod ("" the one named devenv, else the first).
PodNasRoute of(const QJsonObject &pod, const QStringList &roots);
// The first Running pod of `items` (a pod list) with a NAS folder mounted, by namespace then
// name; those in `preferredNs` first. nullopt when none.
std::optional<PodNasRoute> choose(const QJsonArray &items, const QStringList &roots,
                                  const QString &preferredNs);

// The pod NAMESPACE/NAME read now (blocking: an event loop of its own, on a worker thread whose
// client it is given), its route for `roots`; nullopt with why when it is gone, not running,
// or mounts none of them.
std::optional<PodNasRoute> fetch(KubeClient *client, const QString &pod, const QStringList &roots,
                                 const std::atomic<bool> *cancel, QString *error);

} // namespace PodNasMounts

} // namespace gpudesk
