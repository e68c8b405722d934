// SPDX-License-Identifier: GPL-3.0-or-later
#include "newjobdialog.h"

#include "verdictpanel.h"
#include "vipmachinesbox.h"

#include "formchoices.h"
#include "objectref.h"
#include "palette.h"
#include "yamlhighlighter.h"

#include "clusterstore.h"
#include "jobchecker.h"
#include "jobmanifest.h"
#include "jobspecreader.h"
#include "objectservice.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationsservice.h"
#include "priorityclasses.h"
#include "services.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace gpudesk {

namespace {

// Lines "NAME=value" (variables) or one entry a line (data); blank lines skipped.
QStringList lines(const QPlainTextEdit *edit)
{
    QStringList out;
    for (const QString &l : edit->toPlainText().split(u'\n'))
        if (!l.trimmed().isEmpty())
            out << l.trimmed();
    return out;
}

} // namespace

NewJobDialog::NewJobDialog(Services *services, const QString &ns, QWidget *parent)
    : QDialog(parent), m_services(services),
      m_checker(new JobChecker(services->store(), services->telemetry(), this)),
      m_debounce(new QTimer(this)), m_tabs(new QTabWidget(this)), m_kind(new QComboBox(this)),
      m_name(new QLineEdit(this)), m_ns(new QComboBox(this)), m_image(new QComboBox(this)),
      m_command(new QPlainTextEdit(this)), m_provided(new QLabel(this)), m_gpus(new QSpinBox(this)),
      m_gpuModel(new QComboBox(this)), m_cpu(new QLineEdit(this)), m_memory(new QLineEdit(this)),
      m_shm(new QLineEdit(this)), m_nodes(new QSpinBox(this)), m_vc(new QComboBox(this)),
      m_priority(new QLineEdit(this)), m_env(new QPlainTextEdit(this)),
      m_data(new QPlainTextEdit(this)),
      m_alwaysPull(new QCheckBox(tr("Always pull the image"), this)), m_hours(new QSpinBox(this)),
      m_pin(new QCheckBox(tr("Pin the pods to the nodes proposed"), this)),
      m_formNote(new QLabel(this)), m_problems(new QLabel(this)), m_yaml(new QPlainTextEdit(this)),
      m_verdictPanel(new VerdictPanel(this)), m_submit(new QPushButton(tr("Submit…"), this)),
      m_startFrom(new QComboBox(this)),
      m_saveTemplate(new QPushButton(tr("Save as template…"), this)),
      m_deleteTemplate(new QPushButton(tr("Delete template"), this)),
      m_vip(new VipMachinesBox(services, this))
{
    setWindowTitle(tr("New training job"));
    const ClusterStore *store = services->store();
    const JobSpec defaults;
    m_kind->setObjectName(QStringLiteral("jobKind"));
    for (JobSpec::Kind k : {JobSpec::PyTorch, JobSpec::Mpi, JobSpec::Volcano, JobSpec::SinglePod})
        m_kind->addItem(JobSpec::kindName(k), int(k));
    m_name->setObjectName(QStringLiteral("jobName"));
    m_name->setPlaceholderText(tr("lower-case letters, digits and '-'"));
    m_ns->setObjectName(QStringLiteral("jobNamespace"));
    FormChoices::namespaces(m_ns, *store, ns);
    // Images the cluster's GPU pods run now, most used first; any other can be typed.
    m_image->setObjectName(QStringLiteral("jobImage"));
    FormChoices::images(m_image, *store, [](const PodInfo &p) { return p.gpuRequest > 0; });
    m_image->setCurrentText(QString());
    m_command->setObjectName(QStringLiteral("jobCommand"));
    m_command->setPlaceholderText(tr("torchrun --nproc_per_node=8 train.py --config cfg.yaml"));
    m_command->setMaximumHeight(fontMetrics().height() * 4);
    m_provided->setObjectName(QStringLiteral("jobProvided"));
    m_provided->setWordWrap(true);
    m_provided->setForegroundRole(QPalette::PlaceholderText);
    m_provided->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_gpus->setObjectName(QStringLiteral("jobGpus"));
    m_gpus->setRange(0, 64);
    m_gpus->setValue(defaults.gpusPerNode);
    m_gpuModel->setObjectName(QStringLiteral("jobGpuModel"));
    FormChoices::gpuModels(m_gpuModel, *store);
    m_cpu->setText(defaults.cpu);
    m_memory->setText(defaults.memory);
    m_shm->setObjectName(QStringLiteral("jobShm"));
    m_shm->setText(defaults.shm);
    m_shm->setToolTip(tr("/dev/shm, in memory: PyTorch DataLoader workers pass batches through "
                         "it and crash with a bus error at the default 64 MiB. It counts against "
                         "the memory limit."));
    m_nodes->setObjectName(QStringLiteral("jobNodes"));
    m_nodes->setRange(1, 512);
    m_vc->setObjectName(QStringLiteral("jobVc"));
    m_vc->addItem(tr("default"), QString());
    for (const QueueInfo &q : store->queues())
        if (q.name != QLatin1String("default"))
            m_vc->addItem(q.name, q.name);
    m_priority->setPlaceholderText(tr("a PriorityClass (optional)"));
    m_env->setObjectName(QStringLiteral("jobEnv"));
    m_env->setPlaceholderText(tr("NAME=value, one a line"));
    m_env->setMaximumHeight(fontMetrics().height() * 4);
    m_data->setPlaceholderText(tr("/mnt/user/NAME, /mnt/share/GROUP, or CLAIM:/path — one a line"));
    m_data->setMaximumHeight(fontMetrics().height() * 3);
    m_hours->setRange(0, 24 * 30);
    m_hours->setSpecialValueText(tr("no limit"));
    m_hours->setSuffix(tr(" h"));
    m_pin->setObjectName(QStringLiteral("jobPin"));
    m_pin->setToolTip(tr("Where the scheduler would scatter, the check proposes the tightest fit "
                         "that keeps whole nodes whole; pinned, the pods go only there."));
    m_formNote->setObjectName(QStringLiteral("jobFormNote"));
    m_formNote->setWordWrap(true);
    m_formNote->setVisible(false);
    m_problems->setObjectName(QStringLiteral("jobProblems"));
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(colors::errorStyle(palette()));

    auto *form = new QFormLayout;
    form->addRow(tr("Kind"), m_kind);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Namespace"), m_ns);
    form->addRow(tr("Image"), m_image);
    // The variables the kind gives the pods, right under the command that reads them.
    auto *commandBox = new QVBoxLayout;
    commandBox->setSpacing(2);
    commandBox->addWidget(m_command);
    commandBox->addWidget(m_provided);
    form->addRow(tr("Command"), commandBox);
    auto *gpuRow = new QHBoxLayout;
    gpuRow->addWidget(m_gpus);
    gpuRow->addWidget(m_gpuModel, 1);
    form->addRow(tr("GPUs per node"), gpuRow);
    form->addRow(tr("CPU per node"), m_cpu);
    form->addRow(tr("Memory per node"), m_memory);
    form->addRow(tr("Shared memory"), m_shm);
    form->addRow(tr("Nodes"), m_nodes);
    form->addRow(tr("VC"), m_vc);
    form->addRow(tr("Priority"), priorityChoice(services));
    form->addRow(tr("Variables"), m_env);
    form->addRow(tr("Data"), m_data);
    form->addRow(tr("Time limit"), m_hours);
    form->addRow(QString(), m_alwaysPull);
    form->addRow(QString(), m_pin);
    auto *formPage = new QWidget;
    auto *formLayout = new QVBoxLayout(formPage);
    formLayout->addLayout(form);
    formLayout->addWidget(m_problems);
    formLayout->addStretch(1);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(formPage);
    m_tabs->addTab(scroll, tr("Form"));
    m_yaml->setObjectName(QStringLiteral("jobYaml"));
    m_yaml->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_yaml->setLineWrapMode(QPlainTextEdit::NoWrap);
    new YamlHighlighter(m_yaml->document());
    m_tabs->addTab(m_yaml, tr("YAML"));
    m_tabs->addTab(m_vip, tr("VIP machines"));

    m_verdictPanel->setObjectName(QStringLiteral("verdictPanel"));
    auto *verdictBox = new QWidget;
    auto *verdictLayout = new QVBoxLayout(verdictBox);
    auto *verdictTitle = new QLabel(tr("Will it start?"));
    QFont title = verdictTitle->font();
    title.setPointSizeF(title.pointSizeF() * 1.15);
    title.setBold(true);
    verdictTitle->setFont(title);
    verdictLayout->addWidget(verdictTitle);
    verdictLayout->addWidget(m_verdictPanel, 1);
    auto *verdictScroll = new QScrollArea;
    verdictScroll->setWidgetResizable(true);
    verdictScroll->setFrameShape(QFrame::NoFrame);
    verdictScroll->setWidget(verdictBox);
    // The reasons wrap to the pane's width: never a sideways scroll.
    verdictScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verdictScroll->setMinimumWidth(360);
    auto *split = new QSplitter(Qt::Horizontal, this);
    // The note above both tabs: where the job came from, and why the YAML rules when it does.
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_formNote);
    leftLayout->addWidget(m_tabs, 1);
    split->addWidget(left);
    split->addWidget(verdictScroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({620, 460});

    m_submit->setObjectName(QStringLiteral("submitJob"));
    m_submit->setDefault(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(m_submit, QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_submit, &QPushButton::clicked, this, &NewJobDialog::submit);
    // Where the job starts from: blank, a template, or a copy of a job of the namespace.
    m_startFrom->setObjectName(QStringLiteral("jobStartFrom"));
    m_startFrom->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_startFrom->setToolTip(tr("A template of yours, or a copy of a job of the namespace: the form "
                               "takes what it can hold, the YAML tab the rest."));
    m_saveTemplate->setObjectName(QStringLiteral("jobSaveTemplate"));
    m_saveTemplate->setToolTip(tr("Keep this job, as its YAML, to start the next one from: in %1")
                                   .arg(QDir::toNativeSeparators(m_templates.dir())));
    m_deleteTemplate->setObjectName(QStringLiteral("jobDeleteTemplate"));
    auto *startBar = new QHBoxLayout;
    startBar->addWidget(new QLabel(tr("Start from")));
    startBar->addWidget(m_startFrom, 1);
    startBar->addWidget(m_saveTemplate);
    startBar->addWidget(m_deleteTemplate);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(startBar);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    resize(1100, 760);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &NewJobDialog::runCheck);
    m_checker->setNas(services->nasFiles());          // the launch scripts, on the NAS
    m_checker->setImages(services->images());         // the images, in their registries
    m_checker->setConnectionState(services->state()); // what the account may not read
    connect(m_checker, &JobChecker::ready, this, &NewJobDialog::onVerdict);
    connect(m_verdictPanel, &VerdictPanel::splitRequested, this, &NewJobDialog::applySplit);
    connect(m_yaml, &QPlainTextEdit::textChanged, this, &NewJobDialog::yamlChanged);
    for (QLineEdit *e : {m_name, m_cpu, m_memory, m_shm, m_priority})
        connect(e, &QLineEdit::textChanged, this, &NewJobDialog::formChanged);
    for (QPlainTextEdit *e : {m_command, m_env, m_data})
        connect(e, &QPlainTextEdit::textChanged, this, &NewJobDialog::formChanged);
    for (QComboBox *c : {m_kind, m_gpuModel, m_vc})
        connect(c, &QComboBox::currentIndexChanged, this, &NewJobDialog::formChanged);
    for (QComboBox *c : {m_ns, m_image})
        connect(c, &QComboBox::currentTextChanged, this, &NewJobDialog::formChanged);
    for (QSpinBox *s : {m_gpus, m_nodes, m_hours})
        connect(s, &QSpinBox::valueChanged, this, &NewJobDialog::formChanged);
    connect(m_alwaysPull, &QCheckBox::toggled, this, &NewJobDialog::formChanged);
    connect(m_vip, &VipMachinesBox::changed, this, &NewJobDialog::formChanged);
    connect(m_ns, &QComboBox::currentTextChanged, this, &NewJobDialog::fillStartFrom);
    connect(m_startFrom, &QComboBox::activated, this, &NewJobDialog::startFromChosen);
    connect(m_saveTemplate, &QPushButton::clicked, this, &NewJobDialog::saveAsTemplate);
    connect(m_deleteTemplate, &QPushButton::clicked, this, &NewJobDialog::deleteTemplate);
    fillStartFrom();
    // The cluster moves while the form is open: the verdict follows it.
    connect(store, &ClusterStore::updated, this, [this] {
        if (!m_debounce->isActive())
            m_debounce->start(1000);
    });
    formChanged();
    m_touched = false;
}

QWidget *NewJobDialog::priorityChoice(Services *services)
{
    // The cluster's classes are offered, each with what it is worth; any name may still be
    // typed (the server says if there is none such). The field stays m_priority.
    auto *choice = new QComboBox(this);
    choice->setObjectName(QStringLiteral("jobPriority"));
    choice->setEditable(true);
    choice->setInsertPolicy(QComboBox::NoInsert);
    choice->setLineEdit(m_priority);
    priorityclasses::fetch(
        services->session(), choice,
        [this, choice](const QList<PriorityClass> &classes, const QString &error) {
            const QString typed = m_priority->text();
            const QSignalBlocker quiet(m_priority); // the form is not changed by the list
            choice->clear();
            choice->addItem(QString());
            choice->setItemData(0, tr("No class: priority 0, or the cluster's default class"),
                                Qt::ToolTipRole);
            for (const PriorityClass &c : classes) {
                if (c.system())
                    continue; // the cluster's own pods', not a job's
                choice->addItem(c.name);
                const QString what =
                    c.preemptionPolicy == QLatin1String("Never")
                        ? tr("%1 — never preempts: %2").arg(c.value).arg(c.description)
                        : tr("%1 — %2").arg(c.value).arg(c.description);
                choice->setItemData(choice->count() - 1, what, Qt::ToolTipRole);
            }
            m_priority->setText(typed);
            if (error.isEmpty()) { // the class a job names is checked from now on
                m_checker->setPriorityClasses(classes);
                scheduleCheck();
            }
            choice->setToolTip(
                error.isEmpty()
                    ? tr("A PriorityClass: a job of higher priority may preempt "
                         "jobs of lower priority in its queue")
                    : tr("The cluster's PriorityClasses could not be read: %1").arg(error));
        });
    return choice;
}

NewJobDialog::~NewJobDialog() = default;

bool NewJobDialog::isChecking() const
{
    return m_debounce->isActive() || m_checker->isChecking() || !m_verdictCurrent;
}

JobSpec NewJobDialog::spec() const
{
    JobSpec s;
    s.kind = JobSpec::Kind(m_kind->currentData().toInt());
    s.name = m_name->text().trimmed();
    s.ns = m_ns->currentText().trimmed();
    s.image = m_image->currentText().trimmed();
    s.command = m_command->toPlainText().trimmed();
    s.gpusPerNode = m_gpus->value();
    s.gpuModel = m_gpuModel->currentData().toString();
    s.cpu = m_cpu->text().trimmed();
    s.memory = m_memory->text().trimmed();
    s.shm = m_shm->text().trimmed();
    s.nodes = m_nodes->value();
    s.queue = m_vc->currentData().toString();
    s.priorityClass = m_priority->text().trimmed();
    for (const QString &l : lines(m_env))
        s.env.append({l.section(u'=', 0, 0).trimmed(), l.section(u'=', 1)});
    s.mounts = lines(m_data);
    s.alwaysPull = m_alwaysPull->isChecked();
    s.hoursLimit = m_hours->value();
    return s;
}

void NewJobDialog::formChanged()
{
    if (!m_filling)
        m_touched = true;
    const JobSpec s = spec();
    const QStringList vars = JobSpec::providedVariables(s.kind);
    m_provided->setText(vars.isEmpty()
                            ? QString()
                            : tr("%1 gives the pods: %2")
                                  .arg(JobSpec::kindName(s.kind), vars.join(QStringLiteral(", "))));
    m_problems->setText(JobSpecRules::errors(s).join(u'\n'));
    if (!m_yamlEdited) {
        QString error;
        const QByteArray job = JobManifest::of(s, mpiVersion());
        const QByteArray vip = asVip(job, &error); // its error is the check's to say
        const QString yaml = ObjectService::toYaml(vip.isEmpty() ? job : vip, &error);
        m_settingYaml = true;
        m_yaml->setPlainText(yaml);
        m_settingYaml = false;
    }
    scheduleCheck();
}

void NewJobDialog::yamlChanged()
{
    if (m_settingYaml)
        return;
    m_touched = true;
    if (!m_yamlEdited) {
        m_yamlEdited = true;
        m_formNote->setText(tr("The YAML was edited: it is what will be submitted, and the form "
                               "no longer writes it."));
        m_formNote->setVisible(true);
    }
    scheduleCheck();
}

void NewJobDialog::scheduleCheck()
{
    // Submitted is what was checked: nothing until the verdict of this change is in.
    m_submit->setEnabled(false);
    m_verdictCurrent = false;
    m_debounce->start(150);
}

QByteArray NewJobDialog::currentJson(QString *error) const
{
    if (m_yamlEdited) {
        const QByteArray json = ObjectService::toJson(m_yaml->toPlainText(), error);
        return json.isEmpty() ? json : asVip(json, error);
    }
    return asVip(JobManifest::of(spec(), mpiVersion()), error);
}

QByteArray NewJobDialog::asVip(const QByteArray &json, QString *error) const
{
    // The same job, pinned to the machines at the highest class, as the YAML tab shows it.
    return m_vip->apply(json, m_ns->currentText().trimmed(), error);
}

QString NewJobDialog::mpiVersion() const
{
    return m_services->operations()->planner().versionOf(Resource::MPIJobs);
}

void NewJobDialog::runCheck()
{
    QString error;
    const QByteArray json = currentJson(&error);
    if (json.isEmpty() || !m_checker->checkJson(json, m_ns->currentText().trimmed(), &error)) {
        m_verdictPanel->showError(error);
        m_verdictCurrent = true;
        m_submit->setEnabled(false);
        emit checked();
        return;
    }
    m_verdictPanel->showChecking();
}

void NewJobDialog::onVerdict(const StartVerdict &verdict)
{
    m_verdict = verdict;
    // Current only when no newer change waits to be checked: Submit sends what was checked.
    m_verdictCurrent = !m_debounce->isActive() && !m_checker->isChecking();
    m_verdictPanel->showVerdict(verdict);
    const bool formOk = m_yamlEdited || JobSpecRules::errors(spec()).isEmpty();
    // A job that can never start as it is is not submitted; one that waits may be.
    m_submit->setEnabled(m_verdictCurrent && !m_submitting && formOk &&
                         verdict.kind != StartVerdict::Never);
    m_submit->setToolTip(verdict.kind == StartVerdict::Never
                             ? tr("It would never start as it is: see why beside the form.")
                             : QString());
    m_pin->setEnabled(!m_yamlEdited && !m_vip->isOn() && verdict.kind == StartVerdict::Starts &&
                      !verdict.placement.isEmpty());
    emit checked();
}

void NewJobDialog::applySplit(int nodes, int gpusPerNode)
{
    // One pod bigger than a node becomes distributed training of the same GPUs.
    if (m_kind->currentData().toInt() == JobSpec::SinglePod)
        m_kind->setCurrentIndex(m_kind->findData(int(JobSpec::PyTorch)));
    m_gpus->setValue(gpusPerNode);
    m_nodes->setValue(nodes);
}

void NewJobDialog::submit()
{
    QString error;
    QByteArray json;
    if (!m_yamlEdited && !m_vip->isOn() && m_pin->isEnabled() && m_pin->isChecked()) {
        JobSpec s = spec();
        for (const StartPlacement &p : m_verdict.placement)
            if (!s.pinnedNodes.contains(p.node))
                s.pinnedNodes << p.node;
        json = JobManifest::of(s, mpiVersion());
    } else {
        json = currentJson(&error);
    }
    if (json.isEmpty()) {
        m_verdictPanel->showError(error);
        return;
    }
    // Where it goes, read from what is sent (not from the last request checked).
    JobRequest where;
    if (!JobChecker::decode(json, m_ns->currentText().trimmed(), &where, &error)) {
        m_verdictPanel->showError(error);
        return;
    }
    const QString ns = where.ns;
    const QString name = where.name;
    OperationsService *ops = m_services->operations();
    OperationPlan plan =
        m_vip->isOn() ? VipPlanner(ops->planner())
                            .plan(json, where.collectionPath(), m_vip->nodes(), m_vip->mode())
                      : ops->planner().create(where.collectionPath(), json);
    if (!plan.steps.isEmpty()) { // none when the plan is refused: it says why
        plan.steps.last().eventReason = QStringLiteral("GpudeskSubmitted");
        if (!m_vip->isOn())
            plan.steps.last().why = m_verdict.summary();
    }
    Operation *op = ops->prepare(plan);
    // The plan's window outlives the form, which closes once the job is made: its results stay
    // in sight.
    auto *dialog = new OperationDialog(op, parentWidget() ? parentWidget() : this);
    dialog->setObjectName(QStringLiteral("operationDialog"));
    // One plan at a time: a second click does not make a second job.
    m_submitting = true;
    m_submit->setEnabled(false);
    const auto closed = [this] {
        m_submitting = false;
        m_submit->setEnabled(m_verdictCurrent && m_verdict.kind != StartVerdict::Never);
    };
    connect(dialog, &QDialog::finished, this, closed);
    connect(dialog, &QObject::destroyed, this, closed);
    connect(op, &Operation::finished, this, [this, op, ns, name] {
        if (!op->outcomes().isEmpty() &&
            op->outcomes().constLast().result == StepOutcome::Result::Done) {
            emit submitted(ns, name);
            accept();
        }
    });
    dialog->show();
}

void NewJobDialog::fillStartFrom()
{
    const QSignalBlocker block(m_startFrom);
    const QString keep = m_startFrom->currentData().toString();
    m_startFrom->clear();
    m_startFrom->addItem(tr("A blank form"), QString());
    for (const QString &name : m_templates.names())
        m_startFrom->addItem(tr("Template: %1").arg(name), QString(QStringLiteral("t:") + name));
    // The namespace's jobs, newest first: a copy of the last run is the quickest way to the next.
    const ClusterStore *store = m_services->store();
    QList<std::pair<qint64, WorkloadInfo>> jobs;
    for (const QString &key : store->workloadKeysIn(m_ns->currentText().trimmed()))
        if (const auto w = store->workload(key); w && w->job)
            jobs.append({w->created, *w});
    std::sort(jobs.begin(), jobs.end(),
              [](const auto &a, const auto &b) { return a.first > b.first; });
    if (!jobs.isEmpty())
        m_startFrom->insertSeparator(m_startFrom->count());
    for (qsizetype i = 0; i < jobs.size() && i < 40; ++i)
        m_startFrom->addItem(tr("Copy of %1 %2").arg(jobs[i].second.kind, jobs[i].second.name),
                             QString(QStringLiteral("w:") + jobs[i].second.key));
    const int at = m_startFrom->findData(keep);
    m_startFrom->setCurrentIndex(std::max(at, 0));
    // The entry loaded is gone from the list (another namespace, a template deleted): none
    // stands for what the form holds, so that any choice, blank too, starts again.
    m_startIndex = at >= 0 ? at : -1;
    m_deleteTemplate->setEnabled(keep.startsWith(u"t:") && at >= 0);
}

void NewJobDialog::startFromChosen(int index)
{
    if (index == m_startIndex)
        return;
    // What the user typed is theirs: replaced only when they say so.
    if (m_touched &&
        QMessageBox::question(
            this, tr("Start again"),
            tr("Replace what you entered with %1?").arg(m_startFrom->itemText(index))) !=
            QMessageBox::Yes) {
        const QSignalBlocker block(m_startFrom);
        m_startFrom->setCurrentIndex(m_startIndex);
        return;
    }
    m_startIndex = index;
    ++m_startRequest;
    const QString data = m_startFrom->itemData(index).toString();
    m_deleteTemplate->setEnabled(data.startsWith(u"t:"));
    if (data.startsWith(u"w:")) {
        startFromWorkload(data.mid(2));
    } else if (data.startsWith(u"t:")) {
        QString error;
        const QString yaml = m_templates.load(data.mid(2), &error);
        if (yaml.isEmpty()) {
            m_formNote->setText(error.isEmpty() ? tr("The template is empty.") : error);
            m_formNote->setVisible(true);
            return;
        }
        applyManifest(yaml, tr("the template %1").arg(data.mid(2)));
    } else {
        JobSpec blank;
        blank.ns = m_ns->currentText().trimmed();
        m_yamlEdited = false;
        m_formNote->setVisible(false);
        m_origin.clear();
        setForm(blank);
        m_touched = false;
    }
}

void NewJobDialog::startFromWorkload(const QString &workloadKey)
{
    const ObjectRef ref = ObjectRef::workload(*m_services->store(), workloadKey);
    if (!ref.isValid())
        return;
    {
        const QSignalBlocker block(m_startFrom);
        const int at = m_startFrom->findData(QString(QStringLiteral("w:") + workloadKey));
        if (at >= 0)
            m_startFrom->setCurrentIndex(at);
        m_startIndex = m_startFrom->currentIndex();
    }
    const QString origin = tr("a copy of %1 %2").arg(ref.kind, ref.name);
    m_formNote->setText(tr("Reading %1 %2 from the cluster…").arg(ref.kind, ref.name));
    m_formNote->setVisible(true);
    const int request = ++m_startRequest;
    m_touched = false; // the user chose to replace what the form holds
    m_services->objects()->fetchYaml(
        ref.apiPath, false, this,
        [this, ref, origin, request](const QString &yaml, const QString &error) {
            if (request != m_startRequest)
                return; // the user chose another start meanwhile
            if (m_touched) {
                // What they typed while it was read stays.
                m_formNote->setText(tr("%1 %2 was read, but you typed meanwhile: your text is "
                                       "kept. Choose it again to start from it.")
                                        .arg(ref.kind, ref.name));
                m_startIndex = -1;
                return;
            }
            QString e = error;
            // Without what the server wrote of the run: its status, uid, owner, node.
            const QString copy =
                e.isEmpty() ? ObjectService::cloneYaml(yaml, ref.name, &e) : QString();
            if (!e.isEmpty()) {
                m_formNote->setText(tr("Cannot copy %1 %2: %3").arg(ref.kind, ref.name, e));
                return;
            }
            applyManifest(copy, origin);
        });
}

void NewJobDialog::applyManifest(const QString &yaml, const QString &origin)
{
    QString error;
    QString text = yaml;
    QByteArray json = ObjectService::toJson(text, &error);
    // A name no job of the namespace has: the template's or the copied job's, numbered.
    const QJsonObject meta = QJsonDocument::fromJson(json).object().value(u"metadata").toObject();
    const QString name = meta.value(u"name").toString();
    const QString ns = meta.value(u"namespace").toString();
    const QString free = freeName(name, ns.isEmpty() ? m_ns->currentText().trimmed() : ns);
    if (!json.isEmpty() && free != name) {
        text = ObjectService::cloneYaml(text, free, &error);
        json = ObjectService::toJson(text, &error);
    }
    const JobSpecReader::Result read =
        json.isEmpty() ? JobSpecReader::Result() : JobSpecReader::read(json, mpiVersion());
    m_origin = origin;
    bool held = read.formHoldsIt();
    QString why;
    if (held) {
        m_yamlEdited = false;
        setForm(*read.spec);
        // The fields themselves may not hold a value as it is (a limit past the spin box's
        // range, a variable's value over lines): the form must make the same object again.
        // A manifest that names no namespace goes to the form's: that one is not a change.
        JobSpec expected = *read.spec;
        if (expected.ns.isEmpty())
            expected.ns = m_ns->currentText().trimmed();
        held = JobManifest::of(spec(), mpiVersion()) == JobManifest::of(expected, mpiVersion());
        why = tr("a value the form's fields cannot hold as it is");
    }
    if (held) {
        m_formNote->setText(tr("Started from %1.").arg(origin));
        m_formNote->setVisible(true);
        m_tabs->setCurrentIndex(0);
    } else {
        // The YAML holds it as it is; the form says why it does not.
        if (why.isEmpty())
            why = read.spec ? tr("the form has no place for %1")
                                  .arg(read.differences.join(QStringLiteral(", ")))
                            : (read.error.isEmpty() ? error : read.error);
        if (read.moreDifferences > 0)
            why += tr(" and %n more", nullptr, read.moreDifferences);
        m_settingYaml = true;
        m_yaml->setPlainText(text);
        m_settingYaml = false;
        m_yamlEdited = true;
        m_formNote->setText(tr("Started from %1, which the form cannot hold whole (%2): the YAML "
                               "is what will be submitted; edit it there.")
                                .arg(origin, why));
        m_formNote->setVisible(true);
        m_tabs->setCurrentIndex(1);
        scheduleCheck();
    }
    m_touched = false;
}

void NewJobDialog::setForm(const JobSpec &spec)
{
    m_filling = true;
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(int(spec.kind))));
    m_name->setText(spec.name);
    if (!spec.ns.isEmpty())
        m_ns->setCurrentText(spec.ns);
    m_image->setCurrentText(spec.image);
    m_command->setPlainText(spec.command);
    m_gpus->setValue(spec.gpusPerNode);
    // A model or a VC the cluster does not have now is kept, for the check to say so.
    const auto choose = [](QComboBox *box, const QString &value) {
        int at = box->findData(value);
        if (at < 0) {
            box->addItem(value, value);
            at = box->count() - 1;
        }
        box->setCurrentIndex(at);
    };
    choose(m_gpuModel, spec.gpuModel);
    m_cpu->setText(spec.cpu);
    m_memory->setText(spec.memory);
    m_shm->setText(spec.shm);
    m_nodes->setValue(spec.nodes);
    choose(m_vc, spec.queue);
    m_priority->setText(spec.priorityClass);
    QStringList env;
    for (const auto &[k, v] : spec.env)
        env << k + u'=' + v;
    m_env->setPlainText(env.join(u'\n'));
    m_data->setPlainText(spec.mounts.join(u'\n'));
    m_alwaysPull->setChecked(spec.alwaysPull);
    m_hours->setValue(spec.hoursLimit);
    m_pin->setChecked(false);
    m_filling = false;
    formChanged();
}

QString NewJobDialog::freeName(const QString &base, const QString &ns) const
{
    if (base.isEmpty())
        return base;
    const ClusterStore *store = m_services->store();
    QSet<QString> taken;
    for (const QString &key : store->workloadKeysIn(ns))
        if (const auto w = store->workload(key))
            taken.insert(w->name);
    if (!taken.contains(base))
        return base;
    // train-3 copied is train-4, not train-3-2.
    static const QRegularExpression numbered(QStringLiteral("-(\\d{1,3})$"));
    const QRegularExpressionMatch m = numbered.match(base);
    const QString stem = m.hasMatch() ? base.left(m.capturedStart()) : base;
    for (int i = m.hasMatch() ? m.captured(1).toInt() + 1 : 2;; ++i) {
        const QString suffix = u'-' + QString::number(i);
        const QString candidate = stem.left(63 - suffix.size()) + suffix;
        if (!taken.contains(candidate))
            return candidate;
    }
}

void NewJobDialog::saveAsTemplate()
{
    const QString current = m_startFrom->currentData().toString();
    bool ok = false;
    const QString name =
        QInputDialog::getText(
            this, tr("Save as template"), tr("Name of the template:"), QLineEdit::Normal,
            current.startsWith(u"t:") ? current.mid(2) : m_name->text().trimmed(), &ok)
            .trimmed();
    if (!ok)
        return;
    QString error = JobTemplates::nameError(name);
    if (error.isEmpty() && m_templates.contains(name) &&
        QMessageBox::question(this, tr("Save as template"),
                              tr("Replace the template %1?").arg(name)) != QMessageBox::Yes)
        return;
    if (!error.isEmpty() || !m_templates.save(name, m_yaml->toPlainText(), &error)) {
        QMessageBox::warning(this, tr("Save as template"), error);
        return;
    }
    {
        const QSignalBlocker block(m_startFrom);
        fillStartFrom();
        m_startFrom->setCurrentIndex(m_startFrom->findData(QString(QStringLiteral("t:") + name)));
        m_startIndex = m_startFrom->currentIndex();
    }
    m_deleteTemplate->setEnabled(true);
    m_formNote->setText(tr("Saved as the template %1.").arg(name));
    m_formNote->setVisible(true);
}

void NewJobDialog::deleteTemplate()
{
    const QString data = m_startFrom->currentData().toString();
    if (!data.startsWith(u"t:"))
        return;
    const QString name = data.mid(2);
    if (QMessageBox::question(
            this, tr("Delete template"),
            tr("Delete the template %1? The form keeps what it shows.").arg(name)) !=
        QMessageBox::Yes)
        return;
    QString error;
    if (!m_templates.remove(name, &error)) {
        QMessageBox::warning(this, tr("Delete template"), error);
        return;
    }
    fillStartFrom();
}

} // namespace gpudesk
