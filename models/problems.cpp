// SPDX-License-Identifier: GPL-3.0-or-later
#include "problems.h"

#include "clusterstore.h"
#include "telemetrystore.h"
#include "vipreservation.h"
#include "workloadstatus.h"

#include <QDateTime>

#include <algorithm>
#include <climits>

namespace gpudesk {

namespace {

QString clock(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm"));
}

const Condition *condition(const NodeInfo &n, const QString &type)
{
    for (const Condition &c : n.conditions)
        if (c.type == type)
            return &c;
    return nullptr;
}

void nodeProblems(const ClusterStore &store, const NodeInfo &n, const AlertRules &rules,
                  QList<Problem> &out)
{
    if (!n.ready && rules.enabled(QStringLiteral("notready"))) {
        const Condition *ready = condition(n, QStringLiteral("Ready"));
        const NodeUse use = store.nodeUse(n.name);
        const GpuCount gpus = store.nodeGpus(n.name);
        Problem p{Problem::Critical,
                  QStringLiteral("notready:") + n.name,
                  n.name,
                  {},
                  ready ? ready->lastTransition : 0};
        p.text = p.since ? Problems::tr("%1 is NotReady since %2").arg(n.name, clock(p.since))
                         : Problems::tr("%1 is NotReady").arg(n.name);
        if (gpus.allocated > 0)
            p.text += u' ' + Problems::tr("(%n GPU(s) held by its %1 pods: lost until they go)",
                                          nullptr, gpus.allocated)
                                 .arg(use.pods);
        if (ready && !ready->message.isEmpty())
            p.text += QStringLiteral(": ") + ready->message;
        out.append(p);
    }
    if (!rules.enabled(QStringLiteral("pressure")))
        return;
    for (const char *type : {"DiskPressure", "MemoryPressure", "PIDPressure"}) {
        const Condition *c = condition(n, QLatin1String(type));
        if (!c || c->status != QLatin1String("True"))
            continue;
        Problem p{Problem::Critical,
                  QStringLiteral("%1:%2").arg(QLatin1String(type), n.name),
                  n.name,
                  {},
                  c->lastTransition};
        p.text = p.since ? Problems::tr("%1 reports %2 since %3")
                               .arg(n.name, QLatin1String(type), clock(p.since))
                         : Problems::tr("%1 reports %2").arg(n.name, QLatin1String(type));
        if (!c->message.isEmpty())
            p.text += QStringLiteral(": ") + c->message;
        out.append(p);
    }
}

// A machine still reserved for a VIP job that is over (finished, failed or gone): nothing new
// lands on it and nothing lifts the taint by itself — its GPUs idle until an admin releases it.
// Only where every pod is seen (a researcher's account would take a job it cannot see for gone).
void reservationProblems(const ClusterStore &store, const NodeInfo &n, const AlertRules &rules,
                         QList<Problem> &out)
{
    if (!rules.enabled(QStringLiteral("vipover")) || !store.podsComplete())
        return;
    for (const QString &taint : n.taints) {
        const QString job = vipreservation::jobOf(taint);
        if (job.isEmpty())
            continue;
        const QString ns = job.section(u'/', 0, 0), name = job.section(u'/', 1);
        QString state;
        bool found = false;
        for (const QString &key : store.workloadKeysIn(ns)) {
            const auto w = store.workload(key);
            if (!w || w->name != name)
                continue;
            found = true;
            if (workloadstatus::classOf(w->status) == workloadstatus::Finished ||
                workloadstatus::severity(w->status) == 2)
                state = w->status;
        }
        if (found && state.isEmpty())
            continue; // it waits or runs: the reservation is doing its work
        out.append({Problem::Warning, QStringLiteral("vipover:%1:%2").arg(n.name, job), n.name,
                    (found ? Problems::tr("%1 is still reserved for the VIP job %2, which is %3: "
                                          "nothing new lands on it until it is released "
                                          "(Nodes page, its menu)")
                                 .arg(n.name, job, state)
                           : Problems::tr("%1 is still reserved for the VIP job %2, which is gone: "
                                          "nothing new lands on it until it is released "
                                          "(Nodes page, its menu)")
                                 .arg(n.name, job)),
                    0});
    }
}

void telemetryProblems(const QString &node, const TelemetryStore &telemetry,
                       const AlertRules &rules, QList<Problem> &out)
{
    const SshStatus ssh = telemetry.sshStatus(node);
    if (ssh.state == SshStatus::Unreachable && telemetry.latest(node) &&
        rules.enabled(QStringLiteral("ssh"))) {
        // It answered once: a node that stopped answering, not one never reached.
        out.append({Problem::Warning, QStringLiteral("ssh:") + node, node,
                    Problems::tr("%1 stopped answering over SSH at %2").arg(node, clock(ssh.since)),
                    ssh.since});
    }
    const NodeSample *s = telemetry.latest(node);
    if (!s || !s->ok())
        return;
    for (const DiskUse &d : s->disks) {
        if (d.percent < rules.diskWarningPercent || !rules.enabled(QStringLiteral("disk")))
            continue;
        const bool critical = d.percent >= rules.diskCriticalPercent;
        out.append({critical ? Problem::Critical : Problem::Warning,
                    QStringLiteral("disk:%1:%2").arg(node, d.mountPoint), node,
                    Problems::tr("%1: %2 is %3 % full (%4 GiB free)")
                        .arg(node, d.mountPoint)
                        .arg(d.percent)
                        .arg(d.availableKiB / (1024.0 * 1024.0), 0, 'f', 1),
                    0});
    }
    for (const GpuCardSample &c : s->cards) {
        if (c.eccUncorrected.value_or(0) > 0 && rules.enabled(QStringLiteral("ecc")))
            out.append({Problem::Critical, QStringLiteral("ecc:%1:%2").arg(node).arg(c.index), node,
                        Problems::tr("%1 GPU %2: %n uncorrectable ECC error(s)", nullptr,
                                     int(std::min<qint64>(*c.eccUncorrected, INT_MAX)))
                            .arg(node)
                            .arg(c.index),
                        0});
        if (c.temperatureC.value_or(0) >= rules.hotCelsius && rules.enabled(QStringLiteral("hot")))
            out.append(
                {Problem::Warning, QStringLiteral("hot:%1:%2").arg(node).arg(c.index), node,
                 Problems::tr("%1 GPU %2 is at %3 °C").arg(node).arg(c.index).arg(*c.temperatureC),
                 0});
    }
}

} // namespace

// VCs and users' quotas about to turn jobs away: their GPUs at or past NearlyFullPercent of what
// they may hold. A warning: nothing is lost, but the next job waits.
void capacityProblems(const ClusterStore &store, const AlertRules &rules, QList<Problem> &out)
{
    const auto full = [&rules](qint64 used, qint64 limit) {
        return limit > 0 && used * 100 >= limit * rules.nearlyFullPercent;
    };
    for (const QueueInfo &q : store.queues()) {
        if (!rules.enabled(QStringLiteral("vcfull")))
            break;
        if (!q.gpuCapability || !q.gpuAllocated || !full(*q.gpuAllocated, *q.gpuCapability))
            continue;
        out.append({Problem::Warning,
                    QStringLiteral("vcfull:") + q.name,
                    {},
                    Problems::tr("VC %1 holds %2 of its %3 GPUs: new jobs in it wait")
                        .arg(q.name)
                        .arg(*q.gpuAllocated)
                        .arg(*q.gpuCapability),
                    0});
    }
    if (!rules.enabled(QStringLiteral("quotafull")))
        return;
    for (const NamespaceInfo &n : store.users())
        for (const ResourceQuotaInfo *rq : store.quotasIn(n.name))
            for (const char *key : {"requests.nvidia.com/gpu", "limits.nvidia.com/gpu"}) {
                const qint64 hard = rq->hard.value(QLatin1String(key), -1);
                const qint64 used = rq->used.value(QLatin1String(key), 0);
                if (!full(used, hard))
                    continue;
                out.append({Problem::Warning,
                            QStringLiteral("quotafull:%1/%2").arg(n.name, rq->name),
                            {},
                            Problems::tr("%1's pods request %2 of the %3 GPUs quota %4 allows: "
                                         "new pods are refused")
                                .arg(n.user)
                                .arg(used / 1000)
                                .arg(hard / 1000)
                                .arg(rq->name),
                            0});
                break; // one alert a quota
            }
}

QList<Problem> Problems::now(const ClusterStore &store, const TelemetryStore *telemetry,
                             const AlertRules &rules)
{
    QList<Problem> out;
    for (const NodeInfo &n : store.nodes()) {
        nodeProblems(store, n, rules, out);
        reservationProblems(store, n, rules, out);
        if (telemetry)
            telemetryProblems(n.name, *telemetry, rules, out);
    }
    capacityProblems(store, rules, out);
    sort(out);
    return out;
}

void Problems::sort(QList<Problem> &problems)
{
    std::stable_sort(problems.begin(), problems.end(), [](const Problem &a, const Problem &b) {
        if (a.severity != b.severity)
            return a.severity < b.severity;
        const qint64 sa = a.since ? a.since : LLONG_MAX, sb = b.since ? b.since : LLONG_MAX;
        return sa < sb;
    });
}

} // namespace gpudesk
