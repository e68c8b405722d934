// SPDX-License-Identifier: GPL-3.0-or-later
// A registry that wants a login gpudesk was not given (no docker config on this machine): the
// Images page asks for it in words, a wrong password is refused once and asked again (never kept),
// the right one reads the registry whole and, as the user asked, is kept in the OS keychain (a
// gnome-keyring of the test's own, scripts/with-keyring) where the next session finds it. The
// test peers' "main" docker-registry, with TLS and htpasswd.
#include "imagesmodel.h"
#include "imagespage.h"
#include "imagesservice.h"
#include "registrylogindialog.h"
#include "registrylogins.h"
#include "registrypeer.h"
#include "services.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestRegistryLogin : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void loginAskedRefusedThenKept();

private:
    // Waits for the page's login dialog to show.
    static void waitForDialog(ImagesPage &page);
    static void logIn(RegistryLoginDialog *d, const QString &user, const QString &secret,
                      bool remember);

    QTemporaryDir m_home;
    QString m_host;
};

void TestRegistryLogin::initTestCase()
{
    QVERIFY(!qEnvironmentVariable("GPUDESK_PEERS").isEmpty());
    QVERIFY(!qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS").isEmpty()); // with-keyring's
    m_host = registrypeer::mainHost();
    QString error;
    QVERIFY2(registrypeer::setUpUser(m_home.path(), &error), qPrintable(error));
    // The registry's CA where containers look, but no docker login on this machine.
    QVERIFY(QFile::remove(m_home.filePath(QStringLiteral("docker/config.json"))));
    QCoreApplication::setOrganizationName(QStringLiteral("gpudesk-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_registrylogin"));
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
}

void TestRegistryLogin::waitForDialog(ImagesPage &page)
{
    QTRY_VERIFY_WITH_TIMEOUT(page.loginDialog() && page.loginDialog()->isVisible(), 60000);
}

void TestRegistryLogin::logIn(RegistryLoginDialog *d, const QString &user, const QString &secret,
                              bool remember)
{
    d->findChild<QLineEdit *>(QStringLiteral("loginUser"))->setText(user);
    d->findChild<QLineEdit *>(QStringLiteral("loginSecret"))->setText(secret);
    d->findChild<QCheckBox *>(QStringLiteral("loginRemember"))->setChecked(remember);
    d->accept();
}

void TestRegistryLogin::loginAskedRefusedThenKept()
{
    const QString user = registrypeer::file(QStringLiteral("user"));
    const QString password = registrypeer::file(QStringLiteral("password"));
    Services services({m_home.filePath(QStringLiteral("no-kubeconfig"))});
    ImagesPage page(services.images());
    page.resize(1200, 700);
    page.show();
    QVERIFY(page.addRegistry(QStringLiteral("https://") + m_host));
    QSignalSpy finished(services.images(), &ImagesService::finished);
    page.read();

    // No login anywhere: asked, saying why.
    waitForDialog(page);
    RegistryLoginDialog *first = page.loginDialog();
    QCOMPARE(first->host(), m_host);
    const QString why = first->findChild<QLabel *>(QStringLiteral("loginWhy"))->text();
    QVERIFY2(why.contains(QStringLiteral("%1 asks for a user name and password, and none is "
                                         "configured for it")
                              .arg(m_host)),
             qPrintable(why));
    QVERIFY(!finished.isEmpty() && !finished.last().at(0).toBool()); // the read said incomplete
    QVERIFY(page.status()->text().startsWith(QLatin1String("Incomplete")));
    // Nothing to log in with until both are typed; the secret is never shown.
    QPushButton *logInButton = nullptr;
    for (QPushButton *b : first->findChildren<QPushButton *>())
        if (b->text() == QLatin1String("Log in and read"))
            logInButton = b;
    QVERIFY(logInButton && !logInButton->isEnabled());
    first->findChild<QLineEdit *>(QStringLiteral("loginUser"))->setText(user);
    QVERIFY(!logInButton->isEnabled());
    first->findChild<QLineEdit *>(QStringLiteral("loginSecret"))->setText(QStringLiteral("x"));
    QVERIFY(logInButton->isEnabled());
    QCOMPARE(first->findChild<QLineEdit *>(QStringLiteral("loginSecret"))->echoMode(),
             QLineEdit::Password);

    // A wrong password: one refusal, said as such, asked again; not kept.
    QPointer<RegistryLoginDialog> firstAlive(first);
    logIn(first, user, QStringLiteral("not-the-password"), true);
    QTRY_VERIFY_WITH_TIMEOUT(!firstAlive && page.loginDialog(), 60000); // closed, asked anew
    waitForDialog(page);
    RegistryLoginDialog *second = page.loginDialog();
    const QString refused = second->findChild<QLabel *>(QStringLiteral("loginWhy"))->text();
    QVERIFY2(refused.contains(
                 QStringLiteral("%1 refused the user name and password (from typed in gpudesk)")
                     .arg(m_host)),
             qPrintable(refused));
    // The user name is offered again (the secret is not).
    QCOMPARE(second->findChild<QLineEdit *>(QStringLiteral("loginUser"))->text(), user);
    QVERIFY(second->findChild<QLineEdit *>(QStringLiteral("loginSecret"))->text().isEmpty());
    QVERIFY(!services.images()->logins()->isRemembered(m_host));
    second->findChild<QLineEdit *>(QStringLiteral("loginSecret"))->setText(QStringLiteral("typed"));
    QDir().mkpath(QStringLiteral("screenshots"));
    QCoreApplication::sendPostedEvents();
    QVERIFY(second->grab().save(QStringLiteral("screenshots/registry-login-refused.png")));

    // The right one: read whole, and kept in the keychain as asked.
    finished.clear();
    QSignalSpy kept(services.images(), &ImagesService::loginKept);
    logIn(second, user, password, true);
    QVERIFY(finished.wait(180000));
    QVERIFY2(finished.last().at(0).toBool(),
             qPrintable(finished.last().at(1).toStringList().join(u'\n')));
    QVERIFY(page.model()->rowCount() >= 1006);
    QVERIFY(kept.count() == 1 || kept.wait(20000));
    QVERIFY2(kept.first().at(1).toString().isEmpty(), qPrintable(kept.first().at(1).toString()));
    QTRY_VERIFY2(page.status()->text().contains(
                     QStringLiteral("The login to %1 is kept in the system keychain.").arg(m_host)),
                 qPrintable(page.status()->text()));
    QVERIFY(!page.loginDialog() || !page.loginDialog()->isVisible());
    QVERIFY(services.images()->logins()->isRemembered(m_host));

    // The settings hold the user name and which registries are in the keychain, never the secret.
    QSettings().sync();
    QFile settings(QSettings().fileName());
    QVERIFY(settings.open(QIODevice::ReadOnly));
    const QByteArray text = settings.readAll();
    QVERIFY(text.contains(m_host.toUtf8()));
    QVERIFY(!text.contains(password.toUtf8()));

    // A later session (a new RegistryLogins, as after a restart) finds it in the keychain.
    RegistryLogins later;
    RegistryCredentials found;
    bool done = false;
    later.lookup(m_host, this, [&](const RegistryCredentials &c, const QString &error) {
        QVERIFY2(error.isEmpty(), qPrintable(error));
        found = c;
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
    QCOMPARE(found.username, user);
    QCOMPARE(found.secret, password);
    QCOMPARE(found.source, QStringLiteral("the system keychain"));
}

QTEST_MAIN(TestRegistryLogin)
#include "tst_registrylogin.moc"
