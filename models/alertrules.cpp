// SPDX-License-Identifier: GPL-3.0-or-later
#include "alertrules.h"

#include <QSettings>

#include <algorithm>

namespace gpudesk {

QStringList AlertRules::ids()
{
    return {QStringLiteral("notready"),  QStringLiteral("flapping"),  QStringLiteral("pressure"),
            QStringLiteral("ssh"),       QStringLiteral("disk"),      QStringLiteral("hot"),
            QStringLiteral("ecc"),       QStringLiteral("findings"),  QStringLiteral("vcfull"),
            QStringLiteral("quotafull"), QStringLiteral("apiserver"), QStringLiteral("registry"),
            QStringLiteral("storage"),   QStringLiteral("vipover")};
}

QString AlertRules::title(const QString &rule)
{
    if (rule == QLatin1String("notready"))
        return tr("Node NotReady");
    if (rule == QLatin1String("flapping"))
        return tr("Node flapping (NotReady again and again)");
    if (rule == QLatin1String("pressure"))
        return tr("Kubelet reports disk, memory or PID pressure");
    if (rule == QLatin1String("ssh"))
        return tr("Node stopped answering over SSH");
    if (rule == QLatin1String("disk"))
        return tr("Disk nearly full");
    if (rule == QLatin1String("hot"))
        return tr("GPU too hot");
    if (rule == QLatin1String("ecc"))
        return tr("GPU with uncorrectable ECC errors");
    if (rule == QLatin1String("findings"))
        return tr("New zombie or idle GPUs (Cleanup findings)");
    if (rule == QLatin1String("vcfull"))
        return tr("VC near its GPU capability");
    if (rule == QLatin1String("quotafull"))
        return tr("User's GPU quota nearly used");
    if (rule == QLatin1String("apiserver"))
        return tr("API server not answering");
    if (rule == QLatin1String("registry"))
        return tr("Registry not answering");
    if (rule == QLatin1String("storage"))
        return tr("NAS nearly full, or a folder on it too big or growing fast");
    if (rule == QLatin1String("vipover"))
        return tr("Machine still reserved for a VIP job that is over");
    return rule;
}

QString AlertRules::ruleOf(const QString &key)
{
    const QString head = key.section(u':', 0, 0);
    if (head.endsWith(QLatin1String("Pressure")))
        return QStringLiteral("pressure");
    if (head == QLatin1String("finding"))
        return QStringLiteral("findings");
    return head;
}

AlertRules AlertRules::load(const QSettings &s)
{
    AlertRules r;
    const auto number = [&s](const char *name, int fallback, int low, int high) {
        bool ok = false;
        const int v = s.value(QLatin1String("alerts/") + QLatin1String(name)).toInt(&ok);
        return ok && v >= low && v <= high ? v : fallback;
    };
    r.diskWarningPercent = number("diskWarningPercent", r.diskWarningPercent, 1, 100);
    r.diskCriticalPercent = number("diskCriticalPercent", r.diskCriticalPercent, 1, 100);
    r.diskCriticalPercent = std::max(r.diskCriticalPercent, r.diskWarningPercent);
    r.hotCelsius = number("hotCelsius", r.hotCelsius, 30, 130);
    r.nearlyFullPercent = number("nearlyFullPercent", r.nearlyFullPercent, 1, 100);
    r.flapCount = number("flapCount", r.flapCount, 2, 100);
    r.flapWindowMinutes = number("flapWindowMinutes", r.flapWindowMinutes, 1, 24 * 60);
    r.apiGraceSeconds = number("apiGraceSeconds", r.apiGraceSeconds, 0, 3600);
    r.storageFolderGiB = number("storageFolderGiB", r.storageFolderGiB, 1, 1024 * 1024);
    r.storageDayGiB = number("storageDayGiB", r.storageDayGiB, 1, 1024 * 1024);
    const QStringList off = s.value(QStringLiteral("alerts/disabled")).toStringList();
    for (const QString &rule : off)
        if (ids().contains(rule))
            r.disabled.insert(rule);
    return r;
}

AlertRules AlertRules::load()
{
    return load(QSettings());
}

void AlertRules::save(QSettings &s) const
{
    s.setValue(QStringLiteral("alerts/diskWarningPercent"), diskWarningPercent);
    s.setValue(QStringLiteral("alerts/diskCriticalPercent"), diskCriticalPercent);
    s.setValue(QStringLiteral("alerts/hotCelsius"), hotCelsius);
    s.setValue(QStringLiteral("alerts/nearlyFullPercent"), nearlyFullPercent);
    s.setValue(QStringLiteral("alerts/flapCount"), flapCount);
    s.setValue(QStringLiteral("alerts/flapWindowMinutes"), flapWindowMinutes);
    s.setValue(QStringLiteral("alerts/apiGraceSeconds"), apiGraceSeconds);
    s.setValue(QStringLiteral("alerts/storageFolderGiB"), storageFolderGiB);
    s.setValue(QStringLiteral("alerts/storageDayGiB"), storageDayGiB);
    QStringList off(disabled.cbegin(), disabled.cend());
    off.sort();
    s.setValue(QStringLiteral("alerts/disabled"), off);
}

void AlertRules::save() const
{
    QSettings s;
    save(s);
}

} // namespace gpudesk
