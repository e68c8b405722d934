// SPDX-License-Identifier: GPL-3.0-or-later
#include "desktopnotifier.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>
#include <QVariantMap>

namespace gpudesk {

namespace {

const QString kPath = QStringLiteral("/org/freedesktop/Notifications");
const QString kInterface = QStringLiteral("org.freedesktop.Notifications");
constexpr int kExpireMs = 0; // stays until the user closes it: an outage is not a toast
constexpr int kBusAskMs = 5000;

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
    auto *watcher = new QDBusServiceWatcher(QLatin1String(Service), bus,
                                            QDBusServiceWatcher::WatchForOwnerChange, this);
    connect(watcher, &QDBusServiceWatcher::serviceOwnerChanged, this,
            [this](const QString &, const QString &, const QString &owner) {
                m_registered = !owner.isEmpty();
                if (!m_registered)
                    askBus(); // gone: still startable?
            });
    askBus();
}

void DesktopNotifier::askBus()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    auto ask = [&](const QString &method, const QVariantList &args, auto take) {
        QDBusMessage call = QDBusMessage::createMethodCall(
            QStringLiteral("org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
            QStringLiteral("org.freedesktop.DBus"), method);
        call.setArguments(args);
        auto *pending = new QDBusPendingCallWatcher(bus.asyncCall(call, kBusAskMs), this);
        connect(pending, &QDBusPendingCallWatcher::finished, this, [pending, take] {
            pending->deleteLater();
            take(pending->reply());
        });
    };
    // Registered now, or startable by the bus (a daemon activated on the first notice).
    ask(QStringLiteral("NameHasOwner"), {QLatin1String(Service)}, [this](const QDBusMessage &m) {
        if (m.type() == QDBusMessage::ReplyMessage && !m.arguments().isEmpty())
            m_registered = m_registered || m.arguments().first().toBool();
    });
    ask(QStringLiteral("ListActivatableNames"), {}, [this](const QDBusMessage &m) {
        m_activatable = m.type() == QDBusMessage::ReplyMessage && !m.arguments().isEmpty() &&
                        m.arguments().first().toStringList().contains(QLatin1String(Service));
    });
}

bool DesktopNotifier::available() const
{
    return m_registered || m_activatable;
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
