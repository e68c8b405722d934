// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadspage.h"

#include "diagnosisbook.h"

#include "operationplanner.h"
#include "operationsservice.h"

#include "branchdelegate.h"
#include "clusterstore.h"
#include "columnfit.h"
#include "flattreeview.h"
#include "permissions.h"
#include "roles.h"
#include "severitydelegate.h"
#include "workloadsmodel.h"
#include "workloadstable.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace gpudesk {

void WorkloadsPage::setPreemptions(const PreemptionLog *log)
{
    m_model->setPreemptions(log);
}

WorkloadsPage::WorkloadsPage(ClusterStore *store, const DiagnosisBook *diagnoses, QWidget *parent)
    : QWidget(parent), m_store(store), m_model(new WorkloadsModel(store, this)),
      m_table(new WorkloadsTable(m_model, this)), m_view(new FlatTreeView(this)),
      m_user(new QComboBox(this)), m_vc(new QComboBox(this)), m_kind(new QComboBox(this)),
      m_status(new QComboBox(this)), m_cause(new QComboBox(this)), m_text(new QLineEdit(this)),
      m_diagnoses(diagnoses), m_scope(new QLabel(this)), m_count(new QLabel(this))
{
    m_view->setObjectName(QStringLiteral("workloadsView"));
    if (diagnoses)
        m_model->setDiagnoses(diagnoses);
    m_view->setModel(m_table);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(WorkloadsModel::Age, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->setItemDelegateForColumn(WorkloadsModel::Name, new BranchDelegate(this));
    m_view->setItemDelegateForColumn(WorkloadsModel::Status, new SeverityDelegate(this));
    m_view->setItemDelegateForColumn(WorkloadsModel::Reason, new SeverityDelegate(this));
    ColumnFit::install(m_view);

    m_status->addItem(tr("Any status"), workloadstatus::AnyStatus);
    m_status->addItem(tr("Running"), workloadstatus::Running);
    m_status->addItem(tr("Waiting"), workloadstatus::Waiting);
    m_status->addItem(tr("Failed or stuck"), workloadstatus::Problem);
    m_status->addItem(tr("Finished"), workloadstatus::Finished);
    m_kind->addItem(tr("Any kind"), QString());
    for (const char *k : {"Job", "PyTorchJob", "MPIJob", "Pod"})
        m_kind->addItem(QLatin1String(k), QLatin1String(k));
    m_text->setPlaceholderText(tr("Filter: name, namespace, node, reason…"));
    m_text->setClearButtonEnabled(true);
    m_scope->setWordWrap(true);
    m_scope->setVisible(false);
    m_count->setForegroundRole(QPalette::PlaceholderText);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_text, 1);
    bar->addWidget(m_user);
    bar->addWidget(m_vc);
    bar->addWidget(m_kind);
    bar->addWidget(m_status);
    m_cause->setObjectName(QStringLiteral("causeFilter"));
    m_cause->setToolTip(tr("The job doctor's causes of failed jobs, and how many jobs each"));
    m_cause->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(m_cause);
    auto *newJob = new QPushButton(tr("New training job…"), this);
    newJob->setObjectName(QStringLiteral("newTrainingJob"));
    newJob->setToolTip(tr("Submit a PyTorchJob, MPIJob, Volcano Job or pod, knowing first "
                          "whether it will start"));
    connect(newJob, &QPushButton::clicked, this, &WorkloadsPage::newJobRequested);
    bar->addWidget(newJob);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(m_scope);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_count);

    connect(m_text, &QLineEdit::textChanged, m_table, &WorkloadsTable::setText);
    connect(m_user, &QComboBox::currentIndexChanged, this,
            [this] { m_table->setUser(m_user->currentData().toString()); });
    connect(m_vc, &QComboBox::currentIndexChanged, this,
            [this] { m_table->setVc(m_vc->currentData().toString()); });
    connect(m_kind, &QComboBox::currentIndexChanged, this,
            [this] { m_table->setKind(m_kind->currentData().toString()); });
    connect(m_status, &QComboBox::currentIndexChanged, this, [this] {
        m_table->setStatusClass(WorkloadsTable::StatusClass(m_status->currentData().toInt()));
    });
    connect(m_cause, &QComboBox::currentIndexChanged, this,
            [this] { m_table->setCause(m_cause->currentData().toString()); });
    if (diagnoses) {
        // Counted again a moment after the doctor's findings change, not at each of them.
        auto *later = new QTimer(this);
        later->setSingleShot(true);
        later->setInterval(500);
        connect(later, &QTimer::timeout, this, &WorkloadsPage::refillCauses);
        connect(diagnoses, &DiagnosisBook::changed, later, qOverload<>(&QTimer::start));
        connect(diagnoses, &DiagnosisBook::cleared, this, &WorkloadsPage::refillCauses);
    }
    refillCauses();
    connect(m_view, &QTableView::activated, this,
            [this](const QModelIndex &i) { open(i, LogsTab); });
    connect(m_view, &QTableView::customContextMenuRequested, this, &WorkloadsPage::showMenu);

    // Ctrl+L / E / Y are the window's (Workload menu): they open the current row's object.

    auto updateCount = [this] {
        m_count->setText(tr("%n workload(s) shown of %1", nullptr, m_table->workloadCount())
                             .arg(m_model->workloadCount()));
    };
    connect(m_table, &QAbstractItemModel::rowsInserted, this, updateCount);
    connect(m_table, &QAbstractItemModel::rowsRemoved, this, updateCount);
    connect(m_table, &QAbstractItemModel::modelReset, this, updateCount);
    connect(store, &ClusterStore::updated, this, [this](const StoreChanges &c) {
        if (c.changed(Resource::Namespaces) || c.changed(Resource::Queues))
            refillChoices();
    });
    refillChoices();
    updateCount();
}

void WorkloadsPage::showWorkload(const QString &name)
{
    m_status->setCurrentIndex(0);
    m_text->setText(name);
}

void WorkloadsPage::refillCauses()
{
    const QString current = m_cause->currentData().toString();
    const QSignalBlocker block(m_cause);
    m_cause->clear();
    m_cause->addItem(tr("Any cause"), QString());
    if (m_diagnoses)
        for (const DiagnosisBook::ClassCount &c : m_diagnoses->byClass(*m_store))
            m_cause->addItem(tr("%1 — %n job(s)", nullptr, int(c.jobs.size())).arg(c.title), c.cls);
    const int at = m_cause->findData(current);
    // A class no job has any more: the filter goes back to any cause, and says so by showing it.
    m_cause->setCurrentIndex(at >= 0 ? at : 0);
    if (at < 0 && !current.isEmpty())
        m_table->setCause(QString());
}

void WorkloadsPage::refillChoices()
{
    auto refill = [](QComboBox *box, const QString &any, const QStringList &values) {
        const QString current = box->currentData().toString();
        const QSignalBlocker block(box);
        box->clear();
        box->addItem(any, QString());
        for (const QString &v : values)
            box->addItem(v, v);
        box->setCurrentIndex(std::max(0, box->findData(current)));
    };
    QStringList users;
    for (const auto &n : m_store->users())
        users.append(n.user);
    QStringList vcs;
    for (const auto &q : m_store->queues())
        vcs.append(q.name);
    refill(m_user, tr("All users"), users);
    refill(m_vc, tr("All VCs"), vcs);
}

void WorkloadsPage::setStatusClass(int statusClass)
{
    m_status->setCurrentIndex(std::max(0, m_status->findData(statusClass)));
}

void WorkloadsPage::setScopeNote(const QString &note)
{
    m_scope->setText(note);
    m_scope->setVisible(!note.isEmpty());
}

void WorkloadsPage::open(const QModelIndex &index, int tab)
{
    if (!index.isValid())
        return;
    const QString key = index.siblingAtColumn(0).data(KeyRole).toString();
    const bool pod = index.siblingAtColumn(0).data(IsPodRole).toBool();
    const ObjectRef ref = pod ? ObjectRef::pod(*m_store, key) : ObjectRef::workload(*m_store, key);
    if (ref.isValid())
        emit openRequested(ref, tab);
}

void WorkloadsPage::showMenu(const QPoint &pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    QMenu menu(this);
    if (index.siblingAtColumn(0).data(ExpandableRole).toBool()) {
        const bool open = m_view->isExpanded(index);
        menu.addAction(open ? tr("Hide pods") : tr("Show pods"), this,
                       [this, index, open] { m_view->setExpanded(index, !open); });
        menu.addSeparator();
    }
    menu.addAction(tr("Logs"), QKeySequence(tr("Ctrl+L")), this,
                   [this, index] { open(index, LogsTab); });
    menu.addAction(tr("Events"), QKeySequence(tr("Ctrl+E")), this,
                   [this, index] { open(index, EventsTab); });
    menu.addAction(tr("YAML"), QKeySequence(tr("Ctrl+Y")), this,
                   [this, index] { open(index, YamlTab); });
    if (!selectedWorkloads().isEmpty()) {
        menu.addSeparator();
        addWorkloadActions(&menu);
    }
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

ObjectRef WorkloadsPage::currentObject() const
{
    const QModelIndex index = m_view->currentIndex();
    if (!index.isValid())
        return {};
    const QString key = index.siblingAtColumn(0).data(KeyRole).toString();
    const bool pod = index.siblingAtColumn(0).data(IsPodRole).toBool();
    return pod ? ObjectRef::pod(*m_store, key) : ObjectRef::workload(*m_store, key);
}

void WorkloadsPage::addWorkloadActions(QMenu *menu)
{
    const QStringList keys = selectedWorkloads();
    if (!keys.isEmpty()) {
        auto action = [&](const QString &text, bool stop) {
            const QString why = denied(keys, stop);
            QAction *a = menu->addAction(
                why.isEmpty() ? text : tr("%1 (not allowed: %2)").arg(text, why), this,
                [this, keys, stop] {
                    if (!m_operations)
                        return;
                    const OperationPlanner planner = m_operations->planner();
                    emit operationRequested(
                        stop
                            ? planner.stopWorkloads(keys, tr("stopped from the Workloads page"))
                            : planner.deleteWorkloads(keys, tr("deleted from the Workloads page")));
                });
            a->setEnabled(why.isEmpty());
        };
        action(tr("Stop %n workload(s)…", nullptr, int(keys.size())), true);
        action(tr("Delete %n workload(s)…", nullptr, int(keys.size())), false);
        if (keys.size() == 1) {
            const auto w = m_store->workload(keys.first());
            if (w && (w->job || w->kind == QLatin1String("Pod")))
                menu->addAction(tr("Run again…"), this,
                                [this, key = keys.first()] { emit rerunRequested(key); });
            if (w && w->job)
                menu->addAction(tr("New training job like this…"), this,
                                [this, key = keys.first()] { emit newJobLikeRequested(key); });
        }
    } else {
        menu->addAction(tr("No workload selected"))->setEnabled(false);
    }
}

QStringList WorkloadsPage::selectedWorkloads() const
{
    QStringList keys;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows()) {
        QString key = i.data(KeyRole).toString();
        if (i.data(IsPodRole).toBool())
            if (const PodInfo *p = m_store->pod(key))
                key = ClusterStore::workloadKey(*p);
        if (!key.isEmpty() && !keys.contains(key))
            keys << key;
    }
    return keys;
}

QString WorkloadsPage::denied(const QStringList &keys, bool stop) const
{
    if (!m_permissions)
        return QString();
    for (const QString &key : keys) {
        const auto w = m_store->workload(key);
        if (!w)
            continue;
        Permissions::Check c;
        c.verb = QStringLiteral("delete");
        c.ns = w->ns;
        if (w->job) {
            const ResourceInfo info = resourceInfo(w->job->kind);
            c.group = QLatin1String(info.group);
            c.resource = QLatin1String(info.plural);
            // Volcano stops a job through a command it is given.
            if (stop && w->job->kind == Resource::VolcanoJobs) {
                c.verb = QStringLiteral("create");
                c.group = QStringLiteral("bus.volcano.sh");
                c.resource = QStringLiteral("commands");
            }
        } else {
            c.resource = QStringLiteral("pods");
        }
        if (m_permissions->ask(c) == Permissions::Answer::Denied) {
            const QString reason = m_permissions->reason(c);
            return reason.isEmpty() ? tr("%1 %2 in %3").arg(c.verb, c.resource, c.ns) : reason;
        }
    }
    return QString();
}

} // namespace gpudesk
