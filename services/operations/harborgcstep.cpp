// SPDX-License-Identifier: GPL-3.0-or-later
#include "harborgcstep.h"

#include "format.h"
#include "harborclient.h"
#include "harbordecoder.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace gpudesk {

HarborGcStep::HarborGcStep(const OperationContext &context, PlanStep step, QObject *parent)
    : StepRunner(parent), m_step(std::move(step))
{
    if (context.harborApi.isValid())
        m_client = new HarborClient(context.harborApi, context.registry,
                                    context.registryCredentials, this);
}

bool HarborGcStep::deleteUntagged() const
{
    return QJsonDocument::fromJson(m_step.body)
        .object()
        .value(QLatin1String("delete_untagged"))
        .toBool();
}

void HarborGcStep::runJob(bool dryRun, Done done)
{
    m_client->startGc(dryRun, deleteUntagged(), this,
                      [this, dryRun, done](int id, const QString &error) {
                          if (!dryRun)
                              emit acted();
                          if (!error.isEmpty()) {
                              done({}, {}, error);
                              return;
                          }
                          m_clock.start();
                          follow(id, done);
                      });
}

void HarborGcStep::follow(int id, Done done)
{
    m_client->gcRun(id, this, [this, id, done](HarborGcRun run, const QString &error) {
        if (!error.isEmpty()) {
            run.id = id; // it started: what it did is not known (Unverified), not refused
            done(run, {}, error);
            return;
        }
        if (!run.finished()) {
            if (m_clock.elapsed() > MaxFollowMs) {
                done(run, {},
                     tr("Harbor's job %1 is still %2 after %3; it goes on in Harbor.")
                         .arg(id)
                         .arg(run.status, format::age(0, m_clock.elapsed())));
                return;
            }
            emit progress(tr("Harbor's garbage collection (job %1): %2, %3")
                              .arg(id)
                              .arg(run.status, format::age(0, m_clock.elapsed())));
            QTimer::singleShot(PollMs, this, [this, id, done] { follow(id, done); });
            return;
        }
        m_client->gcLog(id, this, [run, done](const QString &log, const QString &error) {
            done(run, HarborDecoder::gcLog(log), error);
        });
    });
}

void HarborGcStep::dryRun()
{
    if (!m_client) {
        emit dryRunDone(PlanStep::DryRun::Refused, tr("This registry has no Harbor."));
        return;
    }
    runJob(true, [this](const HarborGcRun &run, const HarborGcResult &r, const QString &error) {
        if (!error.isEmpty() || run.status != QLatin1String("Success")) {
            emit dryRunDone(PlanStep::DryRun::Refused,
                            error.isEmpty() ? tr("Harbor's dry run ended %1.").arg(run.status)
                                            : error);
            return;
        }
        emit dryRunDone(PlanStep::DryRun::Accepted,
                        r.bytes >= 0
                            ? tr("Harbor's dry run: %n blob(s) to delete, about %1 to free",
                                 nullptr, qMax(0, r.blobs))
                                  .arg(format::bytes(r.bytes))
                            : tr("Harbor's dry run ended well; its log does not say how much "
                                 "it would free"));
    });
}

void HarborGcStep::run()
{
    StepOutcome o;
    if (!m_client) {
        emit acted();
        o.end(StepOutcome::Result::Refused, tr("This registry has no Harbor."));
        emit ended(o);
        return;
    }
    runJob(false, [this](const HarborGcRun &run, const HarborGcResult &r, const QString &error) {
        StepOutcome o;
        if (!error.isEmpty() && run.id == 0)
            o.end(StepOutcome::Result::Refused, error);
        else if (!error.isEmpty())
            o.end(StepOutcome::Result::Unverified, error);
        else if (run.status != QLatin1String("Success"))
            o.end(StepOutcome::Result::Failed,
                  tr("Harbor's job %1 ended %2.").arg(run.id).arg(run.status));
        else if (r.bytes < 0)
            o.end(StepOutcome::Result::Unverified, tr("Harbor's garbage collection ended"),
                  tr("its log does not say what it freed"));
        else
            o.end(StepOutcome::Result::Done, tr("Harbor's garbage collection ended"),
                  tr("freed %1 (%n blob(s)), by Harbor's log", nullptr, qMax(0, r.blobs))
                      .arg(format::bytes(r.bytes)));
        emit ended(o);
    });
}

} // namespace gpudesk
