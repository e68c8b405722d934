// SPDX-License-Identifier: GPL-3.0-or-later
#include "namespacecontroller.h"

#include "objectfactory.h"

namespace sim {

using nlohmann::json;

NamespaceController::NamespaceController(SimState &state) : m_state(state)
{
    connect(state.store, &ObjectStore::changed, this, &NamespaceController::onChanged);
}

void NamespaceController::onChanged(const ResourceType *type, const WatchEvent &ev)
{
    if (type == m_state.namespaces) {
        const json &ns = *ev.object.object;
        if (ev.type != "DELETED" && sub(ns, "metadata").contains("deletionTimestamp") &&
            m_terminating.insert(ObjectStore::nameOf(ns)).second)
            schedule();
        return;
    }
    if (type->namespaced && ev.type == "DELETED" && !m_terminating.empty() &&
        m_terminating.count(ObjectStore::namespaceOf(*ev.object.object)))
        schedule();
}

void NamespaceController::schedule()
{
    if (m_scheduled)
        return;
    m_scheduled = true;
    QMetaObject::invokeMethod(this, &NamespaceController::sync, Qt::QueuedConnection);
}

void NamespaceController::sync()
{
    m_scheduled = false;
    ObjectStore *store = m_state.store;
    DeleteOptions background;
    background.propagationPolicy = QStringLiteral("Background");
    for (auto it = m_terminating.begin(); it != m_terminating.end();) {
        const QString ns = *it;
        int remaining = 0;
        for (const ResourceType &t : store->types()->all()) {
            if (!t.namespaced)
                continue;
            for (const auto &stored : store->list(&t, ns)) {
                ++remaining;
                if (sub(*stored.object, "metadata").contains("deletionTimestamp"))
                    continue; // going already: its grace period or its finalizers
                store->requestDelete(&t, ns, ObjectStore::nameOf(*stored.object), background);
            }
        }
        if (remaining > 0) {
            ++it;
            continue;
        }
        // Empty: the "kubernetes" finalizer is done with, and the namespace goes.
        store->remove(m_state.namespaces, {}, ns);
        it = m_terminating.erase(it);
    }
}

} // namespace sim
