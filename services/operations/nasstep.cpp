// SPDX-License-Identifier: GPL-3.0-or-later
#include "nasstep.h"

#include "contextconnection.h"
#include "format.h"
#include "kubeclient.h"
#include "podfileclient.h"
#include "podnasmounts.h"
#include "probeparsers.h"
#include "sftpclient.h"
#include "sftptree.h"
#include "sshconnection.h"
#include "sshpool.h"
#include "storagecommands.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QPointer>
#include <QThread>

namespace gpudesk {

struct NasStep::Shared
{
    std::atomic<qint64> files{0};
    std::atomic<qint64> bytes{0};
};

namespace {

using R = StepOutcome::Result;

QString parentOf(const QString &path)
{
    const int slash = path.lastIndexOf(u'/');
    return slash <= 0 ? QStringLiteral("/") : path.left(slash);
}

QString kindWord(char type)
{
    switch (type) {
    case 'd':
        return NasStep::tr("folder");
    case 'l':
        return NasStep::tr("link");
    case 'f':
        return NasStep::tr("file");
    default:
        return NasStep::tr("special file");
    }
}

// "" when the folder `path` is in is read by the server as the folder written: no link on the
// way (one swapped in since the plan would send the step elsewhere). Else why not.
QString reachedDirectly(RemoteFileAccess &files, const QString &path)
{
    QString why;
    return files.readsAsWritten(parentOf(path), &why) ? QString() : why;
}

// The root's available KiB by df on the node, -1 when it cannot be read (or there is no node:
// through a dev environment).
qint64 availableKiB(SshConnection *c, const QString &root, const std::atomic<bool> &cancel)
{
    const QByteArray command = nodecmd::storageDfCommand({root});
    if (!c || command.isEmpty())
        return -1;
    const ExecResult r = c->exec(command, 15000, cancel);
    const QList<DiskUse> rows = r.ok ? probe::parseDf(r.out) : QList<DiskUse>();
    return rows.isEmpty() ? -1 : rows.first().availableKiB;
}

QString tallyWords(const SftpTree::Tally &t)
{
    return NasStep::tr("%n file(s)", nullptr, int(qMin<qint64>(t.files, INT_MAX))) +
           QStringLiteral(", ") + format::bytes(t.bytes);
}

// A folder's content as counted: files, folders and bytes.
QString contentWords(const SftpTree::Tally &t)
{
    return NasStep::tr("%n file(s)", nullptr, int(qMin<qint64>(t.files, INT_MAX))) +
           QStringLiteral(", ") +
           NasStep::tr("%n folder(s)", nullptr, int(qMin<qint64>(t.folders, INT_MAX))) +
           QStringLiteral(", ") + format::bytes(t.bytes);
}

struct Verdict
{
    R result = R::Failed;
    QString message;
    QString verification;
    PlanStep::DryRun dry = PlanStep::DryRun::Refused;
};

// The move, from its checks to its verification, on the worker.
Verdict move(RemoteFileAccess &sftp, const NasTarget &t, bool act)
{
    Verdict v;
    QString error;
    if (const QString why = reachedDirectly(sftp, t.toPath); !why.isEmpty()) {
        v.result = R::Refused;
        v.message = why;
        return v;
    }
    if (sftp.stat(t.toPath, &error)) {
        v.result = R::Refused;
        v.message = NasStep::tr("%1 is already there: nothing is replaced").arg(t.toPath);
        return v;
    }
    if (!act) {
        v.dry = PlanStep::DryRun::Accepted;
        v.message = NasStep::tr("Still as planned; %1 is free").arg(t.toPath);
        return v;
    }
    if (!sftp.rename(t.path, t.toPath, &error)) {
        v.result = R::Refused;
        v.message = error;
        return v;
    }
    const std::optional<RemoteFile> there = sftp.stat(t.toPath, &error);
    const bool fromGone = !sftp.stat(t.path, &error) && sftp.lastWasMissing();
    v.message = NasStep::tr("moved to %1").arg(t.toPath);
    v.result = there && there->type == t.type && fromGone ? R::Done : R::Unverified;
    v.verification = v.result == R::Done
                         ? NasStep::tr("%1 is there, %2 no longer").arg(t.toPath, t.path)
                     : !there ? NasStep::tr("the NAS does not show %1 yet").arg(t.toPath)
                              : NasStep::tr("the NAS still shows %1").arg(t.path);
    return v;
}

// The removal, from its count (the check) to what df says after it, on the worker.
Verdict remove(SshConnection *c, RemoteFileAccess &sftp, const NasTarget &t, const RemoteFile &now,
               bool act, std::atomic<bool> &cancel, const std::atomic<bool> &poolCancel,
               const std::shared_ptr<NasStep::Shared> &shared)
{
    Verdict v;
    QString error;
    if (!act) {
        v.dry = PlanStep::DryRun::Accepted;
        if (now.type != 'd') {
            v.message = NasStep::tr("Still as planned: a %1 of %2")
                            .arg(kindWord(now.type), format::bytes(now.size));
            return v;
        }
        const SftpTree::Tally n = SftpTree(sftp).count(t.path, NasStep::CountLimit, cancel);
        v.message = n.cut ? NasStep::tr("Still as planned: more than %1 in it").arg(contentWords(n))
                          : NasStep::tr("Still as planned: %1 in it").arg(contentWords(n));
        if (n.problemCount > 0)
            v.message += u"; " + NasStep::tr("%n part(s) cannot be read and will stay: %1", nullptr,
                                             int(n.problemCount))
                                     .arg(n.problems.first());
        return v;
    }
    const qint64 before = availableKiB(c, t.root, cancel);
    const SftpTree::Tally done = SftpTree(sftp).remove(
        t.path,
        [&shared, &cancel, &poolCancel](const SftpTree::Tally &so) {
            shared->files = so.files;
            shared->bytes = so.bytes;
            if (poolCancel) // gpudesk is closing: stop between entries
                cancel = true;
        },
        cancel);
    const bool gone = !sftp.stat(t.path, &error) && sftp.lastWasMissing();
    const QString what = NasStep::tr("removed %1").arg(tallyWords(done));
    if (!gone) {
        if (done.cut && done.files == 0 && done.folders == 0) {
            v.result = R::Cancelled;
            v.message = NasStep::tr("cancelled before anything was removed");
        } else {
            v.message = done.cut ? NasStep::tr("cancelled: %1; the rest is still there").arg(what)
                                 : NasStep::tr("%1; the rest stays, %n problem(s): %2", nullptr,
                                               int(qMin<qint64>(done.problemCount, INT_MAX)))
                                       .arg(what, done.problems.join(QStringLiteral("; ")));
        }
        return v;
    }
    v.message = what;
    qint64 after = availableKiB(c, t.root, cancel);
    // Some NASes (ZFS, NetApp) free a removal's blocks in the background: df is read again for
    // a few seconds before the space is said not to have come back.
    for (int i = 0; i < NasStep::FreedRereads && before >= 0 && after >= 0 &&
                    done.bytes >= NasStep::FreedCheckFrom &&
                    (after - before) * 1024 < done.bytes / 100 && !cancel;
         ++i) {
        QThread::msleep(1000); // on the worker that holds this node's files session
        after = availableKiB(c, t.root, cancel);
    }
    if (!c) {
        v.result = R::Done;
        v.verification = NasStep::tr("%1 is gone (through a dev environment the NAS's free space "
                                     "is not read: a node's df tells it)")
                             .arg(t.path);
        return v;
    }
    if (before < 0 || after < 0) {
        v.result = R::Done;
        v.verification =
            NasStep::tr("%1 is gone; the NAS's free space could not be read").arg(t.path);
        return v;
    }
    const qint64 freed = (after - before) * 1024;
    if (done.bytes >= NasStep::FreedCheckFrom && freed < done.bytes / 100) {
        // Deleted is not freed: a file a process still holds open keeps its blocks.
        v.result = R::Unverified;
        v.verification =
            NasStep::tr("%1 is gone, but %2's free space did not grow (%3 before, "
                        "%4 after): the files may have been sparse, may still be "
                        "open in a process (their space returns when it closes "
                        "them), or a snapshot keeps them")
                .arg(t.path, t.root, format::bytes(before * 1024), format::bytes(after * 1024));
        return v;
    }
    v.result = R::Done;
    v.verification = NasStep::tr("%1 is gone; %2 has %3 free (%4 more than before)")
                         .arg(t.path, t.root, format::bytes(after * 1024),
                              format::bytes(qMax<qint64>(0, freed)));
    return v;
}

// What the step finds, then what it does, on the worker: `c` the node's session (null through a
// dev environment: no df).
Verdict checkAndAct(SshConnection *c, RemoteFileAccess &files, const PlanStep &step, bool act,
                    std::atomic<bool> &cancel, const std::atomic<bool> &poolCancel,
                    const std::shared_ptr<NasStep::Shared> &shared)
{
    Verdict v;
    QString error;
    const NasTarget &t = step.nas;
    if (const QString why = reachedDirectly(files, t.path); !why.isEmpty()) {
        v.result = R::Refused;
        v.message = why;
    } else if (const std::optional<RemoteFile> now = files.stat(t.path, &error); !now) {
        v.result = files.lastWasMissing() ? R::Skipped : R::Failed;
        v.message = files.lastWasMissing()
                        ? NasStep::tr("%1 is not there any more: nothing done").arg(t.path)
                        : error;
    } else if (const QString m = NasStep::mismatch(t, *now); !m.isEmpty()) {
        v.result = R::Skipped;
        v.message = m;
    } else if (step.kind == PlanStep::Kind::MoveNasPath) {
        v = move(files, t, act);
    } else {
        v = remove(c, files, t, *now, act, cancel, poolCancel, shared);
    }
    return v;
}

} // namespace

NasStep::NasStep(OperationContext context, PlanStep step, QObject *parent)
    : StepRunner(parent), m_ctx(std::move(context)), m_step(std::move(step))
{
    m_retry.setSingleShot(true);
    m_retry.setInterval(BusyRetryMs);
    connect(&m_retry, &QTimer::timeout, this, [this] { submit(m_act); });
    m_ticker.setInterval(500);
    connect(&m_ticker, &QTimer::timeout, this, &NasStep::tick);
}

NasStep::~NasStep()
{
    m_cancel->store(true); // a check or a removal on the worker stops between entries
    if (m_thread)
        m_thread->wait(); // through a pod: its command is cancelled within a tenth of a second
}

QString NasStep::mismatch(const NasTarget &planned, const RemoteFile &now)
{
    if (now.type != planned.type)
        return tr("%1 is now a %2, not the %3 planned: not touched")
            .arg(planned.path, kindWord(now.type), kindWord(planned.type));
    if (now.type != 'd' && now.size != planned.size)
        return tr("%1 changed since the plan (%2, planned at %3): not touched")
            .arg(planned.path, format::bytes(now.size), format::bytes(planned.size));
    if (now.modified != planned.modified)
        return tr("%1 changed since the plan (at %2): not touched")
            .arg(planned.path, QDateTime::fromMSecsSinceEpoch(now.modified)
                                   .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    return QString();
}

void NasStep::dryRun()
{
    submit(false);
}

void NasStep::run()
{
    submit(true);
}

void NasStep::tick()
{
    if (m_shared)
        emit progress(tr("removed %1 so far")
                          .arg(tallyWords(SftpTree::Tally{
                              m_shared->files.load(), 0, m_shared->bytes.load(), {}, 0, false})));
}

void NasStep::submit(bool act)
{
    m_act = act;
    if (m_firstTry == 0)
        m_firstTry = QDateTime::currentMSecsSinceEpoch();
    const QString node = m_step.nas.node;
    auto fail = [this, act](const QString &why) {
        if (act)
            finish(R::Failed, why);
        else
            emit dryRunDone(PlanStep::DryRun::Refused, why);
    };
    if (act && *m_cancel) {
        finish(R::Cancelled, tr("cancelled before it acted"));
        return;
    }
    if (act && !m_shared && m_step.kind == PlanStep::Kind::RemoveNasPath) {
        m_shared = std::make_shared<Shared>();
        m_ticker.start();
    }
    if (!m_step.nas.pod.isEmpty()) {
        throughPod(act);
        return;
    }
    QString why;
    SshPool *pool = sshPool(m_ctx, node, &why);
    if (!pool) {
        fail(why);
        return;
    }
    const PlanStep step = m_step;
    QPointer<NasStep> self(this);
    const bool submitted = pool->submit(
        node,
        [self, step, act, cancel = m_cancel,
         shared = m_shared](SshConnection *c, const SshStatus &status,
                            const std::atomic<bool> &poolCancel) -> std::function<void()> {
            Verdict v;
            QString error;
            std::optional<SftpClient> sftp;
            if (act && (*cancel || poolCancel)) {
                v.result = R::Cancelled;
                v.message = NasStep::tr("cancelled before it acted");
            } else if (!c) {
                v.message = status.message;
            } else if (sftp.emplace(c); !sftp->open(&error)) {
                v.message = error;
            } else {
                v = checkAndAct(c, *sftp, step, act, *cancel, poolCancel,
                                shared ? shared : std::make_shared<NasStep::Shared>());
            }
            return [self, act, v] {
                if (self)
                    self->told(act, v.result, v.message, v.verification, v.dry);
            };
        },
        SshPool::Lane::Files);
    if (submitted)
        return;
    if (pool->status(node).usable()) {
        // Connected, its files session busy (a copy, a listing, another step): a queue, not
        // an unreachable node — wait as long as it takes, and say so.
        m_firstTry = QDateTime::currentMSecsSinceEpoch();
        if (act && !m_toldWaiting)
            emit progress(
                tr("waiting for %1's files session (a copy or a listing holds it)").arg(node));
        m_toldWaiting = act;
    }
    if (const QString giveUp = sshGiveUp(pool, node, m_firstTry, GiveUpMs); !giveUp.isEmpty()) {
        fail(giveUp);
        return;
    }
    m_retry.start(); // the node's files session is busy (a listing, a copy): shortly again
}

void NasStep::throughPod(bool act)
{
    if (!m_ctx.lease) {
        const QString why = tr("Not connected.");
        if (act)
            finish(R::Failed, why);
        else
            emit dryRunDone(PlanStep::DryRun::Refused, why);
        return;
    }
    // A thread and a client of the step's own: the pod is read again (it may have been
    // restarted, its mounts changed) and each command is exec'd there.
    const ClusterEndpoint endpoint = m_ctx.lease->client()->endpoint();
    const PlanStep step = m_step;
    const QPointer<NasStep> self(this);
    m_thread = QThread::create([self, endpoint, step, act, cancel = m_cancel,
                                shared = m_shared ? m_shared : std::make_shared<Shared>()] {
        KubeClient client(endpoint);
        Verdict v;
        QString error;
        if (act && *cancel) {
            v.result = R::Cancelled;
            v.message = NasStep::tr("cancelled before it acted");
        } else if (const auto route = PodNasMounts::fetch(&client, step.nas.pod, {step.nas.root},
                                                          cancel.get(), &error);
                   !route) {
            v.message = error;
        } else {
            PodFileClient files(&client, route->ns, route->pod, route->container, route->mounts,
                                route->mountPoints);
            files.setCancel(cancel.get());
            v = checkAndAct(nullptr, files, step, act, *cancel, *cancel, shared);
        }
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, act, v] {
                if (self)
                    self->told(act, v.result, v.message, v.verification, v.dry);
            },
            Qt::QueuedConnection);
    });
    connect(m_thread, &QThread::finished, m_thread, &QObject::deleteLater);
    m_thread->start();
}

void NasStep::told(bool act, StepOutcome::Result result, const QString &message,
                   const QString &verification, PlanStep::DryRun dry)
{
    if (act)
        finish(result, message, verification);
    else
        emit dryRunDone(dry, message);
}

void NasStep::finish(StepOutcome::Result result, const QString &message,
                     const QString &verification)
{
    m_ticker.stop();
    StepOutcome o;
    o.end(result, message, verification);
    emit ended(o);
}

} // namespace gpudesk
