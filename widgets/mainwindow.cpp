// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "appsettings.h"
#include "noticebanner.h"
#include "pagetable.h"

#include "alerttray.h"
#include "hostkeysdialog.h"
#include "icons.h"
#include "mainmenus.h"
#include "settingsdialog.h"
#include "specfix.h"
#include "welcomepanel.h"

#include "auditdialog.h"
#include "cleanuppage.h"
#include "clustersession.h"
#include "clusterstore.h"
#include "columnfit.h"
#include "connectionstate.h"
#include "devenvspage.h"
#include "devenvsservice.h"
#include "diagnosisservice.h"
#include "eventspage.h"
#include "findingsservice.h"
#include "flattreeview.h"
#include "gpumappage.h"
#include "imagespage.h"
#include "newjobdialog.h"
#include "nodeaccess.h"
#include "nodespage.h"
#include "nodetelemetrypanel.h"
#include "objectservice.h"
#include "objectviewer.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationsservice.h"
#include "overviewpage.h"
#include "permissions.h"
#include "services.h"
#include "storagepage.h"
#include "syncprogress.h"
#include "telemetrychart.h"
#include "telemetrystore.h"
#include "userdetailpanel.h"
#include "userspage.h"
#include "usersservice.h"
#include "vcspage.h"
#include "workloadspage.h"
#include "yamleditdialog.h"

#include <QAction>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGraphicsOpacityEffect>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

namespace gpudesk {

MainWindow::MainWindow(Services *services, QWidget *parent)
    : QMainWindow(parent), m_services(services), m_state(services->state()),
      m_store(services->store()), m_telemetry(services->telemetry()),
      m_contexts(new QComboBox(this)), m_sidebar(new QListWidget(this)),
      m_pages(new QStackedWidget(this)), m_welcome(new WelcomePanel(this)),
      m_banner(new NoticeBanner(this)), m_overview(new OverviewPage(m_store, this)),
      m_nodes(new NodesPage(m_store, m_telemetry, this)), m_gpuMap(new GpuMapPage(m_store, this)),
      m_workloads(new WorkloadsPage(m_store, services->diagnoses()->book(), this)),
      m_devEnvs(new DevEnvsPage(services->devEnvs(), m_store, this)),
      m_images(new ImagesPage(services->images(), this)),
      m_users(new UsersPage(services->users(), m_store, this)),
      m_vcs(new VcsPage(services->users(), m_store, this)),
      m_cleanup(new CleanupPage(services->findings(), m_store, m_telemetry, this)),
      m_events(new EventsPage(m_store, this)),
      m_storage(new StoragePage(services->storage(), services->nasFiles(), this)),
      m_statusContext(new QLabel(this)), m_statusState(new QLabel(this)),
      m_statusSync(new QLabel(this)), m_statusSsh(new QLabel(this)), m_statusOps(new QLabel(this))
{
    m_gpuMap->setTelemetry(m_telemetry);
    m_overview->setTelemetry(m_telemetry);
    m_overview->setUsers(m_users->model());
    m_overview->setFindings(services->findings());
    m_overview->setConnection(m_state);
    m_gpuMap->setConnection(m_state);
    m_workloads->setPermissions(services->permissions());
    m_nodes->setPermissions(services->permissions());
    m_users->setPermissions(services->permissions());
    m_devEnvs->setPermissions(services->permissions());
    m_vcs->setPermissions(services->permissions());
    m_nodes->telemetryPanel()->setSshEnabled(services->session()->telemetryEnabled());
    m_cleanup->setHistory(services->history());
    // The window diagnoses failed and crash-looping pods as they come (the Reason column).
    services->diagnoses()->setAutomatic(true);
    m_workloads->setPreemptions(services->diagnoses()->preemptions());
    setWindowTitle(tr("gpudesk"));
    resize(1360, 820);

    auto *toolbar = addToolBar(tr("Cluster"));
    toolbar->setObjectName(QStringLiteral("clusterToolBar"));
    toolbar->setMovable(false);
    toolbar->addWidget(new QLabel(tr("Context:"), this));
    m_contexts->setMinimumWidth(220);
    m_contexts->setToolTip(tr("The kubeconfig context to connect to"));
    toolbar->addWidget(m_contexts);
    connect(m_contexts, &QComboBox::activated, this,
            [this](int index) { emit contextRequested(m_contexts->itemText(index)); });
    // The box follows the session, whoever connected it (the command line, a test, the box).
    auto followSession = [this] {
        const ClusterSession *session = m_services->session();
        if (session->context().isEmpty())
            return;
        if (m_contexts->findText(session->context()) < 0)
            setContexts(session->contexts(), session->context());
        else
            m_contexts->setCurrentText(session->context());
    };
    connect(m_services->session(), &ClusterSession::connectionChanged, this, followSession);
    connect(m_services->session(), &ClusterSession::contextRefused, this,
            [this, followSession](const QString &context, const QString &why) {
                followSession();
                statusBar()->showMessage(tr("Not switched to %1: %2. Still connected to %3.")
                                             .arg(context, why, m_services->session()->context()),
                                         15000);
            });
    followSession();

    const QList<PageEntry> table = pageTable();
    Q_ASSERT(table.size() == PageCount);
    for (const PageEntry &e : table) {
        auto *item = new QListWidgetItem(e.name, m_sidebar);
        item->setToolTip(e.key.isEmpty()
                             ? e.name
                             : tr("%1 (%2)").arg(e.name, e.key.toString(QKeySequence::NativeText)));
    }
    m_sidebar->setObjectName(QStringLiteral("sidebar"));
    m_sidebar->setIconSize(QSize(20, 20));
    m_sidebar->setSpacing(2);
    QFont sideFont = m_sidebar->font();
    sideFont.setPointSizeF(sideFont.pointSizeF() * 1.1);
    m_sidebar->setFont(sideFont);
    // Room for the longest name in the sidebar's font, its icon (set below) and the frame.
    int widest = 0;
    for (const PageEntry &e : table)
        widest = std::max(widest, QFontMetrics(sideFont).horizontalAdvance(e.name));
    m_sidebar->setFixedWidth(std::max(150, widest + m_sidebar->iconSize().width() + 48));
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_overview, m_nodes, m_gpuMap, m_workloads, m_devEnvs,
                                          m_images, m_users, m_vcs, m_cleanup, m_events, m_storage})
        m_pages->addWidget(w);
    connect(m_sidebar, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);

    m_banner->setObjectName(QStringLiteral("windowBanner"));
    auto *right = new QWidget(this);
    auto *rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->addWidget(m_banner);
    rl->addWidget(m_pages, 1);
    rl->addWidget(m_welcome, 1);
    m_welcome->hide();
    connect(m_welcome, &WelcomePanel::kubeconfigChosen, this, &MainWindow::useKubeconfig);
    auto *central = new QWidget(this);
    auto *cl = new QHBoxLayout(central);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->setSpacing(0);
    cl->addWidget(m_sidebar);
    cl->addWidget(right, 1);
    setCentralWidget(central);

    statusBar()->addWidget(m_statusContext);
    statusBar()->addWidget(m_statusSync, 1);
    // While collections list: how far, as a fraction where their servers said a count.
    auto *syncBar = new QProgressBar(this);
    syncBar->setObjectName(QStringLiteral("syncProgress"));
    syncBar->setMaximumWidth(160);
    syncBar->setMaximumHeight(fontMetrics().height());
    syncBar->setTextVisible(false); // the label beside it says the figures
    syncBar->hide();
    statusBar()->addWidget(syncBar);
    statusBar()->addPermanentWidget(m_statusOps);
    statusBar()->addPermanentWidget(m_statusSsh);
    statusBar()->addPermanentWidget(m_statusState);
    m_statusSsh->setObjectName(QStringLiteral("sshSummary"));
    m_statusState->setObjectName(QStringLiteral("connectionState"));
    connect(m_telemetry, &TelemetryStore::updated, this, &MainWindow::updateSshStatus);

    auto open = [this](const ObjectRef &ref, int tab) { openObject(ref, tab); };
    connect(m_nodes, &NodesPage::openRequested, this, open);
    connect(m_workloads, &WorkloadsPage::openRequested, this, open);
    connect(m_overview, &OverviewPage::showWorkloads, this, [this](int statusClass) {
        m_workloads->setStatusClass(statusClass);
        showPage(Workloads);
    });
    connect(m_gpuMap, &GpuMapPage::nodeActivated, this, [this](const QString &node) {
        showPage(Nodes);
        m_nodes->selectNode(node);
    });
    connect(m_overview, &OverviewPage::showCleanup, this, [this] { showPage(Cleanup); });
    connect(m_overview, &OverviewPage::showNode, this, [this](const QString &node) {
        showPage(Nodes);
        m_nodes->selectNode(node);
    });
    connect(m_cleanup, &CleanupPage::openRequested, this, open);
    // Pages plan through the services; the window shows (dry-run first) what they ask for.
    OperationsService *ops = services->operations();
    m_cleanup->setOperations(ops);
    m_workloads->setOperations(ops);
    m_nodes->setOperations(ops);
    connect(m_cleanup, &CleanupPage::operationRequested, this, &MainWindow::openOperation);
    connect(m_workloads, &WorkloadsPage::operationRequested, this, &MainWindow::openOperation);
    connect(m_workloads, &WorkloadsPage::rerunRequested, this, &MainWindow::rerun);
    connect(m_workloads, &WorkloadsPage::newJobRequested, this, &MainWindow::newTrainingJob);
    connect(m_workloads, &WorkloadsPage::newJobLikeRequested, this,
            &MainWindow::newTrainingJobLike);
    connect(m_nodes, &NodesPage::operationRequested, this, &MainWindow::openOperation);
    connect(m_users, &UsersPage::operationRequested, this, &MainWindow::openOperation);
    connect(m_devEnvs, &DevEnvsPage::operationRequested, this, &MainWindow::openOperation);
    connect(m_devEnvs, &DevEnvsPage::operationPrepared, this, &MainWindow::showOperation);
    connect(m_devEnvs, &DevEnvsPage::openRequested, this, open);
    connect(m_vcs, &VcsPage::operationRequested, this, &MainWindow::openOperation);
    connect(m_storage, &StoragePage::operationRequested, this, &MainWindow::openOperation);
    connect(m_images, &ImagesPage::operationPrepared, this, &MainWindow::showOperation);
    m_devEnvs->setImages(services->images());
    connect(ops, &OperationsService::operationAdded, this, [this](Operation *op) {
        connect(op, &Operation::progress, this, &MainWindow::updateOperationsStatus);
        connect(op, &Operation::finished, this, [this, op] {
            updateOperationsStatus();
            // What the Users page shows of a user is read on demand: read it again.
            if (op->plan().action.startsWith(QLatin1String("user.")))
                m_users->detail()->refresh();
            statusBar()->showMessage(tr("%1: %2").arg(op->plan().title, op->summary()), 15000);
        });
        connect(op, &QObject::destroyed, this, &MainWindow::updateOperationsStatus);
    });
    m_statusOps->setObjectName(QStringLiteral("operationsStatus"));
    NodeAccess *access = services->nodes();
    connect(m_nodes, &NodesPage::trustHostKeyRequested, this,
            [this, access](const QString &node, bool always) {
                QString error;
                if (!access->trustHostKey(node, always, &error))
                    QMessageBox::warning(this, tr("Host key"), error);
            });
    connect(m_nodes, &NodesPage::secretRequested, this, &MainWindow::askSecret);
    connect(m_nodes, &NodesPage::reviewHostKeysRequested, this, &MainWindow::reviewHostKeys);
    connect(m_nodes, &NodesPage::retryRequested, access, &NodeAccess::retryNow);
    connect(access, &NodeAccess::availabilityChanged, this, &MainWindow::updateSshStatus);
    connect(access, &NodeAccess::notice, this,
            [this](const QString &m) { statusBar()->showMessage(m, 10000); });
    m_nodes->telemetryPanel()->chart()->setHistory(services->history());
    connect(m_state, &ConnectionState::changed, this, &MainWindow::updateFromState);
    connect(m_state, &ConnectionState::changed, this, &MainWindow::updateSyncStatus);
    connect(m_state, &ConnectionState::changed, this, &MainWindow::updateSshStatus); // nodes came
    // The menus mirror the pages' buttons: made once every page has them.
    m_menus = new MainMenus(this, services);
    m_menus->fillToolBar(toolbar);
    applyIcons();
    m_alertTray = new AlertTray(services->alerts(), this);
    m_overview->setAlerts(services->alerts());
    m_overview->setGpuUse(services->gpuUse(), services->history());
    connect(m_alertTray, &AlertTray::goTo, this, &MainWindow::goTo);
    connect(m_alertTray, &AlertTray::quitRequested, this, &MainWindow::quit);
    auto alertContext = [this] { m_alertTray->setContext(m_services->session()->context()); };
    connect(m_services->session(), &ClusterSession::connectionChanged, this, alertContext);
    alertContext();
    restoreLayout();
    updateFromState();
    updateSyncStatus();
    updateSshStatus(); // a window opened after the sessions settled: no update may follow
}

MainWindow::~MainWindow() = default;

void MainWindow::updateSshStatus()
{
    const QList<NodeInfo> nodes = m_store->nodes();
    int answering = 0, needUser = 0;
    QStringList lost; // lost after answering: said at once, not once its last sample has aged
    qint64 lostSince = 0;
    for (const NodeInfo &n : nodes) {
        const SshStatus st = m_telemetry->sshStatus(n.name);
        const bool wasAnswering = m_telemetry->isFresh(n.name);
        answering += wasAnswering && (st.usable() || st.state == SshStatus::Idle) ? 1 : 0;
        needUser += st.needsUser() ? 1 : 0;
        if (st.state == SshStatus::Unreachable && m_telemetry->latest(n.name)) {
            lost << n.name;
            lostSince = lostSince ? qMin(lostSince, st.since) : st.since;
        }
    }
    if (!m_services->nodes()->available()) {
        m_statusSsh->setText(tr("Node telemetry off"));
        return;
    }
    QString text = tr("SSH: %1 of %2 nodes answering").arg(answering).arg(nodes.size());
    if (lost.size() == 1)
        text += QStringLiteral(" · ") +
                tr("%1 unreachable since %2")
                    .arg(lost.first(), QDateTime::fromMSecsSinceEpoch(lostSince).toString(
                                           QStringLiteral("HH:mm:ss")));
    else if (lost.size() > 1)
        text += QStringLiteral(" · ") + tr("%n unreachable since %1", nullptr, int(lost.size()))
                                            .arg(QDateTime::fromMSecsSinceEpoch(lostSince).toString(
                                                QStringLiteral("HH:mm:ss")));
    if (needUser > 0)
        text += QStringLiteral(" · ") + tr("%n waiting for you", nullptr, needUser);
    // SSH config keywords gpudesk does not follow stay in sight (such a node is reached otherwise).
    const QStringList warnings = m_services->session()->sshConfigWarnings();
    if (!warnings.isEmpty())
        text +=
            QStringLiteral(" · ") + tr("%n SSH config warning(s)", nullptr, int(warnings.size()));
    m_statusSsh->setText(text);
    m_statusSsh->setToolTip(warnings.join(u'\n'));
}

void MainWindow::askSecret(const QString &node, const QString &what)
{
    if (what.isEmpty())
        return;
    const bool password = what.startsWith(QLatin1String("password:"));
    QDialog dialog(this);
    dialog.setWindowTitle(password ? tr("SSH password") : tr("Key passphrase"));
    QString prompt = password ? tr("Password for %1:").arg(what.mid(9))
                              : tr("Passphrase of %1, to reach %2:").arg(what, node);
    // Asked again because the last one was wrong: say so, or it looks like it was not taken.
    if (const SshStatus st = m_telemetry->sshStatus(node); st.secretRefused && st.secretFor == what)
        prompt = st.message + u'\n' + prompt;
    auto *label = new QLabel(prompt, &dialog);
    label->setObjectName(QStringLiteral("secretPrompt"));
    label->setWordWrap(true);
    auto *edit = new QLineEdit(&dialog);
    edit->setEchoMode(QLineEdit::Password);
    auto *remember = new QCheckBox(
        tr("Remember it in the system keychain (otherwise it is kept in memory until gpudesk "
           "quits)"),
        &dialog);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *l = new QVBoxLayout(&dialog);
    l->addWidget(label);
    l->addWidget(edit);
    l->addWidget(remember);
    l->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted || edit->text().isEmpty())
        return;
    m_services->nodes()->setSecret(what, edit->text().toUtf8(), remember->isChecked());
}

QDialog *MainWindow::reviewHostKeys()
{
    if (!m_services->nodes()->available())
        return nullptr;
    // A new cluster has hundreds of unknown keys: they are compared with what the admin has
    // (an inventory, ssh-keyscan from a trusted network) in one list, not one prompt each.
    QStringList nodes;
    for (const NodeInfo &n : m_store->nodes())
        if (m_telemetry->sshStatus(n.name).state == SshStatus::HostKeyUnknown)
            nodes << n.name;
    auto *dialog = new HostKeysDialog(m_services->nodes(), m_telemetry, nodes, this);
    dialog->open();
    return dialog;
}

OperationDialog *MainWindow::openOperation(const OperationPlan &plan)
{
    return showOperation(m_services->operations()->prepare(plan));
}

OperationDialog *MainWindow::showOperation(Operation *operation)
{
    auto *dialog = new OperationDialog(operation, this);
    dialog->setObjectName(QStringLiteral("operationDialog"));
    dialog->show();
    return dialog;
}

QDialog *MainWindow::rerun(const QString &workloadKey)
{
    return rerunObject(ObjectRef::workload(*m_store, workloadKey), QString());
}

NewJobDialog *MainWindow::newTrainingJob()
{
    return openNewJobDialog(m_services->devEnvs()->defaultNamespace());
}

NewJobDialog *MainWindow::openNewJobDialog(const QString &ns)
{
    auto *dialog = new NewJobDialog(m_services, ns, this);
    dialog->setObjectName(QStringLiteral("newJobDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewJobDialog::submitted, this, [this](const QString &, const QString &name) {
        showPage(Workloads);
        m_workloads->showWorkload(name);
    });
    dialog->show();
    return dialog;
}

NewJobDialog *MainWindow::newTrainingJobLike(const QString &workloadKey)
{
    // In the job's own namespace, where its copy goes and its name is looked up.
    const auto w = m_store->workload(workloadKey);
    NewJobDialog *dialog = openNewJobDialog(w ? w->ns : m_services->devEnvs()->defaultNamespace());
    dialog->startFromWorkload(workloadKey);
    return dialog;
}

QDialog *MainWindow::rerunObject(const ObjectRef &ref, const QString &fix)
{
    if (!ref.isValid())
        return nullptr;
    // A new name, as kubectl would accept it: the old one, cut to fit, and when.
    const QString suffix =
        QStringLiteral("-r") + QDateTime::currentDateTime().toString(QStringLiteral("MMddHHmm"));
    const QString name = ref.name.left(63 - suffix.size()) + suffix;
    const QString collection = ref.apiPath.section(u'/', 0, -2);
    auto *dialog =
        new YamlEditDialog(m_services, YamlEditDialog::Create, collection, QString(), this);
    dialog->setObjectName(QStringLiteral("rerunDialog"));
    dialog->setWindowTitle(fix.isEmpty()
                               ? tr("Run %1 %2 again").arg(ref.kind, ref.name)
                               : tr("Run %1 %2 again, with the fix").arg(ref.kind, ref.name));
    m_services->objects()->fetchYaml(
        ref.apiPath, false, dialog, [dialog, name, fix](const QString &yaml, const QString &error) {
            QString e = error;
            QString copy = e.isEmpty() ? ObjectService::cloneYaml(yaml, name, &e) : QString();
            if (e.isEmpty() && !fix.isEmpty())
                copy = SpecFix::apply(fix, copy, &e);
            dialog->editor()->setPlainText(e.isEmpty() ? copy : QString());
            if (!e.isEmpty())
                dialog->editor()->setPlaceholderText(e);
        });
    dialog->show();
    return dialog;
}

QDialog *MainWindow::showAuditLog()
{
    auto *dialog = new AuditDialog(m_services->operations(), this);
    dialog->setObjectName(QStringLiteral("auditDialog"));
    dialog->show();
    return dialog;
}

void MainWindow::updateOperationsStatus()
{
    // Running operations stay in sight after their dialog is hidden.
    QStringList running;
    for (Operation *op : m_services->operations()->operations())
        if (op->state() == Operation::State::Running)
            running << tr("%1: %2 of %3")
                           .arg(op->plan().title)
                           .arg(op->ended())
                           .arg(op->plan().steps.size());
    m_statusOps->setText(running.join(QStringLiteral(" · ")));
    m_statusOps->setVisible(!running.isEmpty());
}

void MainWindow::setContexts(const QStringList &contexts, const QString &current)
{
    m_contexts->clear();
    m_contexts->addItems(contexts);
    m_contexts->setCurrentText(current);
    // A context the kubeconfig lacks (--context, a stale setting) is not shown as the first
    // one's name: the box names what was asked for, apart from the real ones.
    if (!current.isEmpty() && m_contexts->findText(current) < 0) {
        m_contexts->setCurrentIndex(-1);
        m_contexts->setPlaceholderText(tr("%1 (not in the kubeconfig)").arg(current));
    }
}

void MainWindow::showPage(Page page)
{
    m_sidebar->setCurrentRow(page);
}

MainWindow::Page MainWindow::currentPage() const
{
    return Page(std::clamp(m_sidebar->currentRow(), 0, PageCount - 1));
}

QWidget *MainWindow::page(Page page) const
{
    return m_pages->widget(page);
}

QWidget *MainWindow::openObject(const ObjectRef &ref, int tab)
{
    if (!ref.isValid())
        return nullptr;
    auto *viewer = new ObjectViewer(m_services, ref, this);
    connect(viewer, &ObjectViewer::rerunWithFix, this,
            [this, ref](const QString &fix) { rerunObject(ref, fix); });
    connect(viewer, &ObjectViewer::cordonNode, this,
            [this](const QString &node, const QString &why) {
                OperationPlan plan = m_services->operations()->planner().cordon({node}, true);
                for (PlanStep &s : plan.steps)
                    s.why = why;
                openOperation(plan);
            });
    viewer->showTab(tab);
    viewer->show();
    return viewer;
}

void MainWindow::useKubeconfig(const QString &path)
{
    ClusterSession *session = m_services->session();
    session->setKubeconfigFiles({path});
    QString why;
    if (!session->loadConfig(&why)) {
        m_services->state()->setFailed(QString(), why);
        return;
    }
    AppSettings::setKubeconfig(path);
    setContexts(session->contexts(), session->currentContext());
    session->connectTo(session->currentContext());
}

void MainWindow::updateFromState()
{
    m_statusContext->setText(m_state->context().isEmpty()
                                 ? tr("No context")
                                 : tr("Context: %1").arg(m_state->context()));
    QString banner;
    switch (m_state->state()) {
    case ConnectionState::State::Idle:
        m_statusState->setText(tr("Not connected"));
        break;
    case ConnectionState::State::Connecting:
        m_statusState->setText(tr("Connecting to %1…").arg(m_state->server()));
        break;
    case ConnectionState::State::Connected:
        m_statusState->setText(tr("Connected to %1, Kubernetes %2")
                                   .arg(m_state->server(), m_state->summary().serverVersion));
        break;
    case ConnectionState::State::Failed:
        m_statusState->setText(tr("Not connected"));
        banner = tr("Cannot connect to %1: %2").arg(m_state->context(), m_state->error());
        break;
    }
    // No kubeconfig gpudesk can use, and none picked yet: the welcome instead of empty pages.
    const bool noConfig = m_state->state() == ConnectionState::State::Failed &&
                          m_state->context().isEmpty() &&
                          m_services->session()->contexts().isEmpty();
    if (noConfig) {
        m_welcome->setProblem(m_services->session()->kubeconfigFiles(), m_state->error());
        banner.clear();
    }
    m_welcome->setVisible(noConfig);
    m_pages->setVisible(!noConfig);
    m_sidebar->setEnabled(!noConfig);
    if (!m_state->tlsVerified() && m_state->state() != ConnectionState::State::Idle)
        banner = tr("TLS verification is off for this context (insecure-skip-tls-verify): "
                    "gpudesk cannot tell this server from an impostor.");
    // Stale: the same answer everywhere — the status bar, a banner over the figures, and the
    // figures themselves greyed — until every source is live again.
    const bool stale = m_state->isStale() && m_state->state() != ConnectionState::State::Failed;
    if (stale) {
        const QString since = m_state->staleSince().toLocalTime().toString(u"HH:mm:ss");
        m_statusState->setText(tr("Not current since %1").arg(since));
        const QString staleText =
            tr("Not current since %1: %2. What you see is as of then; gpudesk keeps retrying.")
                // Reasons in the server's words often end with a full stop of their own.
                .arg(since, m_state->staleReason().endsWith(u'.')
                                ? m_state->staleReason().chopped(1)
                                : m_state->staleReason());
        banner = banner.isEmpty() ? staleText : banner + u'\n' + staleText;
    }
    if (stale != bool(m_pages->graphicsEffect())) {
        if (stale) {
            auto *grey = new QGraphicsOpacityEffect(m_pages);
            grey->setOpacity(0.55);
            m_pages->setGraphicsEffect(grey);
        } else {
            m_pages->setGraphicsEffect(nullptr);
        }
    }
    // Not connected is an error; TLS off and not current are warnings.
    m_banner->say(m_state->state() == ConnectionState::State::Failed ? NoticeBanner::Kind::Error
                                                                     : NoticeBanner::Kind::Warning,
                  banner);
}

void MainWindow::updateSyncStatus()
{
    const QList<InformerStatus> &collections = m_state->collections();
    if (collections.isEmpty() && m_state->serverError().isEmpty()) {
        m_statusSync->clear();
        if (auto *bar = findChild<QProgressBar *>(QStringLiteral("syncProgress")))
            bar->hide();
        return;
    }
    QStringList lines;
    QStringList problems;
    int live = 0;
    for (const InformerStatus &s : collections) {
        QString state;
        const QString since = s.since.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
        switch (s.state) {
        case InformerStatus::Idle:
            state = tr("idle");
            break;
        case InformerStatus::Syncing:
            state = tr("syncing");
            problems << SyncProgress::describe(s);
            break;
        case InformerStatus::Live:
            state = tr("live, %n object(s) at the last list", nullptr, s.objects);
            ++live;
            break;
        case InformerStatus::Retrying:
            state = tr("retrying since %1: %2").arg(since, s.error);
            problems << tr("%1: retrying since %2").arg(resourceName(s.resource), since);
            break;
        case InformerStatus::Unavailable:
            state = tr("not installed on this cluster");
            ++live;
            break;
        case InformerStatus::Forbidden:
            state = tr("not allowed: %1").arg(s.error);
            ++live;
            break;
        case InformerStatus::Failed:
            state = tr("failed: %1").arg(s.error);
            problems << tr("%1: failed since %2").arg(resourceName(s.resource), since);
            break;
        }
        if (!s.scope.isEmpty())
            state += u' ' + tr("(namespace %1 only)").arg(s.scope);
        lines.append(resourceName(s.resource) + QStringLiteral(": ") + state);
    }
    if (!m_state->serverError().isEmpty())
        m_statusSync->setText(tr("API server unreachable since %1")
                                  .arg(m_state->staleSince().toLocalTime().toString(u"HH:mm:ss")));
    else
        m_statusSync->setText(problems.isEmpty() ? tr("All %n collection(s) live", nullptr, live)
                                                 : problems.join(QStringLiteral("; ")));
    m_statusSync->setToolTip(lines.join(u'\n'));
    if (auto *bar = findChild<QProgressBar *>(QStringLiteral("syncProgress"))) {
        const SyncProgress progress = SyncProgress::of(collections);
        bar->setVisible(progress.syncing > 0 && m_state->serverError().isEmpty());
        bar->setRange(0, progress.determinate ? 100 : 0); // 0–0: busy, no fraction known
        bar->setValue(std::max(0, progress.percent()));
        bar->setToolTip(tr("%n collection(s) listing", nullptr, progress.syncing));
    }
    const QString podsScope = m_state->podsScope();
    m_overview->setScope(podsScope, m_state->hasVolcano());
    m_vcs->setVolcano(m_state->hasVolcano());
    const QString note =
        podsScope.isEmpty()
            ? QString()
            : tr("Your account may not list these cluster-wide; showing namespace %1 only.")
                  .arg(podsScope);
    m_workloads->setScopeNote(note);
    m_events->setScopeNote(note);
}

void MainWindow::restoreLayout()
{
    restoreGeometry(AppSettings::windowGeometry());
    restoreState(AppSettings::windowState());
    showPage(Page(std::clamp(AppSettings::windowPage(), 0, PageCount - 1)));
    // The user's own column widths win over fitting them to the data.
    for (const auto &[view, table] : savedTables()) {
        const QByteArray state = AppSettings::columns(table);
        if (!state.isEmpty() && view->horizontalHeader()->restoreState(state))
            ColumnFit::markRestored(view);
    }
    m_nodes->restoreSplit(AppSettings::nodesSplitter());
}

void MainWindow::saveLayout()
{
    AppSettings::setWindow(saveGeometry(), saveState(), m_sidebar->currentRow());
    for (const auto &[view, table] : savedTables())
        AppSettings::setColumns(table, view->horizontalHeader()->saveState());
    AppSettings::setNodesSplitter(m_nodes->splitter()->saveState());
}

QList<std::pair<QTableView *, QString>> MainWindow::savedTables() const
{
    return {{m_nodes->view(), QStringLiteral("nodes")},
            {m_workloads->view(), QStringLiteral("workloads")},
            {m_events->view(), QStringLiteral("events")}};
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    if (!m_quitting && m_alertTray->keepsWatching()) {
        // Still connected, still alerting: the tray icon brings the window back.
        hide();
        event->ignore();
        m_alertTray->tellStillWatching();
        return;
    }
    QMainWindow::closeEvent(event);
}

QDialog *MainWindow::showSettings()
{
    auto *dialog = new SettingsDialog(m_services, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

void MainWindow::applyIcons()
{
    for (const PageEntry &e : pageTable())
        if (e.page < m_sidebar->count())
            m_sidebar->item(e.page)->setIcon(icons::get(QLatin1String(e.icon), palette()));
    if (m_menus)
        m_menus->applyIcons();
}

void MainWindow::changeEvent(QEvent *event)
{
    // A theme switched light to dark: the icons are drawn in the new text colour.
    if (event->type() == QEvent::PaletteChange)
        applyIcons();
    QMainWindow::changeEvent(event);
}

void MainWindow::quit()
{
    m_quitting = true;
    close();
    QCoreApplication::quit();
}

// Where an alert's target leads (AlertCenter's "page:…" targets).
static const QHash<QString, MainWindow::Page> &pagesByTarget()
{
    static const QHash<QString, MainWindow::Page> pages{
        {QStringLiteral("page:cleanup"), MainWindow::Cleanup},
        {QStringLiteral("page:vcs"), MainWindow::Vcs},
        {QStringLiteral("page:users"), MainWindow::Users},
        {QStringLiteral("page:images"), MainWindow::Images},
        {QStringLiteral("page:storage"), MainWindow::Storage}};
    return pages;
}

void MainWindow::goTo(const QString &target)
{
    if (isMinimized())
        showNormal();
    show();
    raise();
    activateWindow();
    if (target.startsWith(QLatin1String("node:"))) {
        showPage(Nodes);
        m_nodes->selectNode(target.mid(5));
    } else if (const auto it = pagesByTarget().constFind(target); it != pagesByTarget().cend()) {
        showPage(*it);
    } else if (!target.isEmpty()) {
        showPage(Overview);
    }
}

} // namespace gpudesk
