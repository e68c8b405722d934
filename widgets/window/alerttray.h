// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>

class QMenu;
class QSystemTrayIcon;
class QWidget;

namespace gpudesk {

class AlertCenter;
class DesktopNotifier;
struct Alert;

// Where alerts reach an admin who is not looking at the window: the system tray (an icon whose
// badge is the worst alert not acknowledged, a menu of the alerts) and desktop notifications
// (one per condition, grouped when many start together). With "keep watching" on, closing the
// window leaves gpudesk in the tray, still connected. Settings: alerts/notify (on unless set),
// alerts/keepWatching (off unless set).
class AlertTray : public QObject
{
    Q_OBJECT
public:
    AlertTray(AlertCenter *alerts, QWidget *window);
    ~AlertTray() override;

    // Closing the window hides it: the user asked for it, and there is a tray to come back from.
    bool keepsWatching() const;
    static bool notifyEnabled();
    DesktopNotifier *notifier() const { return m_notifier; }
    QSystemTrayIcon *trayIcon() const { return m_tray; }
    QMenu *menu() const { return m_menu; }
    // The context the alerts are about, named in notifications.
    void setContext(const QString &context) { m_context = context; }
    // Once per session, when the window is first hidden to the tray.
    void tellStillWatching();

signals:
    void goTo(const QString &target);
    void quitRequested();

private:
    void onRaised(const QList<Alert> &alerts);
    void refresh();

    AlertCenter *m_alerts;
    QPointer<QWidget> m_window;
    DesktopNotifier *m_notifier;
    QSystemTrayIcon *m_tray = nullptr;
    QMenu *m_menu;
    QString m_context;
    bool m_toldStillWatching = false;
};

} // namespace gpudesk
