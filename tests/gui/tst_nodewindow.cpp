// SPDX-License-Identifier: GPL-3.0-or-later
// The window's node telemetry over SSH from the test simulator: the Nodes page's cards,
// processes and pods, a broken GPU driver flagged, and the prompts for an unknown host key and
// a password inside the window. Screenshots under build/dev/screenshots.
#include "problems.h"
#include "windowfixture.h"

class TestNodeWindow : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void initTestCase() { loadSimConfig(); }
    void brokenDriverIsFlagged();
    void frozenNodeIsUnreachable();
    void nodeTelemetry();
    void hostKeyPromptInWindow();
    void passwordPromptInWindow();

private:
    // A simulator of the test's own with SSH, and the window on it as sim-admin (members in the
    // order they must be destroyed, last first).
    struct OwnSimWindow
    {
        QTemporaryDir dir;
        QProcess sim;
        std::unique_ptr<Services> services;
        std::unique_ptr<MainWindow> w;
        ~OwnSimWindow()
        {
            w.reset();
            services.reset();
            sim.terminate();
            sim.waitForFinished(30000);
        }
    };
    void openOwnSimWindow(OwnSimWindow &own);
};

namespace {

// A control request of the simulator's own, with the admin context's credentials.
void simPost(Services &services, const QString &path)
{
    KubeClient *client = services.session()->connection()->client();
    QNetworkAccessManager nam;
    QNetworkRequest req = client->request(path);
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    std::unique_ptr<QNetworkReply> reply(nam.post(req, QByteArray()));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QVERIFY2(reply->error() == QNetworkReply::NoError, reply->readAll().constData());
}

} // namespace

void TestNodeWindow::openOwnSimWindow(OwnSimWindow &own)
{
    startOwnSim(own.sim, own.dir.path(), true);
    own.services = ownSimServices(own.dir.path());
    QVERIFY(own.services);
    own.w = std::make_unique<MainWindow>(own.services.get());
    own.w->resize(1500, 900);
    own.w->show();
}

void TestNodeWindow::brokenDriverIsFlagged()
{
    // A node whose driver cannot be reached is not a CPU node: the Nodes page flags it with
    // nvidia-smi's words, the Overview counts its GPUs as served by no driver.
    OwnSimWindow own;
    openOwnSimWindow(own);
    if (QTest::currentTestFailed())
        return;
    MainWindow &w = *own.w;
    simPost(*own.services, QStringLiteral("/sim/driver?node=g4090-06&state=failed"));
    QTRY_COMPARE_WITH_TIMEOUT(own.services->telemetry()->gpuState(QStringLiteral("g4090-06")),
                              NvidiaSmiResult<GpuCardSample>::DriverFailed, 20000);
    own.services->telemetry()->flush();
    w.showPage(MainWindow::Nodes);
    auto *nodes = qobject_cast<NodesPage *>(w.page(MainWindow::Nodes));
    QAbstractItemModel *m = nodes->view()->model();
    int row = -1;
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, NodesModel::Name).data().toString() == QLatin1String("g4090-06"))
            row = r;
    QVERIFY(row >= 0);
    const QString status = m->index(row, NodesModel::Status).data().toString();
    QVERIFY2(status.contains(QLatin1String("nvidia-smi fails: NVIDIA-SMI has failed")),
             qPrintable(status));
    QCOMPARE(m->index(row, 0).data(SeverityRole).toInt(), 2);
    save(w, QStringLiteral("page-nodes-driver-failed"));
    w.showPage(MainWindow::Overview);
    auto *card = w.findChild<QWidget *>(QStringLiteral("unservedCard"));
    QTRY_VERIFY(card && card->isVisible());
    QVERIFY(labelTexts(*card).contains(QStringLiteral("8")));
    QVERIFY(labelTexts(*card).join(u'|').contains(QLatin1String("nvidia-smi fails on g4090-06")));
    save(w, QStringLiteral("page-overview-driver-failed"));
}

void TestNodeWindow::frozenNodeIsUnreachable()
{
    // A node that freezes under a running window (a hung kernel, a black-holed link): its SSH
    // session stays open and nothing answers on it. The node and the status bar say it is
    // unreachable, and since when, within seconds; when it thaws it is back without a click.
    OwnSimWindow own;
    openOwnSimWindow(own);
    if (QTest::currentTestFailed())
        return;
    Services &services = *own.services;
    MainWindow &w = *own.w;
    const QString node = QStringLiteral("g4090-05");
    TelemetryStore *telemetry = services.telemetry();
    QTRY_VERIFY_WITH_TIMEOUT(telemetry->isFresh(node), 60000);
    QTRY_VERIFY(services.store()->nodes().size() > 1);
    const int all = int(services.store()->nodes().size());
    auto *statusSsh = w.findChild<QLabel *>(QStringLiteral("sshSummary"));
    QVERIFY(statusSsh);
    QTRY_VERIFY_WITH_TIMEOUT(
        statusSsh->text().startsWith(QStringLiteral("SSH: %1 of %1 nodes answering").arg(all)),
        60000);

    simPost(services, QStringLiteral("/sim/ssh?node=%1&state=frozen").arg(node));
    QElapsedTimer frozen;
    frozen.start();
    // The sample's command times out (5 s), a channel is not opened within 5 s more; a sweep
    // every 2 s and a loaded machine's jitter on top.
    QTRY_COMPARE_WITH_TIMEOUT(telemetry->sshStatus(node).state, SshStatus::Unreachable, 60000);
    qInfo("frozen node unreachable after %lld ms", frozen.elapsed());
    const SshStatus lost = telemetry->sshStatus(node);
    QVERIFY2(lost.message.contains(QLatin1String("stopped answering")), qPrintable(lost.message));
    QVERIFY(lost.since > 0);
    const QString since =
        QDateTime::fromMSecsSinceEpoch(lost.since).toString(QStringLiteral("HH:mm:ss"));
    QTRY_COMPARE(statusSsh->text(), QStringLiteral("SSH: %1 of %2 nodes answering · %3 "
                                                   "unreachable since %4")
                                        .arg(all - 1)
                                        .arg(all)
                                        .arg(node, since));
    w.showPage(MainWindow::Nodes);
    auto *nodes = qobject_cast<NodesPage *>(w.page(MainWindow::Nodes));
    nodes->selectNode(node);
    nodes->telemetryPanel()->refresh();
    // Its row says so too, in red, and "Only nodes with problems" keeps it.
    QAbstractItemModel *rows = nodes->view()->model();
    int row = -1;
    for (int r = 0; r < rows->rowCount(); ++r)
        if (rows->index(r, NodesModel::Name).data().toString() == node)
            row = r;
    QVERIFY(row >= 0);
    QTRY_COMPARE(rows->index(row, NodesModel::Status).data().toString(),
                 QStringLiteral("Ready · unreachable over SSH since %1").arg(since));
    QCOMPARE(rows->index(row, 0).data(SeverityRole).toInt(), 2);
    const QString shown =
        nodes->telemetryPanel()->findChild<QLabel *>(QStringLiteral("sshState"))->text();
    QVERIFY2(shown.startsWith(QStringLiteral("Unreachable since %1.").arg(since)) &&
                 shown.contains(QLatin1String("stopped answering")),
             qPrintable(shown));
    save(w, QStringLiteral("page-node-frozen"));
    // Still unreachable on the tries that follow (its port takes the connection, says
    // nothing): the time it was first lost stays.
    QTRY_VERIFY_WITH_TIMEOUT(
        telemetry->sshStatus(node).message.contains(QLatin1String("sent no SSH greeting")), 60000);
    QCOMPARE(telemetry->sshStatus(node).since, lost.since);

    simPost(services, QStringLiteral("/sim/ssh?node=%1&state=live").arg(node));
    // Back on the next try (the back-off is below a minute), with fresh figures.
    QTRY_COMPARE_WITH_TIMEOUT(telemetry->sshStatus(node).state, SshStatus::Connected, 90000);
    QTRY_VERIFY_WITH_TIMEOUT(
        statusSsh->text().startsWith(QStringLiteral("SSH: %1 of %1 nodes answering").arg(all)),
        60000);
    QVERIFY(!statusSsh->text().contains(QLatin1String("unreachable")));
}

void TestNodeWindow::nodeTelemetry()
{
    // The window as the app runs it: telemetry over SSH to every simulated node.
    auto c = connectTo(QStringLiteral("sim-admin"),
                       qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/ssh_config"));
    QVERIFY(c && c->session);
    TelemetryStore &telemetry = *c->telemetry;
    TelemetrySession &session = *c->session;
    MainWindow w(c->services.get());
    w.resize(1500, 950);
    w.show();
    // Every card of every GPU node reports, twice (CPU use and charts need two samples).
    int cards = 0; // every physical card, whole or in MIG mode (not nvidia.com/gpu then)
    for (const QJsonValue &n : simTruth().value(QStringLiteral("nodes")).toArray())
        cards += n[QStringLiteral("cards")].toArray().size();
    QTRY_COMPARE_WITH_TIMEOUT(telemetry.sampledGpus(), cards, 60000);
    QSignalSpy sweeps(&session, &TelemetrySession::sweepFinished);
    QVERIFY(sweeps.wait(60000));
    telemetry.flush();

    // What needs attention now includes what only the node itself says: the system disk the
    // simulator filled to 92 % (df over SSH), critical, beside its kubelet's DiskPressure.
    QStringList problems;
    for (const Problem &p : Problems::now(*c->store, &telemetry))
        problems
            << QStringLiteral("%1 %2").arg(p.severity == Problem::Critical ? 'C' : 'W').arg(p.text);
    QVERIFY2(problems.filter(QRegularExpression(QStringLiteral("^C g4090-07: / is 92 % full \\(")))
                     .size() == 1,
             qPrintable(problems.join(u'|')));
    QVERIFY2(problems.filter(QStringLiteral("C g4090-07 reports DiskPressure")).size() == 1,
             qPrintable(problems.join(u'|')));

    // Nodes → the node with the planted orphans: its processes, with pods and users.
    w.showPage(MainWindow::Nodes);
    auto *nodes = qobject_cast<NodesPage *>(w.page(MainWindow::Nodes));
    nodes->selectNode(QStringLiteral("g4090-04"));
    NodeTelemetryPanel *panel = nodes->telemetryPanel();
    QCOMPARE(panel->node(), QStringLiteral("g4090-04"));
    panel->refresh();
    QAbstractItemModel *procs = panel->processTable()->model();
    QAbstractItemModelTester procsTester(procs,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester cardsTester(panel->cardTable()->model(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester podsTester(panel->podTable()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(procs->rowCount() >= 3);
    // The simulator runs on (60 simulated seconds a second), so jobs come and go: each row is
    // checked against the store as it is now; the planted orphans stay.
    QStringList pods;
    int attributed = 0;
    for (int r = 0; r < procs->rowCount(); ++r) {
        auto cell = [&](int col) { return procs->index(r, col).data().toString(); };
        pods << cell(NodeProcessesModel::Pod);
        const QString podUid = procs->index(r, 0).data(PodUidRole).toString();
        if (const PodInfo *p = c->store->pod(podUid)) {
            ++attributed;
            QCOMPARE(cell(NodeProcessesModel::Pod), p->ns + u'/' + p->name);
            QCOMPARE(cell(NodeProcessesModel::User), c->store->userOf(p->ns));
            QCOMPARE(cell(NodeProcessesModel::Vc), c->store->vcOf(*p));
        } else if (!podUid.isEmpty()) {
            // A pod gone: the cell says so in red.
            QCOMPARE(procs->index(r, NodeProcessesModel::Pod).data(SeverityRole).toInt(), 2);
        }
    }
    int orphans = 0;
    for (const AttributedProcess &p : telemetry.processes(QStringLiteral("g4090-04")))
        orphans += !p.attributed() && !p.podUid.isEmpty() ? 1 : 0;
    QVERIFY(orphans >= 1); // the pod deleted with its processes left behind
    QVERIFY2(pods.filter(QStringLiteral("no longer exists")).size() == orphans,
             qPrintable(pods.join(u'|')));
    QVERIFY(attributed > 0);
    QStringList flags;
    for (int r = 0; r < panel->cardTable()->model()->rowCount(); ++r)
        flags << panel->cardTable()->model()->index(r, NodeCardsModel::Flags).data().toString();
    int flagged = 0;
    for (const CardState &cs : telemetry.cards(QStringLiteral("g4090-04")))
        flagged += cs.unattributed ? 1 : 0;
    QVERIFY(flagged >= 1);
    QCOMPARE(flags.filter(QStringLiteral("process of no pod")).size(), flagged);
    QCOMPARE(panel->chart()->seriesCount(), 8);
    // Two 2-second slots of history at least: a line, not a dot.
    QTRY_VERIFY_WITH_TIMEOUT((panel->chart()->refresh(), panel->chart()->pointCount() >= 16),
                             60000);
    QVERIFY(panel->findChild<QLabel *>(QStringLiteral("sshState"))
                ->text()
                .startsWith(QLatin1String("Connected over SSH")));
    save(w, QStringLiteral("page-node-telemetry"));
    // Each running pod's own CPU and memory, from its cgroup (v1 cgroupfs on this node).
    const NodeSample *g4 = telemetry.latest(QStringLiteral("g4090-04"));
    QCOMPARE(g4->cgroupLayout, CgroupLayout::V1Cgroupfs);
    QVERIFY(!g4->pods.isEmpty());
    panel->refresh(); // the table as of this sample (it follows samples on a timer)
    QTableView *podView = panel->podTable();
    QAbstractItemModel *podRows = podView->model();
    QCOMPARE(podRows->rowCount(), g4->pods.size());
    for (int r = 0; r < podRows->rowCount(); ++r) {
        const QString podUid = podRows->index(r, 0).data(PodUidRole).toString();
        const auto u = std::find_if(g4->pods.cbegin(), g4->pods.cend(),
                                    [&](const PodUsage &x) { return x.uid == podUid; });
        QVERIFY(u != g4->pods.cend());
        QCOMPARE(podRows->index(r, NodePodsModel::Memory).data().toString(),
                 format::bytes(u->workingSetBytes));
        QVERIFY(u->workingSetBytes > 0);
    }
    qobject_cast<QTabWidget *>(podView->parentWidget()->parentWidget())->setCurrentWidget(podView);
    save(w, QStringLiteral("page-node-pods"));

    // The phantom card is flagged on its own node.
    nodes->selectNode(QStringLiteral("a800-02"));
    panel->refresh();
    QString a800Flags;
    for (int r = 0; r < panel->cardTable()->model()->rowCount(); ++r)
        a800Flags += panel->cardTable()->model()->index(r, NodeCardsModel::Flags).data().toString();
    QVERIFY2(a800Flags.contains(QLatin1String("phantom memory")), qPrintable(a800Flags));

    // Overview: busy beside allocated, the same figure as the store's.
    w.showPage(MainWindow::Overview);
    const QStringList texts = labelTexts(w);
    QVERIFY2(texts.contains(QString::number(telemetry.busyGpus())), qPrintable(texts.join(u'|')));
    QVERIFY(texts.filter(QStringLiteral(" busy (≥ 5 % utilization) on %1 sampled cards").arg(cards))
                .size() == 1);
    // What holds GPUs and should not is counted under the figures, as the Cleanup page lists it.
    FindingsService *findings = c->services->findings();
    findings->refresh();
    QTRY_VERIFY(findings->hasResult());
    auto *link = w.findChild<QLabel *>(QStringLiteral("findingsLink"));
    QTRY_COMPARE(link->isVisible(), !findings->findings().isEmpty());
    save(w, QStringLiteral("page-overview-telemetry"));
    w.showPage(MainWindow::GpuMap);
    save(w, QStringLiteral("page-gpumap-telemetry"));
    QVERIFY(w.findChild<QLabel *>(QStringLiteral("sshSummary"))
                ->text()
                .startsWith(
                    QStringLiteral("SSH: %1 of %1 nodes answering").arg(c->store->nodes().size())));

    // My workload: a pod's own cards over time, from its Usage tab. Lina's dev environment: it
    // runs for as long as the test does, where a job's pod may finish (the simulator runs at 60
    // simulated seconds a second) and leave a history that never gets its second CPU sample.
    QString uid;
    for (const AttributedProcess &p : telemetry.processes(QStringLiteral("g4090-04")))
        if (p.attributed() && p.pod == QLatin1String("dev-lina"))
            uid = p.podUid;
    QVERIFY(!uid.isEmpty());
    const QList<PodCard> podCards = telemetry.cardsOfPods({uid});
    QVERIFY(!podCards.isEmpty());
    QCOMPARE(podCards.first().node, QStringLiteral("g4090-04"));
    auto *viewer = qobject_cast<ObjectViewer *>(w.openObject(ObjectRef::pod(*c->store, uid), 0));
    QVERIFY(viewer && viewer->usageChart());
    viewer->tabs()->setCurrentIndex(viewer->tabs()->count() - 1);
    QCOMPARE(viewer->tabs()->tabText(viewer->tabs()->currentIndex()), QStringLiteral("Usage"));
    viewer->resize(1000, 600);
    QTRY_VERIFY_WITH_TIMEOUT((viewer->usageChart()->refresh(),
                              viewer->usageChart()->seriesCount() == podCards.size() &&
                                  viewer->usageChart()->pointCount() >= 2 * podCards.size()),
                             60000);
    save(*viewer, QStringLiteral("viewer-usage"));
    // Its own CPU and memory, read from its cgroup, against what it requested (dashed line).
    // Copied: the store moves its pods as the simulator changes them, so a pointer into it does
    // not outlive the waits below.
    const PodInfo *live = c->store->pod(uid);
    QVERIFY(live && live->cpuRequestMilli > 0);
    const PodInfo podCopy = *live;
    const PodInfo *pod = &podCopy;
    TelemetryChart *chart = viewer->usageChart();
    chart->selectMetric(TelemetryHistory::Metric::PodCpuCores);
    // A CPU figure is a rate: it needs the simulator's clock to have moved between two sweeps,
    // twice. On a loaded machine that takes a few sweeps; wait on them, saying what was seen.
    const auto cpuPoints = [&] {
        const PodUsageHistory *h = telemetry.podHistory(uid);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        return h ? int(h->cpuSeries(now - 600000, now).size()) : -1;
    };
    for (int i = 0; i < 30 && cpuPoints() < 2; ++i)
        QVERIFY2(
            sweeps.wait(60000),
            qPrintable(
                QStringLiteral("no sweep; %1 CPU points of %2").arg(cpuPoints()).arg(pod->name)));
    QVERIFY2(cpuPoints() >= 2, qPrintable(QString::number(cpuPoints())));
    chart->refresh();
    QCOMPARE(chart->seriesCount(), 2);
    QVERIFY(chart->seriesPoints(0).size() >= 2);
    QCOMPARE(chart->seriesName(0), pod->name);
    QCOMPARE(chart->seriesName(1), QStringLiteral("Requested"));
    QCOMPARE(chart->seriesPoints(1).first().y(), double(pod->cpuRequestMilli) / 1000.0);
    for (const QPointF &p : chart->seriesPoints(0)) // a Guaranteed pod runs within its request
        QVERIFY2(p.y() > 0 && p.y() <= double(pod->cpuRequestMilli) / 1000.0 + 0.01,
                 qPrintable(QString::number(p.y())));
    QTRY_VERIFY(viewer->usageSummary().contains(QStringLiteral("cores requested")));
    QVERIFY2(viewer->usageSummary().contains(QStringLiteral("working set of %1 requested")
                                                 .arg(format::bytes(pod->memoryRequestBytes))),
             qPrintable(viewer->usageSummary()));
    save(*viewer, QStringLiteral("viewer-usage-cpu"));
    chart->selectMetric(TelemetryHistory::Metric::PodMemoryMiB);
    chart->refresh();
    QVERIFY(!chart->seriesPoints(0).isEmpty());
    for (const QPointF &p : chart->seriesPoints(0))
        QVERIFY(p.y() > 0 && p.y() <= double(pod->memoryRequestBytes) / double(1 << 30));
    viewer->close();

    // F5 reconnects to the same context: the nodes' history and how long pods have been idle
    // stay.
    const TelemetryHistory *before = telemetry.history(QStringLiteral("g4090-04"));
    QVERIFY(before);
    const qint64 to = QDateTime::currentMSecsSinceEpoch();
    const qint64 points =
        before->cardSeries(0, TelemetryHistory::Metric::Utilization, to - 600000, to).size();
    QVERIFY(points >= 2);
    const auto activityBefore = telemetry.gpuActivity(uid);
    QVERIFY(activityBefore && activityBefore->firstSampled > 0);
    QTest::keyClick(&w, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(c->services->session()->connection() &&
                                 c->services->session()->connection()->sync() &&
                                 c->services->session()->connection()->sync()->hasSynced(),
                             30000);
    const TelemetryHistory *after = telemetry.history(QStringLiteral("g4090-04"));
    QVERIFY(after);
    QVERIFY(after->cardSeries(0, TelemetryHistory::Metric::Utilization, to - 600000, to).size() >=
            points);
    QCOMPARE(telemetry.gpuActivity(uid)->firstSampled, activityBefore->firstSampled);
    QVERIFY(c->store->node(QStringLiteral("g4090-04"))); // the store kept what it knew meanwhile
}

void TestNodeWindow::hostKeyPromptInWindow()
{
    // The simulator's SSH config, but with an empty known_hosts: every node is unknown.
    const QString sim = qEnvironmentVariable("GPUDESK_SIM_STATE");
    QTemporaryDir dir;
    TelemetryWindow tw;
    openTelemetryWindow(
        dir,
        [&](QString &text) {
            text.replace(sim + QStringLiteral("/ssh/known_hosts"),
                         dir.filePath(QStringLiteral("kh")));
        },
        &tw);
    QVERIFY(tw.w);
    auto &c = tw.c;
    TelemetryStore &telemetry = *tw.c->telemetry;
    TelemetrySession &session = *tw.c->session;
    MainWindow &w = *tw.w;
    QTRY_COMPARE_WITH_TIMEOUT(telemetry.sshStatus(QStringLiteral("a800-01")).state,
                              SshStatus::HostKeyUnknown, 60000);
    telemetry.flush();
    w.showPage(MainWindow::Nodes);
    auto *nodes = qobject_cast<NodesPage *>(w.page(MainWindow::Nodes));
    nodes->selectNode(QStringLiteral("a800-01"));
    NodeTelemetryPanel *panel = nodes->telemetryPanel();
    panel->refresh();
    const QString fp = telemetry.sshStatus(QStringLiteral("a800-01")).fingerprint;
    QVERIFY(fp.startsWith(QLatin1String("SHA256:")));
    QVERIFY(panel->findChild<QLabel *>(QStringLiteral("sshState"))->text().contains(fp));
    QPushButton *once = nullptr;
    for (QPushButton *b : panel->findChildren<QPushButton *>())
        if (b->text() == QLatin1String("Trust once"))
            once = b;
    QVERIFY(once && once->isVisible());
    // The status bar's summary follows the sessions' states as they are announced: on a loaded
    // machine (a sanitizer build, CI) that takes longer than QTRY's default 5 s.
    QTRY_VERIFY2_WITH_TIMEOUT(
        w.findChild<QLabel *>(QStringLiteral("sshSummary"))
            ->text()
            .contains(QLatin1String("waiting for you")),
        qPrintable(w.findChild<QLabel *>(QStringLiteral("sshSummary"))->text()), 20000);
    save(w, QStringLiteral("page-node-hostkey"));
    // Nothing was sampled before the user said so.
    QVERIFY(!telemetry.latest(QStringLiteral("a800-01")));
    once->click();
    QTRY_VERIFY_WITH_TIMEOUT(telemetry.isFresh(QStringLiteral("a800-01")), 60000);
    QCOMPARE(telemetry.cards(QStringLiteral("a800-01")).size(), 8);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("kh")))); // once: nothing written
    QVERIFY(!telemetry.latest(QStringLiteral("a800-02")));       // the others still wait

    // The rest in one list: only the ticked ones are trusted.
    QDialog *review = w.reviewHostKeys();
    QVERIFY(review);
    auto *table = review->findChild<QTableWidget *>(QStringLiteral("hostKeyTable"));
    QCOMPARE(table->rowCount(), c->store->nodes().size() - 1);
    int a800 = -1;
    for (int r = 0; r < table->rowCount(); ++r) {
        QCOMPARE(table->item(r, 3)->text(),
                 telemetry.sshStatus(table->item(r, 0)->text()).fingerprint);
        if (table->item(r, 0)->text() == QLatin1String("a800-02"))
            a800 = r;
    }
    QVERIFY(a800 >= 0);
    table->item(a800, 0)->setCheckState(Qt::Checked);
    save(*review, QStringLiteral("dialog-hostkeys"));
    review->findChild<QPushButton *>(QStringLiteral("trustTickedAlways"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(telemetry.isFresh(QStringLiteral("a800-02")), 60000);
    QFile kh(dir.filePath(QStringLiteral("kh")));
    QVERIFY(kh.open(QIODevice::ReadOnly));
    QCOMPARE(kh.readAll().count('\n'), 1);                  // a800-02's key, remembered
    QVERIFY(!telemetry.latest(QStringLiteral("g4090-01"))); // not ticked: still waiting
    QCOMPARE(telemetry.sshStatus(QStringLiteral("g4090-01")).state, SshStatus::HostKeyUnknown);
    session.stop();
}

void TestNodeWindow::passwordPromptInWindow()
{
    // a800-01 with a key it does not accept: as OpenSSH, gpudesk then asks for the password
    // (the simulator's root password); a wrong one is asked for again, saying it was refused.
    const QString sim = qEnvironmentVariable("GPUDESK_SIM_STATE");
    QTemporaryDir dir;
    const QString stranger = dir.filePath(QStringLiteral("stranger"));
    QProcess keygen;
    keygen.start(QStringLiteral("ssh-keygen"),
                 {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                  QStringLiteral("-N"), QString(), QStringLiteral("-f"), stranger});
    QVERIFY(keygen.waitForFinished(20000) && keygen.exitCode() == 0);
    QFile passwordFile(sim + QStringLiteral("/ssh/password"));
    QVERIFY(passwordFile.open(QIODevice::ReadOnly));
    const QString password = QString::fromUtf8(passwordFile.readAll().trimmed());
    const QRegularExpression block(
        QStringLiteral("(Host a800-01\\n(?:[ \\t]+.*\\n)*?[ \\t]+IdentityFile )"
                       "[^\\n]*"));
    bool edited = false;
    TelemetryWindow tw;
    openTelemetryWindow(
        dir,
        [&](QString &text) {
            edited = block.match(text).hasMatch();
            text.replace(block, QStringLiteral("\\1") + stranger);
        },
        &tw);
    QVERIFY(tw.w && edited);
    TelemetryStore &telemetry = *tw.c->telemetry;
    TelemetrySession &session = *tw.c->session;
    MainWindow &w = *tw.w;
    const QString node = QStringLiteral("a800-01");
    QTRY_COMPARE_WITH_TIMEOUT(telemetry.sshStatus(node).state, SshStatus::NeedsSecret, 60000);
    const SshStatus asked = telemetry.sshStatus(node);
    QVERIFY2(asked.secretFor.startsWith(QLatin1String("password:root@127.0.0.1:")),
             qPrintable(asked.secretFor));
    QVERIFY2(asked.tried.join(u' ').contains(QLatin1String("stranger (refused)")),
             qPrintable(asked.tried.join(u' ')));
    QVERIFY(!asked.secretRefused);
    w.showPage(MainWindow::Nodes);
    auto *nodes = qobject_cast<NodesPage *>(w.page(MainWindow::Nodes));
    nodes->selectNode(node);
    NodeTelemetryPanel *panel = nodes->telemetryPanel();
    panel->refresh();
    QPushButton *enter = nullptr;
    for (QPushButton *b : panel->findChildren<QPushButton *>())
        if (b->text() == QStringLiteral("Enter password…"))
            enter = b;
    QVERIFY(enter && enter->isVisible());

    // Answers the modal dialog the button opens (its own event loop runs this timer).
    auto answer = [&](const QString &typed, QString *prompt, const QString &screenshot) {
        QTimer::singleShot(0, &w, [&, typed, prompt, screenshot] {
            auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            *prompt = dialog->findChild<QLabel *>(QStringLiteral("secretPrompt"))->text();
            dialog->findChild<QLineEdit *>()->setText(typed);
            if (!screenshot.isEmpty())
                save(*dialog, screenshot);
            dialog->accept();
        });
        enter->click();
    };
    QString prompt;
    answer(QStringLiteral("hunter2"), &prompt, QString());
    QVERIFY2(prompt.startsWith(QLatin1String("Password for root@127.0.0.1:")), qPrintable(prompt));
    QTRY_VERIFY_WITH_TIMEOUT(telemetry.sshStatus(node).secretRefused, 60000);
    QVERIFY(telemetry.sshStatus(node).message.endsWith(QLatin1String("refused the password.")));
    panel->refresh();
    QVERIFY(enter->isVisible());
    answer(password, &prompt, QStringLiteral("dialog-password-refused"));
    QVERIFY2(prompt.contains(QLatin1String("refused the password.\nPassword for root@127.0.0.1:")),
             qPrintable(prompt));
    QTRY_VERIFY_WITH_TIMEOUT(telemetry.isFresh(node), 60000);
    QCOMPARE(telemetry.sshStatus(node).state, SshStatus::Connected);
    QCOMPARE(telemetry.cards(node).size(), 8);
    session.stop();
}

QTEST_MAIN(TestNodeWindow)
#include "tst_nodewindow.moc"
