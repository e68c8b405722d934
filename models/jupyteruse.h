// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaType>
#include <QString>

namespace gpudesk {

// What a dev environment's Jupyter server said of its use when it was last asked (its
// /api/kernels and /api/terminals): the other half of "idle", next to its GPUs.
struct JupyterUse
{
    qint64 checked = 0; // ms since the epoch; 0: never answered
    QString error;      // why it could not be asked the last time ("" when it answered)
    int kernels = 0;
    int terminals = 0;
    bool busy = false;       // a kernel was executing when asked
    qint64 lastActivity = 0; // the latest kernel or terminal activity, ms; 0: none
    // Since when, as far as Jupyter can tell, nobody has used it (0: in use now, or unknown).
    qint64 idleSince(qint64 podStarted) const
    {
        if (checked == 0 || busy)
            return 0;
        return lastActivity > podStarted ? lastActivity : podStarted;
    }
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::JupyterUse)
