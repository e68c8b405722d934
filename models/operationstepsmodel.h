// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operationplan.h"
#include "roles.h"

#include <QAbstractTableModel>

namespace gpudesk {

// An operation's steps as the plan dialog lists them: what each does and why, what the server
// answered to its dry run, and once run, its result and what was verified. Plain data in (the
// plan, then each step's outcome), rows never move.
class OperationStepsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Step,
        Target,
        Why,
        Check,  // the dry run's answer (the server's, or the node's PID check)
        Result, // after running: done / skipped / refused / failed…
        Verification,
        ColumnCount
    };

    explicit OperationStepsModel(QObject *parent = nullptr);
    void setPlan(const OperationPlan &plan);
    void setChecked(int step, PlanStep::DryRun answer, const QString &message);
    void setOutcome(int step, const StepOutcome &outcome);
    const OperationPlan &plan() const { return m_plan; }
    static QString resultText(StepOutcome::Result r);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    OperationPlan m_plan;
    QList<StepOutcome> m_outcomes;
};

} // namespace gpudesk
