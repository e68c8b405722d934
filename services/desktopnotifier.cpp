// SPDX-License-Identifier: GPL-3.0-or-later
#include "desktopnotifier.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusReply>
#include <QVariantMap>

namespace gpudesk {

namespace {

const QString kPath = QStringLiteral("/org/freedesktop/Notifications");
const QString kInterface = QStringLiteral("org.freedesktop.Notifications");
constexpr int kExpireMs = 0; // stays until the user closes it: an outage is not a toast

} // namespace

DesktopNotifier::DesktopNotifier(QObject *parent) : QObject(parent)
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return;
    bus.connect(QLatin1String(Service), kPath, kInterface, QStringLiteral("ActionInvoked"), this,
                SLOT(onActionInvoked(uint, QString)));
    bus.connect(QLatin1String(Service), kPath, kInterface, QStringLiteral("NotificationClosed"),
                this, SLOT(onClosed(uint, uint)));
}

bool DesktopNotifier::available() const
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected() || !bus.interface())
        return false;
    // Registered now, or startable by the bus (a daemon activated on the first notice).
    const QString service = QLatin1String(Service);
    if (bus.interface()->isServiceRegistered(service))
        return true;
    const QDBusReply<QStringList> startable =
        bus.interface()->call(QStringLiteral("ListActivatableNames"));
    return startable.isValid() && startable.value().contains(service);
}

void DesktopNotifier::notify(const AlertNotice &notice)
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        emit failed(tr("No session bus: desktop notifications are not available."));
        return;
    }
    QDBusMessage call = QDBusMessage::createMethodCall(QLatin1String(Service), kPath, kInterface,
                                                       QStringLiteral("Notify"));
    QVariantMap hints;
    hints.insert(QStringLiteral("urgency"), QVariant::fromValue(uchar(notice.critical ? 2 : 1)));
    hints.insert(QStringLiteral("desktop-entry"), QStringLiteral("gpudesk"));
    hints.insert(QStringLiteral("category"), QStringLiteral("device.error"));
    const uint replaces = m_idOfKey.value(notice.key, 0);
    // The body is markup to servers that say "body-markup": escaped, so that a pod's or
    // message's '<' stays text.
    call << QStringLiteral("gpudesk") << replaces << QStringLiteral("gpudesk") << notice.summary
         << notice.body.toHtmlEscaped()
         << QStringList{QStringLiteral("default"), tr("Show in gpudesk")} << hints << kExpireMs;
    auto *watcher = new QDBusPendingCallWatcher(bus.asyncCall(call), this);
    ++m_sent;
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, watcher, key = notice.key, target = notice.target] {
                watcher->deleteLater();
                const QDBusPendingReply<uint> reply = *watcher;
                if (reply.isError()) {
                    emit failed(tr("The desktop's notification service did not take the "
                                   "notice: %1")
                                    .arg(reply.error().message()));
                    return;
                }
                const uint id = reply.value();
                m_idOfKey.insert(key, id);
                m_targetOfId.insert(id, target);
            });
}

void DesktopNotifier::onActionInvoked(uint id, const QString &action)
{
    Q_UNUSED(action) // "default" (a click on the bubble) or our one action: both go there
    const auto it = m_targetOfId.constFind(id);
    if (it != m_targetOfId.cend())
        emit activated(*it);
}

void DesktopNotifier::onClosed(uint id, uint reason)
{
    Q_UNUSED(reason)
    // The id may be reused by the server: forget it (a later notice opens a new bubble).
    m_targetOfId.remove(id);
    for (auto it = m_idOfKey.begin(); it != m_idOfKey.end();) {
        if (it.value() == id)
            it = m_idOfKey.erase(it);
        else
            ++it;
    }
}

} // namespace gpudesk
