// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainmenus.h"

#include "pagetable.h"

#include "cleanuppage.h"
#include "clustersession.h"
#include "clusterstore.h"
#include "commandpalette.h"
#include "devenvspage.h"
#include "icons.h"
#include "nodespage.h"
#include "palettesource.h"
#include "services.h"
#include "shortcutsdialog.h"
#include "userspage.h"
#include "vcspage.h"
#include "welcomepanel.h"
#include "workloadspage.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

namespace gpudesk {

namespace {

QString plain(QString text)
{
    return text.remove(u'&');
}

} // namespace

MainMenus::MainMenus(MainWindow *window, Services *services)
    : QObject(window), m_window(window), m_services(services)
{
    buildFile();
    buildView();
    buildCluster();
    buildNode();
    buildWorkload();
    buildTools();
    buildHelp();
    applyIcons();
}

void MainMenus::applyIcons()
{
    static const char *const pages[] = {"overview", "nodes", "gpumap", "workloads", "devenvs",
                                        "images",   "users", "vcs",    "cleanup",   "events"};
    static const std::pair<const char *, const char *> named[] = {
        {"reconnectAction", "reconnect"}, {"paletteAction", "search"}, {"auditAction", "audit"},
        {"settingsAction", "settings"},   {"quitAction", "quit"},      {"logsAction", "logs"},
        {"eventsAction", "events"},       {"yamlAction", "yaml"},      {"cleanupAction", "cleanup"},
        {"filterAction", "search"}};
    for (QAction *a : actions()) {
        const QString name = a->objectName();
        for (const auto &[action, icon] : named)
            if (name == QLatin1String(action))
                a->setIcon(icons::get(QLatin1String(icon), m_window->palette()));
        if (name.startsWith(QLatin1String("page")) && name.size() == 5)
            a->setIcon(
                icons::get(QLatin1String(pages[name.back().digitValue()]), m_window->palette()));
    }
}

QMenu *MainMenus::addMenu(const QString &title, const char *name)
{
    QMenu *menu = m_window->menuBar()->addMenu(title);
    menu->setObjectName(QLatin1String(name));
    // A disabled item says why in its tooltip (the page's button's reason).
    menu->setToolTipsVisible(true);
    connect(menu, &QMenu::aboutToShow, this, [this] {
        for (const Mirror &m : std::as_const(m_mirrors)) {
            if (!m.button)
                continue;
            m.action->setEnabled(m.button->isEnabled());
            m.action->setToolTip(m.button->toolTip());
        }
        const bool object = currentObject().isValid();
        for (QAction *a : std::as_const(m_objectActions))
            a->setEnabled(object);
    });
    // Between menus every item stays enabled, so that its shortcut always arrives and a refusal
    // is said in the status bar instead of a key that silently does nothing.
    connect(menu, &QMenu::aboutToHide, this, [this] {
        for (const Mirror &m : std::as_const(m_mirrors))
            m.action->setEnabled(true);
        for (QAction *a : std::as_const(m_objectActions))
            a->setEnabled(true);
    });
    return menu;
}

QAction *MainMenus::add(QMenu *menu, const QString &text, const char *name, const QKeySequence &key)
{
    QAction *a = menu->addAction(text);
    a->setObjectName(QLatin1String(name));
    if (!key.isEmpty())
        a->setShortcut(key);
    return a;
}

QAction *MainMenus::mirror(QMenu *menu, MainWindow::Page page, const char *button,
                           const QString &text, const QKeySequence &key)
{
    auto *target = m_window->page(page)->findChild<QAbstractButton *>(QLatin1String(button));
    Q_ASSERT_X(target, "MainMenus::mirror", button);
    QAction *a = add(menu, text, QByteArray(button).append("Action").constData(), key);
    m_mirrors.append({a, target});
    connect(a, &QAction::triggered, this, [this, page, target = QPointer(target), a] {
        m_window->showPage(page);
        if (!target)
            return;
        if (target->isEnabled()) {
            target->click();
            return;
        }
        const QString why = target->toolTip();
        m_window->statusBar()->showMessage(
            why.isEmpty() ? tr("%1: not possible now.").arg(plain(a->text()))
                          : tr("%1: not possible now. %2").arg(plain(a->text()), why),
            10000);
    });
    return a;
}

void MainMenus::buildFile()
{
    QMenu *file = addMenu(tr("&File"), "fileMenu");
    QAction *open = add(file, tr("Open kubeconfig…"), "openKubeconfigAction", QKeySequence::Open);
    connect(open, &QAction::triggered, this, [this] {
        if (const QString path = WelcomePanel::askForKubeconfig(m_window); !path.isEmpty())
            m_window->useKubeconfig(path);
    });
    QAction *settings = add(file, tr("Settings…"), "settingsAction", QKeySequence(tr("Ctrl+,")));
    settings->setMenuRole(QAction::PreferencesRole);
    connect(settings, &QAction::triggered, m_window, &MainWindow::showSettings);
    file->addSeparator();
    QAction *quit = add(file, tr("Quit"), "quitAction", QKeySequence::Quit);
    if (quit->shortcut().isEmpty()) // the platform has none for it (no desktop theme)
        quit->setShortcut(QKeySequence(tr("Ctrl+Q")));
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, m_window, &MainWindow::quit);
}

void MainMenus::buildView()
{
    QMenu *view = addMenu(tr("&View"), "viewMenu");
    for (const PageEntry &e : pageTable()) {
        QAction *a = add(view, e.name,
                         QByteArray("page").append(QByteArray::number(e.page)).constData(), e.key);
        connect(a, &QAction::triggered, this,
                [this, p = e.page] { m_window->showPage(MainWindow::Page(p)); });
    }
    view->addSeparator();
    QAction *full = add(view, tr("Full screen"), "fullScreenAction", QKeySequence::FullScreen);
    full->setCheckable(true);
    connect(full, &QAction::toggled, this, [this](bool on) {
        m_window->setWindowState(on ? m_window->windowState() | Qt::WindowFullScreen
                                    : m_window->windowState() & ~Qt::WindowFullScreen);
    });
}

void MainMenus::buildCluster()
{
    QMenu *cluster = addMenu(tr("&Cluster"), "clusterMenu");
    m_reconnect = add(cluster, tr("Reconnect"), "reconnectAction", QKeySequence::Refresh);
    m_reconnect->setToolTip(tr("Connect to the context again and list everything afresh"));
    connect(m_reconnect, &QAction::triggered, m_window, &MainWindow::reconnectRequested);
    QMenu *contexts = cluster->addMenu(tr("Context"));
    contexts->setObjectName(QStringLiteral("contextMenu"));
    contexts->addAction(tr("No kubeconfig read"))->setEnabled(false);
    connect(contexts, &QMenu::aboutToShow, this, [this, contexts] {
        contexts->clear();
        const ClusterSession *session = m_services->session();
        for (const QString &c : session->contexts()) {
            QAction *a = contexts->addAction(c);
            a->setCheckable(true);
            a->setChecked(c == session->context());
            connect(a, &QAction::triggered, m_window,
                    [this, c] { emit m_window->contextRequested(c); });
        }
        if (contexts->isEmpty())
            contexts->addAction(tr("No kubeconfig read"))->setEnabled(false);
    });
    cluster->addSeparator();
    mirror(cluster, MainWindow::Users, "newUser", tr("New user…"));
    mirror(cluster, MainWindow::Users, "importUsers", tr("Import users from CSV…"));
    mirror(cluster, MainWindow::Vcs, "newVc", tr("New VC…"));
    cluster->addSeparator();
    QAction *keys = add(cluster, tr("Review unknown host keys…"), "reviewHostKeysAction");
    connect(keys, &QAction::triggered, m_window, &MainWindow::reviewHostKeys);
}

void MainMenus::buildNode()
{
    // The selected node's actions, as the Nodes page offers them (with its permission checks),
    // made afresh each time: they name the node and follow its state (cordon or uncordon).
    QMenu *node = addMenu(tr("&Node"), "nodeMenu");
    node->addAction(tr("No node selected"))->setEnabled(false);
    connect(node, &QMenu::aboutToShow, this, [this, node] {
        node->clear();
        auto *nodes = qobject_cast<NodesPage *>(m_window->page(MainWindow::Nodes));
        nodes->addNodeActions(node, nodes->currentNode());
    });
}

void MainMenus::buildWorkload()
{
    QMenu *workload = addMenu(tr("&Workload"), "workloadMenu");
    const std::tuple<QString, const char *, QKeySequence, int> views[] = {
        {tr("Logs"), "logsAction", QKeySequence(tr("Ctrl+L")), WorkloadsPage::LogsTab},
        {tr("Events"), "eventsAction", QKeySequence(tr("Ctrl+E")), WorkloadsPage::EventsTab},
        {tr("YAML"), "yamlAction", QKeySequence(tr("Ctrl+Y")), WorkloadsPage::YamlTab}};
    for (const auto &[text, name, key, tab] : views) {
        QAction *a = add(workload, text, name, key);
        a->setToolTip(tr("Of the selected pod, job, node or dev environment"));
        connect(a, &QAction::triggered, this, [this, tab = tab] { openCurrent(tab); });
        m_objectActions << a;
    }
    QMenu *selected = workload->addMenu(tr("Selected workloads"));
    selected->setObjectName(QStringLiteral("selectedWorkloadsMenu"));
    selected->addAction(tr("No workload selected"))->setEnabled(false);
    connect(selected, &QMenu::aboutToShow, this, [this, selected] {
        selected->clear();
        // Acts only on what the user sees selected: from another page, a selection made on
        // the Workloads page earlier is out of sight (issue 35: Stop acted on it from Images).
        if (m_window->currentPage() != MainWindow::Workloads) {
            selected->addAction(tr("Select workloads on the Workloads page"))->setEnabled(false);
            connect(selected->addAction(tr("Go to Workloads")), &QAction::triggered, this,
                    [this] { m_window->showPage(MainWindow::Workloads); });
            return;
        }
        qobject_cast<WorkloadsPage *>(m_window->page(MainWindow::Workloads))
            ->addWorkloadActions(selected);
    });
    workload->addSeparator();
    mirror(workload, MainWindow::Workloads, "newTrainingJob", tr("New training job…"));
    mirror(workload, MainWindow::DevEnvs, "newDevEnv", tr("New dev environment…"),
           QKeySequence::New);
    mirror(workload, MainWindow::DevEnvs, "openJupyter", tr("Open Jupyter"));
    mirror(workload, MainWindow::DevEnvs, "openShell", tr("Open a terminal"));
    mirror(workload, MainWindow::DevEnvs, "openVsCode", tr("Open in VS Code"));
    mirror(workload, MainWindow::DevEnvs, "saveDevEnvImage", tr("Save dev environment as image…"));
    mirror(workload, MainWindow::DevEnvs, "stopDevEnv", tr("Stop dev environment…"));
    mirror(workload, MainWindow::DevEnvs, "startDevEnv", tr("Start dev environment…"));
    mirror(workload, MainWindow::DevEnvs, "deleteDevEnv", tr("Delete dev environment…"));
}

void MainMenus::buildTools()
{
    QMenu *tools = addMenu(tr("&Tools"), "toolsMenu");
    m_palette = add(tools, tr("Go to…"), "paletteAction", QKeySequence(tr("Ctrl+K")));
    m_palette->setToolTip(tr("Type a node, pod, job, user, VC or action and go there (Ctrl+K)"));
    connect(m_palette, &QAction::triggered, this, &MainMenus::openPalette);
    QAction *find = add(tools, tr("Filter this page"), "filterAction", QKeySequence::Find);
    connect(find, &QAction::triggered, this, &MainMenus::focusFilter);
    tools->addSeparator();
    QAction *cleanup = add(tools, tr("Zombie and idle tasks"), "cleanupAction");
    connect(cleanup, &QAction::triggered, this,
            [this] { m_window->showPage(MainWindow::Cleanup); });
    mirror(tools, MainWindow::Images, "addRegistry", tr("Add registry…"));
    mirror(tools, MainWindow::Images, "readRegistry", tr("Read the registry again"));
    mirror(tools, MainWindow::Images, "shareImage", tr("Share image…"));
    mirror(tools, MainWindow::Images, "deleteImage", tr("Delete images…"));
    mirror(tools, MainWindow::Images, "harborGc", tr("Harbor garbage collection…"));
    tools->addSeparator();
    m_audit = add(tools, tr("Audit log"), "auditAction", QKeySequence(tr("Ctrl+Shift+A")));
    m_audit->setToolTip(tr("What gpudesk did to clusters and nodes, by whom, with what result"));
    connect(m_audit, &QAction::triggered, m_window, &MainWindow::showAuditLog);
}

void MainMenus::buildHelp()
{
    QMenu *help = addMenu(tr("&Help"), "helpMenu");
    QAction *keys = add(help, tr("Keyboard shortcuts"), "shortcutsAction");
    keys->setShortcuts({QKeySequence::HelpContents, QKeySequence(tr("Ctrl+/"))});
    connect(keys, &QAction::triggered, this, &MainMenus::showShortcuts);
    help->addSeparator();
    QAction *about = add(help, tr("About gpudesk"), "aboutAction");
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            m_window, tr("About gpudesk"),
            tr("<h3>gpudesk %1</h3><p>A desktop console for GPU training clusters on "
               "Kubernetes: nodes, cards and processes; users and virtual clusters; zombie "
               "tasks; dev environments; images.</p><p>Licensed under the GNU GPL, version 3 "
               "or later.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });
    QAction *qt = add(help, tr("About Qt"), "aboutQtAction");
    qt->setMenuRole(QAction::AboutQtRole);
    connect(qt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void MainMenus::fillToolBar(QToolBar *toolbar)
{
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(m_reconnect);
    toolbar->addSeparator();
    toolbar->addAction(m_palette);
    toolbar->addAction(m_audit);
}

QList<QAction *> MainMenus::actions() const
{
    QList<QAction *> out;
    std::function<void(const QList<QAction *> &)> walk = [&](const QList<QAction *> &list) {
        for (QAction *a : list) {
            if (a->isSeparator())
                continue;
            if (a->menu())
                walk(a->menu()->actions());
            else
                out << a;
        }
    };
    walk(m_window->menuBar()->actions());
    return out;
}

QString MainMenus::pathOf(const QAction *action) const
{
    QStringList path;
    std::function<bool(const QList<QAction *> &)> find = [&](const QList<QAction *> &list) {
        for (QAction *a : list) {
            if (a == action || (a->menu() && find(a->menu()->actions()))) {
                path.prepend(plain(a->text()));
                return true;
            }
        }
        return false;
    };
    find(m_window->menuBar()->actions());
    return path.join(QStringLiteral(" › "));
}

QAction *MainMenus::action(const QString &objectName) const
{
    for (QAction *a : actions())
        if (a->objectName() == objectName)
            return a;
    return nullptr;
}

ObjectRef MainMenus::currentObject() const
{
    switch (m_window->currentPage()) {
    case MainWindow::Workloads:
        return qobject_cast<WorkloadsPage *>(m_window->page(MainWindow::Workloads))
            ->currentObject();
    case MainWindow::Cleanup:
        return qobject_cast<CleanupPage *>(m_window->page(MainWindow::Cleanup))->currentObject();
    case MainWindow::DevEnvs:
        return qobject_cast<DevEnvsPage *>(m_window->page(MainWindow::DevEnvs))->currentObject();
    case MainWindow::Nodes: {
        const QString node =
            qobject_cast<NodesPage *>(m_window->page(MainWindow::Nodes))->currentNode();
        return node.isEmpty() ? ObjectRef() : ObjectRef::node(*m_services->store(), node);
    }
    default:
        return {};
    }
}

void MainMenus::openCurrent(int tab)
{
    const ObjectRef ref = currentObject();
    if (!ref.isValid()) {
        m_window->statusBar()->showMessage(
            tr("Select a pod, job, node or dev environment first (on the Workloads, Nodes, "
               "Cleanup or Dev environments page)."),
            10000);
        return;
    }
    // A node has no logs of its own: its events instead.
    m_window->openObject(ref, tab == WorkloadsPage::LogsTab && ref.kind == QLatin1String("Node")
                                  ? int(WorkloadsPage::EventsTab)
                                  : tab);
}

void MainMenus::focusFilter()
{
    QWidget *page = m_window->page(m_window->currentPage());
    for (QLineEdit *edit : page->findChildren<QLineEdit *>()) {
        if (edit->isClearButtonEnabled() && edit->isVisibleTo(page)) {
            edit->setFocus(Qt::ShortcutFocusReason);
            edit->selectAll();
            return;
        }
    }
}

CommandPalette *MainMenus::openPalette()
{
    auto *palette = new CommandPalette(
        paletteEntries(), [this](const PaletteEntry &e) { activate(e); }, m_window);
    palette->show();
    palette->input()->setFocus();
    return palette;
}

QList<PaletteEntry> MainMenus::paletteEntries() const
{
    QList<PaletteEntry> out;
    for (QAction *a : actions()) {
        // Named actions only: the placeholders of the menus made when they open ("No node
        // selected") and those menus' own items, gone when they close, are not offered.
        if (a == m_palette || a->objectName().isEmpty())
            continue;
        QString detail = pathOf(a).section(QStringLiteral(" › "), 0, -2);
        if (!a->shortcut().isEmpty())
            detail += QStringLiteral("  ") + a->shortcut().toString(QKeySequence::NativeText);
        out.append({PaletteEntry::Action, plain(a->text()), detail, a->objectName()});
    }
    out.append(PaletteSource::objects(*m_services->store()));
    return out;
}

void MainMenus::activate(const PaletteEntry &e)
{
    ClusterStore *store = m_services->store();
    switch (e.kind) {
    case PaletteEntry::Action:
        if (QAction *a = action(e.key))
            a->trigger();
        break;
    case PaletteEntry::Node:
        m_window->showPage(MainWindow::Nodes);
        qobject_cast<NodesPage *>(m_window->page(MainWindow::Nodes))->selectNode(e.key);
        break;
    case PaletteEntry::Job:
        m_window->openObject(ObjectRef::workload(*store, e.key), WorkloadsPage::LogsTab);
        break;
    case PaletteEntry::Pod:
        m_window->openObject(ObjectRef::pod(*store, e.key), WorkloadsPage::LogsTab);
        break;
    case PaletteEntry::User:
        m_window->showPage(MainWindow::Users);
        qobject_cast<UsersPage *>(m_window->page(MainWindow::Users))->selectUser(e.key);
        break;
    case PaletteEntry::Vc:
        m_window->showPage(MainWindow::Vcs);
        qobject_cast<VcsPage *>(m_window->page(MainWindow::Vcs))->selectVc(e.key);
        break;
    }
}

QDialog *MainMenus::showShortcuts()
{
    QList<std::pair<QString, QAction *>> list;
    for (QAction *a : actions())
        list.append({pathOf(a).section(QStringLiteral(" › "), 0, 0), a});
    auto *dialog = new ShortcutsDialog(list, m_window);
    dialog->show();
    return dialog;
}

} // namespace gpudesk
