// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QSet>
#include <QString>
#include <QStringList>

class QSettings;

namespace gpudesk {

// Which conditions raise alerts, and at what thresholds: defaults an admin may change in the
// settings dialog (kept under alerts/ in gpudesk's settings). The window, the tray, desktop
// notifications and `gpudesk --alerts` all read the same rules.
struct AlertRules
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::AlertRules)
public:
    // The rules, by the id that starts each alert's key ("notready:g4090-10").
    static QStringList ids();
    // The user's words for a rule (translated).
    static QString title(const QString &rule);
    // The rule a problem's key belongs to ("DiskPressure:g4090-07" is a "pressure").
    static QString ruleOf(const QString &key);

    bool enabled(const QString &rule) const { return !disabled.contains(rule); }

    QSet<QString> disabled;
    int diskWarningPercent = 80;
    int diskCriticalPercent = 90;
    int hotCelsius = 85;
    int nearlyFullPercent = 90; // a VC's GPU capability, a user's GPU quota
    int flapCount = 3;          // NotReady this many times...
    int flapWindowMinutes = 60; // ...within this window: flapping
    int apiGraceSeconds = 30;   // the API server unanswered this long before it is an alert
    // The NAS: a root over diskWarningPercent / diskCriticalPercent, a user's or group's
    // folder over this size, or more than this written to it in a day.
    int storageFolderGiB = 20 * 1024;
    int storageDayGiB = 500;

    // Read from / written to gpudesk's settings (defaults where a value is missing or absurd).
    static AlertRules load(const QSettings &settings);
    static AlertRules load();
    void save(QSettings &settings) const;
    void save() const;

    bool operator==(const AlertRules &) const = default;
};

} // namespace gpudesk
