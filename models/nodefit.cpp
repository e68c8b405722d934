// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodefit.h"

#include <algorithm>

namespace gpudesk::nodefit {

bool selects(const Labels &selector, const Labels &labels)
{
    return std::all_of(selector.cbegin(), selector.cend(), [&](const auto &wanted) {
        return std::any_of(labels.cbegin(), labels.cend(),
                           [&](const auto &l) { return l == wanted; });
    });
}

QString blockingTaint(const QStringList &tolerations, const QStringList &taints)
{
    for (const QString &taint : taints) {
        // "key=value:Effect" or "key:Effect"
        const QString effect = taint.section(u':', -1);
        if (effect == QLatin1String("PreferNoSchedule"))
            continue;
        const QString kv = taint.section(u':', 0, -2);
        const QString key = kv.section(u'=', 0, 0);
        const QString value = kv.contains(u'=') ? kv.section(u'=', 1) : QString();
        const bool tolerated =
            std::any_of(tolerations.cbegin(), tolerations.cend(), [&](const QString &t) {
                const QStringList f = t.split(u'|');
                if (f.size() != 4 || (!f[3].isEmpty() && f[3] != effect))
                    return false;
                if (f[1] == QLatin1String("Exists"))
                    return f[0].isEmpty() || f[0] == key;
                return f[0] == key && f[2] == value;
            });
        if (!tolerated)
            return taint;
    }
    return {};
}

bool tolerates(const QStringList &tolerations, const QStringList &taints)
{
    return blockingTaint(tolerations, taints).isEmpty();
}

} // namespace gpudesk::nodefit
