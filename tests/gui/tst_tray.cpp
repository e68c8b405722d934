// SPDX-License-Identifier: GPL-3.0-or-later
// The system tray on a real X server (Xvfb) with a real tray (trayer), run by scripts/with-tray:
// gpudesk's icon is there with the alerts' menu; with "keep watching" on, closing the window
// hides it and gpudesk stays connected, and the tray brings it back; with it off, closing
// closes.
#include "alerttray.h"
#include "clustersession.h"
#include "mainwindow.h"
#include "offlinewindow.h"
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
    OfflineWindow m_offline;
    Services *m_services = nullptr;
    MainWindow *m_w = nullptr;
};

void TestTray::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The tray (trayer) owns the display's tray selection a moment after it starts.
    QTRY_VERIFY_WITH_TIMEOUT(QSystemTrayIcon::isSystemTrayAvailable(), 20000);
    const QString error = m_offline.open(m_dir.path(), {QStringLiteral("ctx-a")});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_services = m_offline.services.get();
    m_w = m_offline.w.get();
    QVERIFY(QTest::qWaitForWindowExposed(m_w));
}

void TestTray::cleanupTestCase()
{
    m_offline.w.reset();
    m_offline.services.reset();
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
