// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "commandpalette.h"

namespace gpudesk {

class ClusterStore;

// What the command palette can go to in the cluster: nodes, jobs, pods, users and VCs as the
// store holds them now. Made when the palette opens (100,000 pods: about 50 ms, see
// docs/benchmarks.md), so it is never stale and costs nothing while the palette is closed.
class PaletteSource
{
public:
    static QList<PaletteEntry> objects(const ClusterStore &store);
};

} // namespace gpudesk
