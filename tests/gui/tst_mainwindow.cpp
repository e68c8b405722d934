// SPDX-License-Identifier: GPL-3.0-or-later
// The window offscreen, filled from the test simulator: every page, the object viewer (logs,
// events, YAML), a researcher's restricted view, the connection banners, and Chinese.
// Screenshots are written under build/dev/screenshots for a person to look at.

#include "alertcenter.h"
#include "gpumappage.h"
#include "gpumapview.h"
#include "imagespage.h"
#include "overviewpage.h"
#include "palette.h"
#include "testpaths.h"
#include "welcomepanel.h"
#include "windowfixture.h"

#include <QComboBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>

class TestMainWindow : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void initTestCase() { loadSimConfig(); }
    void pagesFromSimulator();
    void objectViewer();
    void gpuMapUsesItsRoom();
    void gpuMapGroupsAndZooms();
    void overviewNeedsAttention();
    void researcherSeesHerScope();
    void banners();
    void staleWhenServerGoesAway();
    void failedOrStuckSayWhy();
    void chinese();
    void welcomeWithoutKubeconfig(); // last: it turns QSettings' test mode on
};

void TestMainWindow::pagesFromSimulator()
{
    auto c = connectTo(QStringLiteral("sim-admin"));
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
    // This window was opened without SSH: the live panel says so, not "connecting" forever.
    QVERIFY(labelTexts(w).join(u'|').contains(QLatin1String("--no-ssh")));
    // The node list keeps at least half the height; the live panel below it the rest.
    QCoreApplication::processEvents();
    QVERIFY2(nodes->splitter()->sizes().value(0) >= nodes->splitter()->sizes().value(1),
             qPrintable(QStringLiteral("%1 / %2")
                            .arg(nodes->splitter()->sizes().value(0))
                            .arg(nodes->splitter()->sizes().value(1))));
    save(w, QStringLiteral("page-nodes"));

    w.showPage(MainWindow::GpuMap);
    // The simulator lives on: the sentence is compared with the truth of the same moment
    // (both read again until they meet), and the page shows the sentence.
    // The number, not the sentence: with every GPU taken it reads "No GPU is free." (no digit).
    QTRY_COMPARE_WITH_TIMEOUT(FreeGpus::of(*c->store, nullptr).free,
                              simTruth()[QStringLiteral("gpus")][QStringLiteral("free")].toInt(),
                              60000); // an ASan run beside three others lagged past 20 s once
    QTRY_VERIFY_WITH_TIMEOUT(labelTexts(w).contains(FreeGpus::of(*c->store, nullptr).sentence()),
                             20000);
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
    // A pod no node can hold (9 GPUs) shows why, live. (In a namespace with no quota: bob's
    // would refuse it before any scheduler saw it.) Named for this run: a second try finds the
    // first one's pod still there.
    const QString tooBig = u"too-big-"_qs + QString::number(QCoreApplication::applicationPid());
    QNetworkAccessManager nam;
    QNetworkRequest req = c->client->request(QStringLiteral("/api/v1/namespaces/default/pods"));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *created =
        nam.post(req, R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + tooBig.toUtf8() +
                          R"("},"spec":{"containers":[{"name":"main","image":"pytorch:2.1",)"
                          R"("resources":{"requests":{"nvidia.com/gpu":"9"}}}]}})");
    QSignalSpy done(created, &QNetworkReply::finished);
    QVERIFY(done.wait(10000));
    QCOMPARE(created->error(), QNetworkReply::NoError);
    workloads->table()->setText(tooBig);
    QTRY_COMPARE_WITH_TIMEOUT(workloads->view()->model()->rowCount(), 1, 5000);
    const QModelIndex reason = workloads->view()->model()->index(0, WorkloadsModel::Reason);
    QTRY_VERIFY2_WITH_TIMEOUT(
        // The scheduler's words, gpudesk's own account of them once it has placed the cluster's
        // free cards, or the submit check's once asked (WaitExplainer) — whichever the row
        // shows first; each names the GPUs. The simulator lives on (a minute a second), so
        // which node has the most free cards changes while the test runs: the sentence's form
        // is checked, not one node's count.
        reason.data().toString().contains(QLatin1String("Insufficient nvidia.com/gpu")) ||
            QRegularExpression(
                QStringLiteral(R"(^No single node it may run on has 9 GPUs free \(at most )"
                               R"([0-8], on [a-z0-9-]+\))"))
                .match(reason.data().toString())
                .hasMatch() ||
            reason.data().toString().startsWith(
                tooBig + u" asks for 9 GPUs in one pod; no node it may run on has more than 8"_qs),
        qPrintable(reason.data().toString()), 10000);
    created->deleteLater();
    nam.sendCustomRequest(
        c->client->request(QStringLiteral("/api/v1/namespaces/default/pods/") + tooBig), "DELETE");
    workloads->table()->setText({});
    workloads->setStatusClass(workloadstatus::Problem);
    QVERIFY(workloads->view()->model()->rowCount() >= 3); // the planted failures
    save(w, QStringLiteral("page-workloads-problems"));
    workloads->setStatusClass(workloadstatus::AnyStatus);

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
    auto c = connectTo(QStringLiteral("sim-admin"));
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

void TestMainWindow::gpuMapGroupsAndZooms()
{
    // Grouped by a label the page finds on the nodes (the simulator's racks), every node is under
    // its rack's heading; zoom fixes the cell size and the map scrolls; Ctrl+wheel steps it.
    QSettings().remove(QStringLiteral("gpumap"));
    auto c = connectTo(QStringLiteral("sim-admin"));
    QVERIFY(c);
    MainWindow w(c->services.get());
    w.resize(1360, 820);
    w.show();
    w.showPage(MainWindow::GpuMap);
    auto *page = qobject_cast<GpuMapPage *>(w.page(MainWindow::GpuMap));
    GpuMapView *map = page->view();
    auto *group = page->findChild<QComboBox *>(QStringLiteral("gpuMapGroupBy"));
    QVERIFY(group);
    const QString rack = QStringLiteral("topology.gpudesk.io/rack");
    for (const QString &key :
         {QStringLiteral("gpu.model"), rack, QStringLiteral("topology.kubernetes.io/zone"),
          QStringLiteral("gpudesk.io/pool")})
        QTRY_VERIFY2(group->findData(key) >= 0, qPrintable(key));
    QCOMPARE(group->findData(QStringLiteral("kubernetes.io/hostname")), -1); // not a grouping
    group->setCurrentIndex(group->findData(rack));
    emit group->activated(group->currentIndex());
    // The nodes the map draws (those with GPUs), by their rack label.
    QMap<QString, QStringList> want;
    for (const NodeCards &cards : GpuPlacement::all(*c->store, c->telemetry))
        for (const auto &[k, v] : c->store->node(cards.name)->labels)
            if (k == rack)
                want[v].append(cards.name);
    for (QStringList &nodes : want)
        nodes.sort();
    QVERIFY(want.size() >= 3);
    const QList<std::pair<QString, QStringList>> groups = map->groups();
    QStringList names;
    for (const auto &[name, nodes] : groups) {
        names << name;
        QStringList sorted = nodes;
        sorted.sort();
        QCOMPARE(sorted, want.value(name));
    }
    QCOMPARE(names, want.keys());
    QCOMPARE(QSettings().value(QStringLiteral("gpumap/groupBy")).toString(), rack);
    save(w, QStringLiteral("page-gpumap-racks"));

    auto *zoom = page->findChild<QComboBox *>(QStringLiteral("gpuMapZoom"));
    QVERIFY(zoom);
    zoom->setCurrentIndex(zoom->findData(300));
    emit zoom->activated(zoom->currentIndex());
    const int smallest = std::max(16, map->fontMetrics().height() + 2);
    QCOMPARE(map->cellSize(), smallest * 3);
    auto scroll = qobject_cast<QScrollArea *>(map->parentWidget()->parentWidget());
    QVERIFY(scroll);
    // A smaller window keeps the zoomed cells (fit would shrink them) and scrolls.
    w.resize(1000, 640);
    QTRY_VERIFY(map->heightForWidth(map->width()) > scroll->viewport()->height());
    QCOMPARE(map->cellSize(), smallest * 3);
    QWheelEvent wheel(QPointF(40, 40), map->mapToGlobal(QPointF(40, 40)), QPoint(), QPoint(0, -120),
                      Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(map, &wheel);
    QCOMPARE(map->zoomPercent(), 200);
    QCOMPARE(zoom->currentData().toInt(), 200);
    QCOMPARE(QSettings().value(QStringLiteral("gpumap/zoom")).toInt(), 200);
    save(w, QStringLiteral("page-gpumap-zoom"));
    QSettings().remove(QStringLiteral("gpumap"));
}

void TestMainWindow::gpuMapUsesItsRoom()
{
    // Sixteen nodes in a window of 1360 × 820: cells larger than the smallest, all in view; in a
    // window of 1000 × 640 smaller, still all in view. The users holding cards are named in their
    // colours, most cards first; a user's colour is the same on every machine.
    auto c = connectTo(QStringLiteral("sim-admin"));
    QVERIFY(c);
    MainWindow w(c->services.get());
    w.resize(1360, 820);
    w.show();
    w.showPage(MainWindow::GpuMap);
    auto *page = qobject_cast<GpuMapPage *>(w.page(MainWindow::GpuMap));
    GpuMapView *map = page->view();
    const int smallest = std::max(16, map->fontMetrics().height() + 2);
    QTRY_VERIFY2(map->cellSize() > smallest + 4, qPrintable(QString::number(map->cellSize())));
    auto scroll = qobject_cast<QScrollArea *>(map->parentWidget()->parentWidget());
    QVERIFY(scroll);
    QVERIFY2(map->heightForWidth(map->width()) <= scroll->viewport()->height(),
             qPrintable(QStringLiteral("%1 > %2")
                            .arg(map->heightForWidth(map->width()))
                            .arg(scroll->viewport()->height())));
    save(w, QStringLiteral("page-gpumap-large"));
    const int large = map->cellSize();
    w.resize(1000, 640);
    QTRY_VERIFY(map->cellSize() < large);
    QVERIFY(map->cellSize() >= smallest);
    QTRY_VERIFY(map->heightForWidth(map->width()) <= scroll->viewport()->height());
    save(w, QStringLiteral("page-gpumap-small"));

    // The simulator lives on: the store's holders and the legend are read again until they meet.
    QString most;
    const auto legendNamesTheMost = [&] {
        QHash<QString, int> held;
        for (const NodeCards &n : GpuPlacement::all(*c->store, c->telemetry)) {
            for (const CardCell &cell : n.cells)
                held[cell.user] += cell.state == CardCell::Allocated;
            for (const MigCell &mig : n.mig) // an instance counts as one, as it is drawn
                held[mig.user] += mig.state == CardCell::Allocated;
        }
        held.remove(QString());
        most.clear();
        for (auto it = held.cbegin(); it != held.cend(); ++it)
            if (most.isEmpty() || it.value() > held[most] ||
                (it.value() == held[most] && it.key() < most))
                most = it.key();
        // The first named: the one holding the most cards (ties by name), with their count.
        const QRegularExpressionMatch first =
            QRegularExpression(QStringLiteral("</span>&nbsp;([^&]+)&nbsp;(\\d+)"))
                .match(page->usersLegend());
        return !most.isEmpty() && first.captured(1) == most &&
               first.captured(2).toInt() == held[most];
    };
    QTRY_VERIFY2_WITH_TIMEOUT(legendNamesTheMost(), qPrintable(page->usersLegend()), 20000);
    QVERIFY(page->usersLegend().contains(map->colorOf(most).name()));
    // Users shown together get distinct colours (there are fewer than sixteen here).
    QSet<QString> colours;
    for (const auto &[user, cards] : map->users())
        colours.insert(map->colorOf(user).name());
    QCOMPARE(colours.size(), map->users().size());
    QCOMPARE(colors::forName(QStringLiteral("alice")).name(), QStringLiteral("#e69f00"));
}

void TestMainWindow::overviewNeedsAttention()
{
    // The Overview lists what needs an admin's eyes: every node the simulator's truth has
    // NotReady, and the disk it planted full (DiskPressure on g4090-07), critical marks first;
    // a node's name goes to it on the Nodes page.
    auto c = connectTo(QStringLiteral("sim-admin"));
    QVERIFY(c);
    MainWindow w(c->services.get());
    w.resize(1360, 820);
    w.show();
    w.showPage(MainWindow::Overview);
    auto *overview = qobject_cast<OverviewPage *>(w.page(MainWindow::Overview));
    QStringList notReady;
    const auto listsTheTruth = [&] {
        notReady.clear();
        for (const QJsonValue &n : simTruth()[QStringLiteral("nodes")].toArray())
            if (!n[QStringLiteral("ready")].toBool())
                notReady << n[QStringLiteral("name")].toString();
        const QString text = overview->problemsText();
        for (const QString &n : std::as_const(notReady))
            if (!text.contains(QStringLiteral("%1</a> is NotReady").arg(n)))
                return false;
        return !notReady.isEmpty() &&
               text.contains(QLatin1String("g4090-07</a> reports DiskPressure"));
    };
    QTRY_VERIFY2_WITH_TIMEOUT(listsTheTruth(), qPrintable(overview->problemsText()), 20000);
    // Critical first: the first line is a NotReady node or a pressure, in the error colour.
    QVERIFY(overview->problemsText().startsWith(QStringLiteral("<span style=\"color:%1\">●</span>")
                                                    .arg(colors::errorText(w.palette()).name())));
    save(w, QStringLiteral("page-overview-attention"));
    auto *label = overview->findChild<QLabel *>(QStringLiteral("problems"));
    QVERIFY(label);
    emit label->linkActivated(QStringLiteral("node:") + notReady.first());
    QCOMPARE(w.currentPage(), MainWindow::Nodes);
    auto *nodes = qobject_cast<NodesPage *>(w.page(MainWindow::Nodes));
    QCOMPARE(nodes->currentNode(), notReady.first());
}

void TestMainWindow::researcherSeesHerScope()
{
    // sim-alice may list nodes and queues, and only her own namespace's pods. With the nodes'
    // telemetry she sees which cards run processes, not whose: nothing may be called free, her
    // allocation is a lower bound, and a process of a pod she cannot see is "not visible".
    auto c = connectTo(QStringLiteral("sim-alice"),
                       qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/ssh_config"));
    QVERIFY(c && c->session);
    for (const auto &p : c->store->pods())
        QCOMPARE(p.ns, QStringLiteral("user-alice"));
    QVERIFY(!c->store->podsComplete());
    MainWindow w(c->services.get());
    w.resize(1400, 860);
    w.show();
    // The truth before the samples and after them: the simulator runs at 60 times, and a job
    // may end between a node's sample and the truth read after it. Bounds hold against either.
    QHash<QString, int> truthAllocated, truthFree;
    const auto readTruth = [&] {
        const QJsonObject truth = simTruth();
        // A card running processes of a pod that is gone is allocated to no pod, but from her
        // seat it is one more card of a pod she cannot see: taken, not free.
        for (const QJsonValue &n : truth[QStringLiteral("nodes")].toArray()) {
            const QJsonObject g = n[QStringLiteral("gpus")].toObject();
            int orphanHeld = 0;
            for (const QJsonValue &card : n[QStringLiteral("cards")].toArray())
                orphanHeld += card[QStringLiteral("allocatedTo")].isNull() &&
                              !card[QStringLiteral("processes")].toArray().isEmpty();
            const QString name = n[QStringLiteral("name")].toString();
            const int allocated = g[QStringLiteral("allocated")].toInt() + orphanHeld;
            const int free = g[QStringLiteral("free")].toInt() - orphanHeld;
            truthAllocated[name] = std::max(truthAllocated.value(name, 0), allocated);
            truthFree[name] = std::min(truthFree.value(name, free), free);
        }
        return truth;
    };
    int cards = 0; // every physical card, whole or in MIG mode (not nvidia.com/gpu then)
    for (const QJsonValue &n : readTruth().value(QStringLiteral("nodes")).toArray())
        cards += n[QStringLiteral("cards")].toArray().size();
    QTRY_COMPARE_WITH_TIMEOUT(c->telemetry->sampledGpus(), cards, 20000);
    c->telemetry->flush();
    const QJsonObject truth = readTruth();
    QVERIFY(!truth.isEmpty());

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
    QAbstractItemModel *procs = nodes->telemetryPanel()->processTable()->model();
    QAbstractItemModelTester procsTester(procs,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (int r = 0; r < procs->rowCount(); ++r)
        podCells << procs->index(r, NodeProcessesModel::Pod).data().toString();
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
    // Connecting, nothing read: no figure is the cluster's yet.
    auto *overview = qobject_cast<OverviewPage *>(w.page(MainWindow::Overview));
    QVERIFY(overview);
    QCOMPARE(overview->problemsText(),
             QStringLiteral("Connecting to https://127.0.0.1:6443… no figures yet."));
    state.setFailed(QStringLiteral("sim-admin"), QStringLiteral("Unauthorized"));
    QVERIFY(labelTexts(w).contains(QStringLiteral("Cannot connect to sim-admin: Unauthorized")));
    // Failed: every card says it has no figure, never a zero; no "nothing needs attention"
    // about a cluster nobody could read (issue 34).
    QCOMPARE(overview->problemsText(), QStringLiteral("Not connected to sim-admin: Unauthorized"));
    const QStringList texts = labelTexts(w);
    QVERIFY(!texts.join(u'\n').contains(u"Nothing needs attention"_qs));
    QVERIFY(texts.count(QStringLiteral("—")) >= 7);
    QVERIFY(!texts.contains(QStringLiteral("0")));
    save(w, QStringLiteral("overview-not-connected"));
    w.showPage(MainWindow::GpuMap); // a hidden page is redrawn when shown
    auto *map = qobject_cast<GpuMapPage *>(w.page(MainWindow::GpuMap));
    QVERIFY(map);
    QCOMPARE(map->summary(), QStringLiteral("Not connected to sim-admin: Unauthorized"));
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
    // The server's failure, told once as the server's: not blamed on a collection.
    QVERIFY2(banner.contains(since) &&
                 banner.contains(QLatin1String("The API server cannot be reached: https://")) &&
                 (banner.contains(QLatin1String("refused the connection")) ||
                  banner.contains(QLatin1String("closed the connection"))) &&
                 !banner.contains(QLatin1String("cannot be watched")),
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
    SimWindow s;
    if (!openSimWindow(s))
        return;
    MainWindow &w = *s.window;
    w.showPage(MainWindow::Workloads);
    auto *workloads = static_cast<WorkloadsPage *>(w.page(MainWindow::Workloads));
    WorkloadsTable *table = workloads->table();
    workloads->setStatusClass(workloadstatus::Problem);
    // The demo's failed jobs are problems too: wait for the three cases themselves, not a count.
    QHash<QString, QString> reasons;
    const auto read = [&] {
        reasons.clear();
        for (int r = 0; r < table->rowCount(); ++r)
            reasons.insert(table->index(r, WorkloadsModel::Name).data().toString(),
                           table->index(r, WorkloadsModel::Reason).data().toString());
        return reasons.contains(QStringLiteral("asr-conformer")) &&
               reasons.contains(QStringLiteral("old-train")) &&
               reasons.contains(QStringLiteral("sft-single-node"));
    };
    // Each waiting one says why at the job's level once the submit check was asked of it
    // (WaitExplainer, a job every half second), the scheduler's and the split's words after it
    // in the tooltip.
    QTRY_VERIFY2_WITH_TIMEOUT(
        read() &&
            reasons.value(u"asr-conformer"_qs).startsWith(u"VC speech holds 8 of its 8 GPUs"_qs) &&
            reasons.value(u"sft-single-node"_qs).contains(u"but no node has 8 free"_qs),
        qPrintable(QStringList(reasons.cbegin(), reasons.cend()).join(u'\n')), 20000);
    const auto tipOf = [table](const QString &name) {
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->index(r, WorkloadsModel::Name).data().toString() == name)
                return table->index(r, WorkloadsModel::Reason).data(Qt::ToolTipRole).toString();
        return QString();
    };
    QVERIFY2(
        tipOf(u"asr-conformer"_qs).contains(u"queue resource quota insufficient: queue speech"_qs),
        qPrintable(tipOf(u"asr-conformer"_qs)));
    QVERIFY2(
        reasons.value(QStringLiteral("old-train")).startsWith(QLatin1String("Terminating for")),
        qPrintable(reasons.value(QStringLiteral("old-train"))));
    const QString split = tipOf(u"sft-single-node"_qs);
    QVERIFY2(split.contains(u"No single node it may run on has 8 GPUs free"_qs) &&
                 split.contains(u"as distributed training it fits now: 4 × 2 GPUs."_qs),
             qPrintable(split));
    for (int r = 0; r < table->rowCount(); ++r) {
        QVERIFY(table->index(r, WorkloadsModel::Status).data().toString() !=
                QLatin1String("Created"));
        QVERIFY(!table->index(r, WorkloadsModel::Reason).data().toString().isEmpty() ||
                table->index(r, WorkloadsModel::Status).data().toString() !=
                    QLatin1String("Pending"));
    }
    save(w, QStringLiteral("page-workloads-stuck"));
    s.sim.terminate(); // the simulator ends cleanly, its state saved
    QVERIFY(s.sim.waitForFinished(30000));
}

void TestMainWindow::chinese()
{
    QTranslator t;
    QVERIFY(t.load(QStringLiteral("gpudesk_zh_CN"), TestPaths::qmDir()));
    QApplication::installTranslator(&t);
    auto c = connectTo(QStringLiteral("sim-admin"));
    QVERIFY(c);
    MainWindow w(c->services.get());
    w.resize(1500, 900);
    w.show();
    w.showPage(MainWindow::Overview);
    auto *sidebar = w.findChild<QListWidget *>(QStringLiteral("sidebar"));
    QVERIFY(sidebar);
    QCOMPARE(sidebar->item(0)->text(), QStringLiteral("概览"));
    QVERIFY(labelTexts(w).contains(QStringLiteral("集群 GPU 总数")));
    // The README's picture: the alerts the demo plants, not the moment before they are checked.
    QTRY_VERIFY(c->services->alerts()->hasEvaluated());
    QTRY_VERIFY(labelTexts(w).join(u'\n').contains(u"起处于 NotReady"_qs));
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
    // Images: the registries the demo's pods pull from, offered before anything is read.
    w.showPage(MainWindow::Images);
    auto *images = static_cast<ImagesPage *>(w.page(MainWindow::Images));
    QTRY_VERIFY_WITH_TIMEOUT(images->registries()->count() > 0, 10000);
    QVERIFY(labelTexts(w).contains(QStringLiteral("镜像")));
    save(w, QStringLiteral("page-images-zh_CN"));
    QApplication::removeTranslator(&t);
}

void TestMainWindow::welcomeWithoutKubeconfig()
{
    // A first start where no kubeconfig is found: the welcome says where gpudesk looked and what
    // was wrong, instead of empty pages and a "Cannot connect to :" banner; a picked file that is
    // no kubeconfig is said there too; the right one connects and is remembered for next time.
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("session/kubeconfig"));
    QTemporaryDir home;
    const QString missing = home.filePath(QStringLiteral("nothing/config"));
    Services services({missing});
    QString error;
    QVERIFY(!services.session()->loadConfig(&error));
    services.state()->setFailed(QString(), error); // as main() does
    MainWindow w(&services);
    w.resize(1300, 800);
    w.show();
    QVERIFY(w.welcome()->isVisible());
    QVERIFY(!w.page(MainWindow::Overview)->isVisible());
    QVERIFY2(w.welcome()->text().contains(QStringLiteral("Looked at: ") + missing) &&
                 w.welcome()->text().contains(QLatin1String("No such file or directory")),
             qPrintable(w.welcome()->text().replace(u'\n', u'|')));
    QVERIFY2(labelTexts(w).filter(QStringLiteral("Cannot connect")).isEmpty(),
             qPrintable(labelTexts(w).join(u'|')));
    QVERIFY(w.welcome()->chooseButton()->isEnabled());
    save(w, QStringLiteral("welcome"));

    QFile junk(home.filePath(QStringLiteral("notes.txt")));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("just a scalar\n");
    junk.close();
    w.useKubeconfig(junk.fileName());
    QVERIFY(w.welcome()->isVisible());
    QVERIFY2(w.welcome()->text().contains(junk.fileName()) &&
                 w.welcome()->text().contains(QLatin1String("is not a kubeconfig")),
             qPrintable(w.welcome()->text().replace(u'\n', u'|')));
    QVERIFY(QSettings().value(QStringLiteral("session/kubeconfig")).toString().isEmpty());

    const QString good = qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/kubeconfig");
    w.useKubeconfig(good);
    QTRY_COMPARE_WITH_TIMEOUT(services.state()->state(), ConnectionState::State::Connected, 30000);
    QVERIFY(!w.welcome()->isVisible());
    QVERIFY(w.page(MainWindow::Overview)->isVisible());
    QCOMPARE(QSettings().value(QStringLiteral("session/kubeconfig")).toString(), good);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
