// SPDX-License-Identifier: GPL-3.0-or-later
#include "newjobdialog.h"

#include "verdictpanel.h"

#include "formchoices.h"
#include "palette.h"
#include "yamlhighlighter.h"

#include "clusterstore.h"
#include "jobchecker.h"
#include "jobmanifest.h"
#include "objectservice.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationsservice.h"
#include "services.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

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
      m_verdictPanel(new VerdictPanel(this)), m_submit(new QPushButton(tr("Submit…"), this))
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
    form->addRow(tr("Priority"), m_priority);
    form->addRow(tr("Variables"), m_env);
    form->addRow(tr("Data"), m_data);
    form->addRow(tr("Time limit"), m_hours);
    form->addRow(QString(), m_alwaysPull);
    form->addRow(QString(), m_pin);
    auto *formPage = new QWidget;
    auto *formLayout = new QVBoxLayout(formPage);
    formLayout->addWidget(m_formNote);
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
    split->addWidget(m_tabs);
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
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    resize(1100, 760);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &NewJobDialog::runCheck);
    m_checker->setNas(services->nasFiles());  // the launch scripts, on the NAS
    m_checker->setImages(services->images()); // the images, in their registries
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
    // The cluster moves while the form is open: the verdict follows it.
    connect(store, &ClusterStore::updated, this, [this] {
        if (!m_debounce->isActive())
            m_debounce->start(1000);
    });
    formChanged();
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
    const JobSpec s = spec();
    const QStringList vars = JobSpec::providedVariables(s.kind);
    m_provided->setText(vars.isEmpty()
                            ? QString()
                            : tr("%1 gives the pods: %2")
                                  .arg(JobSpec::kindName(s.kind), vars.join(QStringLiteral(", "))));
    m_problems->setText(JobSpecRules::errors(s).join(u'\n'));
    if (!m_yamlEdited) {
        QString error;
        const QString yaml = ObjectService::toYaml(
            JobManifest::of(s, m_services->operations()->planner().versionOf(Resource::MPIJobs)),
            &error);
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
    if (m_yamlEdited)
        return ObjectService::toJson(m_yaml->toPlainText(), error);
    const JobSpec s = spec();
    return JobManifest::of(s, m_services->operations()->planner().versionOf(Resource::MPIJobs));
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
    m_pin->setEnabled(!m_yamlEdited && verdict.kind == StartVerdict::Starts &&
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
    if (!m_yamlEdited && m_pin->isEnabled() && m_pin->isChecked()) {
        JobSpec s = spec();
        for (const StartPlacement &p : m_verdict.placement)
            if (!s.pinnedNodes.contains(p.node))
                s.pinnedNodes << p.node;
        json = JobManifest::of(s, m_services->operations()->planner().versionOf(Resource::MPIJobs));
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
    OperationPlan plan = ops->planner().create(where.collectionPath(), json);
    plan.steps.first().eventReason = QStringLiteral("GpudeskSubmitted");
    plan.steps.first().why = m_verdict.summary();
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
        if (op->outcomes().value(0).result == StepOutcome::Result::Done) {
            emit submitted(ns, name);
            accept();
        }
    });
    dialog->show();
}

} // namespace gpudesk
