// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernellog.h"

#include <QDateTime>
#include <QString>

namespace gpudesk::kernellog {

namespace {

constexpr qsizetype MaxLine = 4096;

// dmesg's ISO time: 2026-11-28T09:14:03,512345+00:00 (a comma before the microseconds).
qint64 timeOf(const QByteArray &line)
{
    const qsizetype space = line.indexOf(' ');
    if (space < 25 || space > 40)
        return -1;
    QByteArray t = line.left(space);
    const qsizetype comma = t.indexOf(',');
    if (comma < 0)
        return -1;
    // Milliseconds are enough: the microseconds' last three digits go.
    const qsizetype zone =
        t.indexOf('+', comma) >= 0 ? t.indexOf('+', comma) : t.indexOf('-', comma);
    if (zone < 0 || zone - comma < 4)
        return -1;
    t = t.left(comma) + '.' + t.mid(comma + 1, 3) + t.mid(zone);
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(t), Qt::ISODateWithMs);
    return when.isValid() ? when.toMSecsSinceEpoch() : -1;
}

} // namespace

QStringList nvrmLines(const QByteArray &dmesg, qint64 sinceMs, int max)
{
    QStringList out;
    qsizetype from = 0;
    while (from < dmesg.size()) {
        qsizetype end = dmesg.indexOf('\n', from);
        if (end < 0)
            end = dmesg.size();
        const QByteArray line = dmesg.mid(from, qMin(end - from, MaxLine));
        from = end + 1;
        if (!line.contains("NVRM:"))
            continue;
        const qint64 at = timeOf(line);
        if (sinceMs > 0 && (at < 0 || at < sinceMs))
            continue;
        out << QString::fromUtf8(line).trimmed();
        if (max > 0 && out.size() > max)
            out.removeFirst();
    }
    return out;
}

} // namespace gpudesk::kernellog
