// SPDX-License-Identifier: GPL-3.0-or-later
#include "operation.h"
#include "contextconnection.h"

#include "kubestep.h"
#include "steprunner.h"

#include <QUuid>

namespace gpudesk {

Operation::Operation(OperationContext context, OperationPlan plan, AuditLog audit, QObject *parent)
    : QObject(parent), m_ctx(std::move(context)), m_plan(std::move(plan)),
      m_audit(std::move(audit)), m_id(QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    m_outcomes.resize(m_plan.steps.size());
    for (int i = 0; i < m_plan.steps.size(); ++i)
        if (m_plan.steps[i].group >= 0)
            m_groups[m_plan.steps[i].group] << i;
}

Operation::~Operation() = default;

int Operation::count(StepOutcome::Result result) const
{
    return int(std::count_if(m_outcomes.cbegin(), m_outcomes.cend(),
                             [result](const StepOutcome &o) { return o.result == result; }));
}

QString Operation::summary() const
{
    using R = StepOutcome::Result;
    QStringList parts;
    const std::pair<R, const char *> kinds[] = {{R::Done, QT_TR_NOOP("%n done")},
                                                {R::Unverified, QT_TR_NOOP("%n unverified")},
                                                {R::Skipped, QT_TR_NOOP("%n skipped")},
                                                {R::Refused, QT_TR_NOOP("%n refused")},
                                                {R::Failed, QT_TR_NOOP("%n failed")},
                                                {R::Cancelled, QT_TR_NOOP("%n not run")},
                                                {R::RolledBack, QT_TR_NOOP("%n rolled back")},
                                                {R::Running, QT_TR_NOOP("%n running")},
                                                {R::Pending, QT_TR_NOOP("%n waiting")}};
    for (const auto &[r, text] : kinds)
        if (const int n = count(r))
            parts << tr(text, nullptr, n);
    return parts.join(QStringLiteral(", "));
}

bool Operation::isSsh(int step) const
{
    return StepRunner::laneOf(m_plan.steps[step].kind) == StepRunner::Lane::Ssh;
}

void Operation::check()
{
    if (m_state != State::Planned)
        return;
    m_state = State::Checking;
    checkNext();
}

void Operation::checkNext()
{
    // As many checks in flight as steps would run at once: a plan of 1,000 is checked in
    // moments without a thousand requests at the same time.
    while (m_checkCursor < m_plan.steps.size() && m_checksPending < MaxApiInFlight) {
        const int i = m_checkCursor++;
        PlanStep &step = m_plan.steps[i];
        if (step.dryRun == PlanStep::DryRun::Deferred) {
            emit stepChecked(i); // asked when it runs: its namespace does not exist yet
            continue;
        }
        ++m_checksPending;
        auto answered = [this, i](QObject *by, PlanStep::DryRun answer, const QString &message) {
            m_plan.steps[i].dryRun = answer;
            m_plan.steps[i].dryRunMessage = message;
            --m_checksPending;
            by->deleteLater();
            emit stepChecked(i);
            checkNext();
        };
        StepRunner *runner = makeStepRunner(m_ctx, step, this);
        connect(
            runner, &StepRunner::dryRunDone, this,
            [answered, runner](PlanStep::DryRun a, const QString &m) { answered(runner, a, m); });
        runner->dryRun();
    }
    if (m_checkCursor >= m_plan.steps.size() && m_checksPending == 0 &&
        m_state == State::Checking) {
        m_state = State::Ready;
        emit checked();
    }
}

bool Operation::start(QString *error)
{
    if (m_state == State::Running || m_state == State::Finished)
        return false;
    if (!m_plan.refusals.isEmpty()) {
        *error = m_plan.refusals.join(u'\n');
        return false;
    }
    if (!m_audit.append(AuditLog::started(m_id, m_ctx.who, m_plan), error))
        return false;
    m_state = State::Running;
    m_running.start();
    pump();
    finishIfDone(); // a plan with nothing to do ends at once
    return true;
}

void Operation::cancel()
{
    if (m_state != State::Running || m_cancelled)
        return;
    m_cancelled = true;
    emit cancelling();
    for (int i = 0; i < m_outcomes.size(); ++i) {
        if (m_outcomes[i].result != StepOutcome::Result::Pending)
            continue;
        m_outcomes[i].result = StepOutcome::Result::Cancelled;
        m_outcomes[i].message = tr("cancelled before it started: not acted on");
        ++m_ended;
        emit stepChanged(i);
    }
    emit progress(m_ended, int(m_plan.steps.size()));
    // A unit cut off by the cancel leaves nothing half made either.
    QSet<int> cut;
    for (int i = 0; i < m_outcomes.size(); ++i)
        if (m_plan.steps[i].unit >= 0 && m_outcomes[i].result == StepOutcome::Result::Cancelled)
            cut.insert(m_plan.steps[i].unit);
    for (int unit : std::as_const(cut))
        rollBack(unit, tr("the operation was cancelled before this unit was complete"));
    finishIfDone();
}

void Operation::pump()
{
    if (m_cancelled)
        return;
    const int n = int(m_plan.steps.size());
    while (m_cursor < n && m_outcomes[m_cursor].result != StepOutcome::Result::Pending)
        ++m_cursor;
    for (int i = m_cursor; i < n; ++i) {
        if (m_apiInFlight >= MaxApiInFlight && m_sshInFlight >= MaxSshInFlight)
            break;
        if (m_outcomes[i].result != StepOutcome::Result::Pending)
            continue;
        if (isSsh(i) ? m_sshInFlight >= MaxSshInFlight : m_apiInFlight >= MaxApiInFlight)
            continue;
        // Its dependencies: all ended well, or it is skipped; any still running, it waits.
        bool waiting = false;
        QString failedDep;
        for (int d : std::as_const(m_plan.steps[i].after)) {
            const StepOutcome &o = m_outcomes.value(d);
            if (!o.ended())
                waiting = true;
            else if (o.result != StepOutcome::Result::Done &&
                     o.result != StepOutcome::Result::Unverified)
                failedDep = m_plan.steps[d].target.describe();
        }
        // Its own refusal, or a sibling's, says more than a dependency that did not succeed.
        if (const auto held = heldByGroup(i)) {
            stepEnded(i, *held);
            continue;
        }
        if (!failedDep.isEmpty()) {
            StepOutcome o;
            o.result = StepOutcome::Result::Skipped;
            o.message = tr("not acted on: the step before it (%1) did not succeed").arg(failedDep);
            stepEnded(i, o);
            continue;
        }
        if (!waiting)
            launch(i);
    }
}

std::optional<StepOutcome> Operation::heldByGroup(int i) const
{
    using R = StepOutcome::Result;
    const PlanStep &s = m_plan.steps[i];
    if (s.group < 0)
        return std::nullopt;
    StepOutcome o;
    // The server's refusals: a process's check on its node (ended already, PID reused) is made
    // again when it runs, and ends that step alone as it finds.
    auto refusedByServer = [this](int j) {
        return m_plan.steps[j].dryRun == PlanStep::DryRun::Refused && !isSsh(j);
    };
    if (refusedByServer(i)) {
        // Its siblings are held back by the same refusal: a kill is not sent for a pod the
        // account may not delete (issue 33: a read-only account's run still sent TERM).
        o.result = R::Refused;
        o.message = tr("refused by the server's check, so not sent: %1").arg(s.dryRunMessage);
        return o;
    }
    for (int j : m_groups.value(s.group)) {
        if (j == i)
            continue;
        const PlanStep &other = m_plan.steps[j];
        const StepOutcome &ended = m_outcomes[j];
        QString what;
        if (refusedByServer(j))
            what = tr("was refused by the server's check (%1)").arg(other.dryRunMessage);
        else if (ended.result == R::Skipped || ended.result == R::Refused ||
                 ended.result == R::Failed)
            what = tr("ended %1 (%2)").arg(StepOutcome::resultName(ended.result), ended.message);
        if (what.isEmpty())
            continue;
        o.result = R::Skipped;
        o.message = tr("not acted on: step %1 for the same finding (%2) %3")
                        .arg(j + 1)
                        .arg(other.target.describe(), what);
        return o;
    }
    return std::nullopt;
}

void Operation::launch(int i)
{
    const PlanStep &step = m_plan.steps[i];
    m_outcomes[i].result = StepOutcome::Result::Running;
    m_outcomes[i].started = QDateTime::currentDateTime();
    emit stepChanged(i);
    StepRunner *runner = makeStepRunner(m_ctx, step, this);
    connect(runner, &StepRunner::progress, this,
            [this, i](const QString &line) { emit stepProgress(i, line); });
    // A commit or push runs for minutes: a cancel stops it, not only the steps to come.
    connect(this, &Operation::cancelling, runner, &StepRunner::cancel);
    if (StepRunner::laneOf(step.kind) == StepRunner::Lane::Ssh) {
        // A node's link is held until the step ends.
        ++m_sshInFlight;
        connect(runner, &StepRunner::ended, this, [this, i, runner](const StepOutcome &o) {
            --m_sshInFlight;
            answered();
            runner->deleteLater();
            stepEnded(i, o);
        });
    } else {
        // The slot is the request's: waiting for the effect (a grace period) holds none, so a
        // batch of pods with long grace periods still goes at the API's pace.
        ++m_apiInFlight;
        connect(runner, &StepRunner::acted, this, [this] {
            --m_apiInFlight;
            answered();
            pump();
        });
        connect(runner, &StepRunner::ended, this, [this, i, runner](const StepOutcome &o) {
            runner->deleteLater();
            stepEnded(i, o);
        });
    }
    runner->run();
}

void Operation::answered()
{
    ++m_answered;
    m_lastAnsweredMs = m_running.elapsed();
    emit requestAnswered(m_answered);
}

void Operation::stepEnded(int i, const StepOutcome &outcome)
{
    StepOutcome o = outcome;
    if (!o.started.isValid())
        o.started =
            m_outcomes[i].started.isValid() ? m_outcomes[i].started : QDateTime::currentDateTime();
    if (!o.finished.isValid())
        o.finished = QDateTime::currentDateTime();
    m_outcomes[i] = o;
    ++m_ended;
    emit stepChanged(i);
    emit progress(m_ended, int(m_plan.steps.size()));
    const bool good =
        o.result == StepOutcome::Result::Done || o.result == StepOutcome::Result::Unverified;
    if (!good && m_plan.steps[i].unit >= 0)
        rollBack(m_plan.steps[i].unit, tr("step %1 (%2) of this unit did not succeed")
                                           .arg(i + 1)
                                           .arg(m_plan.steps[i].target.describe()));
    pump();
    finishIfDone();
}

void Operation::rollBack(int unit, const QString &why)
{
    if (m_rolledBack.contains(unit))
        return;
    m_rolledBack.insert(unit);
    // The unit's steps not started yet are not run; what its steps created is deleted again,
    // newest first (the namespace, made first, goes last).
    QList<int> undo;
    for (int i = 0; i < m_plan.steps.size(); ++i) {
        if (m_plan.steps[i].unit != unit)
            continue;
        StepOutcome &o = m_outcomes[i];
        if (o.result == StepOutcome::Result::Pending) {
            o.result = StepOutcome::Result::Skipped;
            o.message = tr("not run: %1").arg(why);
            o.finished = QDateTime::currentDateTime();
            ++m_ended;
            emit stepChanged(i);
        } else if ((o.result == StepOutcome::Result::Done ||
                    o.result == StepOutcome::Result::Unverified) &&
                   m_plan.steps[i].kind == PlanStep::Kind::Create && !o.createdPath.isEmpty()) {
            undo.prepend(i);
        }
    }
    emit progress(m_ended, int(m_plan.steps.size()));
    ++m_rollingBack;
    undoNext(undo, why);
}

void Operation::undoNext(QList<int> steps, const QString &why)
{
    if (steps.isEmpty()) {
        --m_rollingBack;
        finishIfDone();
        return;
    }
    const int i = steps.takeFirst();
    const PlanStep &made = m_plan.steps[i];
    PlanStep undo;
    undo.kind = PlanStep::Kind::Delete;
    undo.target = made.target;
    undo.target.apiPath = m_outcomes[i].createdPath;
    undo.target.uid = m_outcomes[i].createdUid;
    undo.target.name = m_outcomes[i].createdPath.section(u'/', -1);
    undo.propagationPolicy = QStringLiteral("Background");
    auto *kube = new KubeStep(m_ctx, undo, this);
    connect(kube, &KubeStep::ended, this, [this, i, kube, steps, why](const StepOutcome &result) {
        kube->deleteLater();
        StepOutcome &o = m_outcomes[i];
        if (result.result == StepOutcome::Result::Done ||
            result.result == StepOutcome::Result::Unverified ||
            result.result == StepOutcome::Result::Skipped) {
            o.result = StepOutcome::Result::RolledBack;
            o.message = tr("made, then deleted again: %1").arg(why);
            o.verification = result.verification.isEmpty() ? result.message : result.verification;
        } else {
            o.message = tr("made; deleting it again failed (%1): delete %2 by hand")
                            .arg(result.message, o.createdPath);
        }
        emit stepChanged(i);
        undoNext(steps, why);
    });
    kube->run();
}

void Operation::finishIfDone()
{
    if (m_state != State::Running || m_ended < m_plan.steps.size() || m_rollingBack > 0)
        return;
    m_state = State::Finished;
    QString error;
    // The end record is best effort: the start record already says what was done.
    m_audit.append(AuditLog::ended(m_id, m_ctx.who, m_plan, m_outcomes, m_cancelled), &error);
    emit finished();
}

} // namespace gpudesk
