// SPDX-License-Identifier: GPL-3.0-or-later
#include "clusterstore.h"

#include "workloadstable.h"

#include <algorithm>

namespace gpudesk {

namespace {

constexpr int kUpdateIntervalMs = 100; // at most ten model updates a second
// A delta up to this size is applied at once (a watch batch is at most 2,000 events, a few ms).
constexpr qsizetype kApplyAtOnce = 4000;
// A larger one is applied this long at a time, leaving the rest of each turn to the window.
constexpr int kSliceMs = 8;
// Objects between two looks at the clock.
constexpr qsizetype kClockStride = 64;

QString queueKey(const PodInfo &p)
{
    return p.queue.isEmpty() ? QStringLiteral("default") : p.queue;
}

QString jobKind(Resource r)
{
    switch (r) {
    case Resource::PyTorchJobs:
        return QStringLiteral("PyTorchJob");
    case Resource::MPIJobs:
        return QStringLiteral("MPIJob");
    default:
        return QStringLiteral("Job");
    }
}

} // namespace

ClusterStore::ClusterStore(QObject *parent) : QObject(parent)
{
    m_tick.setObjectName(QStringLiteral("storePublish"));
    m_tick.setSingleShot(true);
    m_tick.setInterval(kUpdateIntervalMs);
    connect(&m_tick, &QTimer::timeout, this, &ClusterStore::publish);
    m_drain.setObjectName(QStringLiteral("storeDrain"));
    m_drain.setSingleShot(true);
    m_drain.setInterval(0);
    connect(&m_drain, &QTimer::timeout, this, &ClusterStore::drain);
}

void ClusterStore::schedule()
{
    if (!m_tick.isActive())
        m_tick.start();
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
    m_nodes.clear();
    m_pods.clear();
    m_jobs.clear();
    m_events.clear();
    m_queues.clear();
    m_namespaces.clear();
    m_podsByNode.clear();
    m_podsByWorkload.clear();
    m_eventsByObject.clear();
    m_allocatedByNode.clear();
    m_allocatedByQueue.clear();
    m_allocatedByNamespace.clear();
    m_allocatedByUserStale = true;
    m_useByNode.clear();
    m_pendingDemand = 0;
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
    if (p.gpuRequest == 0)
        return;
    const int g = sign * p.gpuRequest;
    if (p.nodeName.isEmpty()) {
        m_pendingDemand += g;
        return;
    }
    m_allocatedByNode[p.nodeName] += g;
    m_allocatedByQueue[queueKey(p)] += g;
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
        *it = pod;
    } else {
        it = m_pods.insert(pod.uid, pod);
    }
    account(pod, +1);
    m_podsByNode[pod.nodeName].insert(pod.uid);
    const QString wk = workloadKey(pod);
    m_podsByWorkload[wk].insert(pod.uid);
    m_pending.pods.insert(pod.uid);
    m_pending.workloads.insert(wk);
    if (!pod.nodeName.isEmpty())
        m_pending.nodes.insert(pod.nodeName);
}

void ClusterStore::removePod(const QString &uid)
{
    const auto it = m_pods.constFind(uid);
    if (it == m_pods.cend())
        return;
    account(*it, -1);
    m_podsByNode[it->nodeName].remove(uid);
    const QString wk = workloadKey(*it);
    auto byWorkload = m_podsByWorkload.find(wk);
    if (byWorkload != m_podsByWorkload.end()) {
        byWorkload->remove(uid);
        if (byWorkload->isEmpty())
            m_podsByWorkload.erase(byWorkload);
    }
    m_pending.pods.insert(uid);
    m_pending.workloads.insert(wk);
    if (!it->nodeName.isEmpty())
        m_pending.nodes.insert(it->nodeName);
    m_pods.erase(it);
}

void ClusterStore::relistJobs(Resource kind, const QList<JobInfo> &jobs)
{
    QSet<QString> seen;
    for (const auto &j : jobs)
        seen.insert(j.uid);
    for (auto it = m_jobs.begin(); it != m_jobs.end();) {
        if (it->kind == kind && !seen.contains(it.key())) {
            m_pending.workloads.insert(it.key());
            it = m_jobs.erase(it);
        } else {
            ++it;
        }
    }
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
    if (m_backlog.empty() && (d.resource != Resource::Pods || d.size() <= kApplyAtOnce)) {
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
        q.seen.reserve(d.pods.size());
        if (m_pods.capacity() < d.pods.size())
            m_pods.reserve(d.pods.size()); // one rehash now instead of several while filling
        if (!run(d.pods.size(), [&](qsizetype i) { q.seen.insert(d.pods.at(i).uid); }))
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
        if (!run(d.pods.size(), [&](qsizetype i) { upsertPod(d.pods.at(i)); }))
            return false;
        next();
    }
    if (q.stage == Removed) {
        if (!run(d.removed.size(), [&](qsizetype i) { removePod(d.removed.at(i)); }))
            return false;
        next();
    }
    return true;
}

void ClusterStore::applyNow(const Delta &d)
{
    switch (d.resource) {
    case Resource::Nodes:
        if (d.relist) {
            for (const auto &[name, n] : m_nodes)
                m_pending.nodes.insert(name);
            m_nodes.clear();
        }
        for (const auto &n : d.nodes) {
            m_nodes[n.name] = n;
            m_pending.nodes.insert(n.name);
        }
        for (const auto &name : d.removed) {
            m_nodes.erase(name);
            m_pending.nodes.insert(name);
        }
        break;
    case Resource::Pods: {
        QueuedDelta whole{d, 0, 0, {}, {}};
        applySlice(whole, QDeadlineTimer(QDeadlineTimer::Forever));
        return;
    }
    case Resource::Events:
        if (d.relist) {
            QSet<QString> seen;
            for (const auto &e : d.events)
                seen.insert(e.uid);
            const QStringList known = m_events.keys();
            for (const auto &uid : known) {
                if (!seen.contains(uid))
                    removeEvent(uid);
            }
        }
        for (const auto &e : d.events)
            upsertEvent(e);
        for (const auto &uid : d.removed)
            removeEvent(uid);
        break;
    case Resource::Namespaces:
        if (d.relist)
            m_namespaces.clear();
        for (const auto &n : d.namespaces)
            m_namespaces[n.name] = n;
        for (const auto &name : d.removed)
            m_namespaces.erase(name);
        m_pending.namespaces = true;
        m_allocatedByUserStale = true;
        break;
    case Resource::Queues:
        if (d.relist)
            m_queues.clear();
        for (const auto &q : d.queues)
            m_queues[q.name] = q;
        for (const auto &name : d.removed)
            m_queues.erase(name);
        m_pending.queues = true;
        break;
    case Resource::VolcanoJobs:
    case Resource::PyTorchJobs:
    case Resource::MPIJobs:
        if (d.relist)
            relistJobs(d.resource, d.jobs);
        for (const auto &j : d.jobs) {
            m_jobs.insert(j.uid, j);
            m_pending.workloads.insert(j.uid);
        }
        for (const auto &uid : d.removed) {
            m_jobs.remove(uid);
            m_pending.workloads.insert(uid);
        }
        break;
    }
    schedule();
}

namespace {

// A relist of one kind, as an informer would deliver it.
template <class T> Delta relistOf(Resource r, QList<T> Delta::*items, const QList<T> &list)
{
    Delta d;
    d.resource = r;
    d.relist = true;
    d.*items = list;
    return d;
}

} // namespace

void ClusterStore::replaceNodes(const QList<NodeInfo> &nodes)
{
    apply(relistOf(Resource::Nodes, &Delta::nodes, nodes));
}

void ClusterStore::replacePods(const QList<PodInfo> &pods)
{
    apply(relistOf(Resource::Pods, &Delta::pods, pods));
}

void ClusterStore::replaceQueues(const QList<QueueInfo> &queues)
{
    apply(relistOf(Resource::Queues, &Delta::queues, queues));
}

void ClusterStore::replaceNamespaces(const QList<NamespaceInfo> &namespaces)
{
    apply(relistOf(Resource::Namespaces, &Delta::namespaces, namespaces));
}

QList<NodeInfo> ClusterStore::nodes() const
{
    QList<NodeInfo> out;
    out.reserve(qsizetype(m_nodes.size()));
    for (const auto &[name, n] : m_nodes)
        out.append(n);
    return out;
}

const NodeInfo *ClusterStore::node(const QString &name) const
{
    const auto it = m_nodes.find(name);
    return it == m_nodes.end() ? nullptr : &it->second;
}

const PodInfo *ClusterStore::pod(const QString &uid) const
{
    const auto it = m_pods.constFind(uid);
    return it == m_pods.cend() ? nullptr : &*it;
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
    for (const auto &[name, q] : m_queues)
        out.append(q);
    return out;
}

const QueueInfo *ClusterStore::queue(const QString &name) const
{
    const auto it = m_queues.find(name);
    return it == m_queues.end() ? nullptr : &it->second;
}

QList<NamespaceInfo> ClusterStore::users() const
{
    QList<NamespaceInfo> out;
    for (const auto &[name, n] : m_namespaces) {
        if (!n.user.isEmpty())
            out.append(n);
    }
    std::sort(out.begin(), out.end(),
              [](const NamespaceInfo &a, const NamespaceInfo &b) { return a.user < b.user; });
    return out;
}

const NamespaceInfo *ClusterStore::namespaceInfo(const QString &ns) const
{
    const auto it = m_namespaces.find(ns);
    return it == m_namespaces.end() ? nullptr : &it->second;
}

QString ClusterStore::userOf(const QString &ns) const
{
    const NamespaceInfo *n = namespaceInfo(ns);
    return n && !n->user.isEmpty() ? n->user : ns;
}

QString ClusterStore::vcOf(const PodInfo &pod) const
{
    if (!pod.queue.isEmpty())
        return pod.queue;
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
    WorkloadInfo w;
    w.key = key;
    const auto pods = m_podsByWorkload.value(key);
    if (const JobInfo *j = job(key)) {
        w.job = j;
        w.kind = jobKind(j->kind);
        w.ns = j->ns;
        w.name = j->name;
        w.queue = j->queue;
        w.status = j->status;
        w.message = j->message;
        w.created = j->created;
    } else if (!pods.isEmpty()) {
        const PodInfo *first = pod(*pods.cbegin());
        if (!first)
            return std::nullopt;
        w.ns = first->ns;
        w.created = first->created;
        if (first->owner.uid == key) {
            w.kind = first->owner.kind;
            w.name = first->owner.name;
        } else {
            w.kind = QStringLiteral("Pod");
            w.name = first->name;
            w.status = first->status;
            w.message = first->message;
        }
        w.queue = vcOf(*first);
    } else {
        return std::nullopt;
    }
    if (w.queue.isEmpty())
        w.queue = QStringLiteral("default");
    // A pending job says why through its pods: the scheduler's message of one that waits.
    if (w.message.isEmpty()) {
        for (const auto &uid : pods) {
            const PodInfo *p = pod(uid);
            if (p && p->nodeName.isEmpty() && !p->message.isEmpty()) {
                w.message = p->message;
                break;
            }
        }
    }
    return w;
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

WorkloadCounts ClusterStore::workloadCounts() const
{
    WorkloadCounts c;
    auto count = [&c](const QString &status) {
        switch (WorkloadsTable::classOf(status)) {
        case WorkloadsTable::Waiting:
            ++c.waiting;
            break;
        case WorkloadsTable::Problem:
            ++c.problem;
            break;
        case WorkloadsTable::Finished:
            ++c.finished;
            break;
        default:
            ++c.running;
            break;
        }
    };
    for (const auto &j : m_jobs)
        count(j.status);
    for (const auto &p : m_pods) {
        if (p.owner.uid.isEmpty())
            count(p.status);
    }
    return c;
}

GpuCount ClusterStore::nodeGpus(const QString &name) const
{
    GpuCount c;
    const auto it = m_nodes.find(name);
    if (it == m_nodes.end())
        return c;
    c.total = it->second.gpuAllocatable;
    c.allocated = m_allocatedByNode.value(name);
    if (it->second.ready && !it->second.unschedulable)
        c.free = std::max(0, c.total - c.allocated);
    return c;
}

NodeUse ClusterStore::nodeUse(const QString &node) const
{
    return m_useByNode.value(node);
}

GpuTotals ClusterStore::totals() const
{
    GpuTotals t;
    for (const auto &[name, n] : m_nodes) {
        const GpuCount c = nodeGpus(name);
        t.gpus.total += c.total;
        t.gpus.allocated += c.allocated;
        t.gpus.free += c.free;
    }
    t.pendingDemand = m_pendingDemand;
    return t;
}

int ClusterStore::queueAllocated(const QString &queue) const
{
    return m_allocatedByQueue.value(queue);
}

int ClusterStore::userAllocated(const QString &user) const
{
    if (m_allocatedByUserStale) {
        m_allocatedByUser.clear();
        for (const auto &[name, ns] : m_namespaces)
            m_allocatedByUser[ns.user] += m_allocatedByNamespace.value(name);
        m_allocatedByUserStale = false;
    }
    return m_allocatedByUser.value(user);
}

} // namespace gpudesk
