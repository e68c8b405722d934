// SPDX-License-Identifier: GPL-3.0-or-later
// File › Settings…: what it shows is what the settings hold, OK saves and applies (theme,
// thresholds, alert rules, per-context SSH and Prometheus), Cancel changes nothing, and a second
// opening shows what was saved. Screenshots of each tab, light and dark.
#include "alertcenter.h"
#include "appsettings.h"
#include "cleanuppage.h"
#include "clustersession.h"
#include "findingsservice.h"
#include "imagesservice.h"
#include "mainwindow.h"
#include "offlinewindow.h"
#include "palette.h"
#include "services.h"
#include "settingsdialog.h"
#include "theme.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestSettings : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void shownAsSaved();
    void okSavesAndApplies();
    void cancelChangesNothing();
    void reopenedShowsWhatWasSaved();
    void tabsLookRight();

private:
    SettingsDialog *open();
    template <class T> T *field(QDialog *d, const char *name)
    {
        auto *w = d->findChild<T *>(QLatin1String(name));
        if (!w)
            qWarning("no %s in the settings dialog", name);
        return w;
    }

    QTemporaryDir m_dir;
    OfflineWindow m_offline;
    Services *m_services = nullptr;
    MainWindow *m_w = nullptr;
};

void TestSettings::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Settings of the test's own, set before the services read them; two contexts whose
    // servers do not answer (the dialog needs their names only).
    OfflineWindow::useSettingsIn(m_dir.path());
    QSettings().setValue(QStringLiteral("prometheus/url"), QStringLiteral("http://prom:9090"));
    QSettings().setValue(QStringLiteral("ssh/ctx-a/user"), QStringLiteral("root"));
    QSettings().setValue(QStringLiteral("alerts/diskWarningPercent"), 75);
    const QString error =
        m_offline.open(m_dir.path(), {QStringLiteral("ctx-a"), QStringLiteral("ctx-b")});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_services = m_offline.services.get();
    m_w = m_offline.w.get();
}

void TestSettings::cleanupTestCase()
{
    m_offline.w.reset();
    m_offline.services.reset();
    theme::apply(theme::Scheme::System);
}

SettingsDialog *TestSettings::open()
{
    // Through the menu, as a user does (File › Settings…, Ctrl+,).
    auto *action = m_w->findChild<QAction *>(QStringLiteral("settingsAction"));
    if (!action || action->shortcut() != QKeySequence(QStringLiteral("Ctrl+,")))
        return nullptr;
    // The last one is deleted once closed (on the next turn of the event loop).
    if (!QTest::qWaitFor([this] { return !m_w->findChild<SettingsDialog *>(); }, 5000))
        return nullptr;
    action->trigger();
    return m_w->findChild<SettingsDialog *>();
}

void TestSettings::shownAsSaved()
{
    SettingsDialog *d = open();
    QVERIFY(d);
    QCOMPARE(field<QComboBox>(d, "context")->currentText(), QStringLiteral("ctx-a"));
    QCOMPARE(field<QLineEdit>(d, "sshUser")->text(), QStringLiteral("root"));
    QCOMPARE(field<QLineEdit>(d, "prometheus")->text(), QString());
    QCOMPARE(field<QLineEdit>(d, "prometheus")->placeholderText(),
             QStringLiteral("http://prom:9090 (the one for every context)"));
    QCOMPARE(field<QSpinBox>(d, "diskWarning")->value(), 75);
    QCOMPARE(field<QSpinBox>(d, "diskCritical")->value(), 90);
    QCOMPARE(field<QSpinBox>(d, "idleFor")->value(), 60);
    QCOMPARE(field<QSpinBox>(d, "interval")->value(), 2);
    QVERIFY(field<QCheckBox>(d, "rule_notready")->isChecked());
    QVERIFY(field<QCheckBox>(d, "notify")->isChecked());
    QCOMPARE(m_services->alerts()->rules().diskWarningPercent, 75);
    d->reject();
    QTRY_VERIFY(!m_w->findChild<SettingsDialog *>());
}

void TestSettings::okSavesAndApplies()
{
    SettingsDialog *d = open();
    QVERIFY(d);
    auto *language = field<QComboBox>(d, "language");
    language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
    auto *themeBox = field<QComboBox>(d, "theme");
    themeBox->setCurrentIndex(themeBox->findData(int(theme::Scheme::Dark)));
    field<QCheckBox>(d, "notify")->setChecked(false);
    // ctx-b's SSH and Prometheus; ctx-a's user cleared.
    field<QLineEdit>(d, "sshUser")->clear();
    field<QComboBox>(d, "context")->setCurrentText(QStringLiteral("ctx-b"));
    QCOMPARE(field<QLineEdit>(d, "sshUser")->text(), QString());
    field<QLineEdit>(d, "sshUser")->setText(QStringLiteral("ops"));
    field<QLineEdit>(d, "sshKey")->setText(QStringLiteral("/home/ops/.ssh/id_ed25519"));
    field<QLineEdit>(d, "sshJump")->setText(QStringLiteral("ops@bastion:2222"));
    field<QLineEdit>(d, "prometheus")->setText(QStringLiteral("http://prom-b:9090"));
    // ctx-b's NAS: the seed layout shown until changed; two roots of users, a node to walk on.
    QCOMPARE(field<QLineEdit>(d, "nasUserRoots")->text(), QStringLiteral("/mnt/user"));
    QCOMPARE(field<QLineEdit>(d, "nasGroupRoots")->text(), QStringLiteral("/mnt/share"));
    field<QLineEdit>(d, "nasUserRoots")->setText(QStringLiteral("/mnt/user  /mnt2/user"));
    field<QLineEdit>(d, "nasNode")->setText(QStringLiteral(" g4090-03 "));
    field<QSpinBox>(d, "storageFolder")->setValue(4096);
    field<QSpinBox>(d, "idleFor")->setValue(90);
    field<QSpinBox>(d, "interval")->setValue(5);
    field<QSpinBox>(d, "hugeGiB")->setValue(30);
    field<QCheckBox>(d, "rule_hot")->setChecked(false);
    // Critical follows a warning raised above it.
    field<QSpinBox>(d, "diskWarning")->setValue(95);
    QCOMPARE(field<QSpinBox>(d, "diskCritical")->value(), 95);
    field<QSpinBox>(d, "flapCount")->setValue(4);
    d->accept();

    const QSettings s;
    QCOMPARE(s.value(QStringLiteral("ui/language")).toString(), QStringLiteral("zh_CN"));
    QCOMPARE(AppSettings::language(), QStringLiteral("zh_CN"));
    QCOMPARE(s.value(QStringLiteral("ui/theme")).toString(), QStringLiteral("dark"));
    QCOMPARE(s.value(QStringLiteral("alerts/notify")).toBool(), false);
    QVERIFY(!s.contains(QStringLiteral("ssh/ctx-a/user")));
    QCOMPARE(s.value(QStringLiteral("ssh/ctx-b/user")).toString(), QStringLiteral("ops"));
    QCOMPARE(s.value(QStringLiteral("ssh/ctx-b/identityFile")).toString(),
             QStringLiteral("/home/ops/.ssh/id_ed25519"));
    QCOMPARE(s.value(QStringLiteral("ssh/ctx-b/proxyJump")).toString(),
             QStringLiteral("ops@bastion:2222"));
    QCOMPARE(AppSettings::prometheusFor(QStringLiteral("ctx-b")),
             QStringLiteral("http://prom-b:9090"));
    QCOMPARE(AppSettings::prometheusFor(QStringLiteral("ctx-a")),
             QStringLiteral("http://prom:9090"));
    QCOMPARE(s.value(QStringLiteral("telemetry/intervalSeconds")).toInt(), 5);
    const AppSettings::Storage nas = AppSettings::storage(QStringLiteral("ctx-b"));
    QCOMPARE(nas.userRoots,
             (QStringList{QStringLiteral("/mnt/user"), QStringLiteral("/mnt2/user")}));
    QCOMPARE(nas.groupRoots, QStringList{QStringLiteral("/mnt/share")});
    QCOMPARE(nas.node, QStringLiteral("g4090-03"));

    // Applied at once: the theme, the idle threshold (the Cleanup page shows it), the image
    // warning, the alert rules.
    QVERIFY(colors::isDark(QApplication::palette()));
    QCOMPARE(m_services->findings()->options().idleForMs, qint64(90) * 60 * 1000);
    auto *idle = m_w->page(MainWindow::Cleanup)->findChild<QSpinBox *>(QStringLiteral("idleFor"));
    QVERIFY(idle);
    QCOMPARE(idle->value(), 90);
    QCOMPARE(m_services->images()->hugeBytes(), qint64(30) << 30);
    const AlertRules rules = m_services->alerts()->rules();
    QVERIFY(!rules.enabled(QStringLiteral("hot")));
    QVERIFY(rules.enabled(QStringLiteral("disk")));
    QCOMPARE(rules.diskWarningPercent, 95);
    QCOMPARE(rules.diskCriticalPercent, 95);
    QCOMPARE(rules.flapCount, 4);
    QCOMPARE(rules.storageFolderGiB, 4096);
    QCOMPARE(AlertRules::load(), rules); // what `gpudesk --alerts` reads
}

void TestSettings::cancelChangesNothing()
{
    SettingsDialog *d = open();
    QVERIFY(d);
    const AlertRules before = m_services->alerts()->rules();
    field<QSpinBox>(d, "hot")->setValue(60);
    field<QLineEdit>(d, "sshUser")->setText(QStringLiteral("nobody"));
    auto *themeBox = field<QComboBox>(d, "theme");
    themeBox->setCurrentIndex(themeBox->findData(int(theme::Scheme::Light)));
    d->reject();
    QCOMPARE(m_services->alerts()->rules(), before);
    QCOMPARE(AlertRules::load(), before);
    QVERIFY(!QSettings().contains(QStringLiteral("ssh/ctx-a/user")));
    QVERIFY(colors::isDark(QApplication::palette()));
}

void TestSettings::reopenedShowsWhatWasSaved()
{
    SettingsDialog *d = open();
    QVERIFY(d);
    QCOMPARE(field<QComboBox>(d, "language")->currentData().toString(), QStringLiteral("zh_CN"));
    QCOMPARE(field<QComboBox>(d, "theme")->currentData().toInt(), int(theme::Scheme::Dark));
    QVERIFY(!field<QCheckBox>(d, "notify")->isChecked());
    QVERIFY(!field<QCheckBox>(d, "rule_hot")->isChecked());
    QCOMPARE(field<QSpinBox>(d, "flapCount")->value(), 4);
    QCOMPARE(field<QSpinBox>(d, "idleFor")->value(), 90);
    QCOMPARE(field<QSpinBox>(d, "hugeGiB")->value(), 30);
    QCOMPARE(field<QLineEdit>(d, "sshUser")->text(), QString()); // ctx-a's, cleared
    field<QComboBox>(d, "context")->setCurrentText(QStringLiteral("ctx-b"));
    QCOMPARE(field<QLineEdit>(d, "sshUser")->text(), QStringLiteral("ops"));
    QCOMPARE(field<QLineEdit>(d, "prometheus")->text(), QStringLiteral("http://prom-b:9090"));
    d->reject();
}

void TestSettings::tabsLookRight()
{
    QDir().mkpath(QStringLiteral("screenshots"));
    for (const theme::Scheme scheme : {theme::Scheme::Light, theme::Scheme::Dark}) {
        theme::apply(scheme);
        SettingsDialog *d = open();
        QVERIFY(d);
        d->resize(720, 520);
        for (int i = 0; i < d->tabs()->count(); ++i) {
            d->tabs()->setCurrentIndex(i);
            QCoreApplication::sendPostedEvents();
            const QString name = QStringLiteral("screenshots/settings-%1-%2.png")
                                     .arg(i)
                                     .arg(scheme == theme::Scheme::Dark ? QStringLiteral("dark")
                                                                        : QStringLiteral("light"));
            QVERIFY(d->grab().save(name));
        }
        d->reject();
    }
}

QTEST_MAIN(TestSettings)
#include "tst_settings.moc"
