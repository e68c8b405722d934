// SPDX-License-Identifier: GPL-3.0-or-later
#include "format.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>

namespace gpudesk::format {

QString age(qint64 sinceMs, qint64 nowMs)
{
    // kubectl's duration.HumanDuration, so that ages read the same as in a terminal.
    if (sinceMs <= 0)
        return QStringLiteral("—");
    const qint64 s = std::max<qint64>(0, (nowMs - sinceMs) / 1000);
    auto n = [](qint64 v) { return QString::number(v); };
    auto two = [&n](qint64 a, char16_t ua, qint64 b, char16_t ub) {
        return b == 0 ? QString(n(a) + ua) : QString(n(a) + ua + n(b) + ub);
    };
    if (s < 120)
        return n(s) + u's';
    const qint64 minutes = s / 60;
    if (minutes < 10)
        return two(minutes, u'm', s % 60, u's');
    if (minutes < 180)
        return n(minutes) + u'm';
    const qint64 hours = s / 3600;
    if (hours < 8)
        return two(hours, u'h', minutes % 60, u'm');
    if (hours < 48)
        return n(hours) + u'h';
    if (hours < 24 * 8)
        return two(hours / 24, u'd', hours % 24, u'h');
    if (hours < 24 * 365 * 2)
        return n(hours / 24) + u'd';
    const qint64 years = hours / 24 / 365;
    const qint64 days = (hours / 24) % 365;
    if (hours < 24 * 365 * 8)
        return two(years, u'y', days, u'd');
    return n(years) + u'y';
}

QString bytes(qint64 b)
{
    static const char *units[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    double v = double(b);
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        ++u;
    }
    const int decimals = v < 10 && u > 0 && v != double(qint64(v)) ? 1 : 0;
    return QString::number(v, 'f', decimals) + QLatin1String(units[u]);
}

QString cores(qint64 milli)
{
    if (milli % 1000 == 0)
        return QString::number(milli / 1000);
    return QString::number(double(milli) / 1000.0, 'g', 3);
}

QString when(qint64 ms)
{
    if (ms <= 0)
        return QStringLiteral("—");
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms).toLocalTime();
    const QLocale locale;
    if (t.date() == QDate::currentDate())
        return locale.toString(t.time(), QLocale::ShortFormat);
    return locale.toString(t, QLocale::ShortFormat);
}

QString status(const QString &word)
{
    // The words gpudesk shows as statuses, for the translators (context "status").
    static const char *const words[] = {
        QT_TRANSLATE_NOOP("status", "Running"),
        QT_TRANSLATE_NOOP("status", "Pending"),
        QT_TRANSLATE_NOOP("status", "Succeeded"),
        QT_TRANSLATE_NOOP("status", "Completed"),
        QT_TRANSLATE_NOOP("status", "Failed"),
        QT_TRANSLATE_NOOP("status", "Terminating"),
        QT_TRANSLATE_NOOP("status", "ContainerCreating"),
        QT_TRANSLATE_NOOP("status", "CrashLoopBackOff"),
        QT_TRANSLATE_NOOP("status", "ImagePullBackOff"),
        QT_TRANSLATE_NOOP("status", "ErrImagePull"),
        QT_TRANSLATE_NOOP("status", "OOMKilled"),
        QT_TRANSLATE_NOOP("status", "Error"),
        QT_TRANSLATE_NOOP("status", "Created"),
        QT_TRANSLATE_NOOP("status", "Inqueue"),
        QT_TRANSLATE_NOOP("status", "Aborted"),
        QT_TRANSLATE_NOOP("status", "Restarting"),
        QT_TRANSLATE_NOOP("status", "Ready"),
        QT_TRANSLATE_NOOP("status", "NotReady"),
        QT_TRANSLATE_NOOP("status", "SchedulingDisabled"),
        QT_TRANSLATE_NOOP("status", "Reserved"),
        QT_TRANSLATE_NOOP("status", "DiskPressure"),
        QT_TRANSLATE_NOOP("status", "MemoryPressure"),
        QT_TRANSLATE_NOOP("status", "PIDPressure"),
        QT_TRANSLATE_NOOP("status", "Normal"),
        QT_TRANSLATE_NOOP("status", "Warning"),
        QT_TRANSLATE_NOOP("status", "Open"),
        QT_TRANSLATE_NOOP("status", "Closing"),
        QT_TRANSLATE_NOOP("status", "Closed"),
        // Events' reasons, as the kubelet, the scheduler and the controllers write them.
        QT_TRANSLATE_NOOP("status", "Scheduled"),
        QT_TRANSLATE_NOOP("status", "FailedScheduling"),
        QT_TRANSLATE_NOOP("status", "Preempted"),
        QT_TRANSLATE_NOOP("status", "Pulling"),
        QT_TRANSLATE_NOOP("status", "Pulled"),
        QT_TRANSLATE_NOOP("status", "Started"),
        QT_TRANSLATE_NOOP("status", "Killing"),
        QT_TRANSLATE_NOOP("status", "BackOff"),
        QT_TRANSLATE_NOOP("status", "Evicted"),
        QT_TRANSLATE_NOOP("status", "Unhealthy"),
        QT_TRANSLATE_NOOP("status", "FailedMount"),
        QT_TRANSLATE_NOOP("status", "FailedCreate"),
        QT_TRANSLATE_NOOP("status", "SuccessfulCreate"),
        QT_TRANSLATE_NOOP("status", "SuccessfulDelete"),
        QT_TRANSLATE_NOOP("status", "NodeNotReady"),
        QT_TRANSLATE_NOOP("status", "Unschedulable"),
        QT_TRANSLATE_NOOP("status", "EvictionThresholdMet"),
    };
    Q_UNUSED(words)
    // kubectl joins several with commas (Ready,SchedulingDisabled): each is translated.
    if (word.contains(u',')) {
        QStringList parts = word.split(u',');
        QStringList translated;
        for (const QString &p : parts) {
            const QString t = QCoreApplication::translate("status", p.toUtf8().constData());
            if (t != p)
                translated << t;
        }
        return translated.isEmpty()
                   ? word
                   : word + QStringLiteral("（") + translated.join(QStringLiteral("，")) +
                         QStringLiteral("）");
    }
    const QString t = QCoreApplication::translate("status", word.toUtf8().constData());
    return t == word ? word : word + QStringLiteral("（") + t + QStringLiteral("）");
}

QString shellWord(const QString &path)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9._+@/:=,-]+$"));
    if (plain.match(path).hasMatch())
        return path;
    QString out = QStringLiteral("'");
    for (const QChar c : path)
        out += c == u'\'' ? QStringLiteral("'\\''") : QString(c);
    return out + u'\'';
}

} // namespace gpudesk::format
