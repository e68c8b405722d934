// SPDX-License-Identifier: GPL-3.0-or-later
// The window offscreen, filled from the test simulator: every page, the object viewer (logs,
// events, YAML), a researcher's restricted view, the connection banners, and Chinese.
// Screenshots are written under build/dev/screenshots for a person to look at.
#include "branchdelegate.h"
#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "eventspage.h"
#include "findingsservice.h"
#include "flattreeview.h"
#include "format.h"
#include "gpuaccounting.h"
#include "gpumappage.h"
#include "gpuplacement.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "logmodel.h"
#include "logview.h"
#include "mainwindow.h"
#include "nodesmodel.h"
#include "nodespage.h"
#include "nodetelemetrypanel.h"
#include "objectviewer.h"
#include "services.h"
#include "sshpool.h"
#include "telemetrychart.h"
#include "telemetrysession.h"
#include "telemetrystore.h"
#include "workloadsmodel.h"
#include "workloadspage.h"
#include "workloadstable.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTranslator>
#include <QTreeView>

#include <functional>

using namespace gpudesk;

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void pagesFromSimulator();
    void objectViewer();
    void researcherSeesHerScope();
    void banners();
    void staleWhenServerGoesAway();
    void failedOrStuckSayWhy();
    void brokenDriverIsFlagged();
    void chinese();
    void nodeTelemetry();
    void hostKeyPromptInWindow();
    void passwordPromptInWindow();

private:
    // The services as the app composes them, connected to a context of the simulator's
    // kubeconfig (with node telemetry over `sshConfig` when given), synced.
    struct Connected
    {
        std::unique_ptr<Services> services;
        ClusterStore *store = nullptr;
        ConnectionState *state = nullptr;
        TelemetryStore *telemetry = nullptr;
        KubeClient *client = nullptr; // the connection's, for the test's own requests
        TelemetrySession *session = nullptr;
    };
    std::unique_ptr<Connected> connect(const QString &context, const QString &sshConfig = {});
    // The window as sim-admin with node telemetry over the simulator's SSH config, changed by
    // `edit` and written into `dir` (members in the order they must be destroyed, last first).
    struct TelemetryWindow
    {
        std::unique_ptr<Connected> c;
        std::unique_ptr<MainWindow> w;
    };
    void openTelemetryWindow(const QTemporaryDir &dir, const std::function<void(QString &)> &edit,
                             TelemetryWindow *out);
    // /sim/truth, with the admin's token (a researcher may not read it).
    QJsonObject simTruth()
    {
        QString error;
        const auto ep = m_config->endpoint(QStringLiteral("sim-admin"), &error);
        KubeClient admin(*ep);
        QJsonObject out;
        bool done = false;
        admin.get(QStringLiteral("/sim/truth"), &admin, [&](const KubeReply &r) {
            out = QJsonDocument::fromJson(r.body).object();
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 10000))
            return {};
        return out;
    }
    static QStringList labelTexts(const QWidget &w)
    {
        QStringList out;
        for (const auto *l : w.findChildren<QLabel *>())
            if (l->isVisibleTo(&w))
                out << l->text();
        return out;
    }
    static void save(QWidget &w, const QString &name)
    {
        QDir().mkpath(QStringLiteral("screenshots"));
        QCoreApplication::sendPostedEvents(); // pending layout requests, so labels are sized
        QVERIFY(w.grab().save(QStringLiteral("screenshots/") + name + QStringLiteral(".png")));
    }

    // A frozen demo simulator of the test's own (no SSH), ready when this returns.
    static void startOwnSim(QProcess &sim, const QString &dir, bool ssh = false)
    {
        sim.setProgram(QStringLiteral(GPUDESK_SIM_BIN));
        QStringList args{QStringLiteral("--state-dir"), dir, QStringLiteral("--speed"),
                         QStringLiteral("0")};
        if (!ssh)
            args << QStringLiteral("--no-ssh");
        sim.setArguments(args);
        sim.setProcessChannelMode(QProcess::MergedChannels);
        sim.start();
        QVERIFY(sim.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += sim.readAll()).contains("gpudesk-sim: ready"), 60000);
    }

    std::optional<KubeConfig> m_config;
};

void TestMainWindow::initTestCase()
{
    const QString dir = qEnvironmentVariable("GPUDESK_SIM_STATE");
    QVERIFY2(!dir.isEmpty(), "GPUDESK_SIM_STATE names the simulator's state directory");
    QString error;
    m_config = KubeConfig::load({dir + QStringLiteral("/kubeconfig")}, &error);
    QVERIFY2(m_config, qPrintable(error));
}

std::unique_ptr<TestMainWindow::Connected> TestMainWindow::connect(const QString &context,
                                                                   const QString &sshConfig)
{
    auto c = std::make_unique<Connected>();
    c->services = std::make_unique<Services>(
        QStringList{qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/kubeconfig")});
    ClusterSession *session = c->services->session();
    if (!sshConfig.isEmpty())
        session->enableTelemetry(sshConfig);
    QString error;
    if (!session->loadConfig(&error))
        return nullptr;
    session->connectTo(context);
    if (!session->connection() || !session->connection()->sync())
        return nullptr;
    c->store = c->services->store();
    c->state = c->services->state();
    c->telemetry = c->services->telemetry();
    c->client = session->connection()->client();
    c->session = session->connection()->telemetry();
    ClusterSync *sync = session->connection()->sync();
    QSignalSpy synced(sync, &ClusterSync::synced);
    if (!sync->hasSynced() && !synced.wait(30000))
        return nullptr;
    c->store->flush();
    return c;
}

void TestMainWindow::pagesFromSimulator()
{
    auto c = connect(QStringLiteral("sim-admin"));
    QVERIFY(c);
    MainWindow w(c->services.get());
    w.setContexts({QStringLiteral("sim-admin"), QStringLiteral("sim-alice")},
                  QStringLiteral("sim-admin"));
    w.resize(1500, 900);
    w.show();

    // Overview: the figures of the store, which tst_clustersync checks against the truth.
    const GpuTotals t = c->store->totals();
    w.showPage(MainWindow::Overview);
    QStringList texts = labelTexts(w);
    QVERIFY2(texts.contains(QString::number(t.gpus.total)), qPrintable(texts.join(u'|')));
    QVERIFY(texts.contains(QString::number(t.gpus.allocated)));
    QVERIFY(texts.contains(QString::number(t.gpus.free)));
    QVERIFY(texts.contains(QStringLiteral("NVIDIA A800-SXM4-80GB")));
    save(w, QStringLiteral("page-overview"));

    w.showPage(MainWindow::Nodes);
    auto *nodes = static_cast<NodesPage *>(w.page(MainWindow::Nodes));
    QAbstractItemModelTester nodesTester(nodes->view()->model(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(nodes->view()->model()->rowCount(), c->store->nodes().size());
    nodes->selectNode(QStringLiteral("g4090-07"));
    QVERIFY(labelTexts(w).join(u'|').contains(QLatin1String("DiskPressure")));
    // The node list keeps most of the height; the live panel below it the rest.
    QCoreApplication::processEvents();
    QVERIFY2(nodes->splitter()->sizes().value(0) >= nodes->splitter()->sizes().value(1),
             qPrintable(QStringLiteral("%1 / %2")
                            .arg(nodes->splitter()->sizes().value(0))
                            .arg(nodes->splitter()->sizes().value(1))));
    save(w, QStringLiteral("page-nodes"));

    w.showPage(MainWindow::GpuMap);
    const QString fragmentation = FreeGpus::of(*c->store, nullptr).sentence();
    QVERIFY(fragmentation.contains(QString::number(t.gpus.free)));
    QVERIFY(labelTexts(w).contains(fragmentation));
    save(w, QStringLiteral("page-gpumap"));

    w.showPage(MainWindow::Workloads);
    auto *workloads = static_cast<WorkloadsPage *>(w.page(MainWindow::Workloads));
    QAbstractItemModelTester workloadsTester(
        workloads->view()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(workloads->view()->model()->rowCount() > 30);
    save(w, QStringLiteral("page-workloads"));
    // A job opens with Right (its pods follow it, indented) and closes with a click on its arrow.
    FlatTreeView *view = workloads->view();
    WorkloadsTable *table = workloads->table();
    int jobRow = 0;
    while (jobRow < table->rowCount() &&
           !(table->isExpandable(jobRow) &&
             table->mapToSource(table->index(jobRow, 0))
                     .model()
                     ->rowCount(table->mapToSource(table->index(jobRow, 0))) >= 2))
        ++jobRow;
    QVERIFY(jobRow < table->rowCount());
    const QModelIndex job = table->mapToSource(table->index(jobRow, 0));
    const int podCount = job.model()->rowCount(job);
    view->setFocus();
    view->setCurrentIndex(table->index(jobRow, 0));
    QTest::keyClick(view, Qt::Key_Right);
    QVERIFY(table->isExpanded(jobRow));
    for (int c = 1; c <= podCount; ++c) {
        QCOMPARE(table->index(jobRow + c, 0).data(DepthRole).toInt(), 1);
        QVERIFY(table->index(jobRow + c, 0).data(IsPodRole).toBool());
    }
    save(w, QStringLiteral("page-workloads-expanded"));
    view->scrollTo(table->index(jobRow, 0));
    const QRect arrow =
        BranchDelegate::arrowRect(view->visualRect(table->index(jobRow, 0)), 0, view);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, arrow.center());
    QVERIFY(!table->isExpanded(jobRow));
    QCOMPARE(table->index(jobRow + 1, 0).data(DepthRole).toInt(), 0);
    // A pod no node can hold (9 GPUs) shows the scheduler's reason, live.
    QNetworkAccessManager nam;
    QNetworkRequest req = c->client->request(QStringLiteral("/api/v1/namespaces/user-bob/pods"));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *created = nam.post(
        req, QByteArrayLiteral(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"too-big"},)"
                               R"("spec":{"containers":[{"name":"main","image":"pytorch:2.1",)"
                               R"("resources":{"requests":{"nvidia.com/gpu":"9"}}}]}})"));
    QSignalSpy done(created, &QNetworkReply::finished);
    QVERIFY(done.wait(10000));
    QCOMPARE(created->error(), QNetworkReply::NoError);
    workloads->table()->setText(QStringLiteral("too-big"));
    QTRY_COMPARE_WITH_TIMEOUT(workloads->view()->model()->rowCount(), 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(workloads->view()
                                 ->model()
                                 ->index(0, WorkloadsModel::Reason)
                                 .data()
                                 .toString()
                                 .contains(QLatin1String("Insufficient nvidia.com/gpu")),
                             10000);
    created->deleteLater();
    nam.sendCustomRequest(
        c->client->request(QStringLiteral("/api/v1/namespaces/user-bob/pods/too-big")), "DELETE");
    workloads->table()->setText({});
    workloads->setStatusClass(WorkloadsTable::Problem);
    QVERIFY(workloads->view()->model()->rowCount() >= 3); // the planted failures
    save(w, QStringLiteral("page-workloads-problems"));
    workloads->setStatusClass(WorkloadsTable::AnyStatus);

    w.showPage(MainWindow::Events);
    auto *events = static_cast<EventsPage *>(w.page(MainWindow::Events));
    // The simulator lives on: events that arrived since the last coalesced update are applied
    // to the store but not yet announced. Announce them, then the page shows every one.
    c->store->flush();
    QCOMPARE(events->view()->model()->rowCount(), c->store->events().size());
    save(w, QStringLiteral("page-events"));
}

void TestMainWindow::objectViewer()
{
    auto c = connect(QStringLiteral("sim-admin"));
    QVERIFY(c);
    QString uid;
    for (const auto &p : c->store->pods())
        if (p.name == QLatin1String("dev-alice"))
            uid = p.uid;
    QVERIFY(!uid.isEmpty());
    ObjectViewer viewer(c->services.get(), ObjectRef::pod(*c->store, uid));
    viewer.setAttribute(Qt::WA_DeleteOnClose, false);
    QSignalSpy yaml(&viewer, &ObjectViewer::yamlLoaded);
    viewer.resize(1200, 700);
    viewer.show();
    QVERIFY(yaml.wait(10000));
    const QString text = viewer.yamlView()->toPlainText();
    QVERIFY(text.contains(QLatin1String("kind: Pod")));
    QVERIFY(text.contains(QLatin1String("name: dev-alice")));
    QVERIFY(!text.contains(QLatin1String("managedFields")));
    LogModel *log = viewer.logView()->model();
    QTRY_VERIFY_WITH_TIMEOUT(log->rowCount() > 10, 10000);
    viewer.showTab(ObjectViewer::LogsTab);
    save(viewer, QStringLiteral("viewer-logs"));

    // A line wider than the view: the column grows so that it scrolls sideways. Wrapped, that
    // line's row grows instead; unwrapped again, it is one line high.
    QTableView *table = viewer.logView()->view();
    log->append({LogLine{"2026-11-22T10:00:00.000000000Z", QByteArray("loss 0.25 ").repeated(60)}});
    log->flush();
    const int wide = log->rowCount() - 1;
    QVERIFY(table->columnWidth(0) > table->viewport()->width());
    const int oneLine = table->rowHeight(wide);
    QCheckBox *wrap = nullptr;
    for (QCheckBox *box : viewer.findChildren<QCheckBox *>())
        if (box->text() == QLatin1String("Wrap"))
            wrap = box;
    QVERIFY(wrap);
    wrap->setChecked(true);
    table->scrollTo(log->index(wide));
    QTRY_VERIFY(table->rowHeight(wide) > 2 * oneLine);
    QCOMPARE(table->columnWidth(0), table->viewport()->width());
    wrap->setChecked(false);
    QCOMPARE(table->rowHeight(wide), oneLine);
    viewer.showTab(ObjectViewer::EventsTab);
    save(viewer, QStringLiteral("viewer-events"));
    viewer.showTab(ObjectViewer::YamlTab);
    save(viewer, QStringLiteral("viewer-yaml"));
    // A window of its own closes as windows do.
    viewer.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&viewer));
    QTest::keyClick(&viewer, Qt::Key_W, Qt::ControlModifier);
    QVERIFY(!viewer.isVisible());
    viewer.show();
    viewer.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&viewer));
    QTest::keyClick(viewer.logView()->view(), Qt::Key_Escape);
    QVERIFY(!viewer.isVisible());

    // A pod whose log says it failed: the error lines are marked, counted, and F8 goes to them.
    QString crashing;
    for (const auto &p : c->store->pods())
        if (p.name == QLatin1String("mmdet-train"))
            crashing = p.uid;
    QVERIFY(!crashing.isEmpty());
    ObjectViewer failed(c->services.get(), ObjectRef::pod(*c->store, crashing));
    failed.setAttribute(Qt::WA_DeleteOnClose, false);
    failed.resize(1200, 600);
    failed.show();
    LogModel *flog = failed.logView()->model();
    QTRY_VERIFY_WITH_TIMEOUT(!flog->errorLines().isEmpty(), 10000);
    const int firstError = flog->errorLines().first();
    QVERIFY2(LogModel::isErrorLine(flog->lineText(firstError).toUtf8()),
             qPrintable(flog->lineText(firstError)));
    auto *count = failed.findChild<QLabel *>(QStringLiteral("errorCount"));
    QTRY_VERIFY(count->text().endsWith(QLatin1String("error line(s)")) ||
                count->text().endsWith(QLatin1String("error line")) ||
                count->text().endsWith(QLatin1String("error lines")));
    failed.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&failed));
    failed.logView()->view()->setFocus();
    failed.logView()->view()->setCurrentIndex({});
    QTest::keyClick(failed.logView()->view(), Qt::Key_F8);
    QTRY_COMPARE(failed.logView()->view()->currentIndex().row(), firstError);
    QCOMPARE(flog->index(firstError).data(SeverityRole).toInt(), 2);
    save(failed, QStringLiteral("viewer-logs-errors"));
}

void TestMainWindow::researcherSeesHerScope()
{
    // sim-alice may list nodes and queues, and only her own namespace's pods. With the nodes'
    // telemetry she sees which cards run processes, not whose: nothing may be called free, her
    // allocation is a lower bound, and a process of a pod she cannot see is "not visible".
    auto c = connect(QStringLiteral("sim-alice"),
                     qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/ssh_config"));
    QVERIFY(c && c->session);
    for (const auto &p : c->store->pods())
        QCOMPARE(p.ns, QStringLiteral("user-alice"));
    QVERIFY(!c->store->podsComplete());
    MainWindow w(c->services.get());
    w.resize(1400, 860);
    w.show();
    int cards = 0;
    for (const NodeInfo &n : c->store->nodes())
        cards += n.gpuCapacity;
    QTRY_COMPARE_WITH_TIMEOUT(c->telemetry->sampledGpus(), cards, 20000);
    c->telemetry->flush();
    const QJsonObject truth = simTruth();
    QVERIFY(!truth.isEmpty());
    QHash<QString, int> truthAllocated, truthFree;
    for (const QJsonValue &n : truth[QStringLiteral("nodes")].toArray()) {
        const QJsonObject g = n[QStringLiteral("gpus")].toObject();
        truthAllocated[n[QStringLiteral("name")].toString()] =
            g[QStringLiteral("allocated")].toInt();
        truthFree[n[QStringLiteral("name")].toString()] = g[QStringLiteral("free")].toInt();
    }

    w.showPage(MainWindow::Overview);
    const GpuFigures g = GpuAccounting(c->store, c->telemetry).cluster();
    const int allocatedTruth = truth[QStringLiteral("gpus")][QStringLiteral("allocated")].toInt();
    QVERIFY(!g.exact && !g.free);
    QVERIFY2(
        g.allocated > g.visible && g.allocated <= allocatedTruth,
        qPrintable(QStringLiteral("%1 %2 %3").arg(g.allocated).arg(g.visible).arg(allocatedTruth)));
    const QString all = labelTexts(w).join(u'|');
    QVERIFY2(all.contains(QLatin1String("may list pods only in namespace user-alice")),
             qPrintable(all));
    QVERIFY(all.contains(QLatin1String("GPUs allocated (at least)")));
    // The figures shown (the simulator lives on, so read from the labels): a lower bound
    // between hers and the truth, an upper bound on free.
    const auto shown = [&](const QString &prefix) {
        for (const QString &t : labelTexts(w))
            if (t.startsWith(prefix))
                return t.mid(prefix.size()).toInt();
        return -1;
    };
    const int atLeast = shown(QStringLiteral("≥ "));
    QVERIFY2(atLeast >= g.visible && atLeast <= allocatedTruth, qPrintable(all));
    QVERIFY(shown(QStringLiteral("≤ ")) >= 0);
    QVERIFY(all.contains(QStringLiteral("%1 yours").arg(g.visible)));
    QVERIFY(!all.contains(QLatin1String("Top users by GPUs allocated")));
    save(w, QStringLiteral("page-overview-alice"));

    // Nodes: a node where only other users' pods run counts their cards, not 0.
    w.showPage(MainWindow::Nodes);
    auto *nodes = qobject_cast<NodesPage *>(w.page(MainWindow::Nodes));
    QAbstractItemModel *m = nodes->view()->model();
    int othersOnly = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
        const QString name = m->index(r, NodesModel::Name).data().toString();
        const GpuFigures f = GpuAccounting(c->store, c->telemetry).node(name);
        if (f.total == 0)
            continue;
        QCOMPARE(m->index(r, NodesModel::Gpus).data().toString(),
                 QStringLiteral("≥ %1 / %2").arg(f.allocated).arg(f.total));
        QVERIFY(f.allocated <= truthAllocated.value(name));
        QVERIFY(f.freeAtMost >= truthFree.value(name));
        if (f.visible == 0 && f.allocated > 0)
            ++othersOnly;
    }
    QVERIFY(othersOnly > 0);
    // Processes of pods she cannot see, on a node where only others run.
    nodes->selectNode(QStringLiteral("a800-02"));
    nodes->telemetryPanel()->refresh();
    QStringList podCells;
    QTableWidget *procs = nodes->telemetryPanel()->processTable();
    for (int r = 0; r < procs->rowCount(); ++r)
        podCells << procs->item(r, 3)->text();
    QVERIFY(!podCells.isEmpty());
    QVERIFY2(podCells.filter(QStringLiteral("pod not visible to you")).size() == podCells.size(),
             qPrintable(podCells.join(u'|')));
    QVERIFY(podCells.filter(QStringLiteral("no longer exists")).isEmpty());
    save(w, QStringLiteral("page-nodes-alice"));

    // GPU map: no cell is free; the sentence says what cannot be known.
    w.showPage(MainWindow::GpuMap);
    auto *map = qobject_cast<GpuMapPage *>(w.page(MainWindow::GpuMap));
    QVERIFY2(map->summary().contains(QLatin1String("which GPUs are free is not known")),
             qPrintable(map->summary()));
    int hidden = 0;
    for (const NodeCards &n : GpuPlacement::all(*c->store, c->telemetry))
        for (const CardCell &cell : n.cells) {
            QVERIFY(cell.state != CardCell::Free);
            hidden += cell.state == CardCell::InUseHidden ? 1 : 0;
        }
    QVERIFY(hidden > 0);
    save(w, QStringLiteral("page-gpumap-alice"));
}

void TestMainWindow::banners()
{
    Services services({});
    ConnectionState &state = *services.state();
    MainWindow w(&services);
    w.show();
    state.setConnecting(QStringLiteral("sim-admin"), QStringLiteral("https://127.0.0.1:6443"),
                        true);
    state.setFailed(QStringLiteral("sim-admin"), QStringLiteral("Unauthorized"));
    QVERIFY(labelTexts(w).contains(QStringLiteral("Cannot connect to sim-admin: Unauthorized")));
    state.setConnecting(QStringLiteral("sim-admin"), QStringLiteral("https://127.0.0.1:6443"),
                        false);
    QVERIFY(labelTexts(w).contains(QStringLiteral(
        "TLS verification is off for this context (insecure-skip-tls-verify): gpudesk cannot "
        "tell this server from an impostor.")));
    save(w, QStringLiteral("mainwindow-insecure"));
}

void TestMainWindow::staleWhenServerGoesAway()
{
    // A simulator of this test's own, stopped under the running window and started again.
    QTemporaryDir dir;
    QProcess sim;
    startOwnSim(sim, dir.path());
    Services services({dir.filePath(QStringLiteral("kubeconfig"))});
    QString error;
    QVERIFY(services.session()->loadConfig(&error));
    services.session()->connectTo(QStringLiteral("sim-admin"));
    MainWindow w(&services);
    w.resize(1300, 800);
    w.show();
    QSignalSpy synced(services.session()->connection()->sync(), &ClusterSync::synced);
    QVERIFY(synced.wait(30000));
    QTRY_VERIFY(!services.state()->isStale());
    auto *state = w.findChild<QLabel *>(QStringLiteral("connectionState"));
    QVERIFY(state);
    QTRY_VERIFY(state->text().startsWith(QLatin1String("Connected to")));
    const int gpus = services.store()->totals().gpus.total;

    sim.terminate();
    QVERIFY(sim.waitForFinished(30000));
    // Within seconds every part of the window says the same: not current, since when, why.
    QTRY_VERIFY_WITH_TIMEOUT(services.state()->isStale(), 10000);
    const QString since = services.state()->staleSince().toLocalTime().toString(u"HH:mm:ss");
    QCOMPARE(state->text(), QStringLiteral("Not current since %1").arg(since));
    QVERIFY(!labelTexts(w).join(u'|').contains(QLatin1String("Connected to")));
    const QString banner = labelTexts(w).filter(QStringLiteral("Not current since")).value(0);
    QVERIFY2(banner.contains(since) && banner.contains(QLatin1String("cannot be watched")),
             qPrintable(banner));
    QVERIFY(w.page(MainWindow::Overview)->parentWidget()->graphicsEffect());
    // The figures stay, greyed, as of when they were current.
    QCOMPARE(services.store()->totals().gpus.total, gpus);
    w.showPage(MainWindow::Overview);
    save(w, QStringLiteral("mainwindow-stale"));

    startOwnSim(sim, dir.path());
    QTRY_VERIFY_WITH_TIMEOUT(!services.state()->isStale(), 60000);
    QTRY_VERIFY(state->text().startsWith(QLatin1String("Connected to")));
    QVERIFY(!w.page(MainWindow::Overview)->parentWidget()->graphicsEffect());
    QVERIFY(labelTexts(w).filter(QStringLiteral("Not current")).isEmpty());
    sim.terminate();
    QVERIFY(sim.waitForFinished(30000));
}

void TestMainWindow::failedOrStuckSayWhy()
{
    // The frozen demo: "failed or stuck" lists each planted case that waits for good, with why:
    // the job held by its full queue (the pod group's condition), the pod stuck Terminating, the
    // job too big for any one node (the split that fits), none "Created" or without a reason.
    QTemporaryDir dir;
    QProcess sim;
    startOwnSim(sim, dir.path());
    Services services({dir.filePath(QStringLiteral("kubeconfig"))});
    QString error;
    QVERIFY(services.session()->loadConfig(&error));
    services.session()->connectTo(QStringLiteral("sim-admin"));
    MainWindow w(&services);
    w.resize(1500, 900);
    w.show();
    QSignalSpy synced(services.session()->connection()->sync(), &ClusterSync::synced);
    QVERIFY(synced.wait(30000));
    services.store()->flush();
    w.showPage(MainWindow::Workloads);
    auto *workloads = static_cast<WorkloadsPage *>(w.page(MainWindow::Workloads));
    WorkloadsTable *table = workloads->table();
    workloads->setStatusClass(WorkloadsTable::Problem);
    QTRY_VERIFY(table->rowCount() >= 3);
    QHash<QString, QString> reasons;
    for (int r = 0; r < table->rowCount(); ++r)
        reasons.insert(table->index(r, WorkloadsModel::Name).data().toString(),
                       table->index(r, WorkloadsModel::Reason).data().toString());
    const QStringList names = reasons.keys();
    QVERIFY2(reasons.value(QStringLiteral("asr-conformer"))
                 .startsWith(QLatin1String("queue resource quota insufficient: queue speech")),
             qPrintable(names.join(u',')));
    QVERIFY(
        reasons.value(QStringLiteral("old-train")).startsWith(QLatin1String("Terminating for")));
    QVERIFY2(reasons.value(QStringLiteral("sft-single-node"))
                 .startsWith(QLatin1String("No single node it may run on has 8 GPUs free")),
             qPrintable(reasons.value(QStringLiteral("sft-single-node"))));
    QVERIFY(reasons.value(QStringLiteral("sft-single-node"))
                .endsWith(QStringLiteral("as distributed training it fits now: 2 × 4 GPUs.")));
    for (int r = 0; r < table->rowCount(); ++r) {
        QVERIFY(table->index(r, WorkloadsModel::Status).data().toString() !=
                QLatin1String("Created"));
        QVERIFY(!table->index(r, WorkloadsModel::Reason).data().toString().isEmpty() ||
                table->index(r, WorkloadsModel::Status).data().toString() !=
                    QLatin1String("Pending"));
    }
    save(w, QStringLiteral("page-workloads-stuck"));
    sim.terminate();
    QVERIFY(sim.waitForFinished(30000));
}

void TestMainWindow::brokenDriverIsFlagged()
{
    // A node whose driver cannot be reached is not a CPU node: the Nodes page flags it with
    // nvidia-smi's words, the Overview counts its GPUs as served by no driver.
    QTemporaryDir dir;
    QProcess sim;
    startOwnSim(sim, dir.path(), true);
    Services services({dir.filePath(QStringLiteral("kubeconfig"))});
    services.session()->enableTelemetry(dir.filePath(QStringLiteral("ssh_config")));
    QString error;
    QVERIFY(services.session()->loadConfig(&error));
    services.session()->connectTo(QStringLiteral("sim-admin"));
    KubeClient *client = services.session()->connection()->client();
    bool posted = false;
    QNetworkAccessManager nam;
    QNetworkRequest req = client->request(QStringLiteral("/sim/driver?node=g4090-06&state=failed"));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = nam.post(req, QByteArray());
    QObject::connect(reply, &QNetworkReply::finished, this, [&] { posted = true; });
    QTRY_VERIFY(posted);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    reply->deleteLater();
    MainWindow w(&services);
    w.resize(1500, 900);
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(services.telemetry()->isFresh(QStringLiteral("g4090-06")), 20000);
    services.telemetry()->flush();
    QCOMPARE(services.telemetry()->gpuState(QStringLiteral("g4090-06")),
             NvidiaSmiResult<GpuCardSample>::DriverFailed);
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
    sim.terminate();
    QVERIFY(sim.waitForFinished(30000));
}

void TestMainWindow::chinese()
{
    QTranslator t;
    QVERIFY(t.load(QStringLiteral("gpudesk_zh_CN"), QStringLiteral(GPUDESK_QM_DIR)));
    QApplication::installTranslator(&t);
    auto c = connect(QStringLiteral("sim-admin"));
    QVERIFY(c);
    MainWindow w(c->services.get());
    w.resize(1500, 900);
    w.show();
    w.showPage(MainWindow::Overview);
    auto *sidebar = w.findChild<QListWidget *>(QStringLiteral("sidebar"));
    QVERIFY(sidebar);
    QCOMPARE(sidebar->item(0)->text(), QStringLiteral("概览"));
    QVERIFY(labelTexts(w).contains(QStringLiteral("集群 GPU 总数")));
    save(w, QStringLiteral("demo-zh_CN"));
    w.showPage(MainWindow::Workloads);
    // kubectl's word, and the Chinese after it.
    auto *workloads = static_cast<WorkloadsPage *>(w.page(MainWindow::Workloads));
    QStringList statuses;
    for (int r = 0; r < workloads->table()->rowCount(); ++r)
        statuses << workloads->table()->index(r, WorkloadsModel::Status).data().toString();
    QVERIFY2(statuses.contains(QStringLiteral("Running（运行中）")),
             qPrintable(statuses.mid(0, 5).join(u'|')));
    // Columns sized to their content on first start: every column in view, Chinese headers
    // and all, and no name or user cut short.
    FlatTreeView *view = workloads->view();
    QCoreApplication::processEvents();
    const int right =
        view->columnViewportPosition(WorkloadsModel::Age) + view->columnWidth(WorkloadsModel::Age);
    QVERIFY2(right <= view->viewport()->width(),
             qPrintable(QStringLiteral("%1 > %2").arg(right).arg(view->viewport()->width())));
    QVERIFY(view->columnViewportPosition(WorkloadsModel::Reason) + 200 <=
            view->viewport()->width());
    // (Content that grows later widens its column within half a second.)
    for (const int column : {int(WorkloadsModel::User), int(WorkloadsModel::Nodes)})
        QTRY_VERIFY2(view->columnWidth(column) >=
                         static_cast<QAbstractItemView *>(view)->sizeHintForColumn(column),
                     qPrintable(QString::number(column)));
    save(w, QStringLiteral("page-workloads-zh_CN"));
    QApplication::removeTranslator(&t);
}

void TestMainWindow::nodeTelemetry()
{
    // The window as the app runs it: telemetry over SSH to every simulated node.
    auto c = connect(QStringLiteral("sim-admin"),
                     qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/ssh_config"));
    QVERIFY(c && c->session);
    TelemetryStore &telemetry = *c->telemetry;
    TelemetrySession &session = *c->session;
    MainWindow w(c->services.get());
    w.resize(1500, 950);
    w.show();
    // Every card of every GPU node reports, twice (CPU use and charts need two samples).
    int cards = 0;
    for (const NodeInfo &n : c->store->nodes())
        cards += n.gpuCapacity;
    QTRY_COMPARE_WITH_TIMEOUT(telemetry.sampledGpus(), cards, 20000);
    QSignalSpy sweeps(&session, &TelemetrySession::sweepFinished);
    QVERIFY(sweeps.wait(10000));
    telemetry.flush();

    // Nodes → the node with the planted orphans: its processes, with pods and users.
    w.showPage(MainWindow::Nodes);
    auto *nodes = qobject_cast<NodesPage *>(w.page(MainWindow::Nodes));
    nodes->selectNode(QStringLiteral("g4090-04"));
    NodeTelemetryPanel *panel = nodes->telemetryPanel();
    QCOMPARE(panel->node(), QStringLiteral("g4090-04"));
    panel->refresh();
    QTableWidget *procs = panel->processTable();
    QVERIFY(procs->rowCount() >= 3);
    // The simulator runs on (60 simulated seconds a second), so jobs come and go: each row is
    // checked against the store as it is now; the planted orphans stay.
    QStringList pods;
    int attributed = 0;
    for (int r = 0; r < procs->rowCount(); ++r) {
        pods << procs->item(r, 3)->text();
        const QString podUid = procs->item(r, 3)->data(Qt::UserRole).toString();
        if (const PodInfo *p = c->store->pod(podUid)) {
            ++attributed;
            QCOMPARE(procs->item(r, 3)->text(), p->ns + u'/' + p->name);
            QCOMPARE(procs->item(r, 4)->text(), c->store->userOf(p->ns));
            QCOMPARE(procs->item(r, 5)->text(), c->store->vcOf(*p));
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
    for (int r = 0; r < panel->cardTable()->rowCount(); ++r)
        flags << panel->cardTable()->item(r, 6)->text();
    int flagged = 0;
    for (const CardState &cs : telemetry.cards(QStringLiteral("g4090-04")))
        flagged += cs.unattributed ? 1 : 0;
    QVERIFY(flagged >= 1);
    QCOMPARE(flags.filter(QStringLiteral("process of no pod")).size(), flagged);
    QCOMPARE(panel->chart()->seriesCount(), 8);
    // Two 2-second slots of history at least: a line, not a dot.
    QTRY_VERIFY_WITH_TIMEOUT((panel->chart()->refresh(), panel->chart()->pointCount() >= 16),
                             10000);
    QVERIFY(panel->findChild<QLabel *>(QStringLiteral("sshState"))
                ->text()
                .startsWith(QLatin1String("Connected over SSH")));
    save(w, QStringLiteral("page-node-telemetry"));
    // Each running pod's own CPU and memory, from its cgroup (v1 cgroupfs on this node).
    const NodeSample *g4 = telemetry.latest(QStringLiteral("g4090-04"));
    QCOMPARE(g4->cgroupLayout, CgroupLayout::V1Cgroupfs);
    QVERIFY(!g4->pods.isEmpty());
    panel->refresh(); // the table as of this sample (it follows samples on a timer)
    QTableWidget *podRows = panel->podTable();
    QCOMPARE(podRows->rowCount(), g4->pods.size());
    for (int r = 0; r < podRows->rowCount(); ++r) {
        const QString podUid = podRows->item(r, 0)->data(Qt::UserRole).toString();
        const auto u = std::find_if(g4->pods.cbegin(), g4->pods.cend(),
                                    [&](const PodUsage &x) { return x.uid == podUid; });
        QVERIFY(u != g4->pods.cend());
        QCOMPARE(podRows->item(r, 4)->text(), format::bytes(u->workingSetBytes));
        QVERIFY(u->workingSetBytes > 0);
    }
    qobject_cast<QTabWidget *>(podRows->parentWidget()->parentWidget())->setCurrentWidget(podRows);
    save(w, QStringLiteral("page-node-pods"));

    // The phantom card is flagged on its own node.
    nodes->selectNode(QStringLiteral("a800-02"));
    panel->refresh();
    QString a800Flags;
    for (int r = 0; r < panel->cardTable()->rowCount(); ++r)
        a800Flags += panel->cardTable()->item(r, 6)->text();
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

    // My workload: a pod's own cards over time, from its Usage tab.
    QString uid;
    for (const AttributedProcess &p : telemetry.processes(QStringLiteral("g4090-04")))
        if (p.attributed() && uid.isEmpty())
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
    QTRY_VERIFY((viewer->usageChart()->refresh(),
                 viewer->usageChart()->seriesCount() == podCards.size() &&
                     viewer->usageChart()->pointCount() >= 2 * podCards.size()));
    save(*viewer, QStringLiteral("viewer-usage"));
    // Its own CPU and memory, read from its cgroup, against what it requested (dashed line).
    const PodInfo *pod = c->store->pod(uid);
    QVERIFY(pod && pod->cpuRequestMilli > 0);
    TelemetryChart *chart = viewer->usageChart();
    chart->selectMetric(TelemetryHistory::Metric::PodCpuCores);
    QTRY_VERIFY_WITH_TIMEOUT(
        (chart->refresh(), chart->seriesCount() == 2 && chart->seriesPoints(0).size() >= 2), 10000);
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

void TestMainWindow::openTelemetryWindow(const QTemporaryDir &dir,
                                         const std::function<void(QString &)> &edit,
                                         TelemetryWindow *out)
{
    QFile in(qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/ssh_config"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    edit(text);
    QFile config(dir.filePath(QStringLiteral("ssh_config")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(text.toUtf8());
    config.close();

    TelemetryWindow tw;
    tw.c = connect(QStringLiteral("sim-admin"), config.fileName());
    QVERIFY(tw.c && tw.c->session);
    tw.w = std::make_unique<MainWindow>(tw.c->services.get());
    tw.w->resize(1500, 950);
    tw.w->show();
    *out = std::move(tw);
}

void TestMainWindow::hostKeyPromptInWindow()
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
                              SshStatus::HostKeyUnknown, 15000);
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
    QVERIFY(w.findChild<QLabel *>(QStringLiteral("sshSummary"))
                ->text()
                .contains(QLatin1String("waiting for you")));
    save(w, QStringLiteral("page-node-hostkey"));
    // Nothing was sampled before the user said so.
    QVERIFY(!telemetry.latest(QStringLiteral("a800-01")));
    once->click();
    QTRY_VERIFY_WITH_TIMEOUT(telemetry.isFresh(QStringLiteral("a800-01")), 10000);
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
    QTRY_VERIFY_WITH_TIMEOUT(telemetry.isFresh(QStringLiteral("a800-02")), 10000);
    QFile kh(dir.filePath(QStringLiteral("kh")));
    QVERIFY(kh.open(QIODevice::ReadOnly));
    QCOMPARE(kh.readAll().count('\n'), 1);                  // a800-02's key, remembered
    QVERIFY(!telemetry.latest(QStringLiteral("g4090-01"))); // not ticked: still waiting
    QCOMPARE(telemetry.sshStatus(QStringLiteral("g4090-01")).state, SshStatus::HostKeyUnknown);
    session.stop();
}

void TestMainWindow::passwordPromptInWindow()
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
    QTRY_COMPARE_WITH_TIMEOUT(telemetry.sshStatus(node).state, SshStatus::NeedsSecret, 15000);
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
    QTRY_VERIFY_WITH_TIMEOUT(telemetry.sshStatus(node).secretRefused, 15000);
    QVERIFY(telemetry.sshStatus(node).message.endsWith(QLatin1String("refused the password.")));
    panel->refresh();
    QVERIFY(enter->isVisible());
    answer(password, &prompt, QStringLiteral("dialog-password-refused"));
    QVERIFY2(prompt.contains(QLatin1String("refused the password.\nPassword for root@127.0.0.1:")),
             qPrintable(prompt));
    QTRY_VERIFY_WITH_TIMEOUT(telemetry.isFresh(node), 15000);
    QCOMPARE(telemetry.sshStatus(node).state, SshStatus::Connected);
    QCOMPARE(telemetry.cards(node).size(), 8);
    session.stop();
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
