// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "findings.h"
#include "operationplan.h"

#include <QJsonArray>
#include <QJsonObject>

namespace gpudesk::json {

// Findings, plans and results as JSON: the report's findings[], `--cleanup`'s output and the
// audit log share these shapes (docs/cleanup.md).

QString remedyId(Remedy r);           // kill-processes, delete-pod, …
QString stepKindId(PlanStep::Kind k); // delete, force-delete, evict, …
QString dryRunId(PlanStep::DryRun d); // accepted, refused, not-asked, not-applicable
QString guardId(PlanStep::Guard g);   // still-terminating, node-still-not-ready, …
QString rfc3339(qint64 ms);

QJsonObject finding(const Finding &f);
QJsonArray findings(const QList<Finding> &list);
QJsonObject target(const StepTarget &t);
QJsonObject step(const PlanStep &s);
QJsonObject plan(const OperationPlan &p);
QJsonObject outcome(const StepOutcome &o);
QJsonArray results(const OperationPlan &p, const QList<StepOutcome> &outcomes);

} // namespace gpudesk::json
