// SPDX-License-Identifier: GPL-3.0-or-later
// AppSettings: every key under one name with its default and range, read the same by the
// command line, the services and the window.
#include "appsettings.h"

#include <QSettings>
#include <QTest>

using namespace gpudesk;

class TestAppSettings : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(u"gpudesk-tests"_qs);
        QCoreApplication::setApplicationName(u"tst_appsettings"_qs);
    }
    void init() { QSettings().clear(); }
    void defaults();
    void prometheusOfAContextFirst();
    void sshPerContext();
    void rangesHeld();
};

void TestAppSettings::defaults()
{
    QCOMPARE(AppSettings::notify(), true);
    QCOMPARE(AppSettings::keepWatching(), false);
    QCOMPARE(AppSettings::idleForMinutes(), 60);
    QCOMPARE(AppSettings::telemetryIntervalSeconds(), 2);
    QCOMPARE(AppSettings::hugeImageGiB(), 20.0);
    QCOMPARE(AppSettings::gpuMapZoom(), 0);
    QCOMPARE(AppSettings::prometheusFor(u"any"_qs), QString());
    QCOMPARE(AppSettings::language(), QString());
}

void TestAppSettings::prometheusOfAContextFirst()
{
    // The keys as earlier versions wrote them: a user's file keeps working.
    QSettings().setValue(u"prometheus/url"_qs, u"http://all:9090"_qs);
    QSettings().setValue(u"contexts/lab-a/prometheus"_qs, u"http://a:9090"_qs);
    QCOMPARE(AppSettings::prometheusFor(u"lab-a"_qs), u"http://a:9090"_qs);
    QCOMPARE(AppSettings::prometheusFor(u"lab-b"_qs), u"http://all:9090"_qs);
    // `gpudesk --cleanup` without --context: the one for every context.
    QCOMPARE(AppSettings::prometheusFor(QString()), u"http://all:9090"_qs);
    // Emptied: the key goes, and the wider one applies again.
    AppSettings::setPrometheusOfContext(u"lab-a"_qs, u"  "_qs);
    QVERIFY(!QSettings().contains(u"contexts/lab-a/prometheus"_qs));
    QCOMPARE(AppSettings::prometheusFor(u"lab-a"_qs), u"http://all:9090"_qs);
    AppSettings::setPrometheusOfContext(u"lab-a"_qs, u" http://a2:9090 "_qs);
    QCOMPARE(QSettings().value(u"contexts/lab-a/prometheus"_qs).toString(), u"http://a2:9090"_qs);
}

void TestAppSettings::sshPerContext()
{
    AppSettings::setSsh(u"lab-a"_qs, {u"root"_qs, u"~/.ssh/lab"_qs, u"root@bastion:22"_qs, {}});
    QCOMPARE(QSettings().value(u"ssh/lab-a/user"_qs).toString(), u"root"_qs);
    QCOMPARE(QSettings().value(u"ssh/lab-a/proxyJump"_qs).toString(), u"root@bastion:22"_qs);
    QVERIFY(!QSettings().contains(u"ssh/lab-a/config"_qs));
    const AppSettings::Ssh a = AppSettings::ssh(u"lab-a"_qs);
    QCOMPARE(a.identityFile, u"~/.ssh/lab"_qs);
    QCOMPARE(AppSettings::ssh(u"lab-b"_qs).user, QString());
}

void TestAppSettings::rangesHeld()
{
    // A hand-edited file out of range is held to the range, never used as it is.
    QSettings().setValue(u"telemetry/intervalSeconds"_qs, 0);
    QCOMPARE(AppSettings::telemetryIntervalSeconds(), 1);
    QSettings().setValue(u"telemetry/intervalSeconds"_qs, 3600);
    QCOMPARE(AppSettings::telemetryIntervalSeconds(), 60);
    QSettings().setValue(u"images/hugeGiB"_qs, u"lots"_qs);
    QCOMPARE(AppSettings::hugeImageGiB(), 20.0);
    QSettings().setValue(u"cleanup/idleForMinutes"_qs, -5);
    QCOMPARE(AppSettings::idleForMinutes(), 1);
    AppSettings::setWindow("geometry", "state", 3);
    QCOMPARE(AppSettings::windowPage(), 3);
    QCOMPARE(AppSettings::windowGeometry(), QByteArray("geometry"));
}

QTEST_GUILESS_MAIN(TestAppSettings)
#include "tst_appsettings.moc"
