// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvindex.h"

#include "entities.h"

namespace gpudesk {

void DevEnvIndex::update(const QString &uid, const PodInfo *pod, QSet<QString> *touched)
{
    const QString after = pod && !pod->devEnv.isEmpty() ? keyOf(pod->ns, pod->devEnv) : QString();
    const auto was = m_envOf.constFind(uid);
    if (was == m_envOf.cend() && after.isEmpty())
        return; // most pods: not an environment's, before or now
    if (was != m_envOf.cend()) {
        const QString before = *was;
        touched->insert(before);
        if (before == after)
            return;
        auto pods = m_podsOf.find(before);
        pods->remove(uid);
        if (pods->isEmpty())
            m_podsOf.erase(pods);
        m_envOf.remove(uid);
    }
    if (!after.isEmpty()) {
        m_envOf.insert(uid, after);
        m_podsOf[after].insert(uid);
        touched->insert(after);
    }
}

void DevEnvIndex::clear()
{
    m_envOf.clear();
    m_podsOf.clear();
}

const PodInfo *DevEnvIndex::currentPod(const QString &key) const
{
    const auto uids = m_podsOf.constFind(key);
    if (uids == m_podsOf.cend())
        return nullptr;
    const PodInfo *best = nullptr;
    // Live before finished or going; among equals the newest.
    const auto rank = [](const PodInfo *x) { return x->finished() || x->deleting ? 0 : 1; };
    for (const QString &uid : *uids) {
        const auto p = m_pods->constFind(uid);
        if (p == m_pods->cend())
            continue;
        if (!best || rank(&*p) > rank(best) ||
            (rank(&*p) == rank(best) && p->created > best->created))
            best = &*p;
    }
    return best;
}

} // namespace gpudesk
