// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubestep.h"
#include "boundedjson.h"
#include "contextconnection.h"
#include "objectevent.h"
#include "stepguard.h"

#include "clusterstore.h"
#include "kubeclient.h"
#include "telemetrystore.h"

#include <nlohmann/json.hpp>

namespace gpudesk {

namespace {

using json = nlohmann::json;

json parse(const QByteArray &body)
{
    return parseBoundedJson(body);
}

std::string text(const json &o, const char *a, const char *b = nullptr)
{
    if (!o.is_object() || !o.contains(a))
        return {};
    const json &x = o[a];
    if (!b)
        return x.is_string() ? x.get<std::string>() : std::string();
    return x.is_object() && x.contains(b) && x[b].is_string() ? x[b].get<std::string>()
                                                              : std::string();
}

QString cardList(const QList<int> &cards)
{
    QStringList out;
    for (int c : cards)
        out << QString::number(c);
    return out.join(QStringLiteral(", "));
}

// A refusal in the server's words, with the causes it names (a disruption budget's count).
QString refusal(const KubeReply &r)
{
    QString m = r.error;
    for (const ApiStatus::Cause &c : r.status.causes)
        if (!c.message.isEmpty() && !m.contains(c.message))
            m += QStringLiteral(" — ") + c.message;
    return m;
}

// The API server wraps the JSON patch library's error as the cause of a generic 422; only a
// failed "test" operation means the object changed since the plan (a missing path is our fault).
bool testFailed(const KubeReply &r)
{
    for (const ApiStatus::Cause &c : r.status.causes)
        if (c.message.startsWith(QLatin1String("testing value ")) &&
            c.message.endsWith(QLatin1String("test failed")))
            return true;
    return false;
}

} // namespace

KubeStep::KubeStep(OperationContext context, PlanStep step, QObject *parent)
    : StepRunner(parent), m_ctx(std::move(context)), m_step(std::move(step))
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        if (m_gone.isEmpty())
            finish(StepOutcome::Result::Unverified, QString(),
                   tr("still there %1 s after the request").arg((m_deadline.interval()) / 1000));
        else
            checkFreed(true);
    });
}

void KubeStep::send(bool dryRun, std::function<void(const KubeReply &)> done)
{
    KubeClient *client = m_ctx.lease->client();
    const StepTarget &t = m_step.target;
    switch (m_step.kind) {
    case PlanStep::Kind::Delete:
    case PlanStep::Kind::ForceDelete: {
        DeleteOptions o;
        o.preconditionUid = t.uid;
        o.gracePeriodSeconds = m_step.gracePeriodSeconds;
        o.propagationPolicy = m_step.propagationPolicy;
        client->remove(t.apiPath, o, dryRun, this, std::move(done));
        return;
    }
    case PlanStep::Kind::Evict: {
        DeleteOptions o;
        o.preconditionUid = t.uid;
        o.gracePeriodSeconds = m_step.gracePeriodSeconds;
        client->evict(t.ns, t.name, o, dryRun, this, std::move(done));
        return;
    }
    case PlanStep::Kind::Patch: {
        const PatchType type =
            m_step.patchType == QLatin1String("json")
                ? PatchType::Json
                : (m_step.patchType == QLatin1String("strategic") ? PatchType::StrategicMerge
                                                                  : PatchType::Merge);
        client->patch(t.apiPath, m_step.body, type, dryRun, this, std::move(done));
        return;
    }
    case PlanStep::Kind::Update:
        client->update(t.apiPath, m_step.body, dryRun, this, std::move(done));
        return;
    case PlanStep::Kind::Create:
        client->create(m_step.createIn, m_step.body, dryRun, this, std::move(done));
        return;
    case PlanStep::Kind::KillProcess:
    case PlanStep::Kind::RotateServiceAccount:
    case PlanStep::Kind::DeleteImage:
    case PlanStep::Kind::CopyImage:
    case PlanStep::Kind::SaveImage:
    case PlanStep::Kind::CollectGarbage:
    case PlanStep::Kind::RemoveNasPath:
    case PlanStep::Kind::MoveNasPath:
        break;
    }
    KubeReply r;
    r.error = tr("not an API step");
    done(r);
}

void KubeStep::dryRun()
{
    send(true, [this](const KubeReply &r) {
        emit dryRunDone(r.ok() ? PlanStep::DryRun::Accepted : PlanStep::DryRun::Refused,
                        r.ok() ? QString() : refusal(r));
    });
}

void KubeStep::run()
{
    m_outcome.started = QDateTime::currentDateTime();
    m_outcome.result = StepOutcome::Result::Running;
    if (m_step.target.apiPath.isEmpty()) {
        act(); // a new object acting on nothing that exists yet
        return;
    }
    precheck();
}

void KubeStep::precheck()
{
    // The object at its path, now: still the one planned for?
    const QString path = m_step.kind == PlanStep::Kind::Evict
                             ? QStringLiteral("/api/v1/namespaces/%1/pods/%2")
                                   .arg(m_step.target.ns, m_step.target.name)
                             : m_step.target.apiPath;
    m_ctx.lease->client()->get(path, this, [this](const KubeReply &r) {
        if (r.notFound()) {
            finish(StepOutcome::Result::Skipped, tr("already gone: not acted on"));
            return;
        }
        if (!r.ok()) {
            finish(r.httpStatus == 403 ? StepOutcome::Result::Refused : StepOutcome::Result::Failed,
                   r.error);
            return;
        }
        checkGuard(r.body);
    });
}

void KubeStep::checkGuard(const QByteArray &object)
{
    const json o = parse(object);
    if (o.contains("spec") && o["spec"].is_object() &&
        o["spec"].contains("terminationGracePeriodSeconds") &&
        o["spec"]["terminationGracePeriodSeconds"].is_number_integer())
        m_graceMs = o["spec"]["terminationGracePeriodSeconds"].get<qint64>() * 1000;
    switch (m_step.guard) {
    case PlanStep::Guard::StillIdle: {
        if (!m_ctx.storesCurrent() || !m_ctx.telemetry) {
            finish(StepOutcome::Result::Skipped,
                   tr("its GPUs cannot be checked again (the window shows another context): "
                      "not acted on"));
            return;
        }
        QStringList busy;
        for (const HeldGpus &h : std::as_const(m_step.target.holds)) {
            const auto a = m_ctx.telemetry->gpuActivity(h.podUid);
            if (a && a->lastBusy > m_step.plannedAt)
                busy << QDateTime::fromMSecsSinceEpoch(a->lastBusy)
                            .toString(QStringLiteral("HH:mm:ss"));
        }
        if (!busy.isEmpty()) {
            finish(StepOutcome::Result::Skipped,
                   tr("its GPUs were busy again at %1, after the plan: not acted on")
                       .arg(busy.first()));
            return;
        }
        break;
    }
    case PlanStep::Guard::QueueEmpty: {
        if (!m_ctx.storesCurrent()) {
            finish(StepOutcome::Result::Skipped,
                   tr("its pod groups cannot be checked again (the window shows another "
                      "context): not acted on"));
            return;
        }
        QStringList jobs;
        for (const auto &[uid, g] : m_ctx.store->objects<PodGroupInfo>(Resource::PodGroups))
            if (g.vc == m_step.target.name)
                jobs << g.ns + u'/' + (g.owner.name.isEmpty() ? g.name : g.owner.name);
        if (!jobs.isEmpty()) {
            jobs.sort();
            finish(StepOutcome::Result::Skipped,
                   tr("%1 still holds %n job(s) (%2): it stays until they end, then it can be "
                      "deleted",
                      nullptr, int(jobs.size()))
                       .arg(m_step.target.name, jobs.mid(0, 5).join(QStringLiteral(", "))));
            return;
        }
        break;
    }
    default:
        break;
    }
    // The uid, and what the finding rested on (Terminating, the node NotReady since the same
    // moment), as the API has them now.
    auto *guard = new StepGuard(m_ctx, m_step, this);
    guard->checkObject(object, [this, guard](StepOutcome::Result r, const QString &why) {
        guard->deleteLater();
        if (r == StepOutcome::Result::Done)
            act();
        else
            finish(r, why);
    });
}

void KubeStep::sayActed()
{
    if (m_actedSent)
        return;
    m_actedSent = true;
    emit acted();
}

void KubeStep::act()
{
    m_actedAt = QDateTime::currentMSecsSinceEpoch();
    send(false, [this](const KubeReply &r) {
        sayActed();
        if (!r.ok()) {
            using R = StepOutcome::Result;
            if (r.notFound() && m_step.kind == PlanStep::Kind::Create)
                // Nothing to be gone: the collection (or its namespace) is not there.
                finish(R::Refused, refusal(r));
            else if (r.notFound())
                finish(R::Skipped, tr("already gone: not acted on"));
            else if (r.httpStatus == 422 && testFailed(r))
                // The patch's first operation tests the spec it was planned on.
                finish(R::Skipped, tr("changed since the plan (the server's test of the planned "
                                      "spec failed): not acted on — %1")
                                       .arg(refusal(r)));
            else if (r.httpStatus == 409 && m_step.kind == PlanStep::Kind::Create)
                finish(R::Skipped,
                       tr("made by someone else since the plan: not acted on — %1").arg(r.error));
            else if (r.httpStatus == 409)
                finish(R::Skipped, tr("changed since the plan: %1").arg(r.error));
            else if (r.httpStatus == 403 || r.httpStatus == 429 || r.httpStatus == 422 ||
                     r.httpStatus == 400 || r.httpStatus == 405)
                finish(R::Refused, refusal(r));
            else
                finish(R::Failed, r.error);
            return;
        }
        m_outcome.message = tr("request accepted");
        if (m_step.kind == PlanStep::Kind::Patch && !m_step.expectPointer.isEmpty()) {
            const json o = parse(r.body);
            const json want = json::parse(m_step.expectValue.toStdString(), nullptr, false);
            const json::json_pointer ptr(m_step.expectPointer.toStdString());
            // A merge patch's null removes the field: absent is what null asked for.
            const bool present = o.is_object() && o.contains(ptr);
            const bool holds = present ? o[ptr] == want : want.is_null() && o.is_object();
            if (!holds) {
                postEvent();
                finish(StepOutcome::Result::Unverified, m_outcome.message,
                       tr("the server's answer does not show %1 = %2")
                           .arg(m_step.expectPointer, QString::fromUtf8(m_step.expectValue)));
                return;
            }
            m_outcome.verification =
                tr("%1 is %2 on the server")
                    .arg(m_step.expectPointer, QString::fromUtf8(m_step.expectValue));
        }
        if (m_step.kind == PlanStep::Kind::Update || m_step.kind == PlanStep::Kind::Create) {
            // The server's object is the effect: its new version, or the new object's name.
            const json o = parse(r.body);
            m_outcome.verification =
                m_step.kind == PlanStep::Kind::Update
                    ? tr("stored as resourceVersion %1")
                          .arg(QString::fromStdString(text(o, "metadata", "resourceVersion")))
                    : tr("created as %1 (uid %2)")
                          .arg(QString::fromStdString(text(o, "metadata", "name")),
                               QString::fromStdString(text(o, "metadata", "uid")));
            if (m_step.kind == PlanStep::Kind::Create) {
                m_outcome.createdPath =
                    m_step.createIn + u'/' + QString::fromStdString(text(o, "metadata", "name"));
                m_outcome.createdUid = QString::fromStdString(text(o, "metadata", "uid"));
            }
        }
        postEvent();
        waitGone();
    });
}

QString KubeStep::eventMessage() const
{
    const QString by = tr("by %1 with gpudesk").arg(m_ctx.who);
    return m_step.why.isEmpty()
               ? QString(m_step.description + u' ' + by)
               : QString(m_step.description + u' ' + by + QStringLiteral(": ") + m_step.why);
}

void KubeStep::postEvent()
{
    if (m_step.eventReason.isEmpty())
        return;
    const StepTarget &t = m_step.target;
    ObjectEvent e;
    e.apiVersion = t.group.isEmpty() ? t.version : QString(t.group + u'/' + t.version);
    e.kind = t.kind;
    e.ns = t.ns;
    e.name = t.name;
    e.uid = t.uid.isEmpty() ? m_outcome.createdUid : t.uid; // a Create: the new object
    e.reason = m_step.eventReason;
    e.message = eventMessage();
    m_eventPending = true;
    e.post(m_ctx.lease->client(), this, [this](const QString &error) {
        // The owner is told when the server lets us; the action stands either way.
        m_eventPending = false;
        if (!error.isEmpty())
            m_eventError = tr("no Event on the object: %1").arg(error);
        emitWhenDone();
    });
}

bool KubeStep::kindInStore() const
{
    const QString &k = m_step.target.kind;
    return k == QLatin1String("Pod") || k == QLatin1String("Job") ||
           k == QLatin1String("PyTorchJob") || k == QLatin1String("MPIJob");
}

bool KubeStep::deletes() const
{
    return m_step.kind == PlanStep::Kind::Delete || m_step.kind == PlanStep::Kind::ForceDelete ||
           m_step.kind == PlanStep::Kind::Evict;
}

bool KubeStep::targetGone() const
{
    const StepTarget &t = m_step.target;
    if (t.kind == QLatin1String("Pod"))
        return !m_ctx.store->pod(t.uid);
    return !m_ctx.store->job(t.uid);
}

void KubeStep::waitGone()
{
    if (!m_step.expectStates.isEmpty()) {
        waitState();
        return;
    }
    if (!deletes() && m_step.target.holds.isEmpty()) {
        finish(StepOutcome::Result::Done, m_outcome.message, m_outcome.verification);
        return;
    }
    // A graceful delete takes the grace period and then some; a forced one, moments.
    const qint64 wanted = (m_step.kind == PlanStep::Kind::ForceDelete ? 0 : m_graceMs) + SettleMs;
    const int budget = int(std::clamp<qint64>(wanted, 5000, 15 * 60 * 1000));
    m_deadline.start(budget);
    if (m_ctx.storesCurrent() && (kindInStore() || !deletes())) {
        connect(m_ctx.store, &ClusterStore::updated, this, &KubeStep::checkGone);
        checkGone();
        return;
    }
    if (!deletes()) {
        // A stop through a command or a patch, with another context shown: the pods are not
        // watched, so the effect is left unverified rather than guessed.
        finish(StepOutcome::Result::Unverified, m_outcome.message,
               tr("its pods were not watched (the window shows another context)"));
        return;
    }
    // Not in the store (another context is shown, or a kind gpudesk does not sync): ask the
    // API itself, every two seconds.
    connect(&m_poll, &QTimer::timeout, this, &KubeStep::pollGone);
    m_poll.start(2000);
}

void KubeStep::waitState()
{
    // A Volcano Command is carried out by the queue controller, then deleted: the effect is the
    // queue's state, which the store sees through its watch.
    if (!m_ctx.storesCurrent()) {
        finish(StepOutcome::Result::Unverified, m_outcome.message,
               tr("the queue's state was not watched (the window shows another context)"));
        return;
    }
    auto check = [this] {
        const QueueInfo *q = m_ctx.store->queue(m_step.target.name);
        if (q && m_step.expectStates.contains(q->state))
            finish(StepOutcome::Result::Done, m_outcome.message,
                   tr("the queue is %1").arg(q->state));
    };
    m_deadline.disconnect();
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        const QueueInfo *q = m_ctx.store->queue(m_step.target.name);
        finish(StepOutcome::Result::Unverified, m_outcome.message,
               tr("the queue is still %1 after %2 s")
                   .arg(q ? q->state : tr("gone"))
                   .arg(m_deadline.interval() / 1000));
    });
    m_deadline.start(SettleMs);
    connect(m_ctx.store, &ClusterStore::updated, this, check);
    check();
}

void KubeStep::checkGone()
{
    if (!m_gone.isEmpty() || m_finished || !m_ctx.storesCurrent())
        return;
    // Deleted: the object itself; stopped (a command, a suspension): its pods.
    bool gone = !deletes() || targetGone();
    for (const HeldGpus &h : std::as_const(m_step.target.holds))
        gone = gone && !m_ctx.store->pod(h.podUid);
    if (gone) {
        m_gone = deletes() ? tr("gone from the API") : tr("its pods are gone");
        waitFreed();
    }
}

void KubeStep::pollGone()
{
    const QString path = m_step.kind == PlanStep::Kind::Evict
                             ? QStringLiteral("/api/v1/namespaces/%1/pods/%2")
                                   .arg(m_step.target.ns, m_step.target.name)
                             : m_step.target.apiPath;
    m_ctx.lease->client()->get(path, this, [this](const KubeReply &r) {
        if (m_finished || !m_gone.isEmpty())
            return;
        const bool gone =
            r.notFound() || (r.ok() && QString::fromStdString(text(parse(r.body), "metadata",
                                                                   "uid")) != m_step.target.uid);
        if (gone) {
            m_poll.stop();
            m_gone = tr("gone from the API");
            waitFreed();
        }
    });
}

void KubeStep::waitFreed()
{
    m_goneAt = QDateTime::currentMSecsSinceEpoch();
    if (m_ctx.store)
        disconnect(m_ctx.store, &ClusterStore::updated, this, &KubeStep::checkGone);
    if (checkFreed(false))
        return;
    m_deadline.start(FreedWaitMs);
    if (m_ctx.telemetry)
        connect(m_ctx.telemetry, &TelemetryStore::updated, this, [this] { checkFreed(false); });
}

bool KubeStep::checkFreed(bool final)
{
    // Per node the pods held GPUs on: a sample taken after they were gone, with no process of those
    // pods and the cards' memory released.
    if (m_finished)
        return true;
    const bool canCheck = m_ctx.storesCurrent() && m_ctx.telemetry;
    QStringList freed, unchecked, held, notes;
    bool waiting = false;
    for (const HeldGpus &h : std::as_const(m_step.target.holds)) {
        const NodeSample *s = canCheck ? m_ctx.telemetry->latest(h.node) : nullptr;
        if (!s) {
            unchecked << h.node;
            continue;
        }
        if (s->time <= m_goneAt || !m_ctx.telemetry->isFresh(h.node)) {
            waiting = true;
            if (final)
                unchecked << h.node;
            continue;
        }
        QStringList pids;
        for (const NodeProcess &p : s->processes)
            if (p.owner.podUid == h.podUid)
                pids << tr("PID %1 on GPU %2").arg(p.pid).arg(p.cardIndex);
        if (!pids.isEmpty()) {
            held << tr("%1 still runs on %2 after its pod is gone").arg(pids.join(u','), h.node);
            continue;
        }
        // Per card, the memory no listed process accounts for: what the pod's processes may
        // have left behind. Another process on the same card (a job sharing it, an orphan of an
        // older pod) is its own matter: said, but not this step's failure.
        QList<int> phantom, shared;
        qint64 phantomMiB = 0;
        QStringList others;
        for (const GpuCardSample &c : s->cards) {
            if (!h.cards.contains(c.index))
                continue;
            qint64 listed = 0;
            for (const NodeProcess &p : s->processes) {
                if (p.cardIndex != c.index)
                    continue;
                listed += p.memoryMiB.value_or(0);
                others << QString::number(p.pid);
            }
            const qint64 unlisted = c.memoryUsedMiB.value_or(0) - listed;
            if (unlisted >= TelemetryStore::PhantomMiB) {
                phantom << c.index;
                phantomMiB += unlisted;
            } else if (listed > 0) {
                shared << c.index;
            }
        }
        if (!phantom.isEmpty()) {
            held << tr("GPU %1 on %2: %3 MiB still held with no process")
                        .arg(cardList(phantom), h.node)
                        .arg(phantomMiB);
            continue;
        }
        QList<int> released = h.cards;
        for (int c : std::as_const(shared))
            released.removeAll(c);
        if (h.cards.isEmpty())
            freed << h.node;
        else if (!released.isEmpty())
            freed << tr("GPU %1 on %2").arg(cardList(released), h.node);
        if (!shared.isEmpty())
            notes << tr("GPU %1 on %2 still used by PID %3, not of this pod")
                         .arg(cardList(shared), h.node, others.join(u','));
    }
    if (waiting && !final)
        return false;
    QStringList v{m_gone};
    if (!m_outcome.verification.isEmpty())
        v.prepend(m_outcome.verification);
    if (!freed.isEmpty())
        v << tr("free: %1").arg(freed.join(QStringLiteral("; ")));
    v << notes;
    if (!unchecked.isEmpty())
        v << tr("cards not checked on %1 (no fresh sample over SSH)")
                 .arg(unchecked.join(QStringLiteral(", ")));
    if (!held.isEmpty()) {
        v << held;
        finish(StepOutcome::Result::Unverified, m_outcome.message, v.join(QStringLiteral("; ")));
    } else {
        finish(StepOutcome::Result::Done, m_outcome.message, v.join(QStringLiteral("; ")));
    }
    return true;
}

void KubeStep::finish(StepOutcome::Result result, const QString &message,
                      const QString &verification)
{
    if (m_finished)
        return;
    m_finished = true;
    sayActed();
    m_deadline.stop();
    m_poll.stop();
    if (m_ctx.store)
        disconnect(m_ctx.store, nullptr, this, nullptr);
    if (m_ctx.telemetry)
        disconnect(m_ctx.telemetry, nullptr, this, nullptr);
    m_outcome.end(result, message, verification);
    emitWhenDone();
}

void KubeStep::emitWhenDone()
{
    // The outcome is told once the step has ended and the Event's answer is in.
    if (!m_finished || m_eventPending || m_emitted)
        return;
    m_emitted = true;
    if (!m_eventError.isEmpty())
        m_outcome.message += QStringLiteral(" (") + m_eventError + u')';
    emit ended(m_outcome);
}

} // namespace gpudesk
