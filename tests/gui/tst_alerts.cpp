// SPDX-License-Identifier: GPL-3.0-or-later
// Alerts against a demo cluster of the test's own: the planted NotReady node, the 92 % disk and
// the zombies each raise one alert and one desktop notification; a node NotReady, Ready, then
// NotReady again raises it again (and the third time as flapping); acknowledging silences an
// alert until it clears; many nodes failing together make one notification; a click on a
// notification shows its node; the API server gone is an alert of its own. The notifications go
// over a private session bus (Debian's dbus-daemon with a config of the test's own) to the
// notification service a desktop runs, served here by the test.
#include "alertcenter.h"
#include "alerttray.h"
#include "desktopnotifier.h"
#include "gpuusechart.h"
#include "gpuusesampler.h"
#include "imagesservice.h"
#include "overviewpage.h"
#include "registrywatch.h"
#include "windowfixture.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QSettings>
#include <QTcpServer>

namespace {

struct Notice
{
    uint id;
    uint replaces;
    QString app, summary, body;
    QStringList actions;
    QVariantMap hints;
};

// org.freedesktop.Notifications as the Desktop Notifications Specification 1.2 defines it.
class NotificationServer : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    QList<Notice> received;
    QList<Notice> matching(const QString &text) const
    {
        QList<Notice> out;
        for (const Notice &n : received)
            if (n.body.contains(text) || n.summary.contains(text))
                out.append(n);
        return out;
    }

public slots:
    uint Notify(const QString &app, uint replaces, const QString &icon, const QString &summary,
                const QString &body, const QStringList &actions, const QVariantMap &hints,
                int timeout)
    {
        Q_UNUSED(icon)
        Q_UNUSED(timeout)
        const uint id = replaces ? replaces : ++m_last;
        received.append({id, replaces, app, summary, body, actions, hints});
        return id;
    }
    QStringList GetCapabilities() { return {QStringLiteral("actions"), QStringLiteral("body")}; }
    void CloseNotification(uint id) { emit NotificationClosed(id, 3); }
    QString GetServerInformation(QString &vendor, QString &version, QString &spec)
    {
        vendor = QStringLiteral("gpudesk tests");
        version = QStringLiteral("1");
        spec = QStringLiteral("1.2");
        return QStringLiteral("tst_alerts");
    }

signals:
    void ActionInvoked(uint id, const QString &action);
    void NotificationClosed(uint id, uint reason);

private:
    uint m_last = 0;
};

} // namespace

class TestAlerts : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void plantedProblemsRaiseOneAlertEach();
    void clickShowsTheNode();
    void allocatedAgainstBusy();
    void notReadyAgainIsRaisedAgainAndFlaps();
    void acknowledgedStaysQuietUntilItClears();
    void manyNodesAtOnceAreOneNotification();
    void rulesFromSettings();
    void registryNotAnswering();
    void vipReservationOutlivesItsJob();
    void apiServerGoneIsAnAlert(); // last: it stops the simulator

private:
    void nodeReady(const QString &node, bool ready);
    QStringList activeKeys() const;

    QTemporaryDir m_dir;
    QProcess m_bus;
    QProcess m_sim;
    NotificationServer m_server;
    std::unique_ptr<Services> m_services;
    std::unique_ptr<MainWindow> m_w;
    AlertCenter *m_alerts = nullptr;
};

void TestAlerts::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A session bus of the test's own: nothing of the machine's desktop takes part.
    const QString config = m_dir.filePath(QStringLiteral("bus.conf"));
    QFile f(config);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral(
                "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\""
                " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                "<busconfig><type>session</type><listen>unix:dir=%1</listen>"
                "<auth>EXTERNAL</auth><policy context=\"default\"><allow send_destination=\"*\""
                " eavesdrop=\"true\"/><allow eavesdrop=\"true\"/><allow own=\"*\"/></policy>"
                "</busconfig>\n")
                .arg(m_dir.path())
                .toUtf8());
    f.close();
    m_bus.start(QStringLiteral("dbus-daemon"),
                {QStringLiteral("--config-file=") + config, QStringLiteral("--nofork"),
                 QStringLiteral("--print-address=1")});
    QVERIFY2(m_bus.waitForStarted(), "dbus-daemon (Debian's dbus-daemon package) must run");
    QByteArray address;
    QTRY_VERIFY_WITH_TIMEOUT((address += m_bus.readAllStandardOutput()).contains('\n'), 10000);
    qputenv("DBUS_SESSION_BUS_ADDRESS", address.trimmed());

    QDBusConnection desktop =
        QDBusConnection::connectToBus(QString::fromUtf8(address.trimmed()), QStringLiteral("desk"));
    QVERIFY2(desktop.isConnected(), qPrintable(desktop.lastError().message()));
    QVERIFY(desktop.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &m_server,
                                   QDBusConnection::ExportAllSlots |
                                       QDBusConnection::ExportAllSignals));
    QVERIFY(desktop.registerService(QStringLiteral("org.freedesktop.Notifications")));

    // Default rules whatever this machine's settings say; the API server's grace short.
    QSettings().remove(QStringLiteral("alerts"));
    QSettings().remove(QStringLiteral("images"));
    QSettings().setValue(QStringLiteral("alerts/apiGraceSeconds"), 0);

    // A frozen demo cluster (speed 0: nothing changes but what the test does) with SSH.
    startOwnSim(m_sim, m_dir.path(), true);
    m_services = ownSimServices(m_dir.path());
    QVERIFY(m_services);
    m_alerts = m_services->alerts();
    m_w = std::make_unique<MainWindow>(m_services.get());
    m_w->resize(1500, 900);
    m_w->show();
    // Followed from the bus's signals, never asked with a blocking call: the service leaving
    // and coming back is seen.
    DesktopNotifier *notifier = m_w->alertTray()->notifier();
    QTRY_VERIFY(notifier->available());
    QVERIFY(desktop.unregisterService(QStringLiteral("org.freedesktop.Notifications")));
    QTRY_VERIFY(!notifier->available());
    QVERIFY(desktop.registerService(QStringLiteral("org.freedesktop.Notifications")));
    QTRY_VERIFY(notifier->available());
}

void TestAlerts::cleanupTestCase()
{
    m_w.reset();
    m_services.reset();
    m_sim.terminate();
    m_sim.waitForFinished(30000);
    QSettings().remove(QStringLiteral("alerts"));
    QSettings().remove(QStringLiteral("images"));
    m_bus.terminate();
    m_bus.waitForFinished(10000);
}

QStringList TestAlerts::activeKeys() const
{
    QStringList keys;
    for (const Alert &a : m_alerts->alerts())
        keys << a.problem.key;
    return keys;
}

void TestAlerts::nodeReady(const QString &node, bool ready)
{
    KubeClient *client = m_services->session()->connection()->client();
    QNetworkAccessManager nam;
    QNetworkRequest req =
        client->request(QStringLiteral("/sim/node?name=%1&ready=%2")
                            .arg(node, ready ? QStringLiteral("true") : QStringLiteral("false")));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    std::unique_ptr<QNetworkReply> reply(nam.post(req, QByteArray()));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QVERIFY2(reply->error() == QNetworkReply::NoError, reply->readAll().constData());
}

void TestAlerts::plantedProblemsRaiseOneAlertEach()
{
    // The planted NotReady node, the disk the simulator filled to 92 % (read with df over SSH)
    // and the findings (zombies, idle GPUs) of the cleanup scenario.
    FindingsService *findings = m_services->findings();
    QTRY_VERIFY_WITH_TIMEOUT(activeKeys().contains(QStringLiteral("notready:g4090-10")), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(activeKeys().contains(QStringLiteral("disk:g4090-07:/")), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(findings->hasResult() && !findings->findings().isEmpty(), 60000);
    // Every finding is one alert, and there is no other finding alert.
    const auto findingAlertsMatch = [&] {
        QStringList want, have;
        for (const Finding &f : findings->findings())
            want << QStringLiteral("finding:") + f.key;
        for (const QString &k : activeKeys())
            if (k.startsWith(QLatin1String("finding:")))
                have << k;
        want.sort();
        have.sort();
        return want == have;
    };
    QTRY_VERIFY_WITH_TIMEOUT(findingAlertsMatch(), 20000);
    // Each condition was told once, however often the figures changed since.
    QTRY_COMPARE_WITH_TIMEOUT(m_server.matching(QStringLiteral("g4090-10 is NotReady")).size(), 1,
                              10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_server.matching(QStringLiteral("g4090-07: / is 92 % full")).size(),
                              1, 10000);
    const Notice notReady = m_server.matching(QStringLiteral("g4090-10 is NotReady")).first();
    QCOMPARE(notReady.app, QStringLiteral("gpudesk"));
    QVERIFY2(notReady.summary.startsWith(QLatin1String("Node NotReady")),
             qPrintable(notReady.summary));
    QVERIFY(notReady.summary.contains(QLatin1String("sim-admin")));
    QCOMPARE(notReady.hints.value(QStringLiteral("urgency")).toInt(), 2); // critical
    QCOMPARE(notReady.hints.value(QStringLiteral("desktop-entry")).toString(),
             QStringLiteral("gpudesk"));
    QVERIFY(notReady.actions.contains(QStringLiteral("default")));
    // Findings: one notice each, or one for those that came together when three or more did;
    // every finding told once.
    const auto findingsTold = [&] {
        int told = 0;
        static const QRegularExpression group(QStringLiteral(": (\\d+) at once"));
        for (const Notice &n : m_server.matching(QStringLiteral("New zombie or idle GPUs"))) {
            const QRegularExpressionMatch m = group.match(n.summary);
            told += m.hasMatch() ? m.captured(1).toInt() : 1;
        }
        return told;
    };
    QTRY_COMPARE_WITH_TIMEOUT(findingsTold(), int(findings->findings().size()), 10000);
    // Nothing was told twice: the same condition never makes a second bubble.
    QSet<QString> bodies;
    for (const Notice &n : std::as_const(m_server.received)) {
        QVERIFY2(!bodies.contains(n.body), qPrintable(n.body));
        bodies.insert(n.body);
    }

    // In the window: the Overview lists them with an Acknowledge link each; the tray's menu too.
    auto *overview = qobject_cast<OverviewPage *>(m_w->page(MainWindow::Overview));
    m_w->showPage(MainWindow::Overview);
    QTRY_VERIFY(overview->problemsText().contains(QLatin1String("ack:notready:g4090-10")));
    QStringList menu;
    for (const QAction *a : m_w->alertTray()->menu()->actions())
        menu << a->text();
    QVERIFY2(menu.filter(QStringLiteral("g4090-10 is NotReady")).size() == 1,
             qPrintable(menu.join(u'|')));
    QVERIFY(menu.contains(QStringLiteral("Acknowledge all")));
    save(*m_w, QStringLiteral("alerts-overview"));
}

void TestAlerts::clickShowsTheNode()
{
    // A click on the bubble (the "default" action) brings the window up on the node.
    const Notice n = m_server.matching(QStringLiteral("g4090-07: / is 92 % full")).first();
    m_w->showPage(MainWindow::Workloads);
    emit m_server.ActionInvoked(n.id, QStringLiteral("default"));
    QTRY_COMPARE(m_w->currentPage(), MainWindow::Nodes);
    auto *nodes = qobject_cast<NodesPage *>(m_w->page(MainWindow::Nodes));
    QCOMPARE(nodes->currentNode(), QStringLiteral("g4090-07"));
}

void TestAlerts::allocatedAgainstBusy()
{
    // The Overview's chart: each sample the store's allocation and the nodes' busy cards.
    GpuUseSampler *sampler = m_services->gpuUse();
    QVERIFY(!sampler->history().isEmpty()); // the first sample came with the first sync
    m_services->telemetry()->flush();
    sampler->sampleNow();
    const GpuFigures g = GpuAccounting(m_services->store(), m_services->telemetry()).cluster();
    const GpuUseHistory::Point last = sampler->history().last();
    QCOMPARE(last.total, g.total);
    QCOMPARE(last.allocated, g.allocated);
    QCOMPARE(last.busy, m_services->telemetry()->busyGpus());
    QVERIFY(last.busy > 0 && last.busy < last.allocated); // the demo has idle allocated cards
    auto *overview = qobject_cast<OverviewPage *>(m_w->page(MainWindow::Overview));
    GpuUseChart *chart = overview->gpuUseChart();
    QVERIFY(chart);
    QCOMPARE(chart->allocatedPoints().last().y(), double(last.allocated));
    QCOMPARE(chart->busyPoints().last().y(), double(last.busy));
    QCOMPARE(chart->allocatedPoints().size(), sampler->history().size());
    const QString note = chart->findChild<QLabel *>()->text();
    QVERIFY2(note.contains(QStringLiteral("%1 allocated and idle").arg(last.allocated - last.busy)),
             qPrintable(note));
    m_w->showPage(MainWindow::Overview);
    overview->findChild<QScrollArea *>()->ensureWidgetVisible(chart);
    save(*m_w, QStringLiteral("overview-gpu-use"));
}

void TestAlerts::notReadyAgainIsRaisedAgainAndFlaps()
{
    const QString node = QStringLiteral("g4090-03");
    const QString key = QStringLiteral("notready:") + node;
    const auto told = [&] {
        return m_server.matching(node + QStringLiteral(" is NotReady")).size();
    };
    QCOMPARE(told(), 0);
    nodeReady(node, false);
    QTRY_VERIFY_WITH_TIMEOUT(activeKeys().contains(key), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(told(), 1, 10000);
    nodeReady(node, true);
    QTRY_VERIFY_WITH_TIMEOUT(!activeKeys().contains(key), 10000);
    nodeReady(node, false);
    QTRY_VERIFY_WITH_TIMEOUT(activeKeys().contains(key), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(told(), 2, 10000);
    QVERIFY(!activeKeys().contains(QStringLiteral("flapping:") + node));
    // The third time within the hour it is flapping, and stays so once Ready again.
    nodeReady(node, true);
    QTRY_VERIFY_WITH_TIMEOUT(!activeKeys().contains(key), 10000);
    nodeReady(node, false);
    QTRY_VERIFY_WITH_TIMEOUT(activeKeys().contains(QStringLiteral("flapping:") + node), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(
        m_server.matching(node + QStringLiteral(" went NotReady 3 time(s) in the last 60 minutes"))
            .size(),
        1, 10000);
    nodeReady(node, true);
    QTRY_VERIFY_WITH_TIMEOUT(!activeKeys().contains(key), 10000);
    QVERIFY(activeKeys().contains(QStringLiteral("flapping:") + node));
}

void TestAlerts::acknowledgedStaysQuietUntilItClears()
{
    const QString node = QStringLiteral("g4090-02");
    const QString key = QStringLiteral("notready:") + node;
    const auto told = [&] {
        return m_server.matching(node + QStringLiteral(" is NotReady")).size();
    };
    nodeReady(node, false);
    QTRY_COMPARE_WITH_TIMEOUT(told(), 1, 10000);
    const int open = m_alerts->unacknowledged();

    // Acknowledged from the Overview's link.
    auto *overview = qobject_cast<OverviewPage *>(m_w->page(MainWindow::Overview));
    m_w->showPage(MainWindow::Overview);
    auto *label = overview->findChild<QLabel *>(QStringLiteral("problems"));
    QVERIFY(label);
    QTRY_VERIFY(label->text().contains(QStringLiteral("ack:") + key));
    emit label->linkActivated(QStringLiteral("ack:") + key);
    QCOMPARE(m_alerts->unacknowledged(), open - 1);
    QTRY_VERIFY(!label->text().contains(QStringLiteral("ack:") + key));
    QVERIFY(label->text().contains(QLatin1String("(acknowledged)")));

    // Still NotReady, and the figures change (another node's cordon): nothing told again.
    nodeReady(QStringLiteral("g4090-01"), false);
    QTRY_COMPARE_WITH_TIMEOUT(m_server.matching(QStringLiteral("g4090-01 is NotReady")).size(), 1,
                              10000);
    QCOMPARE(told(), 1);
    QVERIFY(activeKeys().contains(key));
    nodeReady(QStringLiteral("g4090-01"), true);

    // Cleared, then back: raised and told again, not acknowledged.
    nodeReady(node, true);
    QTRY_VERIFY_WITH_TIMEOUT(!activeKeys().contains(key), 10000);
    nodeReady(node, false);
    QTRY_COMPARE_WITH_TIMEOUT(told(), 2, 10000);
    const QList<Alert> alerts = m_alerts->alerts();
    const auto it = std::find_if(alerts.cbegin(), alerts.cend(),
                                 [&](const Alert &a) { return a.problem.key == key; });
    QVERIFY(it != alerts.cend());
    QVERIFY(!it->acknowledged);
    nodeReady(node, true);
}

void TestAlerts::manyNodesAtOnceAreOneNotification()
{
    const QStringList nodes{QStringLiteral("g4090-04"), QStringLiteral("g4090-05"),
                            QStringLiteral("g4090-06"), QStringLiteral("g4090-08")};
    const qsizetype before = m_server.received.size();
    // In one go, as a rack losing its switch: the four come within the alert center's batch on
    // a loaded machine too (one call each took longer than BatchMs under ASan beside others).
    nodeReady(nodes.join(u','), false);
    const auto allNotReady = [&] {
        for (const QString &n : nodes)
            if (!activeKeys().contains(QStringLiteral("notready:") + n))
                return false;
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(allNotReady(), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(m_server.matching(QStringLiteral("Node NotReady: 4 at once")).size(),
                              1, 30000);
    const Notice n = m_server.matching(QStringLiteral("Node NotReady: 4 at once")).first();
    for (const QString &node : nodes)
        QVERIFY2(n.body.contains(node + QStringLiteral(" is NotReady")), qPrintable(n.body));
    // No bubble per node beside the group's (findings about their pods may follow).
    for (qsizetype i = before; i < m_server.received.size(); ++i)
        QVERIFY2(!m_server.received[i].summary.startsWith(QLatin1String("Node NotReady —")),
                 qPrintable(m_server.received[i].body));
    // More alerts than Needs attention lists: the rest are one click away.
    QVERIFY2(activeKeys().size() > 8, qPrintable(activeKeys().join(u' ')));
    auto *overview = qobject_cast<OverviewPage *>(m_w->page(MainWindow::Overview));
    auto *problems = overview->findChild<QLabel *>(QStringLiteral("problems"));
    QVERIFY(problems);
    QTRY_VERIFY(overview->problemsText().contains(QLatin1String("<a href=\"more\">and ")));
    emit problems->linkActivated(QStringLiteral("more"));
    for (const Alert &a : m_alerts->alerts())
        QVERIFY2(a.acknowledged || overview->problemsText().contains(QStringLiteral("ack:") +
                                                                     a.problem.key.toHtmlEscaped()),
                 qPrintable(a.problem.key));
    QVERIFY(!overview->problemsText().contains(QLatin1String("href=\"more\"")));
    for (const QString &node : nodes)
        nodeReady(node, true);
}

void TestAlerts::rulesFromSettings()
{
    // A rule turned off clears its alerts; a threshold raised past the disk's fill clears it.
    AlertRules rules = m_alerts->rules();
    QVERIFY(activeKeys().contains(QStringLiteral("disk:g4090-07:/")));
    rules.diskWarningPercent = 95;
    rules.diskCriticalPercent = 98;
    rules.disabled.insert(QStringLiteral("notready"));
    m_alerts->setRules(rules);
    QVERIFY(!activeKeys().contains(QStringLiteral("disk:g4090-07:/")));
    QVERIFY(!activeKeys().contains(QStringLiteral("notready:g4090-10")));
    QVERIFY(activeKeys().contains(QStringLiteral("DiskPressure:g4090-07")));
    m_alerts->setRules(AlertRules::load());
    QVERIFY(activeKeys().contains(QStringLiteral("disk:g4090-07:/")));
}

void TestAlerts::registryNotAnswering()
{
    // A registry the admin added and nothing answers on: checked at once, one alert, one notice,
    // and a click shows the Images page.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const QString host = QStringLiteral("127.0.0.1:%1").arg(probe.serverPort());
    probe.close(); // nothing listens there now: connections are refused
    QString error;
    QVERIFY2(m_services->images()->addRegistry(host, &error), qPrintable(error));
    QVERIFY(m_services->registryWatch()->watched().contains(host));
    QTRY_VERIFY_WITH_TIMEOUT(activeKeys().contains(QStringLiteral("registry:") + host), 40000);
    const QString said = QStringLiteral("Registry %1 has not answered since").arg(host);
    QTRY_COMPARE_WITH_TIMEOUT(m_server.matching(said).size(), 1, 10000);
    const Notice n = m_server.matching(said).first();
    QVERIFY2(n.summary.startsWith(QLatin1String("Registry not answering")), qPrintable(n.summary));
    QVERIFY2(n.body.contains(QLatin1String("refused")), qPrintable(n.body));
    emit m_server.ActionInvoked(n.id, QStringLiteral("default"));
    QTRY_COMPARE(m_w->currentPage(), MainWindow::Images);
}

// A machine kept for a VIP job (gpudesk's taint) after the job is gone: an alert names both;
// kept for a job that runs, nothing; the taint lifted, it clears.
void TestAlerts::vipReservationOutlivesItsJob()
{
    KubeClient *client = m_services->session()->connection()->client();
    const auto taint = [&](const QString &node, const QByteArray &taints) {
        bool done = false;
        client->patch(u"/api/v1/nodes/"_qs + node, R"({"spec":{"taints":)" + taints + "}}",
                      PatchType::Merge, false, this, [&done](const KubeReply &r) {
                          QVERIFY2(r.ok(), qPrintable(r.error));
                          done = true;
                      });
        QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
    };
    taint(u"g4090-02"_qs,
          R"([{"key":"vip.gpudesk.io/user-alice","value":"gone-job","effect":"NoSchedule"}])");
    taint(u"g4090-05"_qs,
          R"([{"key":"vip.gpudesk.io/user-alice","value":"llama-sft","effect":"NoSchedule"}])");
    const QString gone = u"vipover:g4090-02:user-alice/gone-job"_qs;
    QTRY_VERIFY_WITH_TIMEOUT(activeKeys().contains(gone), 30000);
    for (const Alert &a : m_alerts->alerts())
        if (a.problem.key == gone)
            QCOMPARE(
                a.problem.text,
                u"g4090-02 is still reserved for the VIP job user-alice/gone-job, which is "
                "gone: nothing new lands on it until it is released (Nodes page, its menu)"_qs);
    QVERIFY2(!activeKeys().join(u' ').contains(u"vipover:g4090-05"_qs),
             qPrintable(activeKeys().join(u' ')));
    taint(u"g4090-02"_qs, "null");
    taint(u"g4090-05"_qs, "null");
    QTRY_VERIFY_WITH_TIMEOUT(!activeKeys().contains(gone), 30000);
}

void TestAlerts::apiServerGoneIsAnAlert()
{
    const QString key = QStringLiteral("apiserver:sim-admin");
    QVERIFY(!activeKeys().contains(key));
    const QStringList before = activeKeys();
    m_sim.kill();
    QVERIFY(m_sim.waitForFinished(10000));
    QTRY_VERIFY_WITH_TIMEOUT(activeKeys().contains(key), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(
        m_server.matching(QStringLiteral("The API server of sim-admin has not answered since"))
            .size(),
        1, 10000);
    const Notice n =
        m_server.matching(QStringLiteral("The API server of sim-admin has not answered since"))
            .first();
    QCOMPARE(n.hints.value(QStringLiteral("urgency")).toInt(), 2);
    QVERIFY2(n.summary.startsWith(QLatin1String("API server not answering")),
             qPrintable(n.summary));
    // What was known stands while nothing can be known: stale figures clear nothing.
    for (const QString &k : before)
        QVERIFY2(activeKeys().contains(k), qPrintable(k));
}

QTEST_MAIN(TestAlerts)
#include "tst_alerts.moc"
