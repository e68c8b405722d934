// SPDX-License-Identifier: GPL-3.0-or-later
#include "saveimagestep.h"

#include "containercommands.h"
#include "contextconnection.h"
#include "registryclient.h"
#include "sshpool.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QPointer>
#include <QRegularExpression>

namespace gpudesk {

// What the node's commands came to, handed from the SSH worker to the step's thread.
struct SaveImageStep::Result
{
    StepOutcome::Result result = StepOutcome::Result::Failed;
    QString message;
    QString containerId;
    QString pushed; // the manifest digest the push reported
    bool busy = false;
    bool acted = false; // the commit ran: the container was paused, an image made
};

namespace {

// The command's own words, shortened: its last lines say what went wrong.
QString said(const ExecResult &r)
{
    QString text = QString::fromUtf8(r.out + r.err).trimmed();
    if (text.size() > 600)
        text = QStringLiteral("…") + text.right(600);
    return text.isEmpty() ? QCoreApplication::translate("gpudesk::SaveImageStep", "exit status %1")
                                .arg(r.exitStatus)
                          : text;
}

} // namespace

SaveImageStep::SaveImageStep(OperationContext context, PlanStep step, QObject *parent)
    : StepRunner(parent), m_ctx(std::move(context)), m_step(std::move(step)),
      m_client(new RegistryClient(m_ctx.registry, this)),
      m_stop(std::make_shared<std::atomic<bool>>(false))
{
    m_client->setCredentials(m_ctx.registryCredentials);
    m_retry.setSingleShot(true);
    m_retry.setInterval(BusyRetryMs);
    connect(&m_retry, &QTimer::timeout, this, &SaveImageStep::submit);
}

SaveImageStep::~SaveImageStep()
{
    *m_stop = true; // a commit or push still running on the worker stops there
}

QString SaveImageStep::pushedDigest(const QByteArray &output)
{
    static const QRegularExpression nerdctl(QStringLiteral("manifest-(sha256:[0-9a-f]{64})"));
    static const QRegularExpression docker(QStringLiteral("digest: (sha256:[0-9a-f]{64}) size"));
    static const QRegularExpression info(
        QStringLiteral("pushing as a reduced-platform image \\([^,]+, (sha256:[0-9a-f]{64})\\)"));
    const QString text = QString::fromUtf8(output);
    for (const QRegularExpression *re : {&nerdctl, &docker, &info})
        if (const auto m = re->match(text); m.hasMatch())
            return m.captured(1);
    return {};
}

void SaveImageStep::dryRun()
{
    m_act = false;
    checkDestination([this] { submit(); });
}

void SaveImageStep::run()
{
    m_act = true;
    m_outcome.started = QDateTime::currentDateTime();
    m_outcome.result = StepOutcome::Result::Running;
    checkDestination([this] { submit(); });
}

void SaveImageStep::cancel()
{
    *m_stop = true;
}

void SaveImageStep::checkDestination(std::function<void()> then)
{
    const ImageTarget &t = m_step.image;
    m_client->manifestDigest(
        t.toRepository, t.toTag, this, [this, then, t](const RegistryReply &r) {
            QString now;
            if (r.ok())
                now = r.digest;
            else if (r.httpStatus != 404) {
                const QString why = tr("the registry could not say what %1 names now: %2")
                                        .arg(t.toReference(), r.error);
                if (m_act)
                    finish(StepOutcome::Result::Failed, why);
                else
                    emit dryRunDone(PlanStep::DryRun::Refused, why);
                return;
            }
            if (now != t.toDigest) {
                const QString why =
                    now.isEmpty()
                        ? tr("%1 was deleted since the plan; plan again").arg(t.toReference())
                        : tr("%1 names %2 now, not what it named when planned: it is not "
                             "overwritten")
                              .arg(t.toReference(), now);
                if (m_act)
                    finish(StepOutcome::Result::Skipped, why);
                else
                    emit dryRunDone(PlanStep::DryRun::Refused, why);
                return;
            }
            then();
        });
}

void SaveImageStep::submit()
{
    if (m_firstTry == 0)
        m_firstTry = QDateTime::currentMSecsSinceEpoch();
    auto fail = [this](const QString &why) {
        if (m_act)
            finish(StepOutcome::Result::Failed, why);
        else
            emit dryRunDone(PlanStep::DryRun::Refused, why);
    };
    QString why;
    const auto tool = nodecmd::containerToolFor(m_step.image.runtime, &why);
    if (!tool) {
        fail(why);
        return;
    }
    const QString node = m_step.target.node;
    SshPool *pool = sshPool(m_ctx, node, &why);
    if (!pool) {
        fail(why);
        return;
    }
    const PlanStep step = m_step;
    const bool act = m_act;
    const RegistryCredentials creds = m_ctx.registryCredentials;
    const auto stop = m_stop;
    QPointer<SaveImageStep> self(this);
    auto say = [self](const QString &line) {
        QMetaObject::invokeMethod(
            qApp,
            [self, line] {
                if (self)
                    emit self->progress(line);
            },
            Qt::QueuedConnection);
    };
    const bool submitted = pool->submit(
        node,
        [self, step, act, creds, stop, say,
         tool = *tool](SshConnection *c, const SshStatus &status,
                       const std::atomic<bool> &cancel) -> std::function<void()> {
            // On the node's SSH worker.
            Result r;
            auto reply = [self, &r]() -> std::function<void()> {
                return [self, r] {
                    if (self)
                        self->received(r);
                };
            };
            if (!c) {
                r.message = status.message;
                return reply();
            }
            const ImageTarget &t = step.image;
            const ExecResult found =
                c->exec(nodecmd::findContainerCommand(tool, step.target.uid, t.fromContainer),
                        15000, cancel, {QByteArray(), {}, stop.get()});
            if (!found.ok) {
                r.message = found.error;
                return reply();
            }
            if (found.exitStatus == 127) {
                r.result = StepOutcome::Result::Refused;
                r.message = tr("%1 is not installed on %2: %3")
                                .arg(tool.name, step.target.node, said(found));
                return reply();
            }
            if (found.exitStatus != 0) {
                r.result = StepOutcome::Result::Refused;
                r.message =
                    tr("%1 ps failed on %2: %3").arg(tool.name, step.target.node, said(found));
                return reply();
            }
            QStringList ids;
            for (const QByteArray &line : found.out.split('\n'))
                if (const QString id = QString::fromLatin1(line.trimmed()); !id.isEmpty())
                    ids << id;
            if (ids.isEmpty()) {
                r.result = StepOutcome::Result::Skipped;
                r.message =
                    tr("%1 runs no container %2 of pod %3 (uid %4): the pod stopped or "
                       "was replaced since the plan")
                        .arg(step.target.node, t.fromContainer, step.target.name, step.target.uid);
                return reply();
            }
            if (ids.size() > 1) {
                r.result = StepOutcome::Result::Refused;
                r.message = tr("%1 lists %2 containers for %3 of pod %4; which one to save is "
                               "not clear")
                                .arg(step.target.node)
                                .arg(ids.size())
                                .arg(t.fromContainer, step.target.name);
                return reply();
            }
            r.containerId = ids.first();
            if (!act) {
                r.result = StepOutcome::Result::Done;
                r.message = tr("container %1 found on %2 (%3)")
                                .arg(r.containerId.left(12), step.target.node, tool.name);
                return reply();
            }
            const QString reference = t.toReference();
            say(tr("Committing container %1 as %2…").arg(r.containerId.left(12), reference));
            const ExecResult committed =
                c->exec(nodecmd::commitCommand(tool, r.containerId, reference), CommitTimeoutMs,
                        cancel, {QByteArray(), {}, stop.get()});
            if (!committed.ok) {
                r.message = committed.error;
                r.result = committed.cancelled ? StepOutcome::Result::Cancelled
                                               : StepOutcome::Result::Failed;
                return reply();
            }
            if (committed.exitStatus != 0) {
                r.result = StepOutcome::Result::Refused;
                r.message = tr("%1 commit failed: %2").arg(tool.name, said(committed));
                return reply();
            }
            r.acted = true;
            say(tr("Committed: %1").arg(QString::fromUtf8(committed.out.trimmed())));
            // The credentials live in a directory of their own, removed whatever happens.
            const QByteArray dir = nodecmd::newPushDirectory();
            const ExecResult login =
                c->exec(nodecmd::registryLoginCommand(tool, dir, creds.username, t.registry), 60000,
                        cancel, {creds.secret.toUtf8() + '\n', {}, stop.get()});
            if (login.ok && login.exitStatus == 0) {
                say(tr("Logged in to %1 as %2 (for this push only)")
                        .arg(t.registry, creds.username));
                QByteArray partial;
                const ExecResult pushed = c->exec(
                    nodecmd::pushCommand(tool, dir, reference), PushTimeoutMs, cancel,
                    {QByteArray(),
                     [&partial, say](const QByteArray &chunk) {
                         partial += chunk;
                         qsizetype nl;
                         while ((nl = partial.indexOf('\n')) >= 0) {
                             if (const QString line = QString::fromUtf8(partial.left(nl)).trimmed();
                                 !line.isEmpty())
                                 say(line);
                             partial.remove(0, nl + 1);
                         }
                     },
                     stop.get()});
                if (!pushed.ok) {
                    r.result = pushed.cancelled ? StepOutcome::Result::Cancelled
                                                : StepOutcome::Result::Failed;
                    r.message = pushed.error;
                } else if (pushed.exitStatus != 0) {
                    r.result = StepOutcome::Result::Failed;
                    r.message = tr("%1 push failed: %2").arg(tool.name, said(pushed));
                } else {
                    r.result = StepOutcome::Result::Done;
                    r.pushed = pushedDigest(pushed.out);
                }
            } else {
                r.result = login.ok ? StepOutcome::Result::Refused : StepOutcome::Result::Failed;
                r.message = login.ok ? tr("%1 refused the login of %2: %3")
                                           .arg(t.registry, creds.username, said(login))
                                     : login.error;
            }
            const std::atomic<bool> never{false};
            c->exec(nodecmd::removePushDirectoryCommand(dir), 15000, never);
            return reply();
        },
        // A commit and push take minutes: on the node's second session, so that its figures
        // (and the status bar's "answering") go on meanwhile.
        SshPool::Lane::Long);
    if (!submitted) {
        // Another long job on the node, its session not up yet or backing off: again soon, up
        // to a bound.
        if (QDateTime::currentMSecsSinceEpoch() - m_firstTry > GiveUpMs) {
            const SshStatus s = pool->status(node);
            fail(s.message.isEmpty() ? tr("%1 stayed busy or unreachable for a minute").arg(node)
                                     : s.message);
            return;
        }
        m_retry.start();
    }
}

void SaveImageStep::received(const Result &r)
{
    if (!m_act) {
        emit dryRunDone(r.result == StepOutcome::Result::Done ? PlanStep::DryRun::Accepted
                                                              : PlanStep::DryRun::Refused,
                        r.message);
        return;
    }
    if (r.result != StepOutcome::Result::Done) {
        // A commit that ran left an image on the node; say so, the node's disk is shared.
        finish(r.result, r.acted ? r.message + u' ' +
                                       tr("(the committed image stays on %1 until its runtime "
                                          "removes it)")
                                           .arg(m_step.target.node)
                                 : r.message);
        return;
    }
    verify(r.pushed);
}

void SaveImageStep::verify(const QString &pushed)
{
    const ImageTarget &t = m_step.image;
    m_client->manifestDigest(
        t.toRepository, t.toTag, this, [this, pushed, t](const RegistryReply &r) {
            if (!r.ok()) {
                finish(StepOutcome::Result::Unverified,
                       tr("pushed, but the registry does not show %1: %2")
                           .arg(t.toReference(), r.error));
                return;
            }
            if (!pushed.isEmpty() && r.digest != pushed) {
                finish(StepOutcome::Result::Unverified,
                       tr("pushed %1, but %2 names %3 now (someone pushed in between?)")
                           .arg(pushed, t.toReference(), r.digest));
                return;
            }
            finish(StepOutcome::Result::Done,
                   tr("saved as %1 — ready to use in a new dev environment")
                       .arg(t.registry + u'/' + t.toRepository + u'@' + r.digest),
                   tr("%1 names %2 in the registry").arg(t.toReference(), r.digest));
        });
}

void SaveImageStep::finish(StepOutcome::Result result, const QString &message,
                           const QString &verification)
{
    m_outcome.end(result, message, verification);
    emit ended(m_outcome);
}

} // namespace gpudesk
