// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <set>
#include <string>
#include <unordered_map>
#include <utility>

namespace sim {

class ObjectStore;
struct ResourceType;

// kube-controller-manager's garbage collector, run by the store right after each write that
// concerns it (never from inside a watch notification): the graph of owner references, the
// dependents of a removed owner deleted (Background), an owner with the "orphan" finalizer
// released from its dependents, an owner with "foregroundDeletion" removed once its blocking
// dependents (blockOwnerDeletion) are gone.
class GarbageCollector
{
public:
    static constexpr const char *kOrphan = "orphan";
    static constexpr const char *kForeground = "foregroundDeletion";

    explicit GarbageCollector(ObjectStore *store) : m_store(store) {}

    // Keeps the graph current: `before` and `after` are the object's versions around a write
    // (null for a create or a removal).
    void indexWrite(const ResourceType *type, const std::string &key, const nlohmann::json *before,
                    const nlohmann::json *after);
    // An object got (or already had) a deletionTimestamp: act on its GC finalizers.
    void deletionRequested(const ResourceType *type, const nlohmann::json &object);
    // An object is gone: delete its dependents (unless orphaned), and finish the owners that
    // waited for it in the foreground.
    void removed(const nlohmann::json &object, const QString &propagation);
    bool hasDependents(const std::string &uid) const { return m_dependents.count(uid) > 0; }

private:
    using Ref = std::pair<const ResourceType *, std::string>; // type, store key
    void orphanDependents(const std::string &ownerUid);
    void deleteDependents(const std::string &ownerUid, const QString &propagation);
    // Removes `finalizer` from the object once nothing holds it.
    void finish(Ref owner, const char *finalizer); // a copy: it leaves m_waiting
    bool blocked(const std::string &ownerUid) const;

    ObjectStore *m_store;
    // Owner uid → its dependents: a delete looks up what it owns instead of scanning.
    std::unordered_map<std::string, std::set<Ref>> m_dependents;
    // Owners deleted in the foreground, by uid, until their dependents are gone.
    std::unordered_map<std::string, Ref> m_waiting;
};

} // namespace sim
