// SPDX-License-Identifier: GPL-3.0-or-later
#include "vcspage.h"

#include "bardelegate.h"
#include "clusterstore.h"
#include "columnfit.h"
#include "modelwatch.h"
#include "permissions.h"
#include "queuedialog.h"
#include "queuesmodel.h"
#include "severitydelegate.h"
#include "tablefilter.h"
#include "usersservice.h"

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

VcsPage::VcsPage(UsersService *users, ClusterStore *store, QWidget *parent)
    : QWidget(parent), m_users(users), m_store(store), m_model(new QueuesModel(store, this)),
      m_proxy(new TableFilter(this)), m_view(new QTableView(this)), m_headline(new QLabel(this)),
      m_noVolcano(new QLabel(this)), m_detail(new QLabel(this)),
      m_new(new QPushButton(tr("New VC…"), this)), m_edit(new QPushButton(tr("Edit…"), this)),
      m_open(new QPushButton(tr("Close…"), this)),
      m_merge(new QPushButton(tr("Merge into…"), this)),
      m_delete(new QPushButton(tr("Delete…"), this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setDynamicSortFilter(true);
    m_view->setObjectName(QStringLiteral("vcsView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(QueuesModel::Name, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_view->setColumnHidden(QueuesModel::Capability, true); // the Allocated bar shows it
    auto *bars = new BarDelegate(this);
    for (int c : {int(QueuesModel::Allocated), int(QueuesModel::Cpu), int(QueuesModel::Memory)})
        m_view->setItemDelegateForColumn(c, bars);
    auto *severity = new SeverityDelegate(this);
    m_view->setItemDelegateForColumn(QueuesModel::State, severity);
    m_view->setItemDelegateForColumn(QueuesModel::Pending, severity);
    ColumnFit::install(m_view, QueuesModel::Jobs);

    m_headline->setObjectName(QStringLiteral("vcsHeadline"));
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_headline->setFont(big);
    m_noVolcano->setObjectName(QStringLiteral("vcsNoVolcano"));
    m_noVolcano->setWordWrap(true);
    m_noVolcano->setText(tr("This cluster serves no Volcano queues (scheduling.volcano.sh): it has "
                            "no virtual clusters to manage. Install Volcano to divide GPUs "
                            "between groups."));
    m_noVolcano->setVisible(false);
    m_detail->setObjectName(QStringLiteral("vcDetail"));
    m_detail->setWordWrap(true);
    m_detail->setTextFormat(Qt::RichText);
    m_detail->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *text = new QLineEdit(this);
    text->setPlaceholderText(tr("Filter: VC, parent…"));
    text->setClearButtonEnabled(true);
    connect(text, &QLineEdit::textChanged, m_proxy, &TableFilter::setText);
    const std::pair<QPushButton *, const char *> names[] = {{m_new, "newVc"},
                                                            {m_edit, "editVc"},
                                                            {m_open, "toggleVc"},
                                                            {m_merge, "mergeVc"},
                                                            {m_delete, "deleteVc"}};
    for (const auto &[button, name] : names)
        button->setObjectName(QLatin1String(name));
    connect(m_new, &QPushButton::clicked, this, &VcsPage::newVc);
    connect(m_edit, &QPushButton::clicked, this, &VcsPage::editVc);
    connect(m_open, &QPushButton::clicked, this, &VcsPage::toggleOpen);
    connect(m_merge, &QPushButton::clicked, this, &VcsPage::mergeVc);
    connect(m_delete, &QPushButton::clicked, this, &VcsPage::deleteVc);
    connect(m_view, &QTableView::doubleClicked, this, &VcsPage::editVc);

    auto *bar = new QHBoxLayout;
    bar->addWidget(text, 1);
    for (QPushButton *b : {m_new, m_edit, m_open, m_merge, m_delete})
        bar->addWidget(b);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_view);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(m_headline);
    layout->addWidget(m_noVolcano);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        showDetail();
        updateActions();
    });
    auto refresh = [this] {
        int allocated = 0, capability = 0, wanted = 0;
        bool unlimited = false;
        for (const QueueInfo &q : m_store->queues()) {
            allocated += QueuesModel::allocatedGpus(*m_store, q);
            wanted += m_store->vcPendingDemand(q.name);
            if (q.gpuCapability)
                capability += *q.gpuCapability;
            else
                unlimited = true;
        }
        const int n = m_model->rowCount();
        m_headline->setText(
            unlimited
                ? tr("%n VC(s) hold %1 GPUs; %2 wanted", nullptr, n).arg(allocated).arg(wanted)
                : tr("%n VC(s) hold %1 of %2 GPUs; %3 wanted", nullptr, n)
                      .arg(allocated)
                      .arg(capability)
                      .arg(wanted));
        showDetail();
        updateActions();
    };
    onModelChanged(m_model, this, refresh);
    refresh();
}

void VcsPage::setPermissions(Permissions *permissions)
{
    m_permissions = permissions;
    connect(permissions, &Permissions::changed, this, &VcsPage::updateActions);
    updateActions();
}

void VcsPage::setVolcano(bool volcano)
{
    m_noVolcano->setVisible(!volcano);
    m_view->setVisible(volcano);
    m_detail->setVisible(volcano);
    for (QPushButton *b : {m_new, m_edit, m_open, m_merge, m_delete})
        b->setVisible(volcano);
}

QString VcsPage::currentVc() const
{
    const QModelIndex i = m_view->currentIndex();
    return i.isValid() ? i.data(KeyRole).toString() : QString();
}

void VcsPage::selectVc(const QString &name)
{
    const int row = m_model->rowOf(name);
    if (row < 0)
        return;
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(row, 0));
    m_view->setCurrentIndex(i);
    m_view->scrollTo(i);
}

QString VcsPage::denied(const char *verb, const char *group, const char *resource) const
{
    if (!m_permissions)
        return {};
    Permissions::Check c;
    c.verb = QLatin1String(verb);
    c.group = QLatin1String(group);
    c.resource = QLatin1String(resource);
    if (QLatin1String(resource) == QLatin1String("commands"))
        c.ns = QStringLiteral("default");
    if (m_permissions->ask(c) != Permissions::Answer::Denied)
        return {};
    const QString reason = m_permissions->reason(c);
    return reason.isEmpty() ? tr("you may not %1 %2").arg(c.verb, c.resource) : reason;
}

void VcsPage::updateActions()
{
    const QString vc = currentVc();
    const QueueInfo *q = vc.isEmpty() ? nullptr : m_store->queue(vc);
    auto set = [](QPushButton *b, bool possible, const QString &no, const QString &tip) {
        b->setEnabled(possible && no.isEmpty());
        b->setToolTip(!no.isEmpty() ? tr("Not allowed: %1").arg(no) : tip);
    };
    const char *volcano = "scheduling.volcano.sh";
    set(m_new, true, denied("create", volcano, "queues"), tr("Make a VC"));
    set(m_edit, q, denied("patch", volcano, "queues"),
        tr("Change its capability, deserved share, guarantee, weight or parent"));
    const bool open = q && (q->state.isEmpty() || q->state == QLatin1String("Open"));
    m_open->setText(q && !open ? tr("Open…") : tr("Close…"));
    set(m_open, q, denied("create", "bus.volcano.sh", "commands"),
        open ? tr("Admit no new job; running jobs go on") : tr("Admit new jobs again"));
    set(m_merge, q && !QueueRules::isProtected(vc), denied("delete", volcano, "queues"),
        tr("Move its users and quota into another VC, then remove it"));
    const QStringList refusals = q ? QueuePlanner::deleteRefusals(*m_store, vc) : QStringList();
    set(m_delete, q && refusals.isEmpty(), denied("delete", volcano, "queues"),
        refusals.isEmpty() ? tr("Delete the VC") : refusals.join(u'\n'));
}

void VcsPage::showDetail()
{
    const QString vc = currentVc();
    const QueueInfo *q = vc.isEmpty() ? nullptr : m_store->queue(vc);
    if (!q) {
        m_detail->setText(tr("Select a VC to see its users and jobs."));
        return;
    }
    auto esc = [](const QString &s) { return s.toHtmlEscaped(); };
    QString html = QStringLiteral("<h3>%1</h3>").arg(esc(q->name));
    if (q->state == QLatin1String("Closing"))
        html += tr("<p>Closing: admits no new job, and becomes Closed when its %n pod group(s) "
                   "have ended.</p>",
                   nullptr, q->running + q->pending + q->inqueue);
    QStringList users;
    for (const NamespaceInfo &n : m_store->users())
        if (n.vc == q->name)
            users << tr("%1 (%n GPU(s))", nullptr, m_store->userAllocated(n.user)).arg(esc(n.user));
    html += tr("<p><b>Users</b>: %1</p>")
                .arg(users.isEmpty() ? tr("none bound") : users.join(QStringLiteral(", ")));
    QStringList jobs;
    for (const auto &[uid, g] : m_store->objects<PodGroupInfo>(Resource::PodGroups)) {
        if (g.vc != q->name)
            continue;
        const QString job = g.owner.name.isEmpty() ? g.name : g.owner.name;
        QString why;
        for (const Condition &c : g.conditions)
            if (c.status == QLatin1String("True") && !c.message.isEmpty())
                why = c.message;
        // The job's state as the Workloads page and every count say it: a Volcano pod group is
        // "Completed" for a failed job too (issue 34: three Failed jobs listed as Completed).
        QString state = g.phase;
        if (const auto w = g.owner.uid.isEmpty() ? std::nullopt : m_store->workload(g.owner.uid)) {
            state = w->status;
            if (!w->message.isEmpty())
                why = w->message.section(u'\n', 0, 0);
        }
        jobs << tr("%1/%2: %3, %n GPU(s)%4", nullptr, g.minGpus)
                    .arg(esc(m_store->userOf(g.ns)), esc(job), esc(state),
                         why.isEmpty() ? QString() : QStringLiteral(" — ") + esc(why));
    }
    jobs.sort();
    html += tr("<p><b>Jobs</b> (%1):<br>%2</p>")
                .arg(jobs.size())
                .arg(jobs.isEmpty() ? tr("none") : jobs.mid(0, 40).join(QStringLiteral("<br>")));
    m_detail->setText(html);
}

QDialog *VcsPage::newVc()
{
    auto *d = new QueueDialog(m_store, QString(), this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &QDialog::accepted, this,
            [this, d] { emit operationRequested(m_users->queuePlanner().create(d->spec())); });
    d->open();
    return d;
}

QDialog *VcsPage::editVc()
{
    const QString vc = currentVc();
    if (vc.isEmpty())
        return nullptr;
    auto *d = new QueueDialog(m_store, vc, this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &QDialog::accepted, this,
            [this, d] { emit operationRequested(m_users->queuePlanner().edit(d->spec())); });
    d->open();
    return d;
}

QDialog *VcsPage::mergeVc()
{
    const QString vc = currentVc();
    if (vc.isEmpty())
        return nullptr;
    QStringList others;
    for (const QueueInfo &q : m_store->queues())
        if (q.name != vc)
            others << q.name;
    auto *d = new QInputDialog(this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setWindowTitle(tr("Merge VC %1").arg(vc));
    d->setLabelText(
        tr("Move the users, capability, deserved share and guarantee of %1 into:").arg(vc));
    d->setComboBoxItems(others);
    d->setComboBoxEditable(false);
    connect(d, &QInputDialog::textValueSelected, this, [this, vc](const QString &into) {
        emit operationRequested(m_users->queuePlanner().merge(vc, into));
    });
    d->open();
    return d;
}

void VcsPage::toggleOpen()
{
    const QueueInfo *q = m_store->queue(currentVc());
    if (!q)
        return;
    const bool open = q->state.isEmpty() || q->state == QLatin1String("Open");
    emit operationRequested(m_users->queuePlanner().setOpen(q->name, !open));
}

void VcsPage::deleteVc()
{
    const QString vc = currentVc();
    if (!vc.isEmpty())
        emit operationRequested(m_users->queuePlanner().remove(vc));
}

} // namespace gpudesk
