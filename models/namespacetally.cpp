// SPDX-License-Identifier: GPL-3.0-or-later
#include "namespacetally.h"

namespace gpudesk {

NamespaceTally::Share NamespaceTally::shareOf(const ClusterStore &store, const QString &key)
{
    Share s;
    if (const auto c = WorkloadResolver::counted(store, key)) {
        s.counts = true;
        s.cls = c->cls;
        s.stuck = c->stuck;
        s.ages = c->ages;
    }
    if (const JobInfo *j = store.job(key)) {
        s.ns = j->ns;
        s.newest = j->created;
    }
    // Pods of an owner that is not counted (a ReplicaSet's) still hold GPUs and say when the
    // user last started something.
    for (const PodInfo *p : store.podsOfWorkload(key)) {
        if (s.ns.isEmpty())
            s.ns = p->ns;
        s.newest = std::max(s.newest, p->created);
        if (p->finished())
            continue;
        if (!p->nodeName.isEmpty())
            s.gpusInUse += p->gpuRequest;
        if (!p->devEnv.isEmpty())
            ++s.devEnvs;
    }
    return s;
}

void NamespaceTally::addShare(const Share &s, int sign)
{
    Sums &sums = m_sums[s.ns];
    if (s.counts)
        WorkloadResolver::add(sums.counts, {QString(), s.cls, s.stuck, s.ages}, sign);
    sums.gpusInUse += sign * s.gpusInUse;
    sums.devEnvs += sign * s.devEnvs;
    if (sign > 0) {
        ++sums.newest[s.newest];
    } else if (const auto it = sums.newest.find(s.newest); it != sums.newest.end()) {
        if (--it->second == 0)
            sums.newest.erase(it);
    }
    if (sums.newest.empty()) // no workload left in it
        m_sums.remove(s.ns);
}

void NamespaceTally::retake(const ClusterStore &store, const QString &key, QSet<QString> *touched)
{
    Share fresh = shareOf(store, key);
    auto it = m_shares.find(key);
    if (it != m_shares.end()) {
        if (*it == fresh)
            return;
        touched->insert(it->ns);
        addShare(*it, -1);
        if (fresh.ns.isEmpty()) {
            m_shares.erase(it);
            return;
        }
        *it = std::move(fresh);
    } else {
        if (fresh.ns.isEmpty()) // gone before it was taken
            return;
        it = m_shares.insert(key, std::move(fresh));
    }
    touched->insert(it->ns);
    addShare(*it, +1);
}

void NamespaceTally::rebuild(const ClusterStore &store)
{
    m_shares.clear();
    m_sums.clear();
    QSet<QString> touched;
    const QStringList keys = store.workloadKeys();
    m_shares.reserve(keys.size());
    for (const QString &key : keys)
        retake(store, key, &touched);
}

QSet<QString> NamespaceTally::apply(const ClusterStore &store, const QSet<QString> &workloadKeys)
{
    QSet<QString> touched;
    for (const QString &key : workloadKeys)
        retake(store, key, &touched);
    return touched;
}

QSet<QString> NamespaceTally::reviewWaiting(const ClusterStore &store)
{
    QStringList aging;
    for (auto it = m_shares.cbegin(); it != m_shares.cend(); ++it)
        if (it->ages && !it->stuck)
            aging.append(it.key());
    QSet<QString> touched;
    for (const QString &key : std::as_const(aging))
        retake(store, key, &touched);
    return touched;
}

NamespaceTally::Figures NamespaceTally::figures(const QString &ns) const
{
    Figures f;
    const auto it = m_sums.constFind(ns);
    if (it == m_sums.cend())
        return f;
    f.counts = it->counts;
    f.gpusInUse = it->gpusInUse;
    f.devEnvs = it->devEnvs;
    f.lastActivity = it->newest.empty() ? 0 : it->newest.rbegin()->first;
    return f;
}

} // namespace gpudesk
