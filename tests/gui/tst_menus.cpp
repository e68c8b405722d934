// SPDX-License-Identifier: GPL-3.0-or-later
// The window's menu bar, toolbar, command palette and keyboard shortcuts on the test simulator:
// every page and action reachable by keyboard, one meaning per key, menu items that say what
// the page's buttons say (enabled, or why not, as the server's permissions have it), and the
// palette finding a node, a pod, a job, a user and an action and going there.

#include "alertcenter.h"
#include "auditdialog.h"
#include "clustersession.h"
#include "commandpalette.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "devenvdialog.h"
#include "devenvspage.h"
#include "mainmenus.h"
#include "overviewpage.h"
#include "pagetable.h"
#include "palette.h"
#include "shortcutsdialog.h"
#include "testpaths.h"
#include "theme.h"
#include "userspage.h"
#include "windowfixture.h"

#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QStyle>
#include <QTranslator>
#include <QTreeWidget>

#include <cmath>

class TestMenus : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void initTestCase() { loadSimConfig(); }
    void menusAndKeys();
    void mirroredActionsFollowPermissions();
    void paletteGoesThere();
    void paletteRanking();
    void shortcutsListed();
    void chinese();
    void themeColoursReadable();
    void contextBoxRefusesUnknown();
    void selectedWorkloadsOnlyOnTheirPage();

private:
    // The window as a context of the test simulator, shown and active (no window if not).
    struct Opened
    {
        std::unique_ptr<Connected> c;
        std::unique_ptr<MainWindow> w; // destroyed first
    };
    Opened open(const QString &context)
    {
        Opened o;
        o.c = connectTo(context);
        if (!o.c)
            return o;
        o.w = std::make_unique<MainWindow>(o.c->services.get());
        o.w->resize(1360, 820);
        o.w->show();
        if (!QTest::qWaitForWindowActive(o.w.get()))
            o.w.reset();
        return o;
    }
    // Opens a menu as a click on the menu bar would (its aboutToShow fills and syncs it).
    static void openMenu(QMenu *menu)
    {
        menu->popup(QPoint(0, 0));
        QTRY_VERIFY(menu->isVisible());
    }
    static QMenu *menu(MainWindow &w, const char *name)
    {
        return w.menuBar()->findChild<QMenu *>(QLatin1String(name));
    }
    template <class T> static T *topLevel()
    {
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *t = qobject_cast<T *>(w); t && t->isVisible())
                return t;
        return nullptr;
    }
};

void TestMenus::contextBoxRefusesUnknown()
{
    // Asked for a context the kubeconfig lacks while connected: the connection stays, the box
    // keeps its name, and the status bar says why (issue 34).
    Opened o = open(QStringLiteral("sim-admin"));
    QVERIFY(o.w);
    ClusterSession *session = o.c->services->session();
    auto *box = o.w->findChild<QComboBox *>();
    QVERIFY(box);
    QCOMPARE(box->currentText(), QStringLiteral("sim-admin"));
    KubeClient *before = session->connection()->client();
    session->connectTo(QStringLiteral("nowhere"));
    QCOMPARE(session->context(), QStringLiteral("sim-admin"));
    QCOMPARE(session->connection()->client(), before);
    QCOMPARE(box->currentText(), QStringLiteral("sim-admin"));
    QCOMPARE(o.w->statusBar()->currentMessage(),
             QStringLiteral("Not switched to nowhere: context \"nowhere\" is not in the "
                            "kubeconfig. Still connected to sim-admin."));

    // Started on one (--context, a stale setting): the box names it apart, never shows the
    // first real context as if it were the one, and the banner says why nothing is shown.
    Services services({qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/kubeconfig")});
    QString error;
    QVERIFY(services.session()->loadConfig(&error));
    MainWindow w(&services);
    w.setContexts(services.session()->contexts(), QStringLiteral("nowhere"));
    services.session()->connectTo(QStringLiteral("nowhere"));
    auto *fresh = w.findChild<QComboBox *>();
    QCOMPARE(fresh->currentIndex(), -1);
    QCOMPARE(fresh->placeholderText(), QStringLiteral("nowhere (not in the kubeconfig)"));
    QVERIFY(fresh->count() >= 2);
    QCOMPARE(services.state()->state(), ConnectionState::State::Failed);
    QVERIFY(labelTexts(w).contains(
        QStringLiteral("Cannot connect to nowhere: context \"nowhere\" is not in the kubeconfig")));
}

void TestMenus::selectedWorkloadsOnlyOnTheirPage()
{
    // Workload › Selected workloads acts on the selection the user sees: from another page it
    // offers none, only the way to the Workloads page (issue 35).
    Opened o = open(QStringLiteral("sim-admin"));
    QVERIFY(o.w);
    auto *selected = o.w->menuBar()->findChild<QMenu *>(QStringLiteral("selectedWorkloadsMenu"));
    QVERIFY(selected);
    o.w->showPage(MainWindow::Images);
    openMenu(selected);
    QList<QAction *> actions = selected->actions();
    QCOMPARE(actions.size(), 2);
    QCOMPARE(actions[0]->text(), QStringLiteral("Select workloads on the Workloads page"));
    QVERIFY(!actions[0]->isEnabled());
    actions[1]->trigger();
    selected->hide();
    QCOMPARE(o.w->currentPage(), MainWindow::Workloads);
    openMenu(selected);
    actions = selected->actions();
    QVERIFY(!actions.isEmpty());
    QVERIFY(actions[0]->text() != QStringLiteral("Select workloads on the Workloads page"));
    selected->hide();
}

void TestMenus::menusAndKeys()
{
    const Opened o = open(QStringLiteral("sim-admin"));
    QVERIFY(o.w);
    MainWindow &w = *o.w;
    QStringList titles;
    for (QAction *a : w.menuBar()->actions())
        titles << a->text().remove(u'&');
    QCOMPARE(titles.join(u' '), QStringLiteral("File View Cluster Node Workload Tools Help"));

    // One meaning per key: no two actions of the window share a shortcut (a clash makes Qt
    // trigger neither).
    QHash<QString, QString> owner;
    for (QAction *a : w.findChildren<QAction *>()) {
        for (const QKeySequence &k : a->shortcuts()) {
            const QString key = k.toString();
            QVERIFY2(
                !owner.contains(key),
                qPrintable(QStringLiteral("%1: %2 and %3").arg(key, owner.value(key), a->text())));
            owner.insert(key, a->text());
        }
    }
    QVERIFY2(owner.size() >= 20, qPrintable(QStringList(owner.keys()).join(u' ')));

    // Ctrl+1 … Ctrl+0: the first ten pages; the Storage page after them has no key of its own.
    for (int p = 0; p < MainWindow::PageCount; ++p) {
        if (p >= 10) {
            QVERIFY(pageTable().at(p).key.isEmpty());
            continue;
        }
        QTest::keyClick(&w, Qt::Key(p < 9 ? Qt::Key_1 + p : Qt::Key_0), Qt::ControlModifier);
        QCOMPARE(w.currentPage(), MainWindow::Page(p));
    }

    // Ctrl+L on a workload row opens its logs (the page no longer has keys of its own that would
    // make the window's ambiguous); on a node, Ctrl+E its events.
    QTest::keyClick(&w, Qt::Key_4, Qt::ControlModifier);
    auto *workloads = qobject_cast<WorkloadsPage *>(w.page(MainWindow::Workloads));
    QTRY_VERIFY(workloads->view()->model()->rowCount() > 0);
    workloads->view()->setFocus();
    // The simulator lives on: a batch of rows arriving may reset the current row, so it is set
    // again until it holds.
    QTRY_VERIFY([&] {
        workloads->view()->setCurrentIndex(workloads->view()->model()->index(0, 0));
        return w.menus()->currentObject().isValid();
    }());
    const ObjectRef first = w.menus()->currentObject();
    QTest::keyClick(workloads->view(), Qt::Key_L, Qt::ControlModifier);
    QTRY_VERIFY(topLevel<ObjectViewer>());
    auto *viewer = topLevel<ObjectViewer>();
    QVERIFY2(viewer->windowTitle().contains(first.name), qPrintable(viewer->windowTitle()));
    QCOMPARE(viewer->tabs()->currentIndex(), int(ObjectViewer::LogsTab));
    viewer->close();
    QTRY_VERIFY(!topLevel<ObjectViewer>());

    QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
    auto *nodes = qobject_cast<NodesPage *>(w.page(MainWindow::Nodes));
    nodes->selectNode(QStringLiteral("a800-02"));
    QTest::keyClick(&w, Qt::Key_E, Qt::ControlModifier);
    QTRY_VERIFY(topLevel<ObjectViewer>());
    viewer = topLevel<ObjectViewer>();
    QVERIFY2(viewer->windowTitle().contains(QLatin1String("a800-02")),
             qPrintable(viewer->windowTitle()));
    QVERIFY(viewer->tabs()
                ->tabText(viewer->tabs()->currentIndex())
                .startsWith(QLatin1String("Events")));
    viewer->close();

    // The Node menu is the selected node's, as the page's own menu has it.
    QMenu *nodeMenu = menu(w, "nodeMenu");
    openMenu(nodeMenu);
    QStringList items;
    for (QAction *a : nodeMenu->actions())
        if (!a->isSeparator())
            items << a->text();
    QVERIFY2(items.contains(QStringLiteral("Drain a800-02…")) &&
                 (items.contains(QStringLiteral("Cordon a800-02")) ||
                  items.contains(QStringLiteral("Uncordon a800-02"))),
             qPrintable(items.join(u'|')));
    save(*nodeMenu, QStringLiteral("menu-node"));
    nodeMenu->hide();

    // Ctrl+N: a new dev environment, on its page.
    QTest::keyClick(&w, Qt::Key_N, Qt::ControlModifier);
    QCOMPARE(w.currentPage(), MainWindow::DevEnvs);
    QTRY_VERIFY(topLevel<DevEnvDialog>());
    topLevel<DevEnvDialog>()->reject();

    // Ctrl+F: the current page's filter takes the keys.
    QTest::keyClick(&w, Qt::Key_4, Qt::ControlModifier); // Workloads
    QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
    auto *focused = qobject_cast<QLineEdit *>(QApplication::focusWidget());
    QVERIFY(focused);
    QVERIFY(w.page(MainWindow::Workloads)->isAncestorOf(focused));

    save(w, QStringLiteral("window-menubar"));
    QMenu *workloadMenu = menu(w, "workloadMenu");
    openMenu(workloadMenu);
    save(*workloadMenu, QStringLiteral("menu-workload"));
    workloadMenu->hide();
}

void TestMenus::mirroredActionsFollowPermissions()
{
    // Alice may not make users: the menu's item is disabled with the page's reason, and its
    // shortcut-less trigger says so in the status bar instead of doing nothing.
    const Opened o = open(QStringLiteral("sim-alice"));
    QVERIFY(o.w);
    MainWindow &w = *o.w;
    auto *newUserButton =
        w.page(MainWindow::Users)->findChild<QPushButton *>(QStringLiteral("newUser"));
    QVERIFY(newUserButton);
    QTRY_VERIFY_WITH_TIMEOUT(!newUserButton->isEnabled(), 10000);
    QAction *newUser = w.menus()->action(QStringLiteral("newUserAction"));
    QVERIFY(newUser);
    QMenu *cluster = menu(w, "clusterMenu");
    openMenu(cluster);
    QVERIFY(!newUser->isEnabled());
    QVERIFY2(newUser->toolTip().startsWith(QLatin1String("Not allowed: ")),
             qPrintable(newUser->toolTip()));
    QCOMPARE(newUser->toolTip(), newUserButton->toolTip());
    save(*cluster, QStringLiteral("menu-cluster-alice"));
    cluster->hide();
    QVERIFY(newUser->isEnabled()); // between menus, so that its trigger can say why not
    newUser->trigger();
    QCOMPARE(w.currentPage(), MainWindow::Users);
    QVERIFY2(
        w.statusBar()->currentMessage().contains(QLatin1String("not possible now. Not allowed")),
        qPrintable(w.statusBar()->currentMessage()));

    // Her own dev environment: Jupyter, once it is selected, is what the button says.
    w.showPage(MainWindow::DevEnvs);
    auto *devenvs = qobject_cast<DevEnvsPage *>(w.page(MainWindow::DevEnvs));
    QTRY_VERIFY_WITH_TIMEOUT(devenvs->view()->model()->rowCount() > 0, 10000);
    devenvs->view()->selectRow(0);
    auto *jupyterButton = devenvs->findChild<QPushButton *>(QStringLiteral("openJupyter"));
    QMenu *workload = menu(w, "workloadMenu");
    openMenu(workload);
    QAction *jupyter = w.menus()->action(QStringLiteral("openJupyterAction"));
    QCOMPARE(jupyter->isEnabled(), jupyterButton->isEnabled());
    QCOMPARE(jupyter->toolTip(), jupyterButton->toolTip());
    // Logs / Events / YAML follow the selection of the page shown.
    QVERIFY(w.menus()->action(QStringLiteral("logsAction"))->isEnabled());
    workload->hide();
    w.showPage(MainWindow::Overview);
    openMenu(workload);
    QVERIFY(!w.menus()->action(QStringLiteral("logsAction"))->isEnabled());
    workload->hide();

    // The Node menu: cordon and drain are not hers, and say so.
    w.showPage(MainWindow::Nodes);
    qobject_cast<NodesPage *>(w.page(MainWindow::Nodes))->selectNode(QStringLiteral("a800-02"));
    QMenu *node = menu(w, "nodeMenu");
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            openMenu(node);
            bool refused = false;
            for (QAction *a : node->actions())
                refused |= a->text().startsWith(QStringLiteral("Drain a800-02… (not allowed")) &&
                           !a->isEnabled();
            node->hide();
            return refused;
        }(),
        10000);
}

void TestMenus::paletteGoesThere()
{
    const Opened o = open(QStringLiteral("sim-admin"));
    QVERIFY(o.w);
    const auto &c = o.c;
    MainWindow &w = *o.w;
    auto open = [&](const QString &query) -> CommandPalette * {
        QTest::keyClick(&w, Qt::Key_K, Qt::ControlModifier);
        auto *palette = topLevel<CommandPalette>();
        if (palette)
            QTest::keyClicks(palette->input(), query);
        return palette;
    };
    auto firstLine = [](CommandPalette *p) {
        return p->results()->count() ? p->results()->item(0)->text() : QString();
    };

    // A node.
    CommandPalette *p = open(QStringLiteral("a800-02"));
    QVERIFY(p);
    QVERIFY2(firstLine(p).startsWith(QStringLiteral("Node  ·  a800-02")), qPrintable(firstLine(p)));
    save(*p, QStringLiteral("palette-node"));
    QTest::keyClick(p->input(), Qt::Key_Return);
    QCOMPARE(w.currentPage(), MainWindow::Nodes);
    QCOMPARE(qobject_cast<NodesPage *>(w.page(MainWindow::Nodes))->currentNode(),
             QStringLiteral("a800-02"));
    QTRY_VERIFY(!topLevel<CommandPalette>());

    // A pod: its logs.
    p = open(QStringLiteral("dev-alice"));
    QVERIFY2(firstLine(p).startsWith(QStringLiteral("Pod  ·  dev-alice")),
             qPrintable(firstLine(p)));
    QTest::keyClick(p->input(), Qt::Key_Return);
    QTRY_VERIFY(topLevel<ObjectViewer>());
    QVERIFY(topLevel<ObjectViewer>()->windowTitle().contains(QLatin1String("dev-alice")));
    topLevel<ObjectViewer>()->close();

    // A job, by a name the store has.
    QString job;
    for (const QString &uid : c->store->jobKeys())
        if (const JobInfo *j = c->store->job(uid); j && (job.isEmpty() || j->name < job))
            job = j->name;
    QVERIFY(!job.isEmpty());
    p = open(job);
    int jobRow = -1;
    for (int r = 0; r < p->results()->count() && jobRow < 0; ++r)
        if (p->results()->item(r)->text().startsWith(QStringLiteral("Job  ·  %1").arg(job)))
            jobRow = r;
    QVERIFY2(jobRow >= 0, qPrintable(firstLine(p)));
    p->results()->setCurrentRow(jobRow);
    QTest::keyClick(p->input(), Qt::Key_Return);
    QTRY_VERIFY(topLevel<ObjectViewer>());
    QVERIFY(topLevel<ObjectViewer>()->windowTitle().contains(job));
    topLevel<ObjectViewer>()->close();

    // A user, with the arrow keys down to her row.
    p = open(QStringLiteral("alice"));
    int userRow = -1;
    for (int r = 0; r < p->results()->count() && userRow < 0; ++r)
        if (p->results()->item(r)->text().startsWith(QStringLiteral("User  ·  alice")))
            userRow = r;
    QVERIFY2(userRow >= 0, qPrintable(firstLine(p)));
    for (int r = 0; r < userRow; ++r)
        QTest::keyClick(p->input(), Qt::Key_Down);
    QCOMPARE(p->results()->currentRow(), userRow);
    QTest::keyClick(p->input(), Qt::Key_Return);
    QCOMPARE(w.currentPage(), MainWindow::Users);
    QTRY_COMPARE(qobject_cast<UsersPage *>(w.page(MainWindow::Users))->currentNamespace(),
                 QStringLiteral("user-alice"));

    // An action: the audit log.
    p = open(QStringLiteral("audit"));
    QVERIFY2(firstLine(p).startsWith(QStringLiteral("Action  ·  Audit log")),
             qPrintable(firstLine(p)));
    QTest::keyClick(p->input(), Qt::Key_Return);
    QTRY_VERIFY(topLevel<AuditDialog>());
    topLevel<AuditDialog>()->close();

    // The menus' placeholders are not actions to go to (nor items of menus made on opening).
    QMenu *contexts = w.menuBar()->findChild<QMenu *>(QStringLiteral("contextMenu"));
    openMenu(contexts); // fills it with the contexts' unnamed items
    contexts->hide();
    p = open(QStringLiteral("no node selected"));
    QCOMPARE(p->results()->count(), 0);
    QTest::keyClick(p->input(), Qt::Key_Escape);
    QTRY_VERIFY(!topLevel<CommandPalette>());
    p = open(QStringLiteral("sim-alice"));
    QVERIFY2(p->results()->count() == 0 || !firstLine(p).startsWith(QLatin1String("Action")),
             qPrintable(firstLine(p)));
    QTest::keyClick(p->input(), Qt::Key_Escape);
    QTRY_VERIFY(!topLevel<CommandPalette>());

    // Nothing: said, and Escape closes.
    p = open(QStringLiteral("no-such-thing-anywhere"));
    QCOMPARE(p->results()->count(), 0);
    QCOMPARE(p->count()->text(), QStringLiteral("Nothing matches."));
    QTest::keyClick(p->input(), Qt::Key_Escape);
    QTRY_VERIFY(!topLevel<CommandPalette>());
}

void TestMenus::paletteRanking()
{
    // Text starting with the query first, then at a word's start, then inside; actions before
    // objects on a tie; every word must match; at most `limit` with the count of all.
    const QList<PaletteEntry> entries = {
        {PaletteEntry::Pod, QStringLiteral("train-gpt-0"), QStringLiteral("user-bob · g4090-01"),
         QStringLiteral("u1")},
        {PaletteEntry::Node, QStringLiteral("g4090-01"), QStringLiteral("8 × RTX 4090"),
         QStringLiteral("g4090-01")},
        {PaletteEntry::Pod, QStringLiteral("pretrain-1"), QStringLiteral("user-amy"),
         QStringLiteral("u2")},
        {PaletteEntry::Job, QStringLiteral("bert-train"), QStringLiteral("user-amy · Job"),
         QStringLiteral("u3")},
        {PaletteEntry::Action, QStringLiteral("train"), QStringLiteral("Tools"),
         QStringLiteral("a")}};
    int total = 0;
    QCOMPARE(CommandPalette::match(entries, QStringLiteral("TRAIN"), 10, &total),
             QList<int>({4, 0, 3, 2}));
    QCOMPARE(total, 4);
    QCOMPARE(CommandPalette::match(entries, QStringLiteral("train amy"), 10), QList<int>({3, 2}));
    QCOMPARE(CommandPalette::match(entries, QStringLiteral("4090"), 10), QList<int>({1, 0}));
    QCOMPARE(CommandPalette::match(entries, QStringLiteral("train"), 2, &total),
             QList<int>({4, 0}));
    QCOMPARE(total, 4);
    QCOMPARE(CommandPalette::match(entries, QString(), 10).size(), 5);
    // Typed a key at a time (each query searched among the last one's matches), deleted back,
    // and a word added: the same list as a search of everything.
    CommandPalette palette(entries, {});
    for (const char *typed : {"t", "tr", "train", "train ", "train a", "train amy", "train", "rai",
                              "4", "40", "4090 b", "x"}) {
        const QString q = QLatin1String(typed);
        palette.input()->setText(q);
        QStringList shown, expected;
        for (int r = 0; r < palette.results()->count(); ++r)
            shown << palette.results()
                         ->item(r)
                         ->text()
                         .section(QStringLiteral("  ·  "), 1)
                         .section(QStringLiteral("   —  "), 0, 0);
        for (int i : CommandPalette::match(entries, q, CommandPalette::Shown))
            expected << entries[i].text;
        QCOMPARE(shown.join(u'|'), expected.join(u'|'));
    }
}

void TestMenus::shortcutsListed()
{
    const Opened o = open(QStringLiteral("sim-admin"));
    QVERIFY(o.w);
    MainWindow &w = *o.w;
    QTest::keyClick(&w, Qt::Key_F1);
    QTRY_VERIFY(topLevel<ShortcutsDialog>());
    auto *dialog = topLevel<ShortcutsDialog>();
    QHash<QString, QString> listed;
    QTreeWidget *tree = dialog->tree();
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        listed.insert(tree->topLevelItem(i)->text(0).trimmed(), tree->topLevelItem(i)->text(1));
    QCOMPARE(listed.value(QStringLiteral("Go to…")), QStringLiteral("Ctrl+K"));
    QCOMPARE(listed.value(QStringLiteral("Logs")), QStringLiteral("Ctrl+L"));
    QCOMPARE(listed.value(QStringLiteral("Overview")), QStringLiteral("Ctrl+1"));
    QCOMPARE(listed.value(QStringLiteral("Events")).left(6), QStringLiteral("Ctrl+E"));
    QCOMPARE(listed.value(QStringLiteral("Reconnect")), QStringLiteral("F5"));
    // Every menu item with a shortcut is there, under its menu.
    int withKeys = 0;
    for (QAction *a : w.menus()->actions()) {
        if (a->shortcuts().isEmpty())
            continue;
        ++withKeys;
        QVERIFY2(listed.contains(a->text().remove(u'&')), qPrintable(a->text()));
    }
    QVERIFY(withKeys >= 20);
    save(*dialog, QStringLiteral("shortcuts"));
    dialog->close();
}

void TestMenus::chinese()
{
    QTranslator t;
    QVERIFY(t.load(QStringLiteral("gpudesk_zh_CN"), TestPaths::qmDir()));
    QApplication::installTranslator(&t);
    const Opened o = open(QStringLiteral("sim-admin"));
    QVERIFY(o.w);
    MainWindow &w = *o.w;
    QStringList titles;
    for (QAction *a : w.menuBar()->actions())
        titles << a->text();
    QCOMPARE(titles.join(u' '),
             QStringLiteral("文件(&F) 视图(&V) 集群(&C) 节点(&N) 作业(&W) 工具(&T) "
                            "帮助(&H)"));
    QMenu *workload = menu(w, "workloadMenu");
    openMenu(workload);
    save(*workload, QStringLiteral("menu-workload-zh_CN"));
    workload->hide();
    QTest::keyClick(&w, Qt::Key_K, Qt::ControlModifier);
    auto *p = topLevel<CommandPalette>();
    QVERIFY(p);
    QTest::keyClicks(p->input(), QStringLiteral("a800-02"));
    QVERIFY2(p->results()->item(0)->text().startsWith(QStringLiteral("节点  ·  a800-02")),
             qPrintable(p->results()->item(0)->text()));
    QVERIFY2(p->count()->text().contains(QStringLiteral("个匹配")), qPrintable(p->count()->text()));
    save(*p, QStringLiteral("palette-zh_CN"));
    p->close();
    QApplication::removeTranslator(&t);
}

void TestMenus::themeColoursReadable()
{
    // The colours text says something in (error, fine, waiting) are readable on the window and
    // base colours of a light and a dark palette: WCAG's 4.5 for text.
    const auto luminance = [](const QColor &c) {
        auto lin = [](qreal v) {
            return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
    };
    const auto contrast = [&](const QColor &a, const QColor &b) {
        const qreal la = luminance(a), lb = luminance(b);
        return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
    };
    // The palettes the settings offer (theme.h): colours are defined once.
    const QPalette dark = theme::darkPalette();
    const QPalette light = theme::lightPalette();
    QVERIFY(!colors::isDark(light) && colors::isDark(dark));
    for (const QPalette &p : {light, dark}) {
        for (const QColor &text :
             {colors::errorText(p), colors::okText(p), colors::waitingText(p), colors::syntaxKey(p),
              colors::syntaxLiteral(p), colors::syntaxString(p)})
            for (const QColor &ground : {p.color(QPalette::Window), p.color(QPalette::Base)})
                QVERIFY2(contrast(text, ground) >= 4.5,
                         qPrintable(QStringLiteral("%1 on %2: %3")
                                        .arg(text.name(), ground.name())
                                        .arg(contrast(text, ground))));
    }
    // Every page in both palettes, for a person to look at (docs/screenshots.md shows them): a
    // dark grab is darker than the light one of the same page, page by page.
    const auto lightness = [](const QImage &image) {
        qint64 sum = 0;
        const QImage small = image.scaled(64, 40).convertToFormat(QImage::Format_RGB32);
        for (int y = 0; y < small.height(); ++y)
            for (int x = 0; x < small.width(); ++x)
                sum += qGray(small.pixel(x, y));
        return double(sum) / (small.width() * small.height());
    };
    QHash<int, double> lightOf;
    for (const bool isDark : {false, true}) {
        QApplication::setPalette(isDark ? dark : light);
        const Opened o = open(QStringLiteral("sim-admin"));
        QVERIFY(o.w);
        o.w->resize(1360, 820);
        // The alerts are evaluated a moment after the figures settle: shown, then grabbed.
        QTRY_VERIFY(o.c->services->alerts()->hasEvaluated());
        QTRY_VERIFY(qobject_cast<OverviewPage *>(o.w->page(MainWindow::Overview))
                        ->problemsText()
                        .contains(QLatin1String("notready")));
        for (int page = 0; page < MainWindow::PageCount; ++page) {
            o.w->showPage(MainWindow::Page(page));
            QCoreApplication::processEvents();
            const QImage image = o.w->grab().toImage();
            const QString name = QStringLiteral("%1-%2")
                                     .arg(isDark ? QStringLiteral("dark") : QStringLiteral("light"))
                                     .arg(page);
            QVERIFY(
                image.save(QStringLiteral("screenshots/theme-") + name + QStringLiteral(".png")));
            if (!isDark)
                lightOf[page] = lightness(image);
            else
                QVERIFY2(lightness(image) < lightOf[page] - 60,
                         qPrintable(QStringLiteral("page %1: %2 dark, %3 light")
                                        .arg(page)
                                        .arg(lightness(image))
                                        .arg(lightOf[page])));
        }
    }
    QApplication::setPalette(light);
}

QTEST_MAIN(TestMenus)
#include "tst_menus.moc"
