// SPDX-License-Identifier: GPL-3.0-or-later
#include "syncprogress.h"

#include "resource.h"

#include <QLocale>

#include <algorithm>

namespace gpudesk {

SyncProgress SyncProgress::of(const QList<InformerStatus> &collections)
{
    SyncProgress p;
    p.determinate = true;
    for (const InformerStatus &s : collections) {
        if (s.state != InformerStatus::Syncing)
            continue;
        ++p.syncing;
        p.listed += s.listed;
        if (s.expected >= 0)
            p.expected += std::max(s.expected, s.listed);
        else
            p.determinate = false;
    }
    p.determinate = p.determinate && p.syncing > 0 && p.expected > 0;
    return p;
}

QString SyncProgress::describe(const InformerStatus &s)
{
    const QLocale locale;
    const QString name = resourceName(s.resource);
    if (s.expected > 0)
        return tr("%1: %2 of %3 (%4 %)")
            .arg(name, locale.toString(s.listed), locale.toString(std::max(s.expected, s.listed)))
            .arg(int(std::min<qint64>(100, s.listed * 100 / std::max(s.expected, s.listed))));
    if (s.listed > 0)
        return tr("%1: %2 so far").arg(name, locale.toString(s.listed));
    return tr("%1: starting").arg(name);
}

int SyncProgress::percent() const
{
    return determinate ? int(std::min<qint64>(100, listed * 100 / expected)) : -1;
}

} // namespace gpudesk
