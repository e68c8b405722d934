// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <algorithm>

namespace gpudesk {

// A node that advertises RDMA (InfiniBand or RoCE) through its labels, as Node Feature
// Discovery (feature.node.kubernetes.io/rdma.available) and the network operator set them.
inline bool advertisesRdma(const Labels &labels)
{
    return std::any_of(labels.cbegin(), labels.cend(), [](const auto &l) {
        return (l.first.contains(QLatin1String("rdma")) ||
                l.first.contains(QLatin1String("infiniband"))) &&
               l.second == QLatin1String("true");
    });
}

} // namespace gpudesk
