// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "alertcenter.h"

#include <QHash>
#include <QObject>

namespace gpudesk {

// Desktop notifications through the freedesktop notification service on the session bus
// (org.freedesktop.Notifications, as GNOME, KDE, Xfce and notification daemons serve it):
// urgency from the alert's severity, gpudesk's desktop entry, a default action that brings the
// window to the alert's page. A notice for a condition already shown replaces its bubble
// (replaces_id) rather than adding one. Without a session bus or a notification service,
// available() is false and the tray shows the notice instead. Whether the service is there is
// followed by the bus's signals and asked without waiting: a bus that hangs never holds the
// window up (a blocking call would, for D-Bus's 25 s timeout).
class DesktopNotifier : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *Service = "org.freedesktop.Notifications";

    explicit DesktopNotifier(QObject *parent = nullptr);

    bool available() const;
    void notify(const AlertNotice &notice);
    // Notices sent and the server's id for them (for tests and replaces_id).
    int sent() const { return m_sent; }

signals:
    // The user clicked a notification: go to this target ("node:NAME", "page:cleanup"...).
    void activated(const QString &target);
    // The service refused or did not answer a notice, in words.
    void failed(const QString &message);

private slots:
    void onActionInvoked(uint id, const QString &action);
    void onClosed(uint id, uint reason);

private:
    void askBus();

    bool m_registered = false;      // the service has an owner now
    bool m_activatable = false;     // the bus would start it on the first notice
    QHash<QString, uint> m_idOfKey; // notice key -> the server's id
    QHash<uint, QString> m_targetOfId;
    int m_sent = 0;
};

} // namespace gpudesk
