// SPDX-License-Identifier: GPL-3.0-or-later
#include "findings.h"

#include "clusterstore.h"
#include "format.h"

#include <QSet>

#include <algorithm>

namespace gpudesk {

namespace {

struct ClassName
{
    FindingClass cls;
    const char *id;
};
constexpr ClassName kClassNames[] = {
    {FindingClass::OrphanProcess, "orphan-process"},
    {FindingClass::StuckTerminating, "stuck-terminating"},
    {FindingClass::IdleGpus, "idle-gpus"},
    {FindingClass::PhantomMemory, "phantom-memory"},
    {FindingClass::FinishedHoldingGpus, "finished-holding-gpus"},
    {FindingClass::OnNotReadyNode, "on-notready-node"},
    {FindingClass::Uninterruptible, "uninterruptible-process"},
};
static_assert(std::size(kClassNames) == kFindingClassCount);

// lupdate files the strings of a free tr() in namespace gpudesk under the context "gpudesk": the
// lookup must use the same, or the Chinese window shows the findings in English (issue 35).
QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("gpudesk", text, disambiguation, n);
}

// The job statuses after which a job's pods have no reason to hold anything.
bool finishedStatus(const QString &s)
{
    static const QStringList done{QStringLiteral("Completed"),  QStringLiteral("Succeeded"),
                                  QStringLiteral("Failed"),     QStringLiteral("Aborted"),
                                  QStringLiteral("Terminated"), QStringLiteral("Suspended")};
    return done.contains(s);
}

bool isJobKind(const QString &kind)
{
    return kind == QLatin1String("Job") || kind == QLatin1String("PyTorchJob") ||
           kind == QLatin1String("MPIJob");
}

QString duration(qint64 since, qint64 now)
{
    return format::age(since, now);
}

QString pidList(const QList<FindingProcess> &ps)
{
    QStringList out;
    for (const FindingProcess &p : ps)
        out << QString::number(p.pid);
    return out.join(QStringLiteral(", "));
}

QList<int> cardsOf(const QList<FindingProcess> &ps)
{
    QList<int> cards;
    for (const FindingProcess &p : ps)
        if (p.card >= 0 && !cards.contains(p.card))
            cards << p.card;
    std::sort(cards.begin(), cards.end());
    return cards;
}

QString cardList(const QList<int> &cards)
{
    QStringList out;
    for (int c : cards)
        out << QString::number(c);
    return out.join(QStringLiteral(", "));
}

FindingProcess processOf(const NodeProcess &p)
{
    FindingProcess f;
    f.pid = p.pid;
    f.startTicks = p.startTicks;
    f.card = p.cardIndex;
    f.migDevice = p.migDevice;
    f.memoryMiB = p.memoryMiB;
    f.command = p.name;
    f.podUid = p.owner.podUid;
    f.state = p.state;
    return f;
}

void fillPod(Finding &f, const FindingsInput::Pod &pod)
{
    f.ns = pod.ns;
    f.pod = pod.name;
    f.podUid = pod.uid;
    f.user = pod.user;
    f.vc = pod.vc;
    f.owner = pod.owner;
    f.ownerStatus = pod.ownerStatus;
    f.gpus = pod.gpus;
    f.migDevices = pod.migDevices;
    if (f.node.isEmpty())
        f.node = pod.node;
}

// When a process started, in ms since the epoch, from the node's own evidence: its start in
// clock ticks since boot (/proc/PID/stat) and the node's uptime, read in the same probe; 0 when
// either is missing. USER_HZ is 100 on every architecture Linux runs GPUs on.
qint64 processStart(const NodeSample &s, const NodeProcess &p)
{
    if (!s.uptimeSecs || p.startTicks < 0)
        return 0;
    const double ago = *s.uptimeSecs - double(p.startTicks) / 100.0;
    return ago < 0 ? s.time : s.time - qint64(ago * 1000.0);
}

// The processes of one node, sorted into findings: of no live pod (orphans), in D state.
void nodeFindings(const FindingsInput &in, const FindingsInput::Node &node, QList<Finding> *out)
{
    const NodeSample &s = node.sample;
    QHash<QString, QList<FindingProcess>> orphansByPod; // "" : host processes
    QHash<QString, QList<FindingProcess>> stuckByPod;
    QHash<QString, qint64> orphanFirst, stuckFirst;
    QHash<QString, qint64> orphanStart, stuckStart; // the earliest process start, 0 unknown
    const auto earliest = [](QHash<QString, qint64> &into, const QString &uid, qint64 start) {
        const qint64 was = into.value(uid, -1);
        into.insert(uid, was < 0 ? start : (was == 0 || start == 0 ? 0 : std::min(was, start)));
    };
    for (const NodeProcess &p : s.processes) {
        const QString uid = p.owner.podUid;
        const bool live = !uid.isEmpty() && in.pods.contains(uid);
        // Not visible to this account is not gone: such a process is nobody's finding.
        if (!live && !in.podsComplete)
            continue;
        // A live pod's process in D may be waiting on a slow read: only a long stay counts. A
        // process whose pod is gone and that sleeps in D now cannot be ended by any signal: a
        // kill planned for it would only fail.
        const qint64 d = node.dSince.value(p.pid, 0);
        if (d > 0 && (!live || in.now - d >= in.options.uninterruptibleForMs)) {
            stuckByPod[uid].append(processOf(p));
            const qint64 first = stuckFirst.value(uid, d);
            stuckFirst.insert(uid, std::min(first, d));
            earliest(stuckStart, uid, processStart(s, p));
            continue;
        }
        if (live)
            continue;
        orphansByPod[uid].append(processOf(p));
        const qint64 since = node.orphanSince.value(p.pid, s.time);
        orphanFirst.insert(uid, std::min(orphanFirst.value(uid, since), since));
        earliest(orphanStart, uid, processStart(s, p));
    }
    for (auto it = orphansByPod.cbegin(); it != orphansByPod.cend(); ++it) {
        Finding f;
        f.cls = FindingClass::OrphanProcess;
        f.node = node.name;
        f.podUid = it.key();
        f.processes = it.value();
        f.cards = cardsOf(f.processes);
        f.gpus = int(f.cards.size());
        // A process that outlived its pod has held its card since it started: the node says
        // when (a gpudesk started later would otherwise call a day-old zombie minutes old).
        if (const qint64 start = orphanStart.value(it.key()); start > 0) {
            f.since = start;
            f.sinceSource = tr("the node (the process's start time, /proc)");
        } else {
            f.since = orphanFirst.value(it.key());
            f.sinceAtLeast = true;
            f.sinceSource = tr("gpudesk's samples");
        }
        f.key = QStringLiteral("orphan|%1|%2")
                    .arg(node.name, it.key().isEmpty() ? QStringLiteral("host") : it.key());
        const QString pids = pidList(f.processes);
        if (it.key().isEmpty()) {
            f.evidence = tr("PID %1 on GPU %2 runs in no container: a process started on the "
                            "host, outside Kubernetes")
                             .arg(pids, cardList(f.cards));
            f.remedy = Remedy::KillProcesses;
            f.remedyNote = tr("A host process may be someone's on purpose: ask its owner first.");
        } else {
            const QString gone = in.gonePods.value(it.key());
            f.evidence =
                tr("PID %1 on GPU %2 belongs to pod %3, which no longer exists")
                    .arg(pids, cardList(f.cards),
                         gone.isEmpty() ? it.key() : QStringLiteral("%1 (%2)").arg(gone, it.key()));
            f.remedy = Remedy::KillProcesses;
            f.remedyNote = tr("No pod owns it: the kubelet will never stop it.");
        }
        out->append(f);
    }
    for (auto it = stuckByPod.cbegin(); it != stuckByPod.cend(); ++it) {
        Finding f;
        f.cls = FindingClass::Uninterruptible;
        f.node = node.name;
        f.processes = it.value();
        f.cards = cardsOf(f.processes);
        f.gpus = int(f.cards.size());
        f.since = stuckFirst.value(it.key());
        f.sinceAtLeast = true;
        f.sinceSource = tr("gpudesk's samples");
        if (const auto pod = in.pods.constFind(it.key()); pod != in.pods.cend()) {
            fillPod(f, *pod);
            f.gpus = std::max<int>(f.gpus, int(f.cards.size()));
        } else {
            f.podUid = it.key();
        }
        f.key = QStringLiteral("uninterruptible|%1|%2").arg(node.name, pidList(f.processes));
        const bool long_ = in.now - f.since >= in.options.uninterruptibleForMs;
        f.evidence =
            long_ ? tr("PID %1 on GPU %2 has been in uninterruptible sleep (D) for %3: no "
                       "signal can end it, not even KILL")
                        .arg(pidList(f.processes), cardList(f.cards), duration(f.since, in.now))
                  : tr("PID %1 on GPU %2, whose pod is gone, is in uninterruptible sleep (D): "
                       "no signal can end it while it sleeps, not even KILL")
                        .arg(pidList(f.processes), cardList(f.cards));
        // How long it has been in D no file on the node says; how long it has run, it does.
        if (const qint64 start = stuckStart.value(it.key()); start > 0)
            f.evidence += tr("; it started %1 ago").arg(duration(start, in.now));
        f.remedy = Remedy::Drain;
        f.remedyNote = tr("Cordon and drain the node, then reboot it: a kill cannot work.");
        out->append(f);
    }
    // Memory held on a card that lists no process: a context the driver keeps for a process
    // that is gone, or a process in another PID namespace nvidia-smi cannot name.
    QList<int> phantom;
    qint64 phantomMiB = 0;
    for (const GpuCardSample &c : s.cards) {
        if (c.migEnabled.value_or(false) ||
            c.memoryUsedMiB.value_or(0) < TelemetryStore::PhantomMiB)
            continue;
        const bool hasProcess =
            std::any_of(s.processes.cbegin(), s.processes.cend(),
                        [&](const NodeProcess &p) { return p.cardIndex == c.index; });
        if (!hasProcess) {
            phantom << c.index;
            phantomMiB += c.memoryUsedMiB.value_or(0);
        }
    }
    if (!phantom.isEmpty()) {
        Finding f;
        f.cls = FindingClass::PhantomMemory;
        f.node = node.name;
        f.cards = phantom;
        f.gpus = int(phantom.size());
        f.key = QStringLiteral("phantom|%1|%2").arg(node.name, cardList(phantom));
        f.evidence = tr("GPU %1: %2 MiB held with no process listed by nvidia-smi")
                         .arg(cardList(phantom))
                         .arg(phantomMiB);
        f.remedy = Remedy::Drain;
        f.remedyNote = tr("Only a GPU reset or a reboot frees such memory: drain the node first.");
        out->append(f);
    }
}

// One pod's finding, if it has one: each pod is listed once, under its most telling class.
void podFinding(const FindingsInput &in, const FindingsInput::Pod &pod,
                const QHash<QString, const FindingsInput::Node *> &nodes, QList<Finding> *out)
{
    if (pod.gpus <= 0 && pod.migDevices <= 0)
        return;
    if (pod.phase == QLatin1String("Succeeded") || pod.phase == QLatin1String("Failed"))
        return;
    const FindingsInput::Node *node = nodes.value(pod.node);
    const bool notReady = node && !node->ready;
    // Kubernetes leaves a pod on a NotReady node for its toleration (300 s unless it says
    // otherwise) before it evicts: a kubelet's blip of seconds is no reason to act on a healthy
    // job (issue 33: a 16 s blip had the nightly cleanup kill five running pods). An undated
    // NotReady is not long enough either.
    const bool notReadyLongEnough =
        notReady && node->notReadySince > 0 && pod.notReadyTolerationSecs >= 0 &&
        in.now - node->notReadySince >= pod.notReadyTolerationSecs * 1000;
    Finding f;
    f.node = pod.node;
    fillPod(f, pod);
    if (pod.deleting && pod.deletionTime > 0 &&
        in.now > pod.deletionTime + in.options.stuckMarginMs) {
        f.cls = FindingClass::StuckTerminating;
        f.key = QStringLiteral("stuck|") + pod.uid;
        f.since = pod.deletionTime - pod.gracePeriodSecs * 1000;
        f.sinceSource = tr("the API (deletionTimestamp)");
        QList<FindingProcess> procs;
        if (node)
            for (const NodeProcess &p : node->sample.processes)
                if (p.owner.podUid == pod.uid)
                    procs << processOf(p);
        f.processes = procs;
        f.cards = cardsOf(procs);
        const QString base = tr("deleted %1 ago with a grace period of %2 s; still Terminating")
                                 .arg(duration(f.since, in.now))
                                 .arg(pod.gracePeriodSecs);
        if (notReady) {
            f.evidence = base + tr("; its node is NotReady");
            f.remedy = Remedy::ForceDeletePod;
            f.remedyNote = tr("The node is NotReady: its kubelet cannot confirm the deletion.");
        } else if (pod.containersGone) {
            f.evidence = base + tr("; the node runs no container of it any more");
            f.remedy = Remedy::ForceDeletePod;
            f.remedyNote = tr("The node shows its containers gone: only the API object is left.");
        } else if (!procs.isEmpty()) {
            f.evidence =
                base +
                tr("; PID %1 of it still runs on GPU %2").arg(pidList(procs), cardList(f.cards));
            f.remedy = Remedy::KillThenForceDelete;
            f.remedyNote = tr("Its processes ignore the kubelet: end them, then remove the pod.");
        } else {
            f.evidence = base;
            f.remedy = Remedy::None;
            f.remedyNote = tr("The node was not sampled: whether its containers still run is not "
                              "known, so gpudesk will not force the deletion.");
        }
        out->append(f);
        return;
    }
    if (pod.deleting)
        return; // within its grace period: it is going
    if (notReadyLongEnough) {
        f.cls = FindingClass::OnNotReadyNode;
        f.key = QStringLiteral("notready|") + pod.uid;
        f.since = node->notReadySince;
        f.sinceSource = tr("the API (node condition Ready)");
        f.evidence = tr("holds %n GPU(s) on %1, NotReady for %2", nullptr, pod.gpus)
                         .arg(pod.node, duration(f.since, in.now));
        // A NotReady node is often a dead kubelet on a live machine: its containers go on
        // running and holding their cards after the pod is force-deleted. Where the node still
        // answers over SSH, its processes are ended first.
        QList<FindingProcess> procs;
        if (node->fresh)
            for (const NodeProcess &p : node->sample.processes)
                if (p.owner.podUid == pod.uid)
                    procs << processOf(p);
        f.processes = procs;
        if (!procs.isEmpty()) {
            f.evidence += tr("; PID %1 of it still runs on GPU %2")
                              .arg(pidList(procs), cardList(cardsOf(procs)));
            f.remedy = Remedy::KillThenForceDelete;
            f.remedyNote = tr("The node is NotReady but answers over SSH: end its processes, "
                              "then remove the pod, which its kubelet cannot confirm.");
        } else {
            f.remedy = Remedy::ForceDeletePod;
            f.remedyNote =
                node->fresh
                    ? tr("The node is NotReady: its kubelet cannot confirm a graceful delete.")
                    : tr("The node is NotReady and does not answer over SSH: once the pod is "
                         "removed, check the node when it is back for processes left running.");
        }
        out->append(f);
        return;
    }
    if (isJobKind(pod.owner.kind) && finishedStatus(pod.ownerStatus) &&
        pod.phase == QLatin1String("Running")) {
        f.cls = FindingClass::FinishedHoldingGpus;
        f.key = QStringLiteral("finished|") + pod.uid;
        if (pod.ownerStateSince > 0) {
            f.since = pod.ownerStateSince;
            f.sinceSource = tr("the API (the job's state, lastTransitionTime)");
        }
        f.evidence =
            tr("%1 %2 is %3, but this pod still runs and holds %n GPU(s)", nullptr, pod.gpus)
                .arg(pod.owner.kind, pod.owner.name, pod.ownerStatus);
        f.remedy = Remedy::DeletePod;
        f.remedyNote = tr("Its job is over: the pod has nothing left to do.");
        out->append(f);
        return;
    }
    if (pod.phase != QLatin1String("Running") || !node || !node->fresh || !pod.activity)
        return;
    // Idle since: the last busy moment gpudesk or Prometheus saw; never busy — since the first
    // moment either observed it ("at least"); never before the pod was created.
    const GpuActivity &a = *pod.activity;
    qint64 since = a.lastBusy > 0 ? a.lastBusy : a.firstSampled;
    bool atLeast = a.lastBusy == 0;
    QString source = tr("gpudesk's samples since %1").arg(format::when(a.firstSampled));
    if (pod.external) {
        const ExternalIdle &e = *pod.external;
        if (e.lastBusyMs > 0 && a.lastBusy == 0) {
            since = e.lastBusyMs;
            atLeast = false;
            source = tr("Prometheus (DCGM) and gpudesk's samples");
        } else if (e.lastBusyMs == 0 && a.lastBusy == 0 && e.coveredFromMs > 0 &&
                   e.coveredFromMs < since) {
            since = e.coveredFromMs;
            source = tr("Prometheus (DCGM) since %1").arg(format::when(e.coveredFromMs));
        }
    }
    if (pod.created > 0 && since <= pod.created) {
        since = pod.created;
        atLeast = false;
        source += tr("; the pod is no older");
    }
    // A dev environment is in use while its Jupyter kernels or terminals are, even with idle
    // GPUs (reading, editing): idle only since both stopped.
    const auto jupyter = in.jupyter.constFind(pod.uid);
    const bool asked = !pod.devEnv.isEmpty() && jupyter != in.jupyter.cend() && jupyter->checked;
    if (asked) {
        if (jupyter->busy)
            return;
        if (const qint64 j = jupyter->idleSince(pod.created); j > since) {
            since = j;
            atLeast = false;
            source += tr("; its Jupyter's kernels and terminals");
        }
    }
    if (in.now - since < in.options.idleForMs)
        return;
    f.cls = FindingClass::IdleGpus;
    f.key = QStringLiteral("idle|") + pod.uid;
    f.since = since;
    f.sinceAtLeast = atLeast;
    f.sinceSource = source;
    if (node)
        for (const NodeProcess &p : node->sample.processes)
            if (p.owner.podUid == pod.uid)
                f.processes << processOf(p);
    f.cards = cardsOf(f.processes);
    const QString span = (atLeast ? QStringLiteral("≥ ") : QString()) + duration(since, in.now);
    f.evidence =
        a.hasProcess
            ? tr("%n GPU(s) under %1 % utilization for %2", nullptr, pod.gpus)
                  .arg(TelemetryStore::BusyPercent)
                  .arg(span)
            : tr("%n GPU(s) allocated, no process on any GPU for %1", nullptr, pod.gpus).arg(span);
    f.devEnv = pod.devEnv;
    if (!pod.devEnv.isEmpty()) {
        f.evidence = tr("dev environment %1: ").arg(pod.devEnv) + f.evidence;
        if (asked)
            f.evidence += tr("; no Jupyter kernel or terminal in use since %1")
                              .arg(format::when(jupyter->idleSince(pod.created)));
    }
    if (!pod.devEnv.isEmpty() && pod.owner.kind.isEmpty()) {
        // Deleting the pod is how a dev environment stops: its home volume stays.
        f.remedy = Remedy::DeletePod;
        f.remedyNote = tr("Stops the dev environment %1: its GPUs are freed, its home volume is "
                          "kept, and its owner can start it again from the Dev environments "
                          "page.")
                           .arg(pod.devEnv);
    } else if (isJobKind(pod.owner.kind)) {
        f.remedy = Remedy::StopWorkload;
        f.remedyNote = tr("Stops %1 %2 with all its pods.").arg(pod.owner.kind, pod.owner.name);
    } else if (pod.owner.kind.isEmpty()) {
        f.remedy = Remedy::DeletePod;
        f.remedyNote = tr("A bare pod: deleting it ends it.");
    } else {
        f.remedy = Remedy::None;
        f.remedyNote = tr("Its %1 %2 would start another pod: scale the controller down "
                          "instead.")
                           .arg(pod.owner.kind, pod.owner.name);
    }
    out->append(f);
}

} // namespace

QString findingClassId(FindingClass c)
{
    for (const ClassName &n : kClassNames)
        if (n.cls == c)
            return QString::fromLatin1(n.id);
    return QString();
}

std::optional<FindingClass> findingClassFromId(const QString &id)
{
    for (const ClassName &n : kClassNames)
        if (id == QLatin1String(n.id))
            return n.cls;
    return std::nullopt;
}

QString findingClassTitle(FindingClass c)
{
    switch (c) {
    case FindingClass::OrphanProcess:
        return tr("GPU process of no pod");
    case FindingClass::StuckTerminating:
        return tr("Stuck Terminating");
    case FindingClass::IdleGpus:
        return tr("Idle GPUs");
    case FindingClass::PhantomMemory:
        return tr("Memory with no process");
    case FindingClass::FinishedHoldingGpus:
        return tr("Finished job still holding GPUs");
    case FindingClass::OnNotReadyNode:
        return tr("On a NotReady node");
    case FindingClass::Uninterruptible:
        return tr("Process stuck in D state");
    }
    return QString();
}

FindingsInput FindingsInput::begin(const ClusterStore &cluster, const FindingsOptions &options)
{
    FindingsInput in;
    in.now = cluster.now();
    in.options = options;
    in.podsComplete = cluster.podsComplete();
    return in;
}

bool FindingsInput::holdsGpu(const PodInfo &p)
{
    return p.gpuRequest > 0 || !p.migRequests.isEmpty();
}

void FindingsInput::addPod(const ClusterStore &cluster, const TelemetryStore *telemetry,
                           const QHash<QString, ExternalIdle> &external, const PodInfo &p)
{
    if (pods.contains(p.uid))
        return;
    Pod o;
    o.uid = p.uid;
    o.ns = p.ns;
    o.name = p.name;
    o.node = p.nodeName;
    o.user = cluster.userOf(p.ns);
    o.vc = cluster.vcOf(p);
    o.phase = p.phase;
    o.gpus = p.gpuRequest;
    o.migDevices = migTotal(p.migRequests);
    o.deleting = p.deleting;
    o.deletionTime = p.deletionTime;
    o.gracePeriodSecs = p.gracePeriodSecs;
    o.notReadyTolerationSecs = p.notReadyTolerationSecs;
    o.created = p.created;
    o.owner = p.owner;
    o.devEnv = p.devEnv;
    if (!p.owner.uid.isEmpty())
        if (const JobInfo *j = cluster.job(p.owner.uid)) {
            o.ownerStatus = j->status;
            o.ownerStateSince = j->stateSince;
        }
    if (telemetry && (o.gpus > 0 || o.migDevices > 0)) {
        o.activity = telemetry->gpuActivity(p.uid);
        o.external = external.contains(p.uid) ? std::optional(external.value(p.uid)) : std::nullopt;
        if (p.deleting)
            o.containersGone = telemetry->containersGone(p.uid);
    }
    pods.insert(o.uid, o);
}

void FindingsInput::addNodes(const ClusterStore &cluster, const TelemetryStore *telemetry,
                             const QHash<QString, ExternalIdle> &external)
{
    for (const NodeInfo &n : cluster.nodes()) {
        Node node;
        node.name = n.name;
        node.ready = n.ready;
        for (const Condition &c : n.conditions)
            if (c.type == QLatin1String("Ready"))
                node.notReadySince = c.lastTransition;
        if (const NodeSample *s = telemetry ? telemetry->latest(n.name) : nullptr) {
            node.fresh = telemetry->isFresh(n.name);
            // A node's stale sample says nothing of its processes now.
            if (node.fresh) {
                node.sample = *s;
                for (const NodeProcess &p : s->processes) {
                    if (const qint64 d = telemetry->uninterruptibleSince(n.name, p.pid))
                        node.dSince.insert(p.pid, d);
                    if (const qint64 o = telemetry->orphanSince(n.name, p.pid))
                        node.orphanSince.insert(p.pid, o);
                    // A process of a pod that holds no GPU by request (it took one anyway):
                    // its pod exists, so the process is no orphan.
                    if (!p.owner.podUid.isEmpty() && !pods.contains(p.owner.podUid)) {
                        if (const PodInfo *pod = cluster.pod(p.owner.podUid))
                            addPod(cluster, telemetry, external, *pod);
                        else if (const QString gone = cluster.podNamedByEvents(p.owner.podUid);
                                 !gone.isEmpty())
                            gonePods.insert(p.owner.podUid, gone);
                    }
                }
            }
        }
        nodes.append(node);
    }
}

FindingsInput FindingsInput::capture(const ClusterStore &cluster, const TelemetryStore *telemetry,
                                     const FindingsOptions &options,
                                     const QHash<QString, ExternalIdle> &external)
{
    FindingsInput in = begin(cluster, options);
    // The GPU holders in one pass over the pods (per-node lookups of 100,000 pods cost more).
    for (const PodInfo &p : cluster.pods())
        if (holdsGpu(p))
            in.addPod(cluster, telemetry, external, p);
    in.addNodes(cluster, telemetry, external);
    return in;
}

QList<Finding> computeFindings(const FindingsInput &in)
{
    QList<Finding> out;
    QHash<QString, const FindingsInput::Node *> nodes;
    for (const FindingsInput::Node &n : in.nodes) {
        nodes.insert(n.name, &n);
        if (n.fresh)
            nodeFindings(in, n, &out);
    }
    for (const FindingsInput::Pod &p : in.pods)
        podFinding(in, p, nodes, &out);
    if (!in.options.classes.isEmpty())
        out.removeIf([&](const Finding &f) { return !in.options.classes.contains(f.cls); });
    std::sort(out.begin(), out.end(), [](const Finding &a, const Finding &b) {
        return std::tie(a.cls, a.node, a.key) < std::tie(b.cls, b.node, b.key);
    });
    return out;
}

QStringList undatedIdlePods(const ClusterStore &cluster, const TelemetryStore &telemetry)
{
    QStringList out;
    for (const QString &node : telemetry.nodes()) {
        if (!telemetry.isFresh(node))
            continue;
        for (const PodInfo *p : cluster.podsOnNode(node)) {
            if (p->gpuRequest <= 0 || p->deleting || p->phase != QLatin1String("Running"))
                continue;
            const auto a = telemetry.gpuActivity(p->uid);
            if (a && a->lastBusy == 0)
                out << p->uid;
        }
    }
    return out;
}

} // namespace gpudesk
