// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobspec.h"
#include "jobtemplates.h"
#include "startcheck.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTimer;

namespace gpudesk {

class JobChecker;
class Services;
class VerdictPanel;
class VipMachinesBox;

// New training job: a form (kind, image, command, GPUs per node and model, CPU, memory, shared
// memory, nodes, VC, priority, variables, data, always pull, a time limit) and the YAML it makes,
// with the submit check's verdict beside it, re-checked off the UI thread as either changes.
// Editing the YAML takes over from the form (said on the form); the check follows the YAML.
// Submitting goes through the operations framework: plan, the server's dry run, confirm, create,
// an Event on the job, the audit record. A job starts blank, from one of the user's templates or
// as a copy of a job in the namespace; the form takes what it can hold (JobSpecReader), else the
// YAML tab does and the form says what it could not.
class NewJobDialog : public QDialog
{
    Q_OBJECT
public:
    NewJobDialog(Services *services, const QString &ns, QWidget *parent = nullptr);
    ~NewJobDialog() override;

    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *kindBox() const { return m_kind; }
    QComboBox *imageBox() const { return m_image; }
    QPlainTextEdit *commandEdit() const { return m_command; }
    QSpinBox *gpusBox() const { return m_gpus; }
    QSpinBox *nodesBox() const { return m_nodes; }
    QComboBox *vcBox() const { return m_vc; }
    QLineEdit *shmEdit() const { return m_shm; }
    QPlainTextEdit *envEdit() const { return m_env; }
    QPlainTextEdit *dataEdit() const { return m_data; }
    QCheckBox *pinBox() const { return m_pin; }
    QPlainTextEdit *yamlEdit() const { return m_yaml; }
    QPushButton *submitButton() const { return m_submit; }
    VerdictPanel *verdictPanel() const { return m_verdictPanel; }
    QTabWidget *tabs() const { return m_tabs; }
    QComboBox *startFromBox() const { return m_startFrom; }
    QPushButton *saveTemplateButton() const { return m_saveTemplate; }
    VipMachinesBox *vipBox() const { return m_vip; }
    // As a copy of the workload (a job, or a bare pod): a free name, the rest as it was.
    void startFromWorkload(const QString &workloadKey);
    // Where the form's text came from ("" blank), once loaded: for the tests and the title.
    QString origin() const { return m_origin; }
    // The newest verdict, and whether a check is still under way.
    const StartVerdict &verdict() const { return m_verdict; }
    bool isChecking() const;
    JobSpec spec() const;

signals:
    void checked();
    // The job was created: where to find it.
    void submitted(const QString &ns, const QString &name);

private:
    // The Priority field: an editable list of the cluster's PriorityClasses.
    QWidget *priorityChoice(Services *services);
    void formChanged();
    void yamlChanged();
    void scheduleCheck();
    void runCheck();
    void onVerdict(const StartVerdict &verdict);
    void applySplit(int nodes, int gpusPerNode);
    void submit();
    QByteArray currentJson(QString *error) const;
    QByteArray asVip(const QByteArray &json, QString *error) const;
    void fillStartFrom();
    void startFromChosen(int index);
    void applyManifest(const QString &yaml, const QString &origin);
    void setForm(const JobSpec &spec);
    void saveAsTemplate();
    void deleteTemplate();
    QString freeName(const QString &base, const QString &ns) const;
    QString mpiVersion() const;

    Services *m_services;
    JobTemplates m_templates;
    JobChecker *m_checker;
    QTimer *m_debounce;
    QTabWidget *m_tabs;
    QComboBox *m_kind;
    QLineEdit *m_name;
    QComboBox *m_ns;
    QComboBox *m_image;
    QPlainTextEdit *m_command;
    QLabel *m_provided;
    QSpinBox *m_gpus;
    QComboBox *m_gpuModel;
    QLineEdit *m_cpu;
    QLineEdit *m_memory;
    QLineEdit *m_shm;
    QSpinBox *m_nodes;
    QComboBox *m_vc;
    QLineEdit *m_priority; // the line of priorityChoice()
    QPlainTextEdit *m_env;
    QPlainTextEdit *m_data;
    QCheckBox *m_alwaysPull;
    QSpinBox *m_hours;
    QCheckBox *m_pin;
    QLabel *m_formNote;
    QLabel *m_problems;
    QPlainTextEdit *m_yaml;
    VerdictPanel *m_verdictPanel;
    QPushButton *m_submit;
    QComboBox *m_startFrom;
    QPushButton *m_saveTemplate;
    QPushButton *m_deleteTemplate;
    VipMachinesBox *m_vip;
    QString m_origin;
    int m_startIndex = 0;   // the entry loaded, to go back to when the user keeps their text
    int m_startRequest = 0; // each start counts: a copy read late for an older one is dropped
    bool m_filling = false; // the form is being set from a manifest, not typed
    bool m_touched = false; // the user typed since the last start
    bool m_yamlEdited = false;
    bool m_settingYaml = false;
    StartVerdict m_verdict;
    bool m_verdictCurrent = false;
    bool m_submitting = false; // a plan of it is open
};

} // namespace gpudesk
