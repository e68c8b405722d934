// SPDX-License-Identifier: GPL-3.0-or-later
#include "stepguard.h"
#include "boundedjson.h"
#include "contextconnection.h"

#include "clusterstore.h"
#include "kubeclient.h"
#include "telemetrystore.h"

#include <QDateTime>

#include <nlohmann/json.hpp>

namespace gpudesk {

namespace {

using json = nlohmann::json;
using R = StepOutcome::Result;

std::string text(const json &o, const char *a, const char *b)
{
    if (!o.is_object() || !o.contains(a) || !o[a].is_object())
        return {};
    const json &x = o[a];
    return x.contains(b) && x[b].is_string() ? x[b].get<std::string>() : std::string();
}

bool nodeGuard(PlanStep::Guard g)
{
    return g == PlanStep::Guard::NodeStillNotReady ||
           g == PlanStep::Guard::StillTerminatingOnNotReadyNode;
}

bool terminatingGuard(PlanStep::Guard g)
{
    return g == PlanStep::Guard::StillTerminating ||
           g == PlanStep::Guard::StillTerminatingOnNotReadyNode ||
           g == PlanStep::Guard::StillTerminatingContainersGone;
}

} // namespace

StepGuard::StepGuard(OperationContext context, const PlanStep &step, QObject *parent)
    : QObject(parent), m_ctx(std::move(context)), m_step(step)
{}

QString StepGuard::nodeStillNotReady(const QByteArray &node, qint64 since)
{
    const json o = parseBoundedJson(node);
    const json *conditions = nullptr;
    if (o.is_object() && o.contains("status") && o["status"].is_object() &&
        o["status"].contains("conditions") && o["status"]["conditions"].is_array())
        conditions = &o["status"]["conditions"];
    if (!conditions)
        return tr("its node reports no Ready condition: not acted on");
    for (const json &c : *conditions) {
        if (!c.is_object() || c.value("type", json()) != "Ready")
            continue;
        const std::string status = c.value("status", json("")).is_string()
                                       ? c.value("status", json("")).get<std::string>()
                                       : std::string();
        if (status == "True")
            return tr("its node is Ready again: not acted on");
        const json t = c.value("lastTransitionTime", json());
        const QDateTime at =
            t.is_string()
                ? QDateTime::fromString(QString::fromStdString(t.get<std::string>()), Qt::ISODate)
                : QDateTime();
        // The API keeps whole seconds; a transition later than the planned one means the node
        // was back in between, and its pods' toleration started again.
        if (since > 0 && (!at.isValid() || at.toMSecsSinceEpoch() > since + 999))
            return tr("its node was Ready again since the plan (NotReady again since %1): not "
                      "acted on")
                .arg(at.isValid() ? at.toLocalTime().toString(QStringLiteral("HH:mm:ss"))
                                  : tr("an unknown time"));
        return QString();
    }
    return tr("its node reports no Ready condition: not acted on");
}

void StepGuard::check(Verdict verdict)
{
    const PlanStep::Guard g = m_step.guard;
    if (g == PlanStep::Guard::None) {
        verdict(R::Done, QString());
        return;
    }
    if (g == PlanStep::Guard::PodStillGone) {
        // The planner saw no pod of this uid; a pod of it back in the window's store is a
        // process to leave to its kubelet.
        if (!m_ctx.storesCurrent()) {
            verdict(R::Skipped, tr("its pod cannot be checked again (the window shows another "
                                   "context): not acted on"));
            return;
        }
        if (const PodInfo *p = m_ctx.store->pod(m_step.target.podUid))
            verdict(R::Skipped,
                    tr("its pod %1/%2 is there again: not acted on").arg(p->ns, p->name));
        else
            verdict(R::Done, QString());
        return;
    }
    const QString path = m_step.guardPath.isEmpty() ? m_step.target.apiPath : m_step.guardPath;
    if (path.isEmpty() || !m_ctx.lease) {
        verdict(R::Skipped, tr("what justified it cannot be read again: not acted on"));
        return;
    }
    m_ctx.lease->client()->get(path, this, [this, verdict](const KubeReply &r) {
        if (r.notFound()) {
            verdict(R::Skipped, m_step.guardPath.isEmpty()
                                    ? tr("already gone: not acted on")
                                    : tr("its pod is gone since the plan: not acted on"));
            return;
        }
        if (!r.ok()) {
            verdict(r.httpStatus == 403 ? R::Refused : R::Failed, r.error);
            return;
        }
        checkObject(r.body, verdict);
    });
}

void StepGuard::checkObject(const QByteArray &object, Verdict verdict)
{
    const json o = parseBoundedJson(object);
    const QString uid = QString::fromStdString(text(o, "metadata", "uid"));
    const QString planned = m_step.guardPath.isEmpty() ? m_step.target.uid : m_step.target.podUid;
    if (!planned.isEmpty() && uid != planned) {
        verdict(R::Skipped, tr("replaced since the plan by another object of the same name (uid "
                               "%1): not acted on")
                                .arg(uid));
        return;
    }
    const PlanStep::Guard g = m_step.guard;
    if (terminatingGuard(g) && text(o, "metadata", "deletionTimestamp").empty()) {
        verdict(R::Skipped, tr("no longer Terminating: not acted on"));
        return;
    }
    if (g == PlanStep::Guard::StillTerminatingContainersGone) {
        if (!m_ctx.storesCurrent() || !m_ctx.telemetry) {
            verdict(R::Skipped, tr("its node cannot be checked again (the window shows another "
                                   "context): not acted on"));
            return;
        }
        if (!m_ctx.telemetry->containersGone(uid)) {
            verdict(
                R::Skipped,
                tr("its node %1 runs its containers again: not acted on").arg(m_step.target.node));
            return;
        }
    }
    if (nodeGuard(g)) {
        const QString node = QString::fromStdString(text(o, "spec", "nodeName"));
        checkNode(node.isEmpty() ? m_step.target.node : node, verdict);
        return;
    }
    verdict(R::Done, QString());
}

void StepGuard::checkNode(const QString &node, Verdict verdict)
{
    const QString path = QStringLiteral("/api/v1/nodes/") + node;
    m_ctx.lease->client()->get(path, this, [this, node, verdict](const KubeReply &r) {
        if (r.notFound()) {
            verdict(R::Skipped, tr("its node %1 is gone from the cluster: not acted on").arg(node));
            return;
        }
        if (!r.ok()) {
            verdict(
                R::Failed,
                tr("its node %1 could not be read again (%2): not acted on").arg(node, r.error));
            return;
        }
        const QString why = nodeStillNotReady(r.body, m_step.guardSince);
        verdict(why.isEmpty() ? R::Done : R::Skipped, why);
    });
}

} // namespace gpudesk
