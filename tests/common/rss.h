// SPDX-License-Identifier: GPL-3.0-or-later
// The memory figure of benchmarks and tests: this process's resident set, from
// /proc/self/status (0 when it cannot be read).
#pragma once

#include <QFile>

inline long rssKb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLong();
    }
    return 0;
}
