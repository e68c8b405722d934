// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportjson.h"
#include "preemptionlog.h"

#include "diagnosisjson.h"
#include "workloadresolver.h"

#include "findings.h"
#include "operationjson.h"

#include "clusterstore.h"
#include "gpuaccounting.h"
#include "gpuplacement.h"
#include "imagereference.h"
#include "queuesmodel.h"
#include "telemetrystore.h"
#include "usersummary.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>
#include <tuple>

namespace gpudesk {

namespace {

QString sshStateName(SshStatus::State s)
{
    switch (s) {
    case SshStatus::Idle:
        return QStringLiteral("notConnected");
    case SshStatus::Connecting:
        return QStringLiteral("connecting");
    case SshStatus::Connected:
        return QStringLiteral("connected");
    case SshStatus::Unreachable:
        return QStringLiteral("unreachable");
    case SshStatus::HostKeyUnknown:
        return QStringLiteral("hostKeyUnknown");
    case SshStatus::HostKeyChanged:
        return QStringLiteral("hostKeyChanged");
    case SshStatus::AuthFailed:
        return QStringLiteral("authFailed");
    case SshStatus::NeedsSecret:
        return QStringLiteral("needsSecret");
    case SshStatus::Failed:
        break;
    }
    return QStringLiteral("failed");
}

QString cellStateName(CardCell::State s)
{
    switch (s) {
    case CardCell::Free:
        return QStringLiteral("free");
    case CardCell::Allocated:
        return QStringLiteral("allocated");
    case CardCell::Unavailable:
        return QStringLiteral("unavailable");
    case CardCell::InUseHidden:
        return QStringLiteral("inUseByHiddenPod");
    case CardCell::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QJsonValue optionalNumber(const auto &v)
{
    return v ? QJsonValue(double(*v)) : QJsonValue();
}

QJsonValue orNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

QJsonObject figures(const GpuFigures &g, const QList<MigProfileFigures> &profiles)
{
    QJsonObject out{{QStringLiteral("total"), g.total},
                    {QStringLiteral("allocated"), g.allocated},
                    {QStringLiteral("free"), optionalNumber(g.free)},
                    {QStringLiteral("freeAtMost"), g.freeAtMost}};
    if (g.migTotal > 0) {
        QJsonArray byProfile;
        for (const MigProfileFigures &p : profiles)
            byProfile.append(QJsonObject{{QStringLiteral("profile"), p.profile},
                                         {QStringLiteral("total"), p.total},
                                         {QStringLiteral("allocated"), p.allocated},
                                         {QStringLiteral("free"), optionalNumber(p.free)}});
        out[QStringLiteral("mig")] =
            QJsonObject{{QStringLiteral("total"), g.migTotal},
                        {QStringLiteral("allocated"), g.migAllocated},
                        {QStringLiteral("free"), optionalNumber(g.migFree)},
                        {QStringLiteral("freeAtMost"), g.migFreeAtMost},
                        {QStringLiteral("byProfile"), byProfile}};
    }
    return out;
}

QJsonObject processJson(const AttributedProcess &p)
{
    return QJsonObject{{QStringLiteral("pid"), double(p.pid)},
                       {QStringLiteral("memoryMiB"), optionalNumber(p.memoryMiB)},
                       {QStringLiteral("command"), p.command},
                       {QStringLiteral("podUid"), orNull(p.podUid)},
                       {QStringLiteral("podVisible"), !p.podHidden},
                       {QStringLiteral("pod"), orNull(p.pod)},
                       {QStringLiteral("namespace"), orNull(p.ns)},
                       {QStringLiteral("user"), orNull(p.user)}};
}

void addTelemetry(const ClusterStore &store, const TelemetryStore &telemetry, const NodeInfo &n,
                  QJsonObject *out)
{
    const SshStatus ssh = telemetry.sshStatus(n.name);
    const NodeSample *sample = telemetry.latest(n.name);
    (*out)[QStringLiteral("sshState")] = sshStateName(ssh.state);
    (*out)[QStringLiteral("sshMessage")] = orNull(ssh.message);
    if (!sample) {
        (*out)[QStringLiteral("cards")] = QJsonValue();
        (*out)[QStringLiteral("gpuState")] = QJsonValue();
        (*out)[QStringLiteral("gpuMessage")] = QJsonValue();
        return;
    }
    (*out)[QStringLiteral("gpuState")] = GpuAccounting::gpuStateName(sample->gpuState);
    (*out)[QStringLiteral("gpuMessage")] = orNull(sample->gpuMessage);
    const NodeCards placed = GpuPlacement::place(store, &telemetry, n);
    QJsonArray cards;
    for (const CardState &c : telemetry.cards(n.name)) {
        QJsonArray procs;
        for (const AttributedProcess &p : c.processes)
            procs.append(processJson(p));
        const int i = c.sample.index;
        CardCell cell;
        for (const CardCell &k : placed.cells)
            if (k.cardIndex == i)
                cell = k;
        QJsonArray migDevices;
        for (const MigState &m : c.mig) {
            QString holder;
            for (const MigCell &mc : placed.mig)
                if (mc.cardIndex == i && mc.device == m.sample.index)
                    holder = mc.podUid;
            QJsonArray migProcs;
            for (const AttributedProcess &p : m.processes)
                migProcs.append(processJson(p));
            migDevices.append(QJsonObject{
                {QStringLiteral("index"), m.sample.index},
                {QStringLiteral("profile"), m.sample.profile},
                {QStringLiteral("uuid"), m.sample.uuid},
                {QStringLiteral("gpuInstanceId"), m.sample.gpuInstanceId},
                {QStringLiteral("computeInstanceId"), m.sample.computeInstanceId},
                {QStringLiteral("memoryUsedMiB"), optionalNumber(m.sample.memoryUsedMiB)},
                {QStringLiteral("memoryTotalMiB"), optionalNumber(m.sample.memoryTotalMiB)},
                {QStringLiteral("allocatedTo"), orNull(holder)},
                {QStringLiteral("processes"), migProcs}});
        }
        QJsonObject card{
            {QStringLiteral("index"), i},
            {QStringLiteral("uuid"), c.sample.uuid},
            {QStringLiteral("name"), c.sample.name},
            {QStringLiteral("utilization"), optionalNumber(c.sample.utilization)},
            {QStringLiteral("memoryUsedMiB"), optionalNumber(c.sample.memoryUsedMiB)},
            {QStringLiteral("memoryTotalMiB"), optionalNumber(c.sample.memoryTotalMiB)},
            {QStringLiteral("temperatureC"), optionalNumber(c.sample.temperatureC)},
            {QStringLiteral("powerW"), optionalNumber(c.sample.powerDrawW)},
            {QStringLiteral("busy"), c.busy},
            {QStringLiteral("phantom"), c.phantom},
            {QStringLiteral("unattributed"), c.unattributed},
            // A card in MIG mode is placed per instance (migDevices[].allocatedTo).
            {QStringLiteral("state"),
             c.migEnabled ? QStringLiteral("mig") : cellStateName(cell.state)},
            {QStringLiteral("allocatedTo"), orNull(cell.podUid)},
            {QStringLiteral("migMode"),
             c.sample.migEnabled ? QJsonValue(*c.sample.migEnabled) : QJsonValue()},
            {QStringLiteral("processes"), procs}};
        if (c.migEnabled)
            card[QStringLiteral("migDevices")] = migDevices;
        cards.append(card);
    }
    (*out)[QStringLiteral("cards")] = cards;
    QJsonArray pods;
    for (const PodUsage &u : sample->pods) {
        const PodInfo *pod = telemetry.pod(u.uid);
        pods.append(QJsonObject{
            {QStringLiteral("uid"), u.uid},
            {QStringLiteral("pod"), pod ? QJsonValue(pod->name) : QJsonValue()},
            {QStringLiteral("namespace"), pod ? QJsonValue(pod->ns) : QJsonValue()},
            {QStringLiteral("cpuCores"), u.cpuCores ? QJsonValue(*u.cpuCores) : QJsonValue()},
            {QStringLiteral("memoryWorkingSetMiB"), double(u.workingSetBytes >> 20)},
            {QStringLiteral("memoryMiB"), double(u.memoryBytes >> 20)}});
    }
    (*out)[QStringLiteral("pods")] = pods;
    (*out)[QStringLiteral("sampledAt")] =
        QDateTime::fromMSecsSinceEpoch(sample->time, Qt::UTC).toString(Qt::ISODateWithMs);
}

} // namespace

static FindingsOptions reportFindings()
{
    FindingsOptions o;
    o.uninterruptibleForMs = 0; // one look: in D state when the report was taken
    // The classes one look can tell; idle needs watching over time.
    o.classes = {FindingClass::OrphanProcess,  FindingClass::StuckTerminating,
                 FindingClass::PhantomMemory,  FindingClass::FinishedHoldingGpus,
                 FindingClass::OnNotReadyNode, FindingClass::Uninterruptible};
    return o;
}

namespace {

struct ImageUse
{
    QStringList pods; // ns/name
    QStringList users;
    QString digest; // from the nodes' imageID, when all agree
    bool digestsDiffer = false;
};

QMap<QString, ImageUse> imageUses(const ClusterStore &store)
{
    QMap<QString, ImageUse> out;
    for (const PodInfo &p : store.pods()) {
        if (p.image.isEmpty() || p.finished())
            continue;
        ImageUse &u = out[p.image];
        u.pods << p.ns + u'/' + p.name;
        if (const QString user = store.userOf(p.ns); !user.isEmpty() && !u.users.contains(user))
            u.users << user;
        const QString digest = ImageReference::fromImageId(p.imageId).digest;
        if (digest.isEmpty())
            continue;
        if (u.digest.isEmpty())
            u.digest = digest;
        else if (u.digest != digest)
            u.digestsDiffer = true; // a tag moved between two pods' pulls
    }
    return out;
}

QJsonArray images(const ClusterStore &store, const ReportSource &source)
{
    const QMap<QString, ImageUse> uses = imageUses(store);
    QJsonArray out;
    for (const QString &reference : imagesInUse(store)) {
        const ImageUse &u = uses[reference];
        QStringList users = u.users;
        users.sort();
        QJsonObject o{{QStringLiteral("reference"), reference},
                      {QStringLiteral("registry"), ImageReference::parse(reference).registry},
                      {QStringLiteral("digest"),
                       u.digest.isEmpty() || u.digestsDiffer ? QJsonValue() : QJsonValue(u.digest)},
                      {QStringLiteral("bytes"), source.imageBytes.contains(reference)
                                                    ? QJsonValue(source.imageBytes.value(reference))
                                                    : QJsonValue()},
                      {QStringLiteral("pods"), QJsonArray::fromStringList(u.pods)},
                      {QStringLiteral("users"), QJsonArray::fromStringList(users)}};
        if (u.digestsDiffer)
            o.insert(QStringLiteral("digestNote"),
                     QStringLiteral("the pods run different digests of this tag"));
        if (const QString e = source.imageErrors.value(reference); !e.isEmpty())
            o.insert(QStringLiteral("bytesError"), e);
        out.append(o);
    }
    return out;
}

} // namespace

QStringList imagesInUse(const ClusterStore &store)
{
    const QMap<QString, ImageUse> uses = imageUses(store);
    QStringList out = uses.keys();
    std::stable_sort(out.begin(), out.end(), [&](const QString &a, const QString &b) {
        return uses[a].pods.size() > uses[b].pods.size();
    });
    return out;
}

namespace {

// Jobs (and bare pods) by state, as the Overview, the Users and the VCs pages count them.
QJsonObject jobsJson(const WorkloadCounts &c)
{
    return {{QStringLiteral("running"), c.running}, {QStringLiteral("waiting"), c.waiting},
            {QStringLiteral("failed"), c.failed},   {QStringLiteral("finished"), c.finished},
            {QStringLiteral("stuck"), c.stuck},     {QStringLiteral("total"), c.total()}};
}

// Jobs whose own state is not what their pods do (WorkloadResolver::stateLie), by namespace
// and name: a Failed job whose master still holds its GPUs, a Running one that crash-loops.
QJsonArray stateLiesJson(const ClusterStore &store)
{
    QList<WorkloadInfo> lying;
    for (const QString &key : store.jobKeys())
        if (auto w = store.workload(key); w && !w->stateLie.isEmpty())
            lying << *w;
    std::sort(lying.begin(), lying.end(), [](const WorkloadInfo &a, const WorkloadInfo &b) {
        return std::tie(a.ns, a.name) < std::tie(b.ns, b.name);
    });
    QJsonArray out;
    for (const WorkloadInfo &w : std::as_const(lying))
        out.append(QJsonObject{{QStringLiteral("namespace"), w.ns},
                               {QStringLiteral("name"), w.name},
                               {QStringLiteral("kind"), w.kind},
                               {QStringLiteral("status"), w.status},
                               {QStringLiteral("says"), w.stateLie}});
    return out;
}

} // namespace

namespace {

// Who took which pod's GPUs, newest first: the records as gpudesk keeps them, their times
// in RFC 3339 and the sentence the window says.
QJsonArray preemptionsJson(const PreemptionLog &log)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QJsonArray out;
    for (const Preemption *p : log.records()) {
        QJsonObject o = p->toJson();
        o.insert(QStringLiteral("at"),
                 QDateTime::fromMSecsSinceEpoch(p->at, Qt::UTC).toString(Qt::ISODate));
        o.remove(QStringLiteral("ranMs"));
        o.insert(QStringLiteral("ranSeconds"),
                 p->ranMs >= 0 ? QJsonValue(double(p->ranMs / 1000)) : QJsonValue());
        o.insert(QStringLiteral("said"), PreemptionLog::describe(*p, now));
        out.append(o);
    }
    return out;
}

} // namespace

QJsonObject reportJson(const ClusterStore &store, const TelemetryStore *telemetry,
                       const ReportSource &source)
{
    const GpuAccounting accounting(&store, telemetry);
    const GpuFigures all = accounting.cluster();
    const bool complete = store.podsComplete();
    QJsonObject totals = figures(all, accounting.migProfiles());
    totals[QStringLiteral("pendingDemand")] = store.totals().pendingDemand;
    if (all.migTotal > 0)
        totals[QStringLiteral("pendingMig")] = store.totals().pendingMig;
    totals[QStringLiteral("visible")] = all.visible;
    totals[QStringLiteral("inUseByHiddenPods")] = all.inUseByHiddenPods;
    totals[QStringLiteral("fromVcStatus")] = all.fromVcStatus;
    totals[QStringLiteral("unserved")] = all.unserved;
    if (telemetry)
        totals[QStringLiteral("busy")] = telemetry->busyGpus();

    QJsonArray nodes;
    for (const NodeInfo &n : store.nodes()) {
        QJsonObject node{{QStringLiteral("name"), n.name},
                         {QStringLiteral("ready"), n.ready},
                         {QStringLiteral("schedulable"), !n.unschedulable},
                         {QStringLiteral("gpuModel"), orNull(n.gpuModel)},
                         {QStringLiteral("gpus"),
                          figures(accounting.node(n.name), accounting.migProfiles(n.name))}};
        if (telemetry)
            addTelemetry(store, *telemetry, n, &node);
        nodes.append(node);
    }
    const FreeGpus free = FreeGpus::of(store, telemetry);
    QJsonArray byFree;
    for (const auto &[count, names] : free.byCount)
        byFree.append(QJsonObject{{QStringLiteral("free"), count},
                                  {QStringLiteral("nodes"), QJsonArray::fromStringList(names)}});
    const QJsonObject fragmentation{
        {QStringLiteral("exact"), free.exact},
        {QStringLiteral("free"), free.exact ? QJsonValue(free.free) : QJsonValue()},
        {QStringLiteral("freeAtMost"), free.freeAtMost},
        {QStringLiteral("largestSingleNodeJob"), free.largestSingleNode},
        {QStringLiteral("nodesByFree"), byFree}};

    // Resource lists as the API writes them: quantities by resource name.
    auto amounts = [](const ResourceAmounts &a) {
        QJsonObject o;
        for (auto it = a.cbegin(); it != a.cend(); ++it)
            o.insert(it.key(), quantity::format(it.key(), it.value()));
        return o;
    };
    const QHash<QString, WorkloadCounts> jobsByVc = WorkloadResolver::countsByVc(store);
    QJsonArray queues;
    for (const auto &q : store.queues())
        queues.append(QJsonObject{
            {QStringLiteral("name"), q.name},
            {QStringLiteral("jobs"), jobsJson(jobsByVc.value(q.name))},
            {QStringLiteral("state"), q.state.isEmpty() ? QStringLiteral("Open") : q.state},
            {QStringLiteral("weight"), q.weight},
            {QStringLiteral("reclaimable"), q.reclaimable},
            {QStringLiteral("parent"), q.parent.isEmpty() || q.parent == QLatin1String("root")
                                           ? QJsonValue()
                                           : QJsonValue(q.parent)},
            {QStringLiteral("capability"), amounts(q.capability)},
            {QStringLiteral("deserved"), amounts(q.deserved)},
            {QStringLiteral("guarantee"), amounts(q.guarantee)},
            {QStringLiteral("allocated"), amounts(q.allocated)},
            {QStringLiteral("users"),
             QJsonArray::fromStringList(QueuesModel::usersOf(store, q.name))},
            {QStringLiteral("gpus"),
             QJsonObject{{QStringLiteral("capability"), optionalNumber(q.gpuCapability)},
                         {QStringLiteral("allocated"), store.vcAllocated(q.name)},
                         {QStringLiteral("allocatedByVolcano"), optionalNumber(q.gpuAllocated)},
                         {QStringLiteral("pendingDemand"), store.vcPendingDemand(q.name)}}}});
    QHash<QString, QList<const ResourceQuotaInfo *>> quotas;
    for (const auto &[uid, q] : store.objects<ResourceQuotaInfo>(Resource::ResourceQuotas))
        quotas[q.ns].append(&q);
    const QString scope = store.scope(Resource::Pods);
    NamespaceTally tally;
    tally.rebuild(store);
    QJsonArray users;
    for (const auto &u : store.users()) {
        // Another user's allocation is known only when their pods are visible.
        const bool known = complete || u.name == scope;
        const NamespaceTally::Figures figures = tally.figures(u.name);
        const UserSummary summary = summarizeUser(u, quotas.value(u.name), figures);
        // A quota is known where the account may read the namespace's quotas: null otherwise.
        const bool quotaKnown = store.scope(Resource::ResourceQuotas).isEmpty() ||
                                store.scope(Resource::ResourceQuotas) == u.name;
        users.append(QJsonObject{
            {QStringLiteral("name"), u.user},
            {QStringLiteral("namespace"), u.name},
            {QStringLiteral("vc"), u.vc},
            {QStringLiteral("jobs"), jobsJson(figures.counts)},
            {QStringLiteral("state"),
             summary.disabled ? QStringLiteral("disabled") : QStringLiteral("active")},
            {QStringLiteral("quota"),
             quotaKnown ? QJsonValue(QJsonObject{{QStringLiteral("hard"), amounts(summary.hard)},
                                                 {QStringLiteral("used"), amounts(summary.used)}})
                        : QJsonValue()},
            {QStringLiteral("gpus"),
             QJsonObject{{QStringLiteral("allocated"),
                          known ? QJsonValue(store.userAllocated(u.user)) : QJsonValue()}}}});
    }
    QJsonArray partial;
    if (!complete)
        for (const char *field :
             {"gpus.allocated", "gpus.free", "gpus.pendingDemand", "fragmentation",
              "nodes[].gpus.allocated", "nodes[].gpus.free", "nodes[].cards[].state",
              "queues[].gpus.allocated", "queues[].gpus.pendingDemand", "users[].gpus.allocated",
              "jobs", "queues[].jobs"})
            partial.append(QLatin1String(field));
    QJsonObject versions;
    for (auto it = source.versions.cbegin(); it != source.versions.cend(); ++it)
        versions[resourceName(it.key())] = it.value();
    QJsonObject missing;
    for (auto it = source.missing.cbegin(); it != source.missing.cend(); ++it)
        missing[resourceName(it.key())] = it.value();
    return QJsonObject{
        {QStringLiteral("schemaVersion"), 2},
        {QStringLiteral("context"), source.context},
        {QStringLiteral("server"), source.server},
        {QStringLiteral("generatedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("apiGroups"),
         QJsonObject{{QStringLiteral("volcano"), !source.missing.contains(Resource::Queues)},
                     {QStringLiteral("versions"), versions},
                     {QStringLiteral("missing"), missing}}},
        {QStringLiteral("scope"), QJsonObject{{QStringLiteral("complete"), complete},
                                              {QStringLiteral("podsNamespace"), orNull(scope)},
                                              {QStringLiteral("unreadable"),
                                               QJsonArray::fromStringList(source.unreadable)}}},
        {QStringLiteral("partial"), partial},
        {QStringLiteral("gpus"), totals},
        {QStringLiteral("jobs"), jobsJson(WorkloadResolver::counts(store))},
        {QStringLiteral("stateLies"), stateLiesJson(store)},
        {QStringLiteral("fragmentation"), fragmentation},
        {QStringLiteral("nodes"), nodes},
        {QStringLiteral("queues"), queues},
        {QStringLiteral("users"), users},
        {QStringLiteral("images"), images(store, source)},
        // What holds GPUs and should not, from this run's single look: idle pods need longer
        // watching (or Prometheus) than a report takes, so they are listed by the window and
        // by --cleanup rather than here.
        {QStringLiteral("findings"), json::findings(computeFindings(FindingsInput::capture(
                                         store, telemetry, reportFindings(), {})))},
        {QStringLiteral("diagnoses"),
         source.diagnoses ? QJsonValue(diagnosesJson(store, *source.diagnoses)) : QJsonValue()},
        {QStringLiteral("diagnosisClasses"),
         source.diagnoses ? QJsonValue(diagnosisClassesJson(store, *source.diagnoses))
                          : QJsonValue()},
        {QStringLiteral("diagnosesNote"), orNull(source.diagnosesNote)},
        {QStringLiteral("preemptions"),
         source.preemptions ? QJsonValue(preemptionsJson(*source.preemptions)) : QJsonValue()},
        {QStringLiteral("preemptionsNote"), orNull(source.preemptionsNote)}};
}

} // namespace gpudesk
