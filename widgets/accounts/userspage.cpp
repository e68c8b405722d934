// SPDX-License-Identifier: GPL-3.0-or-later
#include "userspage.h"

#include "bardelegate.h"
#include "clusterstore.h"
#include "columnfit.h"
#include "csvimportdialog.h"
#include "kubeconfigdialog.h"
#include "modelwatch.h"
#include "permissions.h"
#include "quotadialog.h"
#include "severitydelegate.h"
#include "tablefilter.h"
#include "userdetailpanel.h"
#include "userdialog.h"
#include "usersmodel.h"
#include "usersservice.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gpudesk {

UsersPage::UsersPage(UsersService *users, ClusterStore *store, QWidget *parent)
    : QWidget(parent), m_users(users), m_store(store), m_model(new UsersModel(store, this)),
      m_proxy(new TableFilter(this)), m_view(new QTableView(this)), m_vcFilter(new QComboBox(this)),
      m_headline(new QLabel(this)), m_detail(new UserDetailPanel(users, m_model, this)),
      m_new(new QPushButton(tr("New user…"), this)),
      m_import(new QPushButton(tr("From CSV…"), this)),
      m_quota(new QPushButton(tr("Quota…"), this)),
      m_move(new QPushButton(tr("Move to VC…"), this)),
      m_enable(new QPushButton(tr("Disable…"), this)),
      m_delete(new QPushButton(tr("Delete…"), this)),
      m_kubeconfig(new QPushButton(tr("Kubeconfig…"), this)),
      m_revoke(new QPushButton(tr("Revoke tokens…"), this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setDynamicSortFilter(true);
    m_view->setObjectName(QStringLiteral("usersView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(UsersModel::User, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    auto *bars = new BarDelegate(this);
    for (int c : {int(UsersModel::GpuQuota), int(UsersModel::CpuQuota),
                  int(UsersModel::MemoryQuota), int(UsersModel::PodsQuota)})
        m_view->setItemDelegateForColumn(c, bars);
    auto *severity = new SeverityDelegate(this);
    m_view->setItemDelegateForColumn(UsersModel::State, severity);
    m_view->setItemDelegateForColumn(UsersModel::Problems, severity);
    ColumnFit::install(m_view, UsersModel::Namespace);

    m_headline->setObjectName(QStringLiteral("usersHeadline"));
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_headline->setFont(big);
    auto *text = new QLineEdit(this);
    text->setPlaceholderText(tr("Filter: user, namespace, VC…"));
    text->setClearButtonEnabled(true);
    connect(text, &QLineEdit::textChanged, m_proxy, &TableFilter::setText);
    m_vcFilter->setObjectName(QStringLiteral("usersVcFilter"));
    m_vcFilter->addItem(tr("All VCs"), QString());
    connect(m_vcFilter, &QComboBox::currentIndexChanged, this, [this] {
        const QString vc = m_vcFilter->currentData().toString();
        m_proxy->setMatch(VcRole, vc.isEmpty() ? QVariant() : QVariant(vc));
    });

    const std::pair<QPushButton *, const char *> names[] = {
        {m_new, "newUser"},           {m_import, "importUsers"}, {m_quota, "editQuota"},
        {m_move, "moveUser"},         {m_enable, "toggleUser"},  {m_delete, "deleteUser"},
        {m_kubeconfig, "kubeconfig"}, {m_revoke, "revokeTokens"}};
    for (const auto &[button, name] : names)
        button->setObjectName(QLatin1String(name));
    connect(m_new, &QPushButton::clicked, this, &UsersPage::newUser);
    connect(m_import, &QPushButton::clicked, this, [this] { importCsv(); });
    connect(m_quota, &QPushButton::clicked, this, &UsersPage::editQuota);
    connect(m_move, &QPushButton::clicked, this, &UsersPage::moveToVc);
    connect(m_enable, &QPushButton::clicked, this, &UsersPage::toggleEnabled);
    connect(m_delete, &QPushButton::clicked, this, &UsersPage::deleteUser);
    connect(m_kubeconfig, &QPushButton::clicked, this, &UsersPage::handOutKubeconfig);
    connect(m_revoke, &QPushButton::clicked, this, &UsersPage::revokeTokens);
    connect(m_detail, &UserDetailPanel::repairRequested, this, [this](const UserObjects &u) {
        emit operationRequested(m_users->planner().repair(u));
    });

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_vcFilter);
    bar->addWidget(text, 1);
    bar->addWidget(m_new);
    bar->addWidget(m_import);
    auto *actions = new QHBoxLayout;
    for (QPushButton *b : {m_quota, m_move, m_enable, m_kubeconfig, m_revoke, m_delete})
        actions->addWidget(b);
    actions->addStretch(1);
    auto *lower = new QWidget(this);
    auto *lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addLayout(actions);
    lowerLayout->addWidget(m_detail, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_view);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(m_headline);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        m_detail->show(currentNamespace());
        updateActions();
    });
    auto refreshHeadline = [this] {
        int gpus = 0, disabled = 0;
        for (const QString &ns : m_model->keys())
            if (const UserSummary *s = m_model->summary(ns)) {
                gpus += s->gpusInUse;
                disabled += s->disabled ? 1 : 0;
            }
        const int n = m_model->rowCount();
        m_headline->setText(
            disabled > 0
                ? tr("%n user(s) hold %1 GPUs; %2 disabled", nullptr, n).arg(gpus).arg(disabled)
                : tr("%n user(s) hold %1 GPUs", nullptr, n).arg(gpus));
        // The VC filter follows the cluster's VCs.
        QStringList vcs;
        for (const QueueInfo &q : m_store->queues())
            vcs << q.name;
        QStringList shown;
        for (int i = 1; i < m_vcFilter->count(); ++i)
            shown << m_vcFilter->itemData(i).toString();
        if (shown != vcs) {
            const QString current = m_vcFilter->currentData().toString();
            while (m_vcFilter->count() > 1)
                m_vcFilter->removeItem(1);
            for (const QString &vc : std::as_const(vcs))
                m_vcFilter->addItem(vc, vc);
            m_vcFilter->setCurrentIndex(std::max(0, m_vcFilter->findData(current)));
        }
        updateActions();
    };
    onModelChanged(m_model, this, refreshHeadline);
    refreshHeadline();
}

void UsersPage::setPermissions(Permissions *permissions)
{
    m_permissions = permissions;
    connect(permissions, &Permissions::changed, this, &UsersPage::updateActions);
    updateActions();
}

QString UsersPage::currentNamespace() const
{
    const QModelIndex i = m_view->currentIndex();
    return i.isValid() ? i.data(KeyRole).toString() : QString();
}

void UsersPage::selectUser(const QString &ns)
{
    const int row = m_model->rowOf(ns);
    if (row < 0)
        return;
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(row, 0));
    m_view->setCurrentIndex(i);
    m_view->scrollTo(i);
}

QString UsersPage::denied(const QString &action) const
{
    if (!m_permissions)
        return {};
    const QString ns = currentNamespace();
    const QString rbac = QStringLiteral("rbac.authorization.k8s.io");
    QList<Permissions::Check> checks;
    auto check = [&](const char *verb, const QString &group, const char *resource,
                     const QString &inNs, const char *sub = "") {
        Permissions::Check c;
        c.verb = QLatin1String(verb);
        c.group = group;
        c.resource = QLatin1String(resource);
        c.ns = inNs;
        c.subresource = QLatin1String(sub);
        checks << c;
    };
    if (action == QLatin1String("create")) {
        check("create", {}, "namespaces", {});
        check("create", rbac, "rolebindings", {});
    } else if (action == QLatin1String("quota")) {
        check("patch", {}, "resourcequotas", ns);
    } else if (action == QLatin1String("move")) {
        check("patch", {}, "namespaces", {});
    } else if (action == QLatin1String("toggle")) {
        check("patch", {}, "namespaces", {});
        check("delete", rbac, "rolebindings", ns);
    } else if (action == QLatin1String("delete")) {
        check("delete", {}, "namespaces", {});
    } else if (action == QLatin1String("kubeconfig")) {
        check("create", {}, "serviceaccounts", ns, "token");
    } else if (action == QLatin1String("revoke")) {
        check("delete", {}, "serviceaccounts", ns);
    }
    for (const Permissions::Check &c : std::as_const(checks)) {
        if (m_permissions->ask(c) == Permissions::Answer::Denied) {
            const QString reason = m_permissions->reason(c);
            return reason.isEmpty() ? tr("you may not %1 %2").arg(c.verb, c.resource) : reason;
        }
    }
    return {};
}

void UsersPage::updateActions()
{
    const QString ns = currentNamespace();
    const UserSummary *s = ns.isEmpty() ? nullptr : m_model->summary(ns);
    auto set = [this](QPushButton *b, bool selected, const QString &action, const QString &tip) {
        const QString no = denied(action);
        b->setEnabled(selected && no.isEmpty());
        b->setToolTip(!no.isEmpty() ? tr("Not allowed: %1").arg(no) : tip);
    };
    set(m_new, true, QStringLiteral("create"),
        tr("Make a user: namespace, ServiceAccount, RoleBinding, quota"));
    set(m_import, true, QStringLiteral("create"), tr("Make many users from a CSV file"));
    set(m_quota, s, QStringLiteral("quota"), tr("Change the user's limits"));
    set(m_move, s, QStringLiteral("move"), tr("Bind the user to another VC"));
    set(m_enable, s, QStringLiteral("toggle"),
        tr("Disable: quota to zero and rights removed, reversibly"));
    set(m_delete, s, QStringLiteral("delete"), tr("Delete the user's namespace and all in it"));
    set(m_kubeconfig, s, QStringLiteral("kubeconfig"), tr("Hand the user a kubeconfig"));
    set(m_revoke, s, QStringLiteral("revoke"), tr("Make every token handed out stop working"));
    m_enable->setText(s && s->disabled ? tr("Enable…") : tr("Disable…"));
}

void UsersPage::withObjects(std::function<void(const UserObjects &)> then)
{
    const QString ns = currentNamespace();
    if (ns.isEmpty())
        return;
    // Fresh from the server: a plan is made on the objects as they are now.
    m_users->inspect(ns, this, std::move(then));
}

QDialog *UsersPage::newUser()
{
    auto *d = new UserDialog(m_users, m_store, this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &QDialog::accepted, this,
            [this, d] { emit operationRequested(m_users->planner().create({d->spec()})); });
    d->open();
    return d;
}

QDialog *UsersPage::importCsv(const QString &file)
{
    auto *d = new CsvImportDialog(m_store, this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &QDialog::accepted, this,
            [this, d] { emit operationRequested(m_users->planner().create(d->users())); });
    if (!file.isEmpty())
        d->load(file);
    d->open();
    return d;
}

QDialog *UsersPage::editQuota()
{
    const UserSummary *s = m_model->summary(currentNamespace());
    if (!s)
        return nullptr;
    auto *d = new QuotaDialog(*s, this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    const QString ns = s->ns;
    connect(d, &QDialog::accepted, this, [this, d, ns] {
        emit operationRequested(m_users->planner().editQuota(ns, d->hard()));
    });
    d->open();
    return d;
}

QDialog *UsersPage::moveToVc()
{
    const UserSummary *s = m_model->summary(currentNamespace());
    if (!s)
        return nullptr;
    QStringList vcs;
    for (const QueueInfo &q : m_store->queues())
        if (q.name != s->vc)
            vcs << q.name;
    auto *d = new QInputDialog(this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setWindowTitle(tr("Move %1 to another VC").arg(s->user));
    d->setLabelText(
        tr("%1 is in VC %2. Move to:").arg(s->user, s->vc.isEmpty() ? tr("none") : s->vc));
    d->setComboBoxItems(vcs);
    d->setComboBoxEditable(false);
    const QString ns = s->ns;
    connect(d, &QInputDialog::textValueSelected, this, [this, ns](const QString &vc) {
        emit operationRequested(m_users->planner().moveToVc(ns, vc));
    });
    d->open();
    return d;
}

QDialog *UsersPage::handOutKubeconfig()
{
    const UserSummary *s = m_model->summary(currentNamespace());
    if (!s)
        return nullptr;
    auto *d = new KubeconfigDialog(m_users, s->ns, s->user, m_users->context(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->open();
    return d;
}

void UsersPage::toggleEnabled()
{
    const UserSummary *s = m_model->summary(currentNamespace());
    if (!s)
        return;
    const bool disabled = s->disabled;
    withObjects([this, disabled](const UserObjects &u) {
        emit operationRequested(disabled ? m_users->planner().enable(u)
                                         : m_users->planner().disable(u));
    });
}

void UsersPage::deleteUser()
{
    withObjects(
        [this](const UserObjects &u) { emit operationRequested(m_users->planner().remove(u)); });
}

void UsersPage::revokeTokens()
{
    withObjects(
        [this](const UserObjects &u) { emit operationRequested(m_users->planner().revoke(u)); });
}

} // namespace gpudesk
