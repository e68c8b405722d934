// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace gpudesk {

// Where gpudesk keeps what it learned of one context, kind by kind (the NAS's measures, the
// preemptions it saw): $XDG_DATA_HOME/gpudesk/FOLDER/CONTEXT.json, the context's name in the
// characters every file system takes (others become '_').
QString contextDataFile(const QString &folder, const QString &context);

} // namespace gpudesk
