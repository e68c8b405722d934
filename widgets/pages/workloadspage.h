// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectref.h"
#include "operationplan.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;

namespace gpudesk {

class ClusterStore;
class FlatTreeView;
class Permissions;
class OperationsService;
class DiagnosisBook;
class PreemptionLog;
class WorkloadsModel;
class WorkloadsTable;

// Jobs with their pods; filter by user, VC, kind, status and text; logs, events and YAML of any
// row by double-click, context menu or keyboard.
class WorkloadsPage : public QWidget
{
    Q_OBJECT
public:
    enum Tab
    {
        LogsTab,
        EventsTab,
        YamlTab
    };

    // `diagnoses`: the job doctor's findings, for the Reason of failed pods and jobs.
    WorkloadsPage(ClusterStore *store, const DiagnosisBook *diagnoses, QWidget *parent = nullptr);
    // Who preempted a job's pods, in its Reason (see WorkloadsModel::setPreemptions).
    void setPreemptions(const PreemptionLog *log);
    FlatTreeView *view() const { return m_view; }
    WorkloadsTable *table() const { return m_table; }
    // "Any cause", then each class the doctor found with its count of jobs (the admin's view of
    // what fails and how often); choosing one shows those jobs.
    QComboBox *causes() const { return m_cause; }
    void setStatusClass(int statusClass);
    void setScopeNote(const QString &note);
    // Actions the user may not take are shown disabled, with the server's reason.
    void setPermissions(Permissions *permissions) { m_permissions = permissions; }
    // Plans are made here, through the operations service; the window shows them.
    void setOperations(OperationsService *operations) { m_operations = operations; }
    // The workloads of the selected rows (a pod row stands for its workload).
    QStringList selectedWorkloads() const;
    // Shows a workload by name: the filter set to it (a job just submitted).
    void showWorkload(const QString &name);
    // The object of the current row (a pod or a workload), for the window's Logs / Events / YAML.
    ObjectRef currentObject() const;
    // Fills a menu with what may be done to the selected workloads: stop, delete, run again.
    void addWorkloadActions(QMenu *menu);
    // Why the menu offers stopping (or deleting) these workloads disabled: "" when the server
    // said the user may (or has not answered yet: the server then decides, item by item).
    QString denied(const QStringList &keys, bool stop) const;

signals:
    void openRequested(const gpudesk::ObjectRef &ref, int tab);
    void operationRequested(const gpudesk::OperationPlan &plan);
    // Run a job (or a bare pod) again: a copy of it, to edit and create.
    void rerunRequested(const QString &workloadKey);
    // The New training job form; blank, or started from a copy of a job.
    void newJobRequested();
    void newJobLikeRequested(const QString &workloadKey);

private:
    void refillChoices();
    void refillCauses();
    void open(const QModelIndex &index, int tab);
    void showMenu(const QPoint &pos);

    ClusterStore *m_store;
    Permissions *m_permissions = nullptr;
    OperationsService *m_operations = nullptr;
    WorkloadsModel *m_model;
    WorkloadsTable *m_table;
    FlatTreeView *m_view;
    QComboBox *m_user;
    QComboBox *m_vc;
    QComboBox *m_kind;
    QComboBox *m_status;
    QComboBox *m_cause;
    QLineEdit *m_text;
    const DiagnosisBook *m_diagnoses;
    QLabel *m_scope;
    QLabel *m_count;
};

} // namespace gpudesk
