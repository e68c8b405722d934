// SPDX-License-Identifier: GPL-3.0-or-later
// The system tray on a real X server (Xvfb) with a real tray (trayer), run by scripts/with-tray:
// gpudesk's icon is there with the alerts' menu; with "keep watching" on, closing the window
// hides it and gpudesk stays connected, and the tray brings it back; with it off, closing
// closes.
#include "alerttray.h"
#include "clustersession.h"
#include "mainwindow.h"
#include "services.h"

#include <QAction>
#include <QMenu>
#include <QSettings>
#include <QSystemTrayIcon>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestTray : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void iconInTheTray();
    void closingKeepsWatching();
    void closingCloses();

private:
    QAction *menuAction(const QString &text) const
    {
        for (QAction *a : m_w->alertTray()->menu()->actions())
            if (a->text() == text)
                return a;
        return nullptr;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<Services> m_services;
    std::unique_ptr<MainWindow> m_w;
};

void TestTray::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
    // The tray (trayer) owns the display's tray selection a moment after it starts.
    QTRY_VERIFY_WITH_TIMEOUT(QSystemTrayIcon::isSystemTrayAvailable(), 20000);
    const QString kubeconfig = m_dir.filePath(QStringLiteral("kubeconfig"));
    QFile f(kubeconfig);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("apiVersion: v1\nkind: Config\ncurrent-context: ctx-a\n"
            "clusters:\n- name: c\n  cluster: {server: 'https://127.0.0.1:1'}\n"
            "users:\n- name: u\n  user: {token: t}\n"
            "contexts:\n- name: ctx-a\n  context: {cluster: c, user: u}\n");
    f.close();
    m_services = std::make_unique<Services>(QStringList{kubeconfig});
    QString error;
    QVERIFY2(m_services->session()->loadConfig(&error), qPrintable(error));
    m_services->session()->connectTo(QStringLiteral("ctx-a"));
    m_w = std::make_unique<MainWindow>(m_services.get());
    m_w->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_w.get()));
}

void TestTray::cleanupTestCase()
{
    m_w.reset();
    m_services.reset();
}

void TestTray::iconInTheTray()
{
    QSystemTrayIcon *icon = m_w->alertTray()->trayIcon();
    QVERIFY(icon);
    QTRY_VERIFY(icon->isVisible());
    QVERIFY(!icon->icon().isNull());
    QCOMPARE(icon->toolTip(), QStringLiteral("gpudesk: no alert"));
    QVERIFY(menuAction(QStringLiteral("Show gpudesk")));
    QVERIFY(menuAction(QStringLiteral("Quit gpudesk")));
    QAction *keep = menuAction(QStringLiteral("Keep watching when the window is closed"));
    QVERIFY(keep && keep->isCheckable() && !keep->isChecked());
}

void TestTray::closingKeepsWatching()
{
    // Turned on from the tray's own menu.
    QAction *keep = menuAction(QStringLiteral("Keep watching when the window is closed"));
    QVERIFY(keep);
    keep->trigger();
    QVERIFY(QSettings().value(QStringLiteral("alerts/keepWatching")).toBool());
    QVERIFY(m_w->alertTray()->keepsWatching());
    QVERIFY(!m_w->close()); // the close is refused: the window hides
    QTRY_VERIFY(!m_w->isVisible());
    QCOMPARE(m_services->session()->context(), QStringLiteral("ctx-a")); // still connected
    QVERIFY(m_services->session()->connection());
    // The tray brings it back.
    QAction *show = menuAction(QStringLiteral("Show gpudesk"));
    QVERIFY(show);
    show->trigger();
    QTRY_VERIFY(m_w->isVisible());
}

void TestTray::closingCloses()
{
    QAction *keep = menuAction(QStringLiteral("Keep watching when the window is closed"));
    QVERIFY(keep && keep->isChecked());
    keep->trigger();
    QVERIFY(!m_w->alertTray()->keepsWatching());
    QVERIFY(m_w->close());
    QVERIFY(!m_w->isVisible());
}

QTEST_MAIN(TestTray)
#include "tst_tray.moc"
