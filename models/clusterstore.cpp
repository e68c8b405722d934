// SPDX-License-Identifier: GPL-3.0-or-later
#include "clusterstore.h"

#include "workloadresolver.h"

#include <algorithm>

namespace gpudesk {

namespace {

constexpr int kUpdateIntervalMs = 100; // at most ten model updates a second
// ... or at once past this many pods or events: what an update costs grows with it (issue 39).
constexpr qsizetype kPublishAtChanges = 256;
// A delta up to this size is applied at once (a watch batch is at most 2,000 events, a few ms).
constexpr qsizetype kApplyAtOnce = 4000;
// A larger one is applied this long at a time, leaving the rest of each turn to the window.
constexpr int kSliceMs = 8;
// Objects between two looks at the clock.
constexpr qsizetype kClockStride = 64;

QString vcKey(const PodInfo &p)
{
    return p.vc.isEmpty() ? QStringLiteral("default") : p.vc;
}

// Pods, events and jobs have indexes of their own; every other kind lives in a plain table.
bool hasTable(Resource r)
{
    switch (r) {
    case Resource::Pods:
    case Resource::Events:
    case Resource::VolcanoJobs:
    case Resource::PyTorchJobs:
    case Resource::MPIJobs:
        return false;
    default:
        return true;
    }
}

// A relist of one kind, as an informer would deliver it.
template <class T> Delta relistOf(Resource r, const QList<T> &list)
{
    Delta d;
    d.resource = r;
    d.relist = true;
    d.items<T>() = list;
    return d;
}

std::unique_ptr<ObjectTableBase> makeTable(Resource r)
{
    const bool byName = resourceInfo(r).keyedByName();
    switch (r) {
#define GPUDESK_KIND_TABLE(name, type, group, versions, plural, kind, scope)                       \
    case Resource::name:                                                                           \
        return std::make_unique<ObjectTable<type>>(byName);
        GPUDESK_KINDS(GPUDESK_KIND_TABLE)
#undef GPUDESK_KIND_TABLE
    }
    return nullptr;
}

} // namespace

ClusterStore::ClusterStore(QObject *parent, Clock now) : QObject(parent), m_now(std::move(now))
{
    for (const Resource r : kAllResources)
        if (hasTable(r))
            m_tables[size_t(r)] = makeTable(r);
    m_tick.setObjectName(QStringLiteral("storePublish"));
    m_tick.setSingleShot(true);
    connect(&m_tick, &QTimer::timeout, this, &ClusterStore::publish);
    m_drain.setObjectName(QStringLiteral("storeDrain"));
    m_drain.setSingleShot(true);
    m_drain.setInterval(0);
    connect(&m_drain, &QTimer::timeout, this, &ClusterStore::drain);
}

void ClusterStore::schedule()
{
    if (m_pending.pods.size() + m_pending.events.size() >= kPublishAtChanges)
        m_tick.start(0);
    else if (!m_tick.isActive())
        m_tick.start(kUpdateIntervalMs);
}

void ClusterStore::publish()
{
    m_tick.stop();
    if (m_pending.isEmpty())
        return;
    const StoreChanges changes = std::exchange(m_pending, StoreChanges{});
    emit updated(changes);
}

void ClusterStore::flush()
{
    if (!m_backlog.empty()) {
        m_drain.stop();
        while (!m_backlog.empty()) {
            applySlice(m_backlog.front(), QDeadlineTimer(QDeadlineTimer::Forever));
            m_backlog.pop_front();
        }
        emit caughtUp();
    }
    publish();
}

void ClusterStore::drain()
{
    const QDeadlineTimer deadline(kSliceMs);
    while (!m_backlog.empty()) {
        if (!applySlice(m_backlog.front(), deadline)) {
            m_drain.start();
            return;
        }
        m_backlog.pop_front();
    }
    emit caughtUp();
}

void ClusterStore::clear()
{
    m_backlog.clear();
    m_drain.stop();
    for (auto &t : m_tables)
        if (t)
            t->clear();
    m_scope = {};
    m_podGroupByOwner.clear();
    m_pods.clear();
    m_jobs.clear();
    m_events.clear();
    m_podsByNode.clear();
    m_podsByWorkload.clear();
    m_podsByNamespace.clear();
    m_jobsByNamespace.clear();
    m_eventsByObject.clear();
    m_devEnvs.clear();
    m_allocatedByNode.clear();
    m_gpuPodsByNode.clear();
    m_migByNode.clear();
    m_pendingMig = 0;
    m_allocatedByVc.clear();
    m_allocatedByNamespace.clear();
    m_allocatedByUserStale = true;
    m_useByNode.clear();
    m_pendingDemand = 0;
    m_pendingByVc.clear();
    m_pending = StoreChanges{};
    m_pending.reset = true;
    flush();
}

QString ClusterStore::workloadKey(const PodInfo &pod)
{
    return pod.owner.uid.isEmpty() ? pod.uid : pod.owner.uid;
}

void ClusterStore::account(const PodInfo &p, int sign)
{
    if (p.finished())
        return;
    if (!p.nodeName.isEmpty()) {
        NodeUse &use = m_useByNode[p.nodeName];
        use.pods += sign;
        use.cpuMilli += sign * p.cpuRequestMilli;
        use.memoryBytes += sign * p.memoryRequestBytes;
    }
    for (const auto &[profile, n] : p.migRequests) {
        if (p.nodeName.isEmpty())
            m_pendingMig += sign * n;
        else
            m_migByNode[p.nodeName][profile] += sign * n;
    }
    if (p.gpuRequest == 0)
        return;
    const int g = sign * p.gpuRequest;
    if (p.nodeName.isEmpty()) {
        m_pendingDemand += g;
        m_pendingByVc[vcKey(p)] += g;
        return;
    }
    m_allocatedByNode[p.nodeName] += g;
    if (sign > 0)
        m_gpuPodsByNode[p.nodeName].insert(p.uid);
    else if (auto it = m_gpuPodsByNode.find(p.nodeName); it != m_gpuPodsByNode.end()) {
        it->remove(p.uid);
        if (it->isEmpty())
            m_gpuPodsByNode.erase(it);
    }
    m_allocatedByVc[vcKey(p)] += g;
    m_allocatedByNamespace[p.ns] += g;
    m_allocatedByUserStale = true;
}

void ClusterStore::upsertPod(const PodInfo &pod)
{
    auto it = m_pods.find(pod.uid);
    if (it != m_pods.end()) {
        const PodInfo &old = *it;
        account(old, -1);
        if (old.nodeName != pod.nodeName) {
            m_podsByNode[old.nodeName].remove(old.uid);
            m_pending.nodes.insert(old.nodeName);
        }
        if (const QString oldKey = workloadKey(old); oldKey != workloadKey(pod)) {
            m_podsByWorkload[oldKey].remove(old.uid);
            m_pending.workloads.insert(oldKey);
        }
        if (old.ns != pod.ns) {
            m_podsByNamespace[old.ns].remove(old.uid);
            m_pending.namespaces.insert(old.ns);
        }
        *it = pod;
    } else {
        it = m_pods.insert(pod.uid, pod);
    }
    m_devEnvs.update(pod.uid, &*it, &m_pending.devEnvs);
    account(pod, +1);
    m_podsByNode[pod.nodeName].insert(pod.uid);
    const QString wk = workloadKey(pod);
    m_podsByWorkload[wk].insert(pod.uid);
    m_podsByNamespace[pod.ns].insert(pod.uid);
    m_pending.pods.insert(pod.uid);
    m_pending.workloads.insert(wk);
    m_pending.namespaces.insert(pod.ns);
    if (!pod.nodeName.isEmpty())
        m_pending.nodes.insert(pod.nodeName);
}

void ClusterStore::removePod(const QString &uid)
{
    const auto it = m_pods.constFind(uid);
    if (it == m_pods.cend())
        return;
    account(*it, -1);
    m_devEnvs.update(uid, nullptr, &m_pending.devEnvs);
    m_podsByNode[it->nodeName].remove(uid);
    const QString wk = workloadKey(*it);
    auto byWorkload = m_podsByWorkload.find(wk);
    if (byWorkload != m_podsByWorkload.end()) {
        byWorkload->remove(uid);
        if (byWorkload->isEmpty())
            m_podsByWorkload.erase(byWorkload);
    }
    if (auto byNs = m_podsByNamespace.find(it->ns); byNs != m_podsByNamespace.end()) {
        byNs->remove(uid);
        if (byNs->isEmpty())
            m_podsByNamespace.erase(byNs);
    }
    m_pending.pods.insert(uid);
    m_pending.workloads.insert(wk);
    m_pending.namespaces.insert(it->ns);
    if (!it->nodeName.isEmpty())
        m_pending.nodes.insert(it->nodeName);
    m_pods.erase(it);
}

void ClusterStore::relistJobs(Resource kind, const QList<JobInfo> &jobs)
{
    QSet<QString> seen;
    for (const auto &j : jobs)
        seen.insert(j.uid);
    QStringList gone;
    for (auto it = m_jobs.cbegin(); it != m_jobs.cend(); ++it)
        if (it->kind == kind && !seen.contains(it.key()))
            gone.append(it.key());
    for (const QString &uid : std::as_const(gone))
        removeJob(uid);
}

void ClusterStore::upsertJob(const JobInfo &j)
{
    if (const auto old = m_jobs.constFind(j.uid); old != m_jobs.cend() && old->ns != j.ns)
        m_jobsByNamespace[old->ns].remove(j.uid);
    m_jobs.insert(j.uid, j);
    m_jobsByNamespace[j.ns].insert(j.uid);
    m_pending.workloads.insert(j.uid);
    m_pending.namespaces.insert(j.ns);
}

void ClusterStore::removeJob(const QString &uid)
{
    const auto it = m_jobs.constFind(uid);
    if (it == m_jobs.cend())
        return;
    if (auto byNs = m_jobsByNamespace.find(it->ns); byNs != m_jobsByNamespace.end()) {
        byNs->remove(uid);
        if (byNs->isEmpty())
            m_jobsByNamespace.erase(byNs);
    }
    m_pending.namespaces.insert(it->ns);
    m_pending.workloads.insert(uid);
    m_jobs.erase(it);
}

void ClusterStore::upsertEvent(const EventInfo &e)
{
    const auto it = m_events.constFind(e.uid);
    if (it != m_events.cend() && it->objectUid != e.objectUid)
        m_eventsByObject[it->objectUid].remove(e.uid);
    m_events.insert(e.uid, e);
    m_eventsByObject[e.objectUid].insert(e.uid);
    m_pending.events.insert(e.uid);
}

void ClusterStore::removeEvent(const QString &uid)
{
    const auto it = m_events.constFind(uid);
    if (it == m_events.cend())
        return;
    auto byObject = m_eventsByObject.find(it->objectUid);
    if (byObject != m_eventsByObject.end()) {
        byObject->remove(uid);
        if (byObject->isEmpty())
            m_eventsByObject.erase(byObject);
    }
    m_events.erase(it);
    m_pending.events.insert(uid);
}

void ClusterStore::apply(const Delta &d)
{
    if (m_backlog.empty() &&
        (d.resource != Resource::Pods || d.size() + d.listed.size() <= kApplyAtOnce)) {
        applyNow(d);
        return;
    }
    // Behind what is queued, so that changes stay in the order the informers saw them.
    m_backlog.push_back(QueuedDelta{d, 0, 0, {}, {}});
    if (!m_drain.isActive())
        m_drain.start();
}

bool ClusterStore::applySlice(QueuedDelta &q, const QDeadlineTimer &deadline)
{
    const Delta &d = q.delta;
    if (d.resource != Resource::Pods) {
        applyNow(d);
        return true;
    }
    if (d.relist)
        m_scope[size_t(Resource::Pods)] = d.scope;
    m_pending.kinds.insert(Resource::Pods);
    schedule();
    // Runs `step` on items [q.pos, count) until done (true) or the slice's time is up (false).
    auto run = [&q, &deadline](qsizetype count, auto &&step) {
        while (q.pos < count) {
            step(q.pos++);
            if (q.pos % kClockStride == 0 && deadline.hasExpired())
                return q.pos >= count;
        }
        return true;
    };
    auto next = [&q] {
        ++q.stage;
        q.pos = 0;
    };
    // A relist is a diff against what was known, so views keep their rows and selection: the
    // uids listed, those known and not listed removed, then every listed pod upserted.
    enum Stage
    {
        Seen,
        Gone,
        Remove,
        Upsert,
        Removed
    };
    if (!d.relist && q.stage < Upsert)
        q.stage = Upsert;
    if (q.stage == Seen) {
        // The pods listed: those the delta carries, and those its pages brought before it.
        const QList<PodInfo> &items = d.items<PodInfo>();
        const qsizetype listed = items.size() + d.listed.size();
        q.seen.reserve(listed);
        if (m_pods.capacity() < listed)
            m_pods.reserve(listed); // one rehash now instead of several while filling
        if (!run(listed, [&](qsizetype i) {
                q.seen.insert(i < items.size() ? items.at(i).uid : d.listed.at(i - items.size()));
            }))
            return false;
        next();
    }
    if (q.stage == Gone) {
        // One pass within one slice (a lookup per known pod: about 10 ms at 100,000).
        for (auto it = m_pods.cbegin(); it != m_pods.cend(); ++it) {
            if (!q.seen.contains(it.key()))
                q.gone.append(it.key());
        }
        q.seen = {};
        next();
    }
    if (q.stage == Remove) {
        if (!run(q.gone.size(), [&](qsizetype i) { removePod(q.gone.at(i)); }))
            return false;
        next();
    }
    if (q.stage == Upsert) {
        if (!run(d.items<PodInfo>().size(),
                 [&](qsizetype i) { upsertPod(d.items<PodInfo>().at(i)); }))
            return false;
        next();
    }
    if (q.stage == Removed) {
        if (!run(d.removed.size(), [&](qsizetype i) { removePod(d.removed.at(i)); }))
            return false;
        next();
    }
    schedule(); // with what it changed counted: sooner past kPublishAtChanges
    return true;
}

void ClusterStore::applyNow(const Delta &d)
{
    if (d.relist)
        m_scope[size_t(d.resource)] = d.scope;
    m_pending.kinds.insert(d.resource);
    switch (d.resource) {
    case Resource::Pods: {
        QueuedDelta whole{d, 0, 0, {}, {}};
        applySlice(whole, QDeadlineTimer(QDeadlineTimer::Forever));
        return;
    }
    case Resource::Events:
        if (d.relist) {
            QSet<QString> seen;
            for (const auto &e : d.items<EventInfo>())
                seen.insert(e.uid);
            const QStringList known = m_events.keys();
            for (const auto &uid : known) {
                if (!seen.contains(uid))
                    removeEvent(uid);
            }
        }
        for (const auto &e : d.items<EventInfo>())
            upsertEvent(e);
        for (const auto &uid : d.removed)
            removeEvent(uid);
        break;
    case Resource::VolcanoJobs:
    case Resource::PyTorchJobs:
    case Resource::MPIJobs:
        if (d.relist)
            relistJobs(d.resource, d.items<JobInfo>());
        for (const auto &j : d.items<JobInfo>())
            upsertJob(j);
        for (const auto &uid : d.removed)
            removeJob(uid);
        break;
    default:
        applyTable(d);
        break;
    }
    schedule();
}

void ClusterStore::applyTable(const Delta &d)
{
    if (d.resource == Resource::ResourceQuotas) {
        // The namespaces of quotas before and after: a user's row changes with them.
        for (const auto &[uid, q] : objects<ResourceQuotaInfo>(Resource::ResourceQuotas))
            if (d.relist || d.removed.contains(uid))
                m_pending.namespaces.insert(q.ns);
        for (const auto &q : d.items<ResourceQuotaInfo>())
            m_pending.namespaces.insert(q.ns);
    }
    const QSet<QString> changed = m_tables[size_t(d.resource)]->apply(d);
    switch (d.resource) {
    case Resource::Nodes:
        m_pending.nodes.unite(changed);
        break;
    case Resource::Namespaces:
        m_allocatedByUserStale = true;
        break;
    case Resource::PodGroups:
        indexPodGroups(changed);
        break;
    default:
        break;
    }
}

void ClusterStore::indexPodGroups(const QSet<QString> &changed)
{
    // A pod group says why its job waits: the job's row changes with it.
    const auto &groups = objects<PodGroupInfo>(Resource::PodGroups);
    for (auto it = m_podGroupByOwner.begin(); it != m_podGroupByOwner.end();) {
        if (changed.contains(it.value())) {
            m_pending.workloads.insert(it.key());
            it = m_podGroupByOwner.erase(it);
        } else {
            ++it;
        }
    }
    for (const QString &key : changed) {
        const auto it = groups.find(key);
        if (it == groups.end() || it->second.owner.uid.isEmpty())
            continue;
        m_podGroupByOwner.insert(it->second.owner.uid, key);
        m_pending.workloads.insert(it->second.owner.uid);
        m_pending.namespaces.insert(it->second.ns);
    }
}

void ClusterStore::replaceNodes(const QList<NodeInfo> &nodes)
{
    apply(relistOf(Resource::Nodes, nodes));
}

void ClusterStore::replacePods(const QList<PodInfo> &pods)
{
    apply(relistOf(Resource::Pods, pods));
}

void ClusterStore::replaceQueues(const QList<QueueInfo> &queues)
{
    apply(relistOf(Resource::Queues, queues));
}

void ClusterStore::replaceNamespaces(const QList<NamespaceInfo> &namespaces)
{
    apply(relistOf(Resource::Namespaces, namespaces));
}

QList<NodeInfo> ClusterStore::nodes() const
{
    const auto &nodes = objects<NodeInfo>(Resource::Nodes);
    QList<NodeInfo> out;
    out.reserve(qsizetype(nodes.size()));
    for (const auto &[name, n] : nodes)
        out.append(n);
    return out;
}

const NodeInfo *ClusterStore::node(const QString &name) const
{
    return static_cast<const ObjectTable<NodeInfo> &>(*m_tables[size_t(Resource::Nodes)])
        .find(name);
}

const PodInfo *ClusterStore::pod(const QString &uid) const
{
    const auto it = m_pods.constFind(uid);
    return it == m_pods.cend() ? nullptr : &*it;
}

QList<const PodInfo *> ClusterStore::gpuPodsOnNode(const QString &node) const
{
    QList<const PodInfo *> out;
    for (const QString &uid : m_gpuPodsByNode.value(node))
        if (const auto it = m_pods.constFind(uid); it != m_pods.cend())
            out.append(&*it);
    return out;
}

QList<const PodInfo *> ClusterStore::podsOnNode(const QString &node) const
{
    QList<const PodInfo *> out;
    for (const auto &uid : m_podsByNode.value(node)) {
        if (const PodInfo *p = pod(uid))
            out.append(p);
    }
    std::sort(out.begin(), out.end(), [](const PodInfo *a, const PodInfo *b) {
        return std::tie(a->ns, a->name) < std::tie(b->ns, b->name);
    });
    return out;
}

QString ClusterStore::podNamedByEvents(const QString &podUid) const
{
    for (const EventInfo *e : eventsFor(podUid))
        if (e->objectKind == QLatin1String("Pod") && !e->objectName.isEmpty())
            return e->ns + u'/' + e->objectName;
    return {};
}

QList<const EventInfo *> ClusterStore::eventsFor(const QString &objectUid) const
{
    QList<const EventInfo *> out;
    for (const auto &uid : m_eventsByObject.value(objectUid)) {
        const auto it = m_events.constFind(uid);
        if (it != m_events.cend())
            out.append(&*it);
    }
    std::sort(out.begin(), out.end(),
              [](const EventInfo *a, const EventInfo *b) { return a->lastSeen > b->lastSeen; });
    return out;
}

const JobInfo *ClusterStore::job(const QString &uid) const
{
    const auto it = m_jobs.constFind(uid);
    return it == m_jobs.cend() ? nullptr : &*it;
}

QList<QueueInfo> ClusterStore::queues() const
{
    QList<QueueInfo> out;
    for (const auto &[name, q] : objects<QueueInfo>(Resource::Queues))
        out.append(q);
    return out;
}

const QueueInfo *ClusterStore::queue(const QString &name) const
{
    return static_cast<const ObjectTable<QueueInfo> &>(*m_tables[size_t(Resource::Queues)])
        .find(name);
}

const PodGroupInfo *ClusterStore::podGroupOf(const QString &jobUid) const
{
    const auto it = m_podGroupByOwner.constFind(jobUid);
    if (it == m_podGroupByOwner.cend())
        return nullptr;
    return static_cast<const ObjectTable<PodGroupInfo> &>(*m_tables[size_t(Resource::PodGroups)])
        .find(*it);
}

QList<NamespaceInfo> ClusterStore::users() const
{
    QList<NamespaceInfo> out;
    for (const auto &[name, n] : objects<NamespaceInfo>(Resource::Namespaces)) {
        if (!n.user.isEmpty())
            out.append(n);
    }
    std::sort(out.begin(), out.end(),
              [](const NamespaceInfo &a, const NamespaceInfo &b) { return a.user < b.user; });
    return out;
}

const NamespaceInfo *ClusterStore::namespaceInfo(const QString &ns) const
{
    return static_cast<const ObjectTable<NamespaceInfo> &>(*m_tables[size_t(Resource::Namespaces)])
        .find(ns);
}

QList<const PodInfo *> ClusterStore::podsIn(const QString &ns) const
{
    QList<const PodInfo *> out;
    for (const QString &uid : m_podsByNamespace.value(ns))
        if (const PodInfo *p = pod(uid))
            out.append(p);
    return out;
}

QStringList ClusterStore::workloadKeysIn(const QString &ns) const
{
    QSet<QString> keys = m_jobsByNamespace.value(ns);
    for (const QString &uid : m_podsByNamespace.value(ns))
        if (const PodInfo *p = pod(uid))
            keys.insert(workloadKey(*p));
    return QStringList(keys.cbegin(), keys.cend());
}

QList<const ResourceQuotaInfo *> ClusterStore::quotasIn(const QString &ns) const
{
    // Few per namespace and a few thousand in all: a scan is cheaper than keeping an index.
    QList<const ResourceQuotaInfo *> out;
    for (const auto &[uid, q] : objects<ResourceQuotaInfo>(Resource::ResourceQuotas))
        if (q.ns == ns)
            out.append(&q);
    return out;
}

QString ClusterStore::userOf(const QString &ns) const
{
    const NamespaceInfo *n = namespaceInfo(ns);
    return n && !n->user.isEmpty() ? n->user : ns;
}

QString ClusterStore::vcOf(const PodInfo &pod) const
{
    if (!pod.vc.isEmpty())
        return pod.vc;
    const NamespaceInfo *n = namespaceInfo(pod.ns);
    return n && !n->vc.isEmpty() ? n->vc : QStringLiteral("default");
}

QStringList ClusterStore::workloadKeys() const
{
    QSet<QString> keys;
    keys.reserve(m_jobs.size() + m_podsByWorkload.size());
    for (auto it = m_jobs.cbegin(); it != m_jobs.cend(); ++it)
        keys.insert(it.key());
    for (auto it = m_podsByWorkload.cbegin(); it != m_podsByWorkload.cend(); ++it)
        keys.insert(it.key());
    return QStringList(keys.cbegin(), keys.cend());
}

std::optional<WorkloadInfo> ClusterStore::workload(const QString &key) const
{
    return WorkloadResolver::resolve(*this, key);
}

QString ClusterStore::podCaveat(const PodInfo &pod) const
{
    return WorkloadResolver::podCaveat(*this, pod);
}

WorkloadCounts ClusterStore::workloadCounts() const
{
    return WorkloadResolver::counts(*this);
}

QList<const PodInfo *> ClusterStore::podsOfWorkload(const QString &key) const
{
    QList<const PodInfo *> out;
    for (const auto &uid : m_podsByWorkload.value(key)) {
        if (const PodInfo *p = pod(uid))
            out.append(p);
    }
    std::sort(out.begin(), out.end(),
              [](const PodInfo *a, const PodInfo *b) { return a->name < b->name; });
    return out;
}

GpuCount ClusterStore::nodeGpus(const QString &name) const
{
    GpuCount c;
    const NodeInfo *n = node(name);
    if (!n)
        return c;
    c.total = n->gpuAllocatable;
    c.allocated = m_allocatedByNode.value(name);
    if (n->ready && !n->unschedulable)
        c.free = std::max(0, c.total - c.allocated);
    return c;
}

MigCounts ClusterStore::migAllocated(const QString &node) const
{
    MigCounts out;
    const auto by = m_migByNode.value(node);
    for (auto it = by.cbegin(); it != by.cend(); ++it)
        if (it.value() > 0)
            out.append({it.key(), it.value()});
    std::sort(out.begin(), out.end());
    return out;
}

NodeUse ClusterStore::nodeUse(const QString &node) const
{
    return m_useByNode.value(node);
}

GpuTotals ClusterStore::totals() const
{
    GpuTotals t;
    for (const auto &[name, n] : objects<NodeInfo>(Resource::Nodes)) {
        const GpuCount c = nodeGpus(name);
        t.gpus.total += c.total;
        t.gpus.allocated += c.allocated;
        t.gpus.free += c.free;
    }
    t.pendingDemand = m_pendingDemand;
    t.pendingMig = m_pendingMig;
    // A Volcano job whose pod group waits for admission has no pods yet: its demand is the
    // group's minResources.
    for (auto it = m_podGroupByOwner.cbegin(); it != m_podGroupByOwner.cend(); ++it) {
        const PodGroupInfo *g = podGroupOf(it.key());
        if (g && g->phase == QLatin1String("Pending") && !m_podsByWorkload.contains(it.key()))
            t.pendingDemand += g->minGpus;
    }
    return t;
}

int ClusterStore::vcAllocated(const QString &vc) const
{
    return m_allocatedByVc.value(vc);
}

int ClusterStore::vcPendingDemand(const QString &vc) const
{
    int n = m_pendingByVc.value(vc);
    for (auto it = m_podGroupByOwner.cbegin(); it != m_podGroupByOwner.cend(); ++it) {
        const PodGroupInfo *g = podGroupOf(it.key());
        if (g && g->vc == vc && g->phase == QLatin1String("Pending") &&
            !m_podsByWorkload.contains(it.key()))
            n += g->minGpus;
    }
    return n;
}

int ClusterStore::userAllocated(const QString &user) const
{
    if (m_allocatedByUserStale) {
        m_allocatedByUser.clear();
        for (const auto &[name, ns] : objects<NamespaceInfo>(Resource::Namespaces))
            m_allocatedByUser[ns.user] += m_allocatedByNamespace.value(name);
        m_allocatedByUserStale = false;
    }
    return m_allocatedByUser.value(user);
}

} // namespace gpudesk
