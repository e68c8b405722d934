// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "launchscripts.h"
#include "remotefile.h"

#include <QList>

#include <functional>

class QObject;

namespace gpudesk {

// What the NAS says of a job's launch scripts, over SFTP: each path as it is (lstat), then the
// targets of those that are links — through the pod's node folder where the target lies in
// one, else as the node itself follows the link. The submit check asks it before a job runs,
// the job doctor after its pod failed to start its script.
class LaunchScriptProbe
{
public:
    using Done = std::function<void(const QList<LaunchScriptFacts> &)>;
    // How the NAS is asked (NasFiles::inspect, NasInspect::onPool): each path's lstat, or stat
    // with `follow`, to `done` on `receiver`'s thread unless it is gone.
    using Inspect =
        std::function<void(const QStringList &paths, bool follow, QObject *receiver,
                           std::function<void(QList<RemotePathInfo>, QString error)> done)>;
    // To `done` on `receiver`'s thread unless it is gone: one fact per script, in order (each
    // with why, when the NAS could not be asked).
    static void probe(const Inspect &inspect, const QList<LaunchScript> &scripts, QObject *receiver,
                      Done done);
};

} // namespace gpudesk
