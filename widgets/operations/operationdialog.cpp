// SPDX-License-Identifier: GPL-3.0-or-later
#include "operationdialog.h"

#include "operation.h"
#include "operationstepsmodel.h"
#include "palette.h"
#include "severitydelegate.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gpudesk {

OperationDialog::OperationDialog(Operation *operation, QWidget *parent)
    : QDialog(parent), m_op(operation), m_model(new OperationStepsModel(this)),
      m_summary(new QLabel(this)), m_notes(new QLabel(this)), m_table(new QTableView(this)),
      m_details(new QPlainTextEdit(this)), m_confirmLabel(new QLabel(this)),
      m_confirm(new QLineEdit(this)), m_progress(new QProgressBar(this)),
      m_run(new QPushButton(tr("Run"), this)),
      m_cancel(new QPushButton(tr("Cancel the rest"), this)),
      m_close(new QPushButton(tr("Close"), this))
{
    const OperationPlan &plan = operation->plan();
    setWindowTitle(plan.title);
    setAttribute(Qt::WA_DeleteOnClose);
    resize(1100, 560);
    m_model->setPlan(plan);

    m_summary->setObjectName(QStringLiteral("operationSummary"));
    m_summary->setWordWrap(true);
    QFont big = m_summary->font();
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_summary->setFont(big);
    m_notes->setObjectName(QStringLiteral("operationNotes"));
    m_notes->setWordWrap(true);
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->setVisible(!plan.notes.isEmpty());
    m_notes->setText(plan.notes.join(u'\n'));
    // What to weigh before confirming, and why the plan cannot run at all: apart from the notes,
    // in the colours that say so.
    auto coloured = [this](const char *name, const QStringList &lines, const QColor &colour) {
        auto *label = new QLabel(lines.join(u'\n'), this);
        label->setObjectName(QLatin1String(name));
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
        QPalette p = label->palette();
        p.setColor(QPalette::WindowText, colour);
        label->setPalette(p);
        label->setVisible(!lines.isEmpty());
        return label;
    };
    QLabel *warnings = coloured("operationWarnings", plan.warnings, colors::warning());
    QLabel *refusals = coloured("operationRefusals", plan.refusals, colors::error());
    // What the user did not choose and the plan touches anyway — another user's pod a drain
    // evicts, a node cordoned — first and apart, by owner and GPUs; the name typed below is
    // what confirms it.
    const QStringList collateral = plan.collateral();
    QLabel *affected = coloured(
        "operationCollateral",
        collateral.isEmpty()
            ? QStringList()
            : QStringList{tr("Not selected by you, and touched by this plan:")} + collateral,
        colors::warning());

    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setModel(m_model);
    m_table->setItemDelegate(new SeverityDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Wide enough to read the result of each step at a glance; the pane below has it all.
    m_table->setColumnWidth(OperationStepsModel::Step, 300);
    m_table->setColumnWidth(OperationStepsModel::Target, 170);
    m_table->setColumnWidth(OperationStepsModel::Why, 170);
    m_table->setColumnWidth(OperationStepsModel::Check, 150);
    m_table->setColumnWidth(OperationStepsModel::Result, 220);
    m_details->setObjectName(QStringLiteral("stepDetails"));
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Select a step to read it whole."));
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_table);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    m_confirm->setObjectName(QStringLiteral("confirmEdit"));
    m_run->setObjectName(QStringLiteral("runButton"));
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_close->setObjectName(QStringLiteral("closeButton"));
    m_run->setDefault(true);
    m_progress->setRange(0, int(plan.steps.size()));
    m_progress->setValue(operation->ended()); // a dialog opened on a running operation
    m_progress->setFormat(tr("%v of %m steps"));

    auto *confirmRow = new QHBoxLayout;
    confirmRow->addWidget(m_confirmLabel);
    confirmRow->addWidget(m_confirm);
    confirmRow->addStretch(1);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_run);
    buttons->addWidget(m_close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(affected);
    layout->addWidget(refusals);
    layout->addWidget(warnings);
    layout->addWidget(m_notes);
    layout->addWidget(split, 1);
    layout->addLayout(confirmRow);
    layout->addLayout(buttons);

    connect(m_confirm, &QLineEdit::textChanged, this, &OperationDialog::updateState);
    connect(m_run, &QPushButton::clicked, this, &OperationDialog::run);
    connect(m_cancel, &QPushButton::clicked, operation, &Operation::cancel);
    connect(m_close, &QPushButton::clicked, this, &QDialog::reject);
    connect(operation, &Operation::stepChecked, this, [this](int i) {
        const PlanStep &s = m_op->plan().steps[i];
        m_model->setChecked(i, s.dryRun, s.dryRunMessage);
        if (m_table->currentIndex().row() == i)
            showDetails();
        updateState();
    });
    connect(operation, &Operation::checked, this, &OperationDialog::updateState);
    connect(operation, &Operation::stepChanged, this, [this](int i) {
        m_model->setOutcome(i, m_op->outcomes()[i]);
        if (m_table->currentIndex().row() == i)
            showDetails();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &OperationDialog::showDetails);
    connect(operation, &Operation::progress, this, [this](int ended) {
        m_progress->setValue(ended);
        updateState();
    });
    connect(operation, &Operation::finished, this, &OperationDialog::updateState);
    // A long step (a push) says how far it is: its latest line under the summary.
    connect(operation, &Operation::stepProgress, this, [this](int, const QString &line) {
        m_lastLine = line;
        updateState();
    });
    // Answers that came before the dialog was made.
    for (int i = 0; i < plan.steps.size(); ++i) {
        m_model->setChecked(i, plan.steps[i].dryRun, plan.steps[i].dryRunMessage);
        m_model->setOutcome(i, operation->outcomes()[i]);
    }
    updateState();
    if (!plan.steps.isEmpty())
        m_table->setCurrentIndex(m_model->index(0, 0));
}

OperationDialog::~OperationDialog() = default;

void OperationDialog::showDetails()
{
    const int i = m_table->currentIndex().row();
    if (!m_op || i < 0 || i >= m_op->plan().steps.size()) {
        m_details->clear();
        return;
    }
    const PlanStep &s = m_op->plan().steps[i];
    const StepOutcome &o = m_op->outcomes()[i];
    QStringList lines{s.description};
    if (!s.why.isEmpty())
        lines << tr("Why: %1").arg(s.why);
    lines << tr("Request: %1").arg(s.detail);
    const QString checked = m_model->index(i, OperationStepsModel::Check).data().toString();
    if (!checked.isEmpty())
        lines << tr("Checked beforehand: %1").arg(checked);
    const QString result = m_model->index(i, OperationStepsModel::Result).data().toString();
    if (!result.isEmpty())
        lines << tr("Result: %1").arg(result);
    if (!o.verification.isEmpty())
        lines << tr("Verified: %1").arg(o.verification);
    m_details->setPlainText(lines.join(u'\n'));
}

Operation *OperationDialog::operation() const
{
    return m_op;
}

void OperationDialog::updateState()
{
    if (!m_op)
        return;
    const OperationPlan &plan = m_op->plan();
    const Operation::State st = m_op->state();
    const int n = int(plan.steps.size());
    int refused = 0, checked = 0;
    for (const PlanStep &s : plan.steps) {
        refused += s.dryRun == PlanStep::DryRun::Refused ? 1 : 0;
        checked += s.dryRun != PlanStep::DryRun::NotAsked ? 1 : 0;
    }
    const bool typed = plan.needsTypedConfirmation();
    const bool beforeRun = st == Operation::State::Checking || st == Operation::State::Ready ||
                           st == Operation::State::Planned;
    m_confirmLabel->setVisible(beforeRun && typed && n > 0);
    m_confirm->setVisible(beforeRun && typed && n > 0);
    if (typed) {
        const bool forceful = std::any_of(plan.steps.cbegin(), plan.steps.cend(),
                                          [](const PlanStep &s) { return s.forceful; });
        m_confirmLabel->setText(
            (forceful ? tr("This plan forces things (grace period 0, KILL, eviction). ")
                      : QString()) +
            tr("Type %1 to confirm:").arg(plan.confirmationWord()));
        m_confirm->setPlaceholderText(plan.confirmationWord());
    }
    m_run->setVisible(beforeRun);
    m_run->setEnabled(st == Operation::State::Ready && n > 0 && plan.refusals.isEmpty() &&
                      (!typed || m_confirm->text().trimmed() == plan.confirmationWord()));
    m_cancel->setVisible(st == Operation::State::Running);
    m_cancel->setEnabled(!m_op->isCancelled());
    m_progress->setVisible(st == Operation::State::Running || st == Operation::State::Finished);
    m_close->setText(st == Operation::State::Running ? tr("Hide (keeps running)") : tr("Close"));

    QString text;
    if (!plan.refusals.isEmpty()) {
        text = tr("This cannot be done as asked: nothing was sent.");
    } else if (n == 0) {
        text = tr("Nothing to do.");
    } else if (st == Operation::State::Checking || st == Operation::State::Planned) {
        // GPUs only where the plan frees some (a registry's images free none).
        text = plan.gpus() > 0
                   ? tr("%n step(s), %1 GPUs. Asking the server and the nodes what "
                        "each step would do… (%2 of %n)",
                        nullptr, n)
                         .arg(plan.gpus())
                         .arg(checked)
                   : tr("%n step(s). Checking what each step would do… (%1 of %n)", nullptr, n)
                         .arg(checked);
    } else if (st == Operation::State::Ready) {
        text =
            plan.gpus() > 0
                ? tr("%n step(s), %1 GPUs. Nothing has been done yet.", nullptr, n).arg(plan.gpus())
                : tr("%n step(s). Nothing has been done yet.", nullptr, n);
        if (refused > 0)
            text += u' ' + tr("%n step(s) would be refused as planned: they will be tried and "
                              "their refusal reported.",
                              nullptr, refused);
    } else if (st == Operation::State::Running) {
        text = m_op->isCancelled() ? tr("Cancelling: the steps in flight finish, no more start. %1")
                                         .arg(m_op->summary())
                                   : tr("Running: %1").arg(m_op->summary());
        if (!m_lastLine.isEmpty())
            text += u'\n' + m_lastLine;
    } else {
        text =
            (m_op->isCancelled() ? tr("Cancelled: %1") : tr("Finished: %1")).arg(m_op->summary());
    }
    m_summary->setText(text);
}

void OperationDialog::run()
{
    QString error;
    if (!m_op->start(&error)) {
        QMessageBox::warning(this, windowTitle(), error);
        return;
    }
    m_confirm->setEnabled(false);
    updateState();
}

void OperationDialog::done(int result)
{
    // A plan that was never run goes with its dialog; a running or finished one stays with the
    // service (the status bar and the activity list show it).
    if (m_op &&
        (m_op->state() == Operation::State::Planned ||
         m_op->state() == Operation::State::Checking || m_op->state() == Operation::State::Ready))
        m_op->deleteLater();
    QDialog::done(result);
}

} // namespace gpudesk
