// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectviewer.h"

#include "waitingjob.h"

#include "telemetrychart.h"
#include "telemetrystore.h"

#include "clusterstore.h"
#include "diagnosisview.h"
#include "eventsmodel.h"
#include "format.h"
#include "logview.h"
#include "objectservice.h"
#include "palette.h"
#include "services.h"
#include "tablefilter.h"
#include "yamleditdialog.h"
#include "yamlhighlighter.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTime>
#include <QVBoxLayout>

namespace gpudesk {

ObjectViewer::ObjectViewer(Services *services, const ObjectRef &ref, QWidget *parent)
    : QWidget(parent, Qt::Window), m_objects(services->objects()), m_ref(ref),
      m_tabs(new QTabWidget(this)), m_yaml(new QPlainTextEdit(this)),
      m_managed(new QCheckBox(tr("Show managedFields"), this)), m_yamlState(new QLabel(this))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(ref.ns.isEmpty() ? QStringLiteral("%1 %2").arg(ref.kind, ref.name)
                                    : QStringLiteral("%1 %2/%3").arg(ref.kind, ref.ns, ref.name));
    resize(1100, 700);

    if (!ref.pods.isEmpty() || ref.kind != QLatin1String("Node")) {
        m_logs = new LogView(services->logs(), ref, this);
        m_tabs->addTab(m_logs, tr("Logs"));
    } else {
        auto *none = new QLabel(tr("Nodes have no log in the Kubernetes API."), this);
        none->setAlignment(Qt::AlignCenter);
        m_tabs->addTab(none, tr("Logs"));
    }

    auto *events = new EventsModel(services->store(), this);
    events->setObjects(QSet<QString>(ref.eventUids.cbegin(), ref.eventUids.cend()));
    auto *proxy = new TableFilter(this);
    proxy->setSourceModel(events);
    proxy->setDynamicSortFilter(true);
    auto *eventsView = new QTableView(this);
    eventsView->setModel(proxy);
    eventsView->setSortingEnabled(true);
    eventsView->sortByColumn(EventsModel::LastSeen, Qt::AscendingOrder); // the newest first
    eventsView->verticalHeader()->hide();
    eventsView->horizontalHeader()->setStretchLastSection(true);
    eventsView->setColumnWidth(EventsModel::Object, 280);
    eventsView->setColumnWidth(EventsModel::Message, 420);
    m_tabs->addTab(eventsView, tr("Events (%1)").arg(events->rowCount()));

    m_yaml->setReadOnly(true);
    m_yaml->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_yaml->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    new YamlHighlighter(m_yaml->document());
    auto *copy = new QPushButton(tr("Copy"), this);
    auto *save = new QPushButton(tr("Save…"), this);
    auto *refresh = new QPushButton(tr("Refresh"), this);
    auto *edit = new QPushButton(tr("Edit…"), this);
    edit->setObjectName(QStringLiteral("editYaml"));
    edit->setToolTip(tr("Edit the object: the server checks the change and it is shown as a "
                        "diff before it is applied"));
    auto *yamlPage = new QWidget(this);
    auto *yl = new QVBoxLayout(yamlPage);
    yl->setContentsMargins(6, 6, 6, 6);
    auto *yb = new QHBoxLayout;
    yb->addWidget(m_managed);
    yb->addStretch(1);
    yb->addWidget(refresh);
    yb->addWidget(edit);
    yb->addWidget(copy);
    yb->addWidget(save);
    yl->addLayout(yb);
    yl->addWidget(m_yaml, 1);
    m_yamlState->setForegroundRole(QPalette::PlaceholderText);
    yl->addWidget(m_yamlState);
    m_tabs->addTab(yamlPage, tr("YAML"));
    if (!ref.podUids.isEmpty() || WaitingJob::requestOf(*services->store(), ref.workloadKey)) {
        m_diagnosis = new DiagnosisView(services->diagnoses(), services->store(), ref.podUids,
                                        ref.workloadKey, this);
        m_tabs->addTab(m_diagnosis, tr("Diagnosis"));
        // Re-run is for what can run again on its own: a job, or a pod of none.
        const PodInfo *first =
            ref.podUids.isEmpty() ? nullptr : services->store()->pod(ref.podUids.first());
        m_diagnosis->setRerunOffered(ref.kind != QLatin1String("Pod") ||
                                     (first && first->owner.name.isEmpty()));
        connect(m_diagnosis, &DiagnosisView::rerunWithFix, this, &ObjectViewer::rerunWithFix);
        connect(m_diagnosis, &DiagnosisView::cordonNode, this, &ObjectViewer::cordonNode);
        connect(m_diagnosis, &DiagnosisView::showInLog, this,
                [this](const QString &pod, const QString &container, bool previous, bool fromStart,
                       const QString &line) {
                    if (!m_logs)
                        return;
                    m_logs->showText(pod, container, previous, line, fromStart);
                    m_tabs->setCurrentWidget(m_logs);
                });
    }
    connect(m_managed, &QCheckBox::toggled, this, &ObjectViewer::reloadYaml);
    connect(refresh, &QPushButton::clicked, this, &ObjectViewer::reloadYaml);
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_yaml->toPlainText()); });
    connect(save, &QPushButton::clicked, this, &ObjectViewer::saveYaml);
    connect(edit, &QPushButton::clicked, this, [this, services] {
        if (m_ref.apiPath.isEmpty())
            return;
        // The object as it is now, without managedFields (the server keeps its own when an
        // update omits them): the version the edit is made on.
        m_objects->fetchYaml(
            m_ref.apiPath, false, this,
            [this, services](const QString &yaml, const QString &error) {
                if (!error.isEmpty()) {
                    m_yamlState->setText(error);
                    return;
                }
                auto *dialog =
                    new YamlEditDialog(services, YamlEditDialog::Edit, m_ref.apiPath, yaml, this);
                dialog->setWindowFlag(Qt::Window);
                connect(dialog, &YamlEditDialog::applied, this, &ObjectViewer::reloadYaml);
                m_editDialog = dialog;
                dialog->show();
            });
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_tabs);
    // A window of its own closes as windows do: Ctrl+W, and Esc.
    auto *close = new QAction(tr("Close"), this);
    QList<QKeySequence> keys{QKeySequence(Qt::CTRL | Qt::Key_W), QKeySequence(Qt::Key_Escape)};
    for (const QKeySequence &k : QKeySequence::keyBindings(QKeySequence::Close))
        if (!keys.contains(k))
            keys << k; // Ctrl+F4 where the platform says so
    close->setShortcuts(keys);
    close->setShortcutContext(Qt::WindowShortcut);
    connect(close, &QAction::triggered, this, &QWidget::close);
    addAction(close);
    reloadYaml();
    setTelemetry(services->telemetry());
}

ObjectViewer::~ObjectViewer()
{
    if (m_telemetry)
        m_telemetry->unwatchPods(m_ref.podUids);
}

void ObjectViewer::setTelemetry(TelemetryStore *telemetry)
{
    if (m_usage || m_ref.podUids.isEmpty())
        return;
    m_telemetry = telemetry;
    m_telemetry->watchPods(m_ref.podUids);
    m_usage = new TelemetryChart(telemetry, this);
    m_usage->setObjectName(QStringLiteral("usageChart"));
    m_usage->setPods(m_ref.podUids);
    auto *page = new QWidget(this);
    auto *l = new QVBoxLayout(page);
    m_usageSummary = new QLabel(page);
    m_usageSummary->setObjectName(QStringLiteral("usageSummary"));
    m_usageSummary->setWordWrap(true);
    m_usageSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_usageHint = new QLabel(page);
    m_usageHint->setObjectName(QStringLiteral("usageHint"));
    m_usageHint->setWordWrap(true);
    m_usageHint->setText(tr("The GPUs wait while the CPU runs at its request: the input pipeline "
                            "(data loading, decoding, augmentation) is likely the bottleneck. "
                            "More CPU, more DataLoader workers or pre-processed data may help."));
    m_usageHint->setStyleSheet(
        QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(colors::warning().name()));
    m_usageHint->setVisible(false);
    l->addWidget(m_usageSummary);
    l->addWidget(m_usageHint);
    l->addWidget(m_usage, 1);
    auto *note = new QLabel(tr("GPU lines are the cards this workload's processes run on; CPU and "
                               "memory are its own, read from its cgroups on its nodes."),
                            page);
    note->setWordWrap(true);
    note->setEnabled(false);
    l->addWidget(note);
    m_tabs->addTab(page, tr("Usage"));
    updateUsageSummary();
    connect(telemetry, &TelemetryStore::updated, m_usage, [this] {
        if (!m_usage->isVisible())
            return;
        m_usage->refresh();
        updateUsageSummary();
    });
}

QString ObjectViewer::usageSummary() const
{
    return m_usageSummary ? m_usageSummary->text() : QString();
}

void ObjectViewer::updateUsageSummary()
{
    constexpr qint64 Window = 2 * 60 * 1000;
    const WorkloadUsage w = m_telemetry->workloadUsage(m_ref.podUids, Window);
    QStringList parts;
    if (w.cards > 0) {
        const QString util =
            w.gpuUtilization ? QString::number(std::lround(*w.gpuUtilization)) : QString();
        if (w.cards == 1)
            parts << (util.isEmpty() ? tr("1 GPU, not sampled yet")
                                     : tr("1 GPU at %1 % on average").arg(util));
        else
            parts << (util.isEmpty() ? tr("%1 GPUs, not sampled yet").arg(w.cards)
                                     : tr("%1 GPUs at %2 % on average").arg(w.cards).arg(util));
    }
    if (w.cpuCores)
        parts << (w.cpuRequestCores > 0 ? tr("CPU %1 of %2 cores requested")
                                              .arg(*w.cpuCores, 0, 'f', 1)
                                              .arg(w.cpuRequestCores, 0, 'f', 1)
                                        : tr("CPU %1 cores").arg(*w.cpuCores, 0, 'f', 1));
    if (w.podsSampled > 0)
        parts << (w.memoryRequestBytes > 0
                      ? tr("memory %1 working set of %2 requested")
                            .arg(format::bytes(w.workingSetBytes),
                                 format::bytes(w.memoryRequestBytes))
                      : tr("memory %1 working set").arg(format::bytes(w.workingSetBytes)));
    m_usageSummary->setText(
        parts.isEmpty()
            ? tr("Not sampled yet: gpudesk reads a workload's own use from its nodes over SSH.")
            : tr("Last 2 minutes: %1.").arg(parts.join(QStringLiteral(" · "))));
    m_usageHint->setVisible(w.inputBound);
}

void ObjectViewer::showTab(int tab)
{
    m_tabs->setCurrentIndex(std::clamp(tab, 0, m_tabs->count() - 1));
}

void ObjectViewer::reloadYaml()
{
    if (m_ref.apiPath.isEmpty()) {
        m_yamlState->setText(tr("gpudesk does not know this object's API path."));
        return;
    }
    m_yamlState->setText(tr("Fetching %1…").arg(m_ref.apiPath));
    const bool managed = m_managed->isChecked();
    // Fetched fresh each time: the YAML is what the server holds now, not the store's copy.
    m_objects->fetchYaml(
        m_ref.apiPath, managed, this, [this](const QString &yaml, const QString &error) {
            if (!error.isEmpty()) {
                m_yamlState->setText(error);
                return;
            }
            const int scroll = m_yaml->verticalScrollBar()->value();
            m_yaml->setPlainText(yaml);
            m_yaml->verticalScrollBar()->setValue(scroll);
            m_yamlState->setText(
                tr("%1, fetched at %2")
                    .arg(m_ref.apiPath, QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
            emit yamlLoaded();
        });
}

void ObjectViewer::saveYaml()
{
    const QString file =
        QFileDialog::getSaveFileName(this, tr("Save YAML"), m_ref.name + QStringLiteral(".yaml"));
    if (file.isEmpty())
        return;
    QSaveFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(m_yaml->toPlainText().toUtf8()) < 0 || !f.commit())
        m_yamlState->setText(tr("Cannot write %1: %2").arg(file, f.errorString()));
    else
        m_yamlState->setText(tr("Saved %1.").arg(file));
}

} // namespace gpudesk
