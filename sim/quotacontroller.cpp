// SPDX-License-Identifier: GPL-3.0-or-later
#include "quotacontroller.h"

#include "objectfactory.h"
#include "quotaadmission.h"

namespace sim {

using nlohmann::json;

QuotaController::QuotaController(SimState &state, const QuotaAdmission &admission)
    : m_state(state), m_admission(admission),
      m_quotas(
          state.store->types()->find({}, QStringLiteral("v1"), QStringLiteral("resourcequotas"))),
      m_claims(state.store->types()->find({}, QStringLiteral("v1"),
                                          QStringLiteral("persistentvolumeclaims")))
{
    connect(state.store, &ObjectStore::changed, this, &QuotaController::onChanged);
}

void QuotaController::onChanged(const ResourceType *type, const WatchEvent &ev)
{
    if (type != m_state.pods && type != m_claims && type != m_quotas)
        return;
    const QString ns = ObjectStore::namespaceOf(*ev.object.object);
    // Only namespaces with a quota are counted: most pods of a large cluster are in none.
    if (type != m_quotas && (m_dirty.count(ns) || m_state.store->list(m_quotas, ns).empty()))
        return;
    m_dirty.insert(ns);
    if (!m_scheduled) {
        m_scheduled = true;
        QMetaObject::invokeMethod(this, &QuotaController::sync, Qt::QueuedConnection);
    }
}

void QuotaController::sync()
{
    m_scheduled = false;
    const std::set<QString> dirty = std::move(m_dirty);
    m_dirty.clear();
    for (const QString &ns : dirty)
        syncNamespace(ns);
}

void QuotaController::syncNamespace(const QString &ns)
{
    const auto quotas = m_state.store->list(m_quotas, ns);
    if (quotas.empty())
        return;
    const Usage used = m_admission.usage(ns);
    for (const auto &stored : quotas) {
        json q = *stored.object;
        const json &hard = sub(sub(q, "spec"), "hard");
        json usedOut = json::object();
        for (auto it = hard.begin(); it != hard.end(); ++it) {
            const auto u = used.find(it.key());
            usedOut[it.key()] =
                QuotaAdmission::canonical(it.key(), u == used.end() ? 0 : u->second);
        }
        const json status{{"hard", hard.is_object() ? hard : json::object()}, {"used", usedOut}};
        if (sub(q, "status") == status)
            continue;
        q["status"] = status;
        m_state.store->update(m_quotas, q, QStringLiteral("kube-controller-manager"));
    }
}

} // namespace sim
