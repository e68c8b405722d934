// SPDX-License-Identifier: GPL-3.0-or-later
#include "vipmachinesbox.h"

#include "clusterstore.h"
#include "nodesmodel.h"
#include "priorityclasses.h"
#include "services.h"
#include "vipjob.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QRadioButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gpudesk {

VipMachinesBox::VipMachinesBox(Services *services, QWidget *parent)
    : QWidget(parent), m_store(services->store()),
      m_enable(new QCheckBox(tr("Run it as a VIP job on the machines ticked below, now"), this)),
      m_machines(new QTreeWidget(this)), m_occupants(new QTreeWidget(this)),
      m_wait(new QRadioButton(
          tr("Wait for them: the machines are reserved for the VIP job as they free"), this)),
      m_stopNow(new QRadioButton(tr("Stop them now: their owners are told why, in an Event on "
                                    "each job"),
                                 this)),
      m_priority(new QLabel(this)), m_summary(new QLabel(this))
{
    m_enable->setObjectName(QStringLiteral("vipEnable"));
    auto *intro = new QLabel(
        tr("A VIP job takes whole machines that you choose. Its pods that ask for GPUs go only "
           "there, at the cluster's highest priority: nothing preempts it once it runs."),
        this);
    intro->setWordWrap(true);
    m_machines->setObjectName(QStringLiteral("vipMachines"));
    m_machines->setHeaderLabels({tr("Machine"), tr("GPUs"), tr("Free"), tr("Held by")});
    m_machines->setRootIsDecorated(false);
    m_machines->setUniformRowHeights(true);
    m_machines->header()->setStretchLastSection(true);
    m_occupants->setObjectName(QStringLiteral("vipOccupants"));
    m_occupants->setHeaderLabels({tr("Job"), tr("Owner"), tr("VC"), tr("GPUs"), tr("On")});
    m_occupants->setRootIsDecorated(false);
    m_occupants->setUniformRowHeights(true);
    m_occupants->header()->setStretchLastSection(true);
    m_wait->setObjectName(QStringLiteral("vipWait"));
    m_stopNow->setObjectName(QStringLiteral("vipStopNow"));
    m_wait->setChecked(true);
    auto *modes = new QButtonGroup(this);
    modes->addButton(m_wait);
    modes->addButton(m_stopNow);
    m_priority->setObjectName(QStringLiteral("vipPriority"));
    m_priority->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("vipSummary"));
    m_summary->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_enable);
    layout->addWidget(intro);
    layout->addWidget(new QLabel(tr("Machines"), this));
    layout->addWidget(m_machines, 3);
    layout->addWidget(new QLabel(tr("Running there now"), this));
    layout->addWidget(m_occupants, 2);
    layout->addWidget(m_summary);
    layout->addWidget(m_wait);
    layout->addWidget(m_stopNow);
    layout->addWidget(m_priority);

    priorityclasses::fetch(services->session(), this,
                           [this](const QList<PriorityClass> &classes, const QString &error) {
                               for (const PriorityClass &c : classes)
                                   if (!c.system())
                                       m_classes << c;
                               m_classError = error;
                               showPriority();
                               // The class is the job's only while the VIP job is on.
                               if (isOn())
                                   emit changed();
                           });
    fillMachines();
    refresh();
    connect(m_enable, &QCheckBox::toggled, this, [this] {
        refresh();
        emit changed();
    });
    connect(m_machines, &QTreeWidget::itemChanged, this, [this] {
        if (m_filling)
            return;
        refresh();
        emit changed();
    });
    connect(modes, &QButtonGroup::buttonToggled, this, [this](QAbstractButton *, bool on) {
        if (!on)
            return;
        showPriority();
        emit changed();
    });
    // What runs there changes while the admin decides: the list follows, while it is seen
    // (shown again, it is made anew). A machine ticked that went away changes the job.
    connect(m_store, &ClusterStore::updated, this, [this](const StoreChanges &changes) {
        if (!isVisible() || (!changes.reset && !changes.changed(Resource::Nodes) &&
                             !changes.changed(Resource::Pods)))
            return;
        reload();
    });
}

QByteArray VipMachinesBox::apply(const QByteArray &json, const QString &ns, QString *error) const
{
    if (isOn())
        return VipJob::manifest(json, nodes(), priorityClass(), error, ns);
    if (json.contains("\"vip.gpudesk.io/")) {
        *error = tr("The YAML still makes a VIP job (it tolerates a machine's VIP reservation): "
                    "turn the VIP machines tab on, or take the toleration out.");
        return {};
    }
    return json;
}

void VipMachinesBox::reload()
{
    const QStringList before = nodes();
    fillMachines();
    refresh();
    if (nodes() != before)
        emit changed();
}

void VipMachinesBox::showEvent(QShowEvent *event)
{
    reload();
    QWidget::showEvent(event);
}

QString VipMachinesBox::priorityClass() const
{
    const bool wait = mode() == VipPlanner::Mode::Wait;
    for (const PriorityClass &c : m_classes) // highest first
        if ((c.preemptionPolicy == QLatin1String("Never")) == wait)
            return c.value >= m_classes.first().value ? c.name : QString();
    return {};
}

void VipMachinesBox::showPriority()
{
    const QString name = priorityClass();
    const auto c = std::find_if(m_classes.cbegin(), m_classes.cend(),
                                [&](const PriorityClass &pc) { return pc.name == name; });
    if (c != m_classes.cend())
        m_priority->setText(mode() == VipPlanner::Mode::Wait
                                ? tr("It runs at priority class %1 (%2), the cluster's highest, "
                                     "which never preempts: it waits for the jobs there, ahead "
                                     "of every other.")
                                      .arg(c->name)
                                      .arg(c->value)
                                : tr("It runs at priority class %1 (%2), the cluster's highest.")
                                      .arg(c->name)
                                      .arg(c->value));
    else if (!m_classError.isEmpty())
        m_priority->setText(
            tr("The cluster's PriorityClasses could not be read: %1").arg(m_classError));
    else if (mode() == VipPlanner::Mode::Wait && !m_classes.isEmpty())
        m_priority->setText(tr("The cluster has no PriorityClass at the top that never preempts: "
                               "the job keeps its own priority, so that it waits for the jobs "
                               "there instead of evicting them."));
    else
        m_priority->setText(tr("The cluster has no PriorityClass: the VIP job runs at the "
                               "default priority."));
}

void VipMachinesBox::fillMachines()
{
    m_filling = true;
    QStringList names;
    for (const NodeInfo &n : m_store->nodes())
        if (n.gpuAllocatable > 0)
            names << n.name;
    // The same machines: their rows are updated where they are (a tick, the scroll position
    // kept); others: the list is made again, the ticks kept.
    QStringList shown;
    for (int i = 0; i < m_machines->topLevelItemCount(); ++i)
        shown << m_machines->topLevelItem(i)->data(0, Qt::UserRole).toString();
    if (shown != names) {
        const QStringList ticked = nodes();
        m_machines->clear();
        for (const QString &name : names) {
            auto *item = new QTreeWidgetItem(m_machines, {name});
            item->setData(0, Qt::UserRole, name);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(0, ticked.contains(name) ? Qt::Checked : Qt::Unchecked);
        }
    }
    for (int i = 0; i < m_machines->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_machines->topLevelItem(i);
        const NodeInfo *n = m_store->node(item->data(0, Qt::UserRole).toString());
        if (!n)
            continue;
        // By user, most GPUs first: "carol (6), bob (1)".
        QList<std::pair<QString, int>> byUser;
        for (const VipJob::Occupant &o : VipJob::occupants(*m_store, {n->name})) {
            auto it = std::find_if(byUser.begin(), byUser.end(),
                                   [&](const auto &u) { return u.first == o.user; });
            if (it == byUser.end())
                byUser.append({o.user, o.gpus});
            else
                it->second += o.gpus;
        }
        std::stable_sort(byUser.begin(), byUser.end(),
                         [](const auto &a, const auto &b) { return a.second > b.second; });
        QStringList holders;
        for (const auto &[user, gpus] : byUser)
            holders << tr("%1 (%2)").arg(user).arg(gpus);
        item->setText(1, tr("%1 × %2").arg(n->gpuAllocatable).arg(n->gpuModel));
        item->setText(2, QString::number(m_store->nodeGpus(n->name).free));
        item->setText(3, holders.join(QStringLiteral(", ")));
        QString tip = n->ready && !n->unschedulable ? QString() : NodesModel::statusText(*n);
        for (const QString &t : n->taints)
            if (const QString job = VipJob::reservedFor(t); !job.isEmpty())
                tip = tr("Reserved for the VIP job %1").arg(job);
        item->setToolTip(0, tip);
    }
    for (int c = 0; c < 3; ++c)
        m_machines->resizeColumnToContents(c);
    m_filling = false;
}

QStringList VipMachinesBox::nodes() const
{
    QStringList out;
    for (int i = 0; i < m_machines->topLevelItemCount(); ++i)
        if (QTreeWidgetItem *it = m_machines->topLevelItem(i); it->checkState(0) == Qt::Checked)
            out << it->data(0, Qt::UserRole).toString();
    return out;
}

bool VipMachinesBox::isOn() const
{
    return m_enable->isChecked() && !nodes().isEmpty();
}

VipPlanner::Mode VipMachinesBox::mode() const
{
    return m_stopNow->isChecked() ? VipPlanner::Mode::StopNow : VipPlanner::Mode::Wait;
}

void VipMachinesBox::choose(const QStringList &chosen)
{
    m_filling = true;
    for (int i = 0; i < m_machines->topLevelItemCount(); ++i) {
        QTreeWidgetItem *it = m_machines->topLevelItem(i);
        it->setCheckState(0, chosen.contains(it->data(0, Qt::UserRole).toString()) ? Qt::Checked
                                                                                   : Qt::Unchecked);
    }
    m_filling = false;
    m_enable->setChecked(true);
    refresh();
    emit changed();
}

void VipMachinesBox::refresh()
{
    const bool on = m_enable->isChecked();
    m_machines->setEnabled(on);
    m_occupants->setEnabled(on);
    m_wait->setEnabled(on);
    m_stopNow->setEnabled(on);
    m_occupants->clear();
    const QStringList chosen = nodes();
    int gpus = 0;
    QStringList owners;
    for (const VipJob::Occupant &o : VipJob::occupants(*m_store, chosen)) {
        auto *item = new QTreeWidgetItem(
            m_occupants, {QStringLiteral("%1 %2/%3").arg(o.kind, o.ns, o.name), o.user, o.vc,
                          QString::number(o.gpus), o.nodes.join(QStringLiteral(", "))});
        if (!o.stoppable)
            item->setToolTip(0, tr("Its controller would start it again: it is waited for, "
                                   "not stopped."));
        gpus += o.gpus;
        if (!owners.contains(o.user))
            owners << o.user;
    }
    for (int c = 0; c < 4; ++c)
        m_occupants->resizeColumnToContents(c);
    if (!on)
        m_summary->setText(tr("Off: the job goes wherever the scheduler puts it."));
    else if (chosen.isEmpty())
        m_summary->setText(tr("Tick the machines the job must have."));
    else if (m_occupants->topLevelItemCount() == 0)
        m_summary->setText(tr("Nothing holds GPUs on the %n machine(s) chosen: the job can "
                              "start there at once.",
                              nullptr, int(chosen.size())));
    else
        m_summary->setText(tr("%n job(s) of %1 hold %2 GPUs on the machines chosen.", nullptr,
                              m_occupants->topLevelItemCount())
                               .arg(owners.join(QStringLiteral(", ")))
                               .arg(gpus));
}

} // namespace gpudesk
