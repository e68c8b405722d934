// SPDX-License-Identifier: GPL-3.0-or-later
#include "palette.h"

#include <QHash>

namespace gpudesk::colors {

QColor forName(const QString &name)
{
    // Hues spread over the wheel, away from the green that means "free".
    const uint h = qHash(name, 7u);
    int hue = int(h % 300u);
    if (hue > 80)
        hue += 60; // skip 80–140 (greens)
    return QColor::fromHsv(hue % 360, 150 + int(h / 300u % 60u), 200 + int(h / 18000u % 40u));
}

} // namespace gpudesk::colors
