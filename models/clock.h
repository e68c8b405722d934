// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>

#include <functional>

namespace gpudesk {

// Now, in ms since the epoch. Models take one so that tests can fix the time (ages, "since").
using Clock = std::function<qint64()>;

inline qint64 systemNow()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace gpudesk
