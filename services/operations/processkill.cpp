// SPDX-License-Identifier: GPL-3.0-or-later
#include "processkill.h"
#include "contextconnection.h"
#include "objectevent.h"
#include "stepguard.h"

#include "nodecommands.h"
#include "probeparsers.h"
#include "sshconnection.h"
#include "sshpool.h"
#include "telemetrystore.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QPointer>
#include <QThread>

namespace gpudesk {

namespace {

ProcessKill::Check checkPid(SshConnection &c, qint64 pid, const std::atomic<bool> &cancel)
{
    ProcessKill::Check out;
    // Without mig.mode.current: the check needs indexes and memory only, and every driver
    // answers those.
    const ExecResult r = c.exec(nodecmd::processCheckCommand(pid, false), 15000, cancel);
    if (!r.ok) {
        out.error = r.error;
        return out;
    }
    out.ran = true;
    QList<GpuCardSample> cards;
    QList<GpuProcessSample> apps;
    for (const nodecmd::Section &s : nodecmd::splitSections(r.out)) {
        const bool failed = s.name.endsWith(" failed");
        const QByteArray name = failed ? s.name.chopped(7) : s.name;
        if (name == "pidstat " + QByteArray::number(pid)) {
            if (const auto st = probe::parsePidStat(s.body); st && st->pid == pid) {
                out.exists = true;
                out.state = st->state;
                out.startTicks = st->startTicks;
            }
        } else if (name == "pid " + QByteArray::number(pid)) {
            out.podUid = probe::parseCgroup(s.body).podUid;
        } else if (name == "gpus") {
            cards = probe::parseGpus(s.body, failed ? 1 : 0).rows;
        } else if (name == "apps") {
            apps = probe::parseComputeApps(s.body, failed ? 1 : 0).rows;
        }
    }
    for (const GpuProcessSample &a : apps) {
        if (a.pid != pid)
            continue;
        out.onGpu = true;
        for (const GpuCardSample &g : cards)
            if (g.uuid == a.gpuUuid)
                out.card = g.index;
    }
    return out;
}

// The memory on a card that no listed process accounts for, by a fresh check: what an ended
// process may have left behind (another process sharing the card keeps its own). -1 when the
// check failed.
qint64 cardMemory(SshConnection &c, qint64 pid, int card, const std::atomic<bool> &cancel,
                  bool *pidListed)
{
    const ExecResult r = c.exec(nodecmd::processCheckCommand(pid, false), 15000, cancel);
    *pidListed = false;
    if (!r.ok)
        return -1;
    qint64 used = -1, listed = 0;
    QString uuid;
    QList<GpuProcessSample> apps;
    for (const nodecmd::Section &s : nodecmd::splitSections(r.out)) {
        if (s.name == "gpus")
            for (const GpuCardSample &g : probe::parseGpus(s.body, 0).rows)
                if (g.index == card) {
                    used = g.memoryUsedMiB.value_or(-1);
                    uuid = g.uuid;
                }
        if (s.name == "apps")
            apps = probe::parseComputeApps(s.body, 0).rows;
    }
    for (const GpuProcessSample &a : std::as_const(apps)) {
        *pidListed |= a.pid == pid;
        if (a.pid != pid && a.gpuUuid == uuid)
            listed += a.memoryMiB.value_or(0);
    }
    return used < 0 ? used : std::max<qint64>(0, used - listed);
}

// Waits up to `ms` for the process to end (or its PID to be taken by another): polls its stat.
bool waitGone(SshConnection &c, qint64 pid, qint64 startTicks, int ms,
              const std::atomic<bool> &cancel)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms && !cancel) {
        const ExecResult r = c.exec(nodecmd::pidStatCommand({pid}), 5000, cancel);
        if (r.ok) {
            bool alive = false;
            for (const nodecmd::Section &s : nodecmd::splitSections(r.out))
                if (const auto st = probe::parsePidStat(s.body))
                    alive = st->pid == pid && (startTicks < 0 || st->startTicks == startTicks) &&
                            st->state != 'Z';
            if (!alive)
                return true;
        }
        // On the worker that owns this node's link: a short pause between polls, bounded.
        QThread::msleep(500);
    }
    return false;
}

} // namespace

ProcessKill::ProcessKill(OperationContext context, PlanStep step, QObject *parent)
    : StepRunner(parent), m_ctx(std::move(context)), m_step(std::move(step))
{
    m_retry.setSingleShot(true);
    m_retry.setInterval(BusyRetryMs);
    connect(&m_retry, &QTimer::timeout, this, [this] { submit(m_signal); });
}

QString ProcessKill::mismatch(const PlanStep &step, const Check &c)
{
    const StepTarget &t = step.target;
    if (!c.exists)
        return tr("PID %1 has ended already: not signalled").arg(t.pid);
    if (t.startTime >= 0 && c.startTicks != t.startTime)
        return tr("PID %1 now belongs to another process (started at tick %2, not %3): not "
                  "signalled")
            .arg(t.pid)
            .arg(c.startTicks)
            .arg(t.startTime);
    if (c.podUid != t.podUid)
        return c.podUid.isEmpty()
                   ? tr("PID %1 is no longer in the container planned for: not signalled")
                         .arg(t.pid)
                   : tr("PID %1 now runs in pod %2's container: not signalled")
                         .arg(t.pid)
                         .arg(c.podUid);
    if (!c.onGpu)
        return tr("PID %1 no longer uses a GPU: not signalled").arg(t.pid);
    return QString();
}

void ProcessKill::dryRun()
{
    submit(false);
}

void ProcessKill::run()
{
    m_outcome.started = QDateTime::currentDateTime();
    m_outcome.result = StepOutcome::Result::Running;
    // What the kill is for, first: its pod still the planned one on a node still NotReady
    // since the same moment, or still Terminating; an orphan's pod still gone. Then the PID,
    // on the node, before each signal.
    auto *guard = new StepGuard(m_ctx, m_step, this);
    guard->check([this, guard](StepOutcome::Result r, const QString &why) {
        guard->deleteLater();
        if (r == StepOutcome::Result::Done)
            submit(true);
        else
            finish(r, why.isEmpty()
                          ? why
                          : tr("%1 (PID %2 not signalled)").arg(why).arg(m_step.target.pid));
    });
}

void ProcessKill::submit(bool signal)
{
    m_signal = signal;
    if (m_firstTry == 0)
        m_firstTry = QDateTime::currentMSecsSinceEpoch();
    auto fail = [this, signal](const QString &why) {
        if (signal)
            finish(StepOutcome::Result::Failed, why);
        else
            emit dryRunDone(PlanStep::DryRun::Refused, why);
    };
    const QString node = m_step.target.node;
    QString why;
    SshPool *pool = sshPool(m_ctx, node, &why);
    if (!pool) {
        fail(why);
        return;
    }
    const PlanStep step = m_step;
    QPointer<ProcessKill> self(this);
    const bool submitted = pool->submit(
        node,
        [self, step, signal](SshConnection *c, const SshStatus &status,
                             const std::atomic<bool> &cancel) -> std::function<void()> {
            // On the node's SSH worker. Everything is decided from fresh checks.
            using R = StepOutcome::Result;
            struct Verdict
            {
                R result = R::Failed;
                QString message;
                QString verification;
                PlanStep::DryRun dry = PlanStep::DryRun::Refused;
                bool signalled = false; // a signal went out: the node's Event says so
            };
            auto reply = [self, signal](Verdict v) -> std::function<void()> {
                return [self, signal, v] {
                    if (!self)
                        return;
                    if (!signal)
                        emit self->dryRunDone(v.dry, v.message);
                    else if (v.signalled)
                        self->tellAndFinish(v.result, v.message, v.verification);
                    else
                        self->finish(v.result, v.message, v.verification);
                };
            };
            Verdict v;
            if (!c) {
                v.message = status.message;
                return reply(v);
            }
            const qint64 pid = step.target.pid;
            Check first = checkPid(*c, pid, cancel);
            if (!first.ran) {
                v.message = first.error;
                return reply(v);
            }
            if (signal && !first.exists) {
                // What the step was for has happened (often: a sibling's kill ended the whole
                // container). Nothing is sent; the card is still checked.
                const StepTarget &t = step.target;
                const int card = t.holds.isEmpty() ? -1 : t.holds.first().cards.value(0, -1);
                bool listed = false;
                const qint64 memory = cardMemory(*c, pid, card, cancel, &listed);
                v.message = tr("PID %1 had ended already: no signal sent").arg(pid);
                v.result = listed || memory >= TelemetryStore::PhantomMiB ? R::Unverified : R::Done;
                v.verification = listed       ? tr("nvidia-smi still lists PID %1").arg(pid)
                                 : memory < 0 ? tr("PID %1 is gone").arg(pid)
                                              : tr("PID %1 is gone; GPU %2 holds %3 MiB no "
                                                   "process accounts for")
                                                    .arg(pid)
                                                    .arg(card)
                                                    .arg(memory);
                return reply(v);
            }
            if (const QString m = ProcessKill::mismatch(step, first); !m.isEmpty()) {
                v.result = R::Skipped;
                v.message = m;
                return reply(v);
            }
            if (first.state == 'D') {
                v.message =
                    tr("PID %1 is in uninterruptible sleep (D): no signal can end it; drain "
                       "and reboot the node")
                        .arg(pid);
                return reply(v);
            }
            if (!signal) {
                v.dry = PlanStep::DryRun::Accepted;
                v.message = tr("PID %1 is still the planned process (state %2, on GPU %3)")
                                .arg(pid)
                                .arg(QChar::fromLatin1(first.state))
                                .arg(first.card);
                return reply(v);
            }
            QStringList did;
            auto send = [&](nodecmd::Signal s) {
                const ExecResult r = c->exec(nodecmd::signalCommand(pid, s), 10000, cancel);
                return r.ok && r.exitStatus == 0;
            };
            bool gone = false;
            if (send(nodecmd::Signal::Term)) {
                did << QStringLiteral("TERM");
                gone = waitGone(*c, pid, first.startTicks, TermWaitMs, cancel);
            }
            if (!gone) {
                // Checked again right before KILL: the same process, still on a GPU.
                const Check again = checkPid(*c, pid, cancel);
                const QString m = again.ran ? ProcessKill::mismatch(step, again) : again.error;
                if (again.ran && !again.exists) {
                    gone = true;
                } else if (!m.isEmpty()) {
                    v.result = again.ran ? R::Skipped : R::Failed;
                    v.signalled = true;
                    v.message = tr("sent %1; then: %2").arg(did.join(u','), m);
                    return reply(v);
                } else if (send(nodecmd::Signal::Kill)) {
                    did << QStringLiteral("KILL");
                    gone = waitGone(*c, pid, first.startTicks, KillWaitMs, cancel);
                }
            }
            v.signalled = !did.isEmpty();
            v.message = tr("sent %1").arg(did.isEmpty() ? tr("no signal")
                                                        : did.join(QStringLiteral(", then ")));
            if (!gone) {
                v.message += tr("; PID %1 still runs").arg(pid);
                return reply(v);
            }
            // Verified on the card: the process is no longer listed and its memory is released.
            bool listed = false;
            const qint64 memory = cardMemory(*c, pid, first.card, cancel, &listed);
            if (listed) {
                v.result = R::Unverified;
                v.verification = tr("nvidia-smi still lists PID %1").arg(pid);
            } else if (memory >= TelemetryStore::PhantomMiB) {
                v.result = R::Unverified;
                v.verification =
                    tr("PID %1 is gone, but GPU %2 still holds %3 MiB no process accounts for")
                        .arg(pid)
                        .arg(first.card)
                        .arg(memory);
            } else {
                v.result = R::Done;
                v.verification = memory >= 0 ? tr("PID %1 is gone; GPU %2 holds %3 MiB no "
                                                  "process accounts for")
                                                   .arg(pid)
                                                   .arg(first.card)
                                                   .arg(memory)
                                             : tr("PID %1 is gone").arg(pid);
            }
            return reply(v);
        });
    if (submitted)
        return;
    if (const QString giveUp = sshGiveUp(pool, node, m_firstTry, GiveUpMs); !giveUp.isEmpty()) {
        fail(giveUp);
        return;
    }
    m_retry.start(); // the link is busy sampling, or backing off: shortly again
}

void ProcessKill::tellAndFinish(StepOutcome::Result result, const QString &message,
                                const QString &verification)
{
    // The node's Event: a process has no API object, and its pod (if any) is gone; the node is
    // where the admins of its cluster look.
    ObjectEvent e;
    e.apiVersion = QStringLiteral("v1");
    e.kind = QStringLiteral("Node");
    e.name = m_step.target.node;
    e.reason = m_step.eventReason;
    const QString by = tr("by %1 with gpudesk").arg(m_ctx.who);
    const StepTarget &t = m_step.target;
    const int card = t.holds.isEmpty() ? -1 : t.holds.first().cards.value(0, -1);
    e.message = tr("PID %1 on GPU %2: %3, %4").arg(t.pid).arg(card).arg(message, by);
    if (!m_step.why.isEmpty())
        e.message += QStringLiteral(": ") + m_step.why;
    if (e.reason.isEmpty() || !m_ctx.lease) {
        finish(result, message, verification);
        return;
    }
    e.post(m_ctx.lease->client(), this, [=, this](const QString &error) {
        finish(result, message,
               error.isEmpty() ? verification
                               : verification + u"; " + tr("no Event on the node: %1").arg(error));
    });
}

void ProcessKill::finish(StepOutcome::Result result, const QString &message,
                         const QString &verification)
{
    m_outcome.end(result, message, verification);
    emit ended(m_outcome);
}

} // namespace gpudesk
