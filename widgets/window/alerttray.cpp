// SPDX-License-Identifier: GPL-3.0-or-later
#include "alerttray.h"

#include "appsettings.h"

#include "alertcenter.h"
#include "desktopnotifier.h"
#include "palette.h"

#include <QApplication>
#include <QIcon>
#include <QMenu>
#include <QPainter>
#include <QSystemTrayIcon>
#include <QWidget>

namespace gpudesk {

namespace {

constexpr int kMenuAlerts = 10;

QIcon badgedIcon(int worst)
{
    const QIcon base(QStringLiteral(":/gpudesk/gpudesk.svg"));
    if (worst > Problem::Warning)
        return base;
    QIcon icon;
    for (const int size : {16, 22, 24, 32, 48, 64}) {
        QPixmap pixmap = base.pixmap(size, size);
        if (pixmap.isNull()) { // no SVG support or resource: the badge alone
            pixmap = QPixmap(size, size);
            pixmap.fill(Qt::transparent);
        }
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        const qreal d = size * 0.5;
        p.setPen(QPen(Qt::white, std::max(1.0, size / 16.0)));
        p.setBrush(worst == Problem::Critical ? colors::error() : colors::warning());
        p.drawEllipse(QRectF(size - d - 0.5, size - d - 0.5, d, d));
        p.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace

AlertTray::AlertTray(AlertCenter *alerts, QWidget *window)
    : QObject(window), m_alerts(alerts), m_window(window), m_notifier(new DesktopNotifier(this)),
      m_menu(new QMenu(window))
{
    m_menu->setObjectName(QStringLiteral("trayMenu"));
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(this);
        m_tray->setContextMenu(m_menu);
        connect(m_tray, &QSystemTrayIcon::activated, this,
                [this](QSystemTrayIcon::ActivationReason reason) {
                    if (reason == QSystemTrayIcon::Trigger ||
                        reason == QSystemTrayIcon::DoubleClick)
                        emit goTo(QString());
                });
        connect(m_tray, &QSystemTrayIcon::messageClicked, this,
                [this] { emit goTo(QStringLiteral("page:overview")); });
    }
    connect(m_alerts, &AlertCenter::changed, this, &AlertTray::refresh);
    connect(m_alerts, &AlertCenter::raised, this, &AlertTray::onRaised);
    connect(m_notifier, &DesktopNotifier::activated, this, &AlertTray::goTo);
    refresh();
    if (m_tray)
        m_tray->show();
}

AlertTray::~AlertTray() = default;

bool AlertTray::keepsWatching() const
{
    return m_tray && AppSettings::keepWatching();
}

bool AlertTray::notifyEnabled()
{
    return AppSettings::notify();
}

void AlertTray::onRaised(const QList<Alert> &alerts)
{
    if (!notifyEnabled())
        return;
    const bool desktop = m_notifier->available();
    for (const AlertNotice &n : AlertCenter::notices(alerts, m_context)) {
        if (desktop)
            m_notifier->notify(n);
        else if (m_tray)
            m_tray->showMessage(n.summary, n.body,
                                n.critical ? QSystemTrayIcon::Critical : QSystemTrayIcon::Warning);
    }
}

void AlertTray::tellStillWatching()
{
    if (m_toldStillWatching || !m_tray)
        return;
    m_toldStillWatching = true;
    m_tray->showMessage(tr("gpudesk keeps watching"),
                        tr("Alerts still reach you here. Quit from this icon's menu."),
                        QSystemTrayIcon::Information);
}

void AlertTray::refresh()
{
    const QList<Alert> alerts = m_alerts->alerts();
    const int open = m_alerts->unacknowledged();
    const QString tip = open ? tr("gpudesk: %n alert(s) not acknowledged", nullptr, open)
                             : (alerts.isEmpty() ? tr("gpudesk: no alert")
                                                 : tr("gpudesk: every alert acknowledged"));
    if (m_tray) {
        m_tray->setIcon(badgedIcon(m_alerts->worstUnacknowledged()));
        m_tray->setToolTip(tip);
    }
    m_menu->clear();
    m_menu->addAction(tr("Show gpudesk"), this, [this] { emit goTo(QString()); });
    m_menu->addSeparator();
    if (alerts.isEmpty())
        m_menu->addAction(tr("No alert"))->setEnabled(false);
    for (qsizetype i = 0; i < std::min<qsizetype>(alerts.size(), kMenuAlerts); ++i) {
        const Alert &a = alerts[i];
        QString text = a.problem.text;
        if (text.size() > 90)
            text = text.left(89) + u'…';
        if (a.acknowledged)
            text = tr("%1 (acknowledged)").arg(text);
        QAction *act = m_menu->addAction(text, this, [this, t = a.target] { emit goTo(t); });
        act->setIcon(badgedIcon(a.acknowledged ? Problem::Warning + 1 : int(a.problem.severity)));
    }
    if (alerts.size() > kMenuAlerts)
        m_menu->addAction(
            tr("and %n more on the Overview", nullptr, int(alerts.size() - kMenuAlerts)), this,
            [this] { emit goTo(QStringLiteral("page:overview")); });
    m_menu->addSeparator();
    QAction *ack = m_menu->addAction(tr("Acknowledge all"), m_alerts, &AlertCenter::acknowledgeAll);
    ack->setEnabled(open > 0);
    QAction *keep = m_menu->addAction(tr("Keep watching when the window is closed"));
    keep->setCheckable(true);
    keep->setChecked(AppSettings::keepWatching());
    connect(keep, &QAction::toggled, this, [](bool on) { AppSettings::setKeepWatching(on); });
    m_menu->addSeparator();
    m_menu->addAction(tr("Quit gpudesk"), this, &AlertTray::quitRequested);
}

} // namespace gpudesk
