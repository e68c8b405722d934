// SPDX-License-Identifier: GPL-3.0-or-later
#include "serviceaccountrotation.h"

#include "accountdecoder.h"
#include "contextconnection.h"
#include "kubeclient.h"
#include "objectevent.h"

#include <QDateTime>

namespace gpudesk {

namespace {

// Any authenticated identity may ask what it may do (system:basic-user): a request that tells
// an accepted token from a refused one whatever the account's own rights.
const QString kReview = QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

ServiceAccountRotation::ServiceAccountRotation(OperationContext context, PlanStep step,
                                               QObject *parent)
    : StepRunner(parent), m_ctx(std::move(context)), m_step(std::move(step))
{
    m_retry.setSingleShot(true);
}

QByteArray ServiceAccountRotation::reviewBody() const
{
    return QByteArrayLiteral(R"({"apiVersion":"authorization.k8s.io/v1",)"
                             R"("kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":)"
                             R"({"verb":"get","resource":"pods","namespace":")") +
           m_step.target.ns.toUtf8() + QByteArrayLiteral(R"("}}})");
}

void ServiceAccountRotation::dryRun()
{
    DeleteOptions o;
    o.preconditionUid = m_step.target.uid;
    m_ctx.lease->client()->remove(m_step.target.apiPath, o, true, this, [this](const KubeReply &r) {
        emit dryRunDone(r.ok() ? PlanStep::DryRun::Accepted : PlanStep::DryRun::Refused, r.error);
    });
}

void ServiceAccountRotation::run()
{
    m_outcome.started = QDateTime::currentDateTime();
    m_outcome.result = StepOutcome::Result::Running;
    m_ctx.lease->client()->get(m_step.target.apiPath, this, [this](const KubeReply &r) {
        if (r.notFound()) {
            finish(StepOutcome::Result::Skipped, tr("already gone: not acted on"));
            return;
        }
        if (!r.ok()) {
            finish(r.httpStatus == 403 ? StepOutcome::Result::Refused : StepOutcome::Result::Failed,
                   r.error);
            return;
        }
        const auto sa = AccountDecoder::serviceAccount(r.body);
        if (!sa || sa->uid != m_step.target.uid) {
            finish(
                StepOutcome::Result::Skipped,
                tr("replaced since the plan (uid %1): not acted on").arg(sa ? sa->uid : QString()));
            return;
        }
        issueWitness();
    });
}

void ServiceAccountRotation::issueWitness()
{
    const QByteArray request = QByteArrayLiteral(
        R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":600}})");
    m_ctx.lease->client()->create(
        m_step.target.apiPath + QStringLiteral("/token"), request, false, this,
        [this](const KubeReply &r) {
            const auto t = r.ok() ? AccountDecoder::tokenRequest(r.body) : std::nullopt;
            if (!t) {
                finish(r.httpStatus == 403 ? StepOutcome::Result::Refused
                                           : StepOutcome::Result::Failed,
                       tr("no witness token could be issued, so the "
                          "revocation could not be proven: %1")
                           .arg(r.ok() ? tr("no token in the answer") : r.error));
                return;
            }
            m_witness = t->token;
            checkWitness(false);
        });
}

void ServiceAccountRotation::checkWitness(bool expectRefused)
{
    m_ctx.lease->client()->sendAs(
        m_witness, "POST", kReview, reviewBody(), this, [this, expectRefused](const KubeReply &r) {
            const bool refused = r.httpStatus == 401;
            if (!expectRefused) {
                if (!r.ok()) {
                    finish(StepOutcome::Result::Failed,
                           tr("the witness token did not work before the rotation (%1): the proof "
                              "would prove nothing; not acted on")
                               .arg(r.error));
                    return;
                }
                remove();
                return;
            }
            if (refused) {
                m_witness.fill('\0');
                m_witness.clear();
                finish(StepOutcome::Result::Done, m_outcome.message,
                       tr("a token issued before the rotation is refused now (401 Unauthorized); "
                          "the ServiceAccount's new uid is %1")
                           .arg(m_outcome.createdUid));
                return;
            }
            if (now() - m_waitStarted > SettleMs) {
                finish(StepOutcome::Result::Unverified, m_outcome.message,
                       tr("a token issued before the rotation still works %1 s after it (the API "
                          "server answered %2)")
                           .arg(SettleMs / 1000)
                           .arg(r.httpStatus));
                return;
            }
            m_retry.disconnect();
            connect(&m_retry, &QTimer::timeout, this, [this] { checkWitness(true); });
            m_retry.start(1000);
        });
}

void ServiceAccountRotation::remove()
{
    DeleteOptions o;
    o.preconditionUid = m_step.target.uid;
    m_ctx.lease->client()->remove(
        m_step.target.apiPath, o, false, this, [this](const KubeReply &r) {
            sayActed();
            if (r.notFound()) {
                finish(StepOutcome::Result::Skipped, tr("already gone: not acted on"));
                return;
            }
            if (!r.ok()) {
                finish(r.httpStatus == 409                          ? StepOutcome::Result::Skipped
                       : r.httpStatus == 403 || r.httpStatus == 422 ? StepOutcome::Result::Refused
                                                                    : StepOutcome::Result::Failed,
                       r.error);
                return;
            }
            m_removed = true;
            m_waitStarted = now();
            waitGone();
        });
}

void ServiceAccountRotation::waitGone()
{
    m_ctx.lease->client()->get(m_step.target.apiPath, this, [this](const KubeReply &r) {
        const auto sa = r.ok() ? AccountDecoder::serviceAccount(r.body) : std::nullopt;
        if (r.notFound() || (sa && sa->uid != m_step.target.uid)) {
            recreate();
            return;
        }
        if (now() - m_waitStarted > SettleMs) {
            finish(StepOutcome::Result::Failed,
                   tr("the ServiceAccount was still there %1 s after it was deleted")
                       .arg(SettleMs / 1000));
            return;
        }
        m_retry.disconnect();
        connect(&m_retry, &QTimer::timeout, this, &ServiceAccountRotation::waitGone);
        m_retry.start(500);
    });
}

void ServiceAccountRotation::recreate()
{
    const QString collection = m_step.target.apiPath.left(m_step.target.apiPath.lastIndexOf(u'/'));
    m_ctx.lease->client()->create(
        collection, m_step.body, false, this, [this, collection](const KubeReply &r) {
            if (!r.ok() && r.httpStatus != 409) {
                finish(StepOutcome::Result::Failed,
                       tr("the old ServiceAccount is gone but a new one could not be made: %1 — "
                          "make it again (Repair) before handing out a kubeconfig")
                           .arg(r.error));
                return;
            }
            if (const auto sa = AccountDecoder::serviceAccount(r.body)) {
                m_outcome.createdPath = collection + u'/' + sa->name;
                m_outcome.createdUid = sa->uid;
            }
            m_outcome.message = tr("deleted and made again");
            ObjectEvent e{QStringLiteral("v1"),
                          QStringLiteral("ServiceAccount"),
                          m_step.target.ns,
                          m_step.target.name,
                          m_outcome.createdUid,
                          m_step.eventReason,
                          tr("every token of %1 revoked by %2 with gpudesk: %3")
                              .arg(m_step.target.name, m_ctx.who, m_step.why)};
            e.post(m_ctx.lease->client(), this, [](const QString &) {});
            m_waitStarted = now();
            checkWitness(true);
        });
}

void ServiceAccountRotation::sayActed()
{
    if (!m_actedSent) {
        m_actedSent = true;
        emit acted();
    }
}

void ServiceAccountRotation::finish(StepOutcome::Result result, const QString &message,
                                    const QString &verification)
{
    if (m_finished)
        return;
    m_finished = true;
    m_retry.stop();
    sayActed();
    m_witness.fill('\0');
    m_witness.clear();
    m_outcome.end(result, message, verification);
    emit ended(m_outcome);
}

} // namespace gpudesk
