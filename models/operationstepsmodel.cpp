// SPDX-License-Identifier: GPL-3.0-or-later
#include "operationstepsmodel.h"

namespace gpudesk {

OperationStepsModel::OperationStepsModel(QObject *parent) : QAbstractTableModel(parent) {}

void OperationStepsModel::setPlan(const OperationPlan &plan)
{
    beginResetModel();
    m_plan = plan;
    m_outcomes = QList<StepOutcome>(plan.steps.size());
    endResetModel();
}

void OperationStepsModel::setChecked(int step, PlanStep::DryRun answer, const QString &message)
{
    if (step < 0 || step >= m_plan.steps.size())
        return;
    m_plan.steps[step].dryRun = answer;
    m_plan.steps[step].dryRunMessage = message;
    emit dataChanged(index(step, Check), index(step, Check));
}

void OperationStepsModel::setOutcome(int step, const StepOutcome &outcome)
{
    if (step < 0 || step >= m_outcomes.size())
        return;
    m_outcomes[step] = outcome;
    emit dataChanged(index(step, 0), index(step, ColumnCount - 1));
}

QString OperationStepsModel::resultText(StepOutcome::Result r)
{
    using R = StepOutcome::Result;
    switch (r) {
    case R::Pending:
        return QString();
    case R::Running:
        return tr("Running…");
    case R::Done:
        return tr("Done");
    case R::Unverified:
        return tr("Done, not verified");
    case R::Skipped:
        return tr("Skipped");
    case R::Refused:
        return tr("Refused");
    case R::Failed:
        return tr("Failed");
    case R::Cancelled:
        return tr("Not run (cancelled)");
    case R::RolledBack:
        return tr("Rolled back");
    }
    return QString();
}

int OperationStepsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_plan.steps.size());
}

int OperationStepsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OperationStepsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_plan.steps.size())
        return {};
    const PlanStep &s = m_plan.steps[index.row()];
    const StepOutcome &o = m_outcomes[index.row()];
    const int col = index.column();
    using R = StepOutcome::Result;
    if (role == SeverityRole) {
        if (col == Check)
            return s.dryRun == PlanStep::DryRun::Refused ? 2 : 0;
        if (col == Result || col == Verification)
            return o.result == R::Failed || o.result == R::Refused ? 2
                   : o.result == R::Unverified || o.result == R::Skipped ||
                           o.result == R::RolledBack
                       ? 1
                       : 0;
        return s.forceful ? 1 : 0;
    }
    if (role == Qt::ToolTipRole) {
        switch (col) {
        case Step:
        case Target:
            return s.detail;
        case Why:
            return s.why;
        case Check:
            return s.dryRunMessage;
        case Result:
        case Verification:
            return QStringList{o.message, o.verification}.join(u'\n').trimmed();
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (col) {
    case Step:
        return s.description;
    case Target:
        return s.target.describe();
    case Why:
        return s.why;
    case Check:
        switch (s.dryRun) {
        case PlanStep::DryRun::NotApplicable:
            return tr("—");
        case PlanStep::DryRun::NotAsked:
            return tr("Checking…");
        case PlanStep::DryRun::Accepted:
            // Steps on nodes and registries say what they found; the API's dry run only accepts.
            return s.kind == PlanStep::Kind::KillProcess || s.kind == PlanStep::Kind::SaveImage ||
                           s.kind == PlanStep::Kind::CollectGarbage || !s.image.digest.isEmpty() ||
                           s.nas.isSet()
                       ? (s.dryRunMessage.isEmpty() ? tr("Still there") : s.dryRunMessage)
                       : tr("The server would accept it");
        case PlanStep::DryRun::Refused:
            return tr("Refused: %1").arg(s.dryRunMessage);
        case PlanStep::DryRun::Deferred:
            return s.dryRunMessage.isEmpty() ? tr("Checked when it runs") : s.dryRunMessage;
        }
        return {};
    case Result: {
        const QString r = resultText(o.result);
        return o.message.isEmpty() || o.result == R::Running ? r
                                                             : r + QStringLiteral(": ") + o.message;
    }
    case Verification:
        return o.verification;
    default:
        return {};
    }
}

QVariant OperationStepsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Step:
        return tr("Step");
    case Target:
        return tr("Target");
    case Why:
        return tr("Why");
    case Check:
        return tr("Checked beforehand");
    case Result:
        return tr("Result");
    case Verification:
        return tr("Verified");
    default:
        return {};
    }
}

} // namespace gpudesk
