// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <QStringList>

namespace gpudesk::nodefit {

// Whether a pod may go to a node as the scheduler's filters say, for what gpudesk knows of the
// pod: every entry of its node selector among the node's labels, and every NoSchedule and
// NoExecute taint of the node tolerated (PreferNoSchedule does not block). Tolerations are
// "key|operator|value|effect" (PodInfo's form); an empty key with Exists tolerates everything.
bool selects(const Labels &selector, const Labels &labels);
bool tolerates(const QStringList &tolerations, const QStringList &taints);
// The first taint of `taints` that blocks, or "".
QString blockingTaint(const QStringList &tolerations, const QStringList &taints);

inline bool mayRunOn(const PodInfo &pod, const NodeInfo &node)
{
    return selects(pod.nodeSelector, node.labels) && tolerates(pod.tolerations, node.taints);
}

} // namespace gpudesk::nodefit
