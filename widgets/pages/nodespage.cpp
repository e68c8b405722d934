// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodespage.h"

#include "operationplanner.h"
#include "operationsservice.h"

#include "nodetelemetrypanel.h"
#include "telemetrystore.h"

#include "bardelegate.h"
#include "clusterstore.h"
#include "columnfit.h"
#include "eventsmodel.h"
#include "format.h"
#include "gpuaccounting.h"
#include "nodesmodel.h"
#include "permissions.h"
#include "tablefilter.h"
#include "vipjob.h"
#include "vipplanner.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

QTreeWidget *detailTree(const QStringList &headers, QWidget *parent)
{
    auto *t = new QTreeWidget(parent);
    t->setHeaderLabels(headers);
    t->setRootIsDecorated(false);
    t->setAlternatingRowColors(true);
    t->setUniformRowHeights(true);
    return t;
}

} // namespace

NodesPage::NodesPage(ClusterStore *store, TelemetryStore *telemetry, QWidget *parent)
    : QWidget(parent), m_store(store), m_model(new NodesModel(store, this)),
      m_proxy(new TableFilter(this)), m_filter(new QLineEdit(this)), m_view(new QTableView(this)),
      m_title(new QLabel(this)), m_tabs(new QTabWidget(this)),
      m_pods(detailTree({tr("Pod"), tr("Namespace"), tr("Status"), tr("GPUs"), tr("Age")}, this)),
      m_conditions(detailTree({tr("Condition"), tr("Status"), tr("Reason"), tr("Message")}, this)),
      m_labels(detailTree({tr("Label"), tr("Value")}, this)),
      m_events(new EventsModel(store, this)),
      m_telemetryPanel(new NodeTelemetryPanel(store, telemetry, this)), m_telemetry(telemetry)
{
    if (telemetry)
        m_model->setTelemetry(telemetry);
    m_proxy->setSourceModel(m_model);
    m_proxy->setDynamicSortFilter(true);
    m_view->setObjectName(QStringLiteral("nodesView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(NodesModel::Name, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 10);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setItemDelegateForColumn(NodesModel::Gpus, new BarDelegate(this));
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &NodesPage::showMenu);
    ColumnFit::install(m_view, NodesModel::Taints);

    m_filter->setPlaceholderText(tr("Filter nodes by name, status, model, IP or taint"));
    m_filter->setClearButtonEnabled(true);
    auto *problems = new QCheckBox(tr("Only nodes with problems"), this);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &TableFilter::setText);
    connect(problems, &QCheckBox::toggled, m_proxy, &TableFilter::setOnlyProblems);

    auto *eventsView = new QTableView(this);
    auto *eventsProxy = new TableFilter(this);
    eventsProxy->setSourceModel(m_events);
    eventsProxy->setDynamicSortFilter(true);
    eventsView->setModel(eventsProxy);
    eventsView->setSortingEnabled(true);
    eventsView->sortByColumn(EventsModel::LastSeen, Qt::AscendingOrder); // the newest first
    eventsView->verticalHeader()->hide();
    eventsView->horizontalHeader()->setStretchLastSection(true);
    eventsView->hideColumn(EventsModel::Object);
    eventsView->hideColumn(EventsModel::Namespace);

    m_tabs->addTab(m_telemetryPanel, tr("Live (SSH)"));
    m_tabs->addTab(m_pods, tr("Pods"));
    m_tabs->addTab(m_conditions, tr("Conditions"));
    m_tabs->addTab(m_labels, tr("Labels"));
    m_tabs->addTab(eventsView, tr("Events"));

    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    m_title->setFont(bold);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *detail = new QWidget(this);
    auto *dl = new QVBoxLayout(detail);
    dl->setContentsMargins(0, 6, 0, 0);
    dl->addWidget(m_title);
    dl->addWidget(m_tabs);

    auto *top = new QWidget(this);
    auto *tl = new QVBoxLayout(top);
    tl->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(problems);
    tl->addLayout(bar);
    tl->addWidget(m_view);

    m_split = new QSplitter(Qt::Vertical, this);
    QSplitter *split = m_split;
    split->setObjectName(QStringLiteral("nodesSplitter"));
    split->addWidget(top);
    split->addWidget(detail);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    // The list stays usable: the live panel's charts would otherwise ask for most of the height
    // (sized on first show, unless the user's own split was restored).
    detail->setMinimumHeight(0);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(split);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &NodesPage::showDetail);
    connect(store, &ClusterStore::updated, this, [this](const StoreChanges &c) {
        if (c.reset || c.nodes.contains(currentNode()))
            showDetail();
    });
    connect(telemetry, &TelemetryStore::updated, this, [this](const QSet<QString> &nodes) {
        if (nodes.isEmpty() || nodes.contains(m_telemetryPanel->node()))
            m_telemetryPanel->refresh();
    });
    connect(m_telemetryPanel, &NodeTelemetryPanel::openRequested, this, &NodesPage::openRequested);
    connect(m_telemetryPanel, &NodeTelemetryPanel::killRequested, this,
            [this](const QString &node, const QList<qint64> &pids) {
                plan([&](const OperationPlanner &p) {
                    return p.killProcesses(node, pids, tr("ended from the Nodes page"));
                });
            });
    connect(m_telemetryPanel, &NodeTelemetryPanel::trustHostKeyRequested, this,
            &NodesPage::trustHostKeyRequested);
    connect(m_telemetryPanel, &NodeTelemetryPanel::secretRequested, this,
            &NodesPage::secretRequested);
    connect(m_telemetryPanel, &NodeTelemetryPanel::retryRequested, this,
            &NodesPage::retryRequested);
    connect(m_telemetryPanel, &NodeTelemetryPanel::reviewHostKeysRequested, this,
            &NodesPage::reviewHostKeysRequested);
    connect(m_pods, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        emit openRequested(ObjectRef::pod(*m_store, item->data(0, Qt::UserRole).toString()), 0);
    });
    connect(m_view, &QTableView::activated, this,
            [this] { emit openRequested(ObjectRef::node(*m_store, currentNode()), 2); });
    showDetail();
}

QString NodesPage::currentNode() const
{
    return m_view->currentIndex().siblingAtColumn(0).data(KeyRole).toString();
}

void NodesPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_splitSized) {
        m_splitSized = true;
        const int h = std::max(m_split->height(), 400);
        // Half each: the list scrolls, and the live panel's chart and tables need room to say
        // anything.
        m_split->setSizes({h - h / 2, h / 2});
    }
}

void NodesPage::restoreSplit(const QByteArray &state)
{
    if (!state.isEmpty() && m_split->restoreState(state))
        m_splitSized = true;
}

void NodesPage::selectNode(const QString &name)
{
    const int row = m_model->rowOf(name);
    if (row < 0)
        return;
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(row, 0));
    m_view->setCurrentIndex(i);
    m_view->scrollTo(i);
}

void NodesPage::showDetail()
{
    const NodeInfo *n = m_store->node(currentNode());
    m_tabs->setEnabled(n != nullptr);
    if (m_telemetryPanel->node() != currentNode())
        m_telemetryPanel->setNode(currentNode());
    m_pods->clear();
    m_conditions->clear();
    m_labels->clear();
    if (!n) {
        m_title->setText(tr("Select a node to see its pods, conditions, labels and events."));
        m_events->setObjects({QStringLiteral("-")});
        return;
    }
    const GpuFigures g = GpuAccounting(m_store, m_telemetry).node(n->name);
    m_title->setText(
        tr("%1 — %2, %3 of %4 GPUs allocated, %5, kubelet %6")
            .arg(n->name, NodesModel::statusText(*n))
            .arg(g.exact ? QString::number(g.allocated) : tr("at least %1").arg(g.allocated))
            .arg(g.total)
            .arg(n->internalIP.isEmpty() ? tr("no address") : n->internalIP, n->kubeletVersion));
    const qint64 now = systemNow();
    for (const PodInfo *p : m_store->podsOnNode(n->name)) {
        auto *item =
            new QTreeWidgetItem(m_pods, {p->name, p->ns, p->status, QString::number(p->gpuRequest),
                                         format::age(p->created, now)});
        item->setData(0, Qt::UserRole, p->uid);
    }
    for (const auto &c : n->conditions)
        new QTreeWidgetItem(m_conditions, {c.type, c.status, c.reason, c.message});
    for (const auto &[k, v] : n->labels)
        new QTreeWidgetItem(m_labels, {k, v});
    for (auto *t : {m_pods, m_conditions, m_labels})
        t->resizeColumnToContents(0);
    m_events->setObjects({n->uid});
}

void NodesPage::showMenu(const QPoint &pos)
{
    const QModelIndex i = m_view->indexAt(pos);
    const QString name = i.isValid() ? i.siblingAtColumn(0).data(KeyRole).toString() : QString();
    if (name.isEmpty() || !m_store->node(name))
        return;
    QMenu menu(this);
    addNodeActions(&menu, name);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void NodesPage::addNodeActions(QMenu *menu, const QString &name)
{
    const NodeInfo *n = name.isEmpty() ? nullptr : m_store->node(name);
    if (!n) {
        menu->addAction(tr("No node selected"))->setEnabled(false);
        return;
    }
    menu->addAction(tr("Logs, events, YAML…"), this,
                    [this, name] { emit openRequested(ObjectRef::node(*m_store, name), 1); });
    menu->addSeparator();
    // What the server said this account may do (asked once per connection; until it answers,
    // the action is offered and the server decides).
    auto refusal = [this](const QString &verb, const QString &resource, const QString &sub) {
        if (!m_permissions)
            return QString();
        const Permissions::Check c{verb, QString(), resource, QString(), sub};
        if (m_permissions->ask(c) != Permissions::Answer::Denied)
            return QString();
        const QString why = m_permissions->reason(c);
        return why.isEmpty() ? tr("%1 %2 is not allowed").arg(verb, resource) : why;
    };
    auto add = [menu](const QString &text, const QString &refused, auto slot) {
        QAction *a = menu->addAction(
            refused.isEmpty() ? text : tr("%1 (not allowed: %2)").arg(text, refused), slot);
        a->setEnabled(refused.isEmpty());
    };
    const QString patch = refusal(QStringLiteral("patch"), QStringLiteral("nodes"), QString());
    if (n->unschedulable)
        add(tr("Uncordon %1").arg(name), patch, [this, name] {
            plan([&](const OperationPlanner &p) { return p.cordon({name}, false); });
        });
    else
        add(tr("Cordon %1").arg(name), patch, [this, name] {
            plan([&](const OperationPlanner &p) { return p.cordon({name}, true); });
        });
    // A machine kept for a VIP job stays kept after the job ends, until released here.
    QStringList reservedFor;
    for (const QString &t : n->taints)
        if (const QString job = VipJob::reservedFor(t); !job.isEmpty())
            reservedFor << job;
    if (!reservedFor.isEmpty())
        add(tr("Release %1 (reserved for the VIP job %2)")
                .arg(name, reservedFor.join(QStringLiteral(", "))),
            patch, [this, name] {
                plan([&](const OperationPlanner &p) { return VipPlanner(p).release({name}); });
            });
    const QString evict =
        refusal(QStringLiteral("create"), QStringLiteral("pods"), QStringLiteral("eviction"));
    add(tr("Drain %1…").arg(name), patch.isEmpty() ? evict : patch, [this, name] {
        plan([&](const OperationPlanner &p) {
            return p.drain(name, tr("drained from the Nodes page"));
        });
    });
}

void NodesPage::plan(const std::function<OperationPlan(const OperationPlanner &)> &make)
{
    if (m_operations)
        emit operationRequested(make(m_operations->planner()));
}

} // namespace gpudesk
