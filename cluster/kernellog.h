// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QStringList>

namespace gpudesk::kernellog {

// The NVIDIA driver's lines of a node's kernel log (`dmesg --time-format iso`,
// nodecmd::kernelLogCommand): "NVRM: Xid (PCI:0000:3b:00): 79, pid=…, GPU has fallen off the
// bus." and the NVRM lines around it, each with its time as dmesg printed it. Only those at or
// after `sinceMs` (ms since the epoch; 0: all) and the newest `max` of them, oldest first.
// Lines without an ISO time (another dmesg's format) are kept when `sinceMs` is 0 only. A line
// is cut at 4 KiB; anything that is not UTF-8 is replaced, never trusted.
QStringList nvrmLines(const QByteArray &dmesg, qint64 sinceMs, int max = 200);

} // namespace gpudesk::kernellog
