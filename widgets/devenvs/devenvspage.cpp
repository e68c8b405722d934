// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvspage.h"

#include "noticebanner.h"

#include "palette.h"

#include "clusterstore.h"
#include "columnfit.h"
#include "devenvdialog.h"
#include "devenvsmodel.h"
#include "devenvsservice.h"
#include "format.h"
#include "imagereference.h"
#include "imagesservice.h"
#include "modelwatch.h"
#include "objectviewer.h"
#include "operation.h"
#include "permissions.h"
#include "roles.h"
#include "saveimagedialog.h"
#include "sessionspanel.h"
#include "severitydelegate.h"
#include "tablefilter.h"

#include <QDesktopServices>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gpudesk {

DevEnvsPage::DevEnvsPage(DevEnvsService *service, ClusterStore *store, QWidget *parent)
    : QWidget(parent), m_service(service), m_store(store), m_proxy(new TableFilter(this)),
      m_view(new QTableView(this)), m_headline(new QLabel(this)), m_idle(new NoticeBanner(this)),
      m_message(new QLabel(this)), m_sessions(new SessionsPanel(service->tunnels(), this)),
      m_new(new QPushButton(tr("New environment…"), this)),
      m_jupyter(new QPushButton(tr("Jupyter"), this)),
      m_shell(new QPushButton(tr("Terminal"), this)),
      m_vscode(new QPushButton(tr("VS Code"), this)),
      m_web(new QPushButton(tr("Open in browser"), this)),
      m_logs(new QPushButton(tr("Logs"), this)), m_events(new QPushButton(tr("Events"), this)),
      m_stop(new QPushButton(tr("Stop…"), this)), m_start(new QPushButton(tr("Start…"), this)),
      m_delete(new QPushButton(tr("Delete…"), this)),
      m_save(new QPushButton(tr("Save as image…"), this))
{
    m_proxy->setSourceModel(service->model());
    m_proxy->setDynamicSortFilter(true);
    m_view->setObjectName(QStringLiteral("devenvsView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(DevEnvsModel::Name, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_view->setItemDelegateForColumn(DevEnvsModel::Status, new SeverityDelegate(this));
    m_view->setItemDelegateForColumn(DevEnvsModel::IdleFor, new SeverityDelegate(this));
    m_view->horizontalHeader()->setStretchLastSection(true);
    // Why is the sentence the user reads (why it is not ready, what does not answer): it gets
    // the room. Images are long and alike up to their tag: cut in the middle, the tag kept.
    m_view->setTextElideMode(Qt::ElideMiddle);
    ColumnFit::install(m_view, DevEnvsModel::Why);

    m_headline->setObjectName(QStringLiteral("devenvsHeadline"));
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_headline->setFont(big);
    m_idle->setObjectName(QStringLiteral("devenvsIdle"));
    m_message->setObjectName(QStringLiteral("devenvsMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    auto *text = new QLineEdit(this);
    text->setPlaceholderText(tr("Filter: environment, owner, image, node…"));
    text->setClearButtonEnabled(true);
    connect(text, &QLineEdit::textChanged, m_proxy, &TableFilter::setText);

    const std::pair<QPushButton *, const char *> names[] = {
        {m_new, "newDevEnv"},       {m_jupyter, "openJupyter"}, {m_shell, "openShell"},
        {m_vscode, "openVsCode"},   {m_web, "openWeb"},         {m_logs, "devenvLogs"},
        {m_events, "devenvEvents"}, {m_stop, "stopDevEnv"},     {m_start, "startDevEnv"},
        {m_delete, "deleteDevEnv"}, {m_save, "saveDevEnvImage"}};
    for (const auto &[button, name] : names)
        button->setObjectName(QLatin1String(name));
    m_jupyter->setDefault(true);
    connect(m_new, &QPushButton::clicked, this, &DevEnvsPage::newEnvironment);
    connect(m_jupyter, &QPushButton::clicked, this, &DevEnvsPage::openJupyter);
    connect(m_shell, &QPushButton::clicked, this, &DevEnvsPage::openShell);
    connect(m_vscode, &QPushButton::clicked, this, &DevEnvsPage::openVsCode);
    connect(m_stop, &QPushButton::clicked, this, &DevEnvsPage::stop);
    connect(m_start, &QPushButton::clicked, this, &DevEnvsPage::start);
    connect(m_delete, &QPushButton::clicked, this, &DevEnvsPage::remove);
    connect(m_save, &QPushButton::clicked, this, &DevEnvsPage::saveAsImage);
    // The other web services the image serves (code-server, TensorBoard), picked from a menu.
    auto *webMenu = new QMenu(this);
    m_web->setMenu(webMenu);
    connect(webMenu, &QMenu::aboutToShow, this, [this, webMenu] {
        webMenu->clear();
        for (const auto &[name, port] : m_service->model()->services(currentKey()))
            if (name != QLatin1String("ssh") && name != QLatin1String("jupyter"))
                webMenu->addAction(QStringLiteral("%1 (%2)").arg(name).arg(port), this,
                                   [this, name = name] { openWeb(name); });
        if (webMenu->isEmpty())
            webMenu->addAction(tr("No other web service"))->setEnabled(false);
        webMenu->addSeparator();
        webMenu->addAction(tr("TensorBoard on a log folder…"), this, [this] {
            bool ok = false;
            const QString folder = QInputDialog::getText(
                this, tr("TensorBoard"),
                tr("The folder TensorBoard reads, in the environment (relative to its home):"),
                QLineEdit::Normal, m_tensorBoardDir, &ok);
            if (!ok || folder.trimmed().isEmpty())
                return;
            m_tensorBoardDir = folder.trimmed();
            if (const QString key = currentKey(); !key.isEmpty())
                m_service->openTensorBoard(key, m_tensorBoardDir);
        });
    });
    auto openObject = [this](int tab) {
        if (const ObjectRef ref = currentObject(); ref.isValid())
            emit openRequested(ref, tab);
    };
    connect(m_logs, &QPushButton::clicked, this,
            [openObject] { openObject(ObjectViewer::LogsTab); });
    connect(m_events, &QPushButton::clicked, this,
            [openObject] { openObject(ObjectViewer::EventsTab); });
    connect(m_view, &QTableView::doubleClicked, this, &DevEnvsPage::openJupyter);

    connect(m_service, &DevEnvsService::progress, this,
            [this](const QString &, const QString &text) { say(text, false); });
    connect(m_service, &DevEnvsService::failed, this,
            [this](const QString &, const QString &error) { say(error, true); });
    connect(
        m_service, &DevEnvsService::launched, this,
        [this](const QString &, const QString &what) { say(tr("Started %1.").arg(what), false); });
    connect(m_service, &DevEnvsService::jupyterReady, this,
            [this](const QString &key, const QUrl &url) {
                // The token stays in the URL handed to the browser: not shown, not kept.
                say(tr("Jupyter of %1 opens in your browser at 127.0.0.1:%2.")
                        .arg(key.section(u'/', 1))
                        .arg(url.port()),
                    false);
                QDesktopServices::openUrl(url);
            });
    connect(m_service, &DevEnvsService::serviceReady, this,
            [this](const QString &key, const QString &service, const QUrl &url) {
                say(tr("%1 of %2 opens in your browser at %3.")
                        .arg(service, key.section(u'/', 1), url.toString()),
                    false);
                QDesktopServices::openUrl(url);
            });
    connect(m_service, &DevEnvsService::volumesRead, this, [this](const QString &error) {
        if (!error.isEmpty())
            say(tr("Stopped environments could not be read: %1").arg(error), true);
    });

    auto *bar = new QHBoxLayout;
    bar->addWidget(text, 1);
    bar->addWidget(m_new);
    auto *actions = new QHBoxLayout;
    for (QPushButton *b : {m_jupyter, m_shell, m_vscode, m_web})
        actions->addWidget(b);
    actions->addSpacing(16);
    for (QPushButton *b : {m_logs, m_events})
        actions->addWidget(b);
    actions->addStretch(1);
    for (QPushButton *b : {m_save, m_stop, m_start, m_delete})
        actions->addWidget(b);
    auto *upper = new QWidget(this);
    auto *upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->addWidget(m_view, 1);
    upperLayout->addLayout(actions);
    upperLayout->addWidget(m_message);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(upper);
    split->addWidget(m_sessions);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(m_headline);
    layout->addWidget(m_idle);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        say({}, false); // what was said was of the environment selected before
        updateActions();
    });
    auto refresh = [this] {
        int running = 0, waiting = 0, stopped = 0, gpus = 0, idle = 0, idleGpus = 0;
        const DevEnvsModel *model = m_service->model();
        for (const QString &key : model->keys()) {
            const PodInfo *p = model->currentPod(key);
            if (p && !p->finished() && !p->deleting) {
                ++(p->phase == QLatin1String("Running") ? running : waiting);
                if (!p->nodeName.isEmpty())
                    gpus += p->gpuRequest;
                if (model->idle(key).flagged) {
                    ++idle;
                    idleGpus += p->gpuRequest;
                }
            } else if (model->volume(key)) {
                ++stopped;
            }
        }
        m_headline->setText(
            tr("%n running, %1 starting or waiting, %2 stopped · %3 GPUs held", nullptr, running)
                .arg(waiting)
                .arg(stopped)
                .arg(gpus));
        // Flagged to whoever sees them: their owner first of all.
        if (idle == 0)
            m_idle->say(NoticeBanner::Kind::Warning, {});
        else
            m_idle->say(NoticeBanner::Kind::Warning,
                        tr("%n environment(s) idle for over %1 hold %2 GPU(s): stop what you "
                           "do not use, so that others can have them (home volumes are "
                           "kept).",
                           nullptr, idle)
                            .arg(format::age(1, 1 + model->idleAfterMs()))
                            .arg(idleGpus));
        updateActions();
    };
    onModelChanged(m_service->model(), this, refresh);
    refresh();
}

DevEnvsModel *DevEnvsPage::model() const
{
    return m_service->model();
}

void DevEnvsPage::setPermissions(Permissions *permissions)
{
    m_permissions = permissions;
    connect(permissions, &Permissions::changed, this, &DevEnvsPage::updateActions);
    updateActions();
}

ObjectRef DevEnvsPage::currentObject() const
{
    const PodInfo *pod = m_service->model()->currentPod(currentKey());
    return pod ? ObjectRef::pod(*m_store, pod->uid) : ObjectRef();
}

QString DevEnvsPage::currentKey() const
{
    const QModelIndex i = m_view->currentIndex();
    return i.isValid() ? i.data(KeyRole).toString() : QString();
}

void DevEnvsPage::selectEnvironment(const QString &key)
{
    const int row = model()->rowOf(key);
    if (row < 0)
        return;
    const QModelIndex i = m_proxy->mapFromSource(model()->index(row, 0));
    m_view->setCurrentIndex(i);
    m_view->scrollTo(i);
}

QString DevEnvsPage::denied(const QString &verb, const QString &resource, const QString &sub) const
{
    if (!m_permissions)
        return {};
    Permissions::Check c;
    c.verb = verb;
    c.resource = resource;
    c.subresource = sub;
    c.ns = currentKey().section(u'/', 0, 0);
    if (c.ns.isEmpty())
        c.ns = m_service->defaultNamespace();
    if (m_permissions->ask(c) != Permissions::Answer::Denied)
        return {};
    const QString reason = m_permissions->reason(c);
    return reason.isEmpty() ? tr("you may not %1 %2").arg(verb, resource) : reason;
}

void DevEnvsPage::updateActions()
{
    const QString key = currentKey();
    const PodInfo *pod = key.isEmpty() ? nullptr : model()->currentPod(key);
    const bool running = pod && !pod->finished() && !pod->deleting;
    const bool ready = running && pod->phase == QLatin1String("Running");
    QSet<QString> services;
    for (const auto &[name, port] : model()->services(key))
        services.insert(name);
    auto set = [](QPushButton *b, bool on, const QString &no, const QString &tip) {
        b->setEnabled(on && no.isEmpty());
        b->setToolTip(!no.isEmpty() ? tr("Not allowed: %1").arg(no) : tip);
    };
    const QString forward =
        denied(QStringLiteral("create"), QStringLiteral("pods"), QStringLiteral("portforward"));
    set(m_new, true, denied(QStringLiteral("create"), QStringLiteral("pods")),
        tr("A new environment: image, GPUs, memory, shared memory, volumes"));
    set(m_jupyter, ready && services.contains(QStringLiteral("jupyter")),
        forward.isEmpty()
            ? denied(QStringLiteral("create"), QStringLiteral("pods"), QStringLiteral("exec"))
            : forward,
        services.contains(QStringLiteral("jupyter"))
            ? tr("Open JupyterLab in your browser, through a tunnel that follows the pod")
            : tr("This environment serves no Jupyter"));
    // ssh where the image runs sshd; else a shell over the API's exec.
    if (services.contains(QStringLiteral("ssh")))
        set(m_shell, ready, forward, tr("A terminal with ssh into the environment"));
    else
        set(m_shell, ready,
            denied(QStringLiteral("create"), QStringLiteral("pods"), QStringLiteral("exec")),
            tr("A terminal with a shell in the environment over the API's exec (its image runs "
               "no SSH server)"));
    set(m_vscode, ready && services.contains(QStringLiteral("ssh")), forward,
        tr("VS Code with Remote-SSH into the environment"));
    set(m_web, ready, forward, tr("code-server, TensorBoard: a web service of the environment"));
    m_logs->setEnabled(pod);
    m_events->setEnabled(pod);
    set(m_stop, running, denied(QStringLiteral("delete"), QStringLiteral("pods")),
        tr("Delete the pod and free its GPUs; the home volume stays"));
    set(m_start, !key.isEmpty() && !running && model()->volume(key),
        denied(QStringLiteral("create"), QStringLiteral("pods")),
        tr("Make the environment again with its home volume"));
    // The commit runs on the node: without SSH to the nodes it cannot, and the button says so.
    set(m_save, ready && m_images,
        m_service->reachesNodes()
            ? QString()
            : tr("gpudesk reaches no node over SSH for this context (node telemetry is off)"),
        tr("Commit the environment's container on its node and push it to a registry: a new "
           "environment can start from it"));
    set(m_delete, !key.isEmpty(), denied(QStringLiteral("delete"), QStringLiteral("pods")),
        tr("Delete the environment and its home volume"));
}

void DevEnvsPage::say(const QString &text, bool error)
{
    m_message->setText(text);
    showAsError(m_message, error);
    m_message->setVisible(!text.isEmpty());
}

DevEnvDialog *DevEnvsPage::newEnvironment()
{
    auto *d = new DevEnvDialog(m_store, m_service->defaultNamespace(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setImages(m_images);
    connect(d, &QDialog::accepted, this,
            [this, d] { emit operationRequested(m_service->planner().create(d->spec())); });
    d->open();
    return d;
}

void DevEnvsPage::openJupyter()
{
    if (const QString key = currentKey(); !key.isEmpty())
        m_service->openJupyter(key);
}

void DevEnvsPage::openWeb(const QString &service)
{
    if (const QString key = currentKey(); !key.isEmpty())
        m_service->openWebService(key, service);
}

void DevEnvsPage::openShell()
{
    const QString key = currentKey();
    if (key.isEmpty())
        return;
    for (const auto &[name, port] : model()->services(key))
        if (name == QLatin1String("ssh")) {
            m_service->openShell(key);
            return;
        }
    m_service->openExec(key);
}

void DevEnvsPage::openVsCode()
{
    const QString key = currentKey();
    if (key.isEmpty())
        return;
    // Remote-SSH finds hosts in ~/.ssh/config only: the Include line is the user's to allow.
    const QString userConfig = QDir::homePath() + QStringLiteral("/.ssh/config");
    if (!DevEnvsService::sshConfigIncludes(userConfig, m_service->sshConfigPath())) {
        auto *ask = new QMessageBox(
            QMessageBox::Question, tr("Let VS Code find the environment"),
            tr("VS Code reads hosts from %1 only. Add the line “Include %2” at its top, so that it "
               "finds the environments gpudesk writes there?")
                .arg(userConfig, m_service->sshConfigPath()),
            QMessageBox::Yes | QMessageBox::No, this);
        ask->setObjectName(QStringLiteral("includeQuestion"));
        ask->setAttribute(Qt::WA_DeleteOnClose);
        connect(ask, &QMessageBox::finished, this, [this, key, userConfig](int answer) {
            if (answer == QMessageBox::Yes) {
                QString error;
                if (!DevEnvsService::addSshInclude(userConfig, m_service->sshConfigPath(),
                                                   &error)) {
                    say(error, true);
                    return;
                }
            }
            m_service->openVsCode(key, {});
        });
        ask->open();
        return;
    }
    m_service->openVsCode(key, {});
}

void DevEnvsPage::stop()
{
    say({}, false);
    if (const QString key = currentKey(); !key.isEmpty())
        emit operationRequested(m_service->planner().stop(key));
}

void DevEnvsPage::start()
{
    say({}, false);
    if (const QString key = currentKey(); !key.isEmpty())
        emit operationRequested(m_service->planner().start(key));
}

void DevEnvsPage::remove()
{
    say({}, false);
    if (const QString key = currentKey(); !key.isEmpty())
        emit operationRequested(m_service->planner().remove(key));
}

SaveImageDialog *DevEnvsPage::saveAsImage()
{
    say({}, false);
    const QString key = currentKey();
    const PodInfo *pod = key.isEmpty() ? nullptr : model()->currentPod(key);
    if (!pod || !m_images)
        return nullptr;
    SaveImageRequest base;
    base.env = key.section(u'/', 1);
    base.podUid = pod->uid;
    base.ns = pod->ns;
    base.pod = pod->name;
    base.container = pod->containers.value(0);
    base.node = pod->nodeName;
    base.phase = pod->phase;
    base.owner = pod->ns.startsWith(QLatin1String("user-")) ? pod->ns.mid(5) : pod->ns;
    if (const NodeInfo *n = m_store->node(pod->nodeName))
        base.runtime = n->containerRuntime;
    // To start with: the registry the environment's image came from, the owner's repository.
    base.registry = ImageReference::parse(pod->image).registry;
    base.repository = base.owner + u'/' + base.env;
    auto *d = new SaveImageDialog(base, m_images->registries(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &QDialog::accepted, this, [this, d, env = base.env] {
        const SaveImageRequest request = d->request();
        say(tr("Reading %1 in the registry…").arg(d->reference()), false);
        m_images->prepareSave(request, this, [this, env](Operation *op, const QString &error) {
            if (!op) {
                say(error, true);
                return;
            }
            say({}, false);
            connect(op, &Operation::finished, this, [this, op, env] {
                const StepOutcome o = op->outcomes().value(0);
                say(o.result == StepOutcome::Result::Done
                        ? tr("%1 %2").arg(env, o.message)
                        : tr("%1 was not saved: %2").arg(env, o.message),
                    o.result != StepOutcome::Result::Done);
            });
            emit operationPrepared(op);
        });
    });
    d->open();
    return d;
}

} // namespace gpudesk
