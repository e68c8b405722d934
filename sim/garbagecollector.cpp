// SPDX-License-Identifier: GPL-3.0-or-later
#include "garbagecollector.h"

#include "objectfactory.h"
#include "objectstore.h"

namespace sim {

using nlohmann::json;

namespace {

std::set<std::string> ownerUids(const json *object)
{
    std::set<std::string> uids;
    if (!object)
        return uids;
    for (const auto &ref : sub(sub(*object, "metadata"), "ownerReferences")) {
        const std::string uid = ref.is_object() ? ref.value("uid", "") : std::string();
        if (!uid.empty())
            uids.insert(uid);
    }
    return uids;
}

// A store key ("ns/name", or "name" for cluster objects) back into its parts.
std::pair<QString, QString> splitKey(const std::string &key)
{
    const auto slash = key.find('/');
    if (slash == std::string::npos)
        return {QString(), QString::fromStdString(key)};
    return {QString::fromStdString(key.substr(0, slash)),
            QString::fromStdString(key.substr(slash + 1))};
}

bool hasFinalizer(const json &object, const char *finalizer)
{
    for (const auto &f : sub(sub(object, "metadata"), "finalizers"))
        if (f.is_string() && f.get<std::string>() == finalizer)
            return true;
    return false;
}

} // namespace

void GarbageCollector::indexWrite(const ResourceType *type, const std::string &key,
                                  const json *before, const json *after)
{
    const auto was = ownerUids(before);
    const auto now = ownerUids(after);
    for (const auto &uid : was) {
        if (now.count(uid))
            continue;
        if (const auto it = m_dependents.find(uid); it != m_dependents.end()) {
            it->second.erase({type, key});
            if (it->second.empty())
                m_dependents.erase(it);
        }
    }
    for (const auto &uid : now)
        m_dependents[uid].emplace(type, key);
}

void GarbageCollector::deletionRequested(const ResourceType *type, const json &object)
{
    const std::string uid = sub(object, "metadata").value("uid", "");
    const std::string key =
        ObjectStore::keyOf(ObjectStore::namespaceOf(object), ObjectStore::nameOf(object));
    if (hasFinalizer(object, kOrphan)) {
        orphanDependents(uid);
        finish({type, key}, kOrphan);
    } else if (hasFinalizer(object, kForeground)) {
        m_waiting[uid] = {type, key};
        deleteDependents(uid, QStringLiteral("Foreground"));
        if (!blocked(uid))
            finish({type, key}, kForeground);
    }
}

void GarbageCollector::removed(const json &object, const QString &propagation)
{
    const std::string uid = sub(object, "metadata").value("uid", "");
    m_waiting.erase(uid);
    if (propagation == QLatin1String("Orphan"))
        orphanDependents(uid);
    else
        deleteDependents(uid, QStringLiteral("Background"));
    // Owners deleted in the foreground go once the last dependent that blocked them is gone.
    for (const auto &owner : ownerUids(&object)) {
        const auto it = m_waiting.find(owner);
        if (it != m_waiting.end() && !blocked(owner))
            finish(it->second, kForeground);
    }
}

void GarbageCollector::orphanDependents(const std::string &ownerUid)
{
    const auto found = m_dependents.find(ownerUid);
    if (ownerUid.empty() || found == m_dependents.end())
        return;
    const auto dependents = found->second; // updating below changes the index
    for (const auto &[type, key] : dependents) {
        const auto [ns, name] = splitKey(key);
        const auto cur = m_store->get(type, ns, name);
        if (!cur.ok())
            continue;
        json copy = *cur.object.object;
        json refs = json::array();
        for (const auto &ref : copy["metadata"]["ownerReferences"]) {
            if (ref.value("uid", "") != ownerUid)
                refs.push_back(ref);
        }
        if (refs.empty())
            copy["metadata"].erase("ownerReferences");
        else
            copy["metadata"]["ownerReferences"] = refs;
        copy["metadata"].erase("resourceVersion");
        m_store->update(type, copy, QStringLiteral("generic-garbage-collector"));
    }
}

void GarbageCollector::deleteDependents(const std::string &ownerUid, const QString &propagation)
{
    const auto found = m_dependents.find(ownerUid);
    if (ownerUid.empty() || found == m_dependents.end())
        return;
    const auto dependents = found->second; // deleting below changes the index
    for (const auto &[type, key] : dependents) {
        const auto [ns, name] = splitKey(key);
        const auto cur = m_store->get(type, ns, name);
        if (!cur.ok() || sub(*cur.object.object, "metadata").contains("deletionTimestamp"))
            continue;
        // As attemptToDeleteItem: a dependent of an owner waiting in the foreground is deleted
        // in the foreground too when it has dependents of its own; otherwise in the background.
        DeleteOptions o;
        const std::string depUid = sub(*cur.object.object, "metadata").value("uid", "");
        if (propagation == QLatin1String("Foreground") && hasDependents(depUid))
            o.propagationPolicy = QStringLiteral("Foreground");
        else
            o.propagationPolicy = QStringLiteral("Background");
        m_store->requestDelete(type, ns, name, o);
    }
}

bool GarbageCollector::blocked(const std::string &ownerUid) const
{
    const auto found = m_dependents.find(ownerUid);
    if (found == m_dependents.end())
        return false;
    for (const auto &[type, key] : found->second) {
        const auto [ns, name] = splitKey(key);
        const auto cur = m_store->get(type, ns, name);
        if (!cur.ok())
            continue;
        for (const auto &ref : sub((*cur.object.object)["metadata"], "ownerReferences"))
            if (ref.value("uid", "") == ownerUid && ref.value("blockOwnerDeletion", false))
                return true;
    }
    return false;
}

void GarbageCollector::finish(Ref owner, const char *finalizer)
{
    const auto [ns, name] = splitKey(owner.second);
    const auto cur = m_store->get(owner.first, ns, name);
    if (!cur.ok())
        return;
    json copy = *cur.object.object;
    m_waiting.erase(copy["metadata"].value("uid", ""));
    json kept = json::array();
    for (const auto &f : sub(copy["metadata"], "finalizers"))
        if (!(f.is_string() && f.get<std::string>() == finalizer))
            kept.push_back(f);
    if (kept.empty())
        copy["metadata"].erase("finalizers");
    else
        copy["metadata"]["finalizers"] = kept;
    copy["metadata"].erase("resourceVersion");
    // The store removes an object whose last finalizer goes while it is being deleted.
    m_store->update(owner.first, copy, QStringLiteral("generic-garbage-collector"));
}

} // namespace sim
