// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "priorityclasses.h"
#include "vipplanner.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QRadioButton;
class QTreeWidget;

namespace gpudesk {

class ClusterStore;
class Services;

// The New Job form's VIP tab: a job that must have chosen machines now. The admin ticks the
// machines (each with its GPUs, what is free and who holds the rest), reads the jobs running
// there with their owners and GPUs, and chooses to wait for them (the machines reserved as they
// free) or to stop them now. The job then runs at the cluster's highest PriorityClass.
class VipMachinesBox : public QWidget
{
    Q_OBJECT
public:
    VipMachinesBox(Services *services, QWidget *parent = nullptr);

    // On, with at least one machine ticked.
    bool isOn() const;
    QStringList nodes() const;
    VipPlanner::Mode mode() const;
    // The class the VIP job runs at: the cluster's highest that is not the system's — to wait,
    // the highest that never preempts (at one that does, the job would evict the jobs there
    // rather than wait for them). "" when the cluster has none (or it is not known yet): the
    // job keeps its own.
    QString priorityClass() const;
    // The job (JSON) as it will be submitted: a VIP job on the machines when on (its namespace
    // `ns` when it names none). When off, a job the YAML tab still makes a VIP job (it
    // tolerates a machine's reservation) is refused with why: it would go out at the highest
    // class without the plan, the confirmation and the Events of a VIP job.
    QByteArray apply(const QByteArray &json, const QString &ns, QString *error) const;
    // Ticks these machines (and no other), turning the VIP job on.
    void choose(const QStringList &nodes);

    QCheckBox *enableBox() const { return m_enable; }
    QTreeWidget *machinesView() const { return m_machines; }
    QTreeWidget *occupantsView() const { return m_occupants; }
    QRadioButton *stopNowButton() const { return m_stopNow; }

signals:
    void changed();

protected:
    void showEvent(QShowEvent *event) override;

private:
    // The machines and what runs there again, from the store.
    void reload();
    void fillMachines();
    void refresh();
    void showPriority();

    const ClusterStore *m_store;
    QCheckBox *m_enable;
    QTreeWidget *m_machines;
    QTreeWidget *m_occupants;
    QRadioButton *m_wait;
    QRadioButton *m_stopNow;
    QLabel *m_priority;
    QLabel *m_summary;
    QList<PriorityClass> m_classes; // the cluster's, highest first; none the system's
    QString m_classError;
    bool m_filling = false;
};

} // namespace gpudesk
