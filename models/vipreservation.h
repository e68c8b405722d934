// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace gpudesk::vipreservation {

// A machine kept for a VIP job (VipJob, VipPlanner): a NoSchedule taint
// `vip.gpudesk.io/NAMESPACE=NAME` that only the job's pods tolerate.
inline constexpr QLatin1StringView Prefix{"vip.gpudesk.io/"};

// "namespace/name" of the job a node's taint ("key=value:Effect", as NodeInfo keeps them)
// reserves the node for; "" for any other taint.
inline QString jobOf(const QString &taint)
{
    if (!taint.startsWith(Prefix))
        return {};
    const QString kv = taint.section(u':', 0, -2);
    const QString ns = kv.section(u'=', 0, 0).mid(Prefix.size());
    const QString name = kv.section(u'=', 1);
    if (ns.isEmpty() || name.isEmpty())
        return {};
    return ns + u'/' + name;
}

} // namespace gpudesk::vipreservation
