// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaType>
#include <QString>

namespace gpudesk {

// The first look at a cluster: what the connection probe decodes from /version and the nodes.
struct ClusterSummary
{
    QString serverVersion;
    int nodes = 0;
    int readyNodes = 0;
    int gpus = 0; // allocatable nvidia.com/gpu over all nodes
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::ClusterSummary)
