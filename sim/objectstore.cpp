// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectstore.h"

#include "objectfactory.h"

#include "simclock.h"

#include <QRegularExpression>

namespace sim {

using nlohmann::json;

namespace {

bool validName(const QString &name)
{
    // DNS subdomain (RFC 1123): what most resources require of metadata.name.
    static const QRegularExpression re(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    return name.size() <= 253 && re.match(name).hasMatch();
}

json fieldsOf(const json &value, int depth)
{
    json out = json::object();
    if (depth > 6 || !value.is_object())
        return out;
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (it.value().is_array()) {
            json arr = json::object();
            for (const auto &item : it.value()) {
                if (item.is_object() && item.contains("name") && item["name"].is_string())
                    arr["k:{\"name\":\"" + item["name"].get<std::string>() + "\"}"] =
                        fieldsOf(item, depth + 1);
                else if (item.is_string())
                    arr["v:\"" + item.get<std::string>() + "\""] = json::object();
            }
            out["f:" + it.key()] = arr;
        } else {
            out["f:" + it.key()] = fieldsOf(it.value(), depth + 1);
        }
    }
    return out;
}

} // namespace

json managedFieldsFor(const json &object)
{
    json fields = json::object();
    if (object.contains("metadata")) {
        json meta = json::object();
        for (const char *k : {"labels", "annotations", "ownerReferences", "finalizers"}) {
            if (object["metadata"].contains(k))
                meta[std::string("f:") + k] =
                    fieldsOf(json{{k, object["metadata"][k]}}, 0).begin().value();
        }
        if (!meta.empty())
            fields["f:metadata"] = meta;
    }
    if (object.contains("spec"))
        fields["f:spec"] = fieldsOf(object["spec"], 0);
    return fields;
}

ObjectStore::ObjectStore(const ResourceTypes *types, SimClock *clock, quint64 seed, QObject *parent)
    : QObject(parent), m_types(types), m_clock(clock), m_rng(seed ^ 0x9e3779b97f4a7c15ULL)
{}

std::string ObjectStore::newUid()
{
    // Version-4 layout from the seeded generator: the same seed gives the same uids.
    const quint64 a = m_rng();
    const quint64 b = m_rng();
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", unsigned(a >> 32),
                  unsigned((a >> 16) & 0xffff), unsigned(a & 0xfff),
                  unsigned(0x8000 | ((b >> 48) & 0x3fff)),
                  static_cast<unsigned long long>(b & 0xffffffffffffULL));
    return buf;
}

std::string ObjectStore::keyOf(const QString &ns, const QString &name)
{
    return ns.isEmpty() ? name.toStdString() : QString(ns + u'/' + name).toStdString();
}

QString ObjectStore::nameOf(const json &object)
{
    const auto &m = sub(object, "metadata");
    return QString::fromStdString(m.value("name", std::string()));
}

QString ObjectStore::namespaceOf(const json &object)
{
    const auto &m = sub(object, "metadata");
    return QString::fromStdString(m.value("namespace", std::string()));
}

QString ObjectStore::describe(const ResourceType *type, const QString &name) const
{
    const QString res =
        type->group.isEmpty() ? type->resource : QString(type->resource + u'.' + type->group);
    return QStringLiteral("%1 \"%2\"").arg(res, name);
}

ObjectStore::Table &ObjectStore::table(const ResourceType *type) const
{
    return m_tables[type];
}

StoredObject ObjectStore::commit(const ResourceType *type, Table &t, const std::string &key,
                                 json object, const QByteArray &eventType)
{
    const quint64 rv = ++m_rv;
    object["metadata"]["resourceVersion"] = std::to_string(rv);
    StoredObject stored;
    stored.rv = rv;
    stored.bytes = QByteArray::fromStdString(object.dump());
    stored.object = std::make_shared<const json>(std::move(object));
    if (const auto old = t.objects.find(key); old != t.objects.end())
        indexOwners(type, key, *old->second.object, false);
    if (eventType == "DELETED") {
        t.objects.erase(key);
    } else {
        t.objects[key] = stored;
        indexOwners(type, key, *stored.object, true);
    }
    WatchEvent ev{eventType, stored};
    t.history.push_back(ev);
    while (t.history.size() > m_window) {
        t.compactedRv = t.history.front().object.rv;
        t.history.pop_front();
    }
    emit changed(type, ev);
    return stored;
}

StoreResult ObjectStore::create(const ResourceType *type, json object, const QString &manager)
{
    if (!object.is_object() || !object.contains("metadata") || !object["metadata"].is_object())
        object["metadata"] = json::object();
    auto &meta = object["metadata"];
    QString name = QString::fromStdString(meta.value("name", std::string()));
    const QString ns =
        type->namespaced ? QString::fromStdString(meta.value("namespace", "")) : QString();
    if (name.isEmpty() && meta.contains("generateName") && meta["generateName"].is_string()) {
        static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
        std::string suffix;
        for (int i = 0; i < 5; ++i)
            suffix += alphabet[m_rng() % (sizeof alphabet - 1)];
        name = QString::fromStdString(meta["generateName"].get<std::string>() + suffix);
        meta["name"] = name.toStdString();
    }
    if (name.isEmpty())
        return {{},
                ApiError{422, QStringLiteral("Invalid"),
                         QStringLiteral("%1 \"\" is invalid: metadata.name: Required value: "
                                        "name or generateName is required")
                             .arg(type->kind)}};
    if (!validName(name))
        return {{},
                ApiError{422, QStringLiteral("Invalid"),
                         QStringLiteral("%1 \"%2\" is invalid: metadata.name: Invalid value: "
                                        "\"%2\": a lowercase RFC 1123 subdomain must consist "
                                        "of lower case alphanumeric characters, '-' or '.', "
                                        "and must start and end with an alphanumeric "
                                        "character")
                             .arg(type->kind, name)}};
    if (type->namespaced) {
        if (ns.isEmpty())
            return {{},
                    ApiError{400, QStringLiteral("BadRequest"),
                             QStringLiteral("the namespace of the provided object does not "
                                            "match the namespace sent on the request")}};
        const ResourceType *nsType =
            m_types->find({}, QStringLiteral("v1"), QStringLiteral("namespaces"));
        const auto nsObj = get(nsType, {}, ns);
        if (!nsObj.ok())
            return {{},
                    ApiError{404, QStringLiteral("NotFound"),
                             QStringLiteral("namespaces \"%1\" not found").arg(ns),
                             json{{"name", ns.toStdString()}, {"kind", "namespaces"}}}};
        if (nsObj.object.object->contains("metadata") &&
            (*nsObj.object.object)["metadata"].contains("deletionTimestamp"))
            return {{},
                    ApiError{403, QStringLiteral("Forbidden"),
                             QStringLiteral("%1 \"%2\" is forbidden: unable to create new "
                                            "content in namespace %3 because it is being "
                                            "terminated")
                                 .arg(type->resource, name, ns)}};
    }
    Table &t = table(type);
    const std::string key = keyOf(ns, name);
    if (t.objects.count(key))
        return {{},
                ApiError{409, QStringLiteral("AlreadyExists"),
                         QStringLiteral("%1 already exists").arg(describe(type, name)),
                         json{{"name", name.toStdString()},
                              {"group", type->group.toStdString()},
                              {"kind", type->resource.toStdString()}}}};
    object["apiVersion"] = type->apiVersion().toStdString();
    object["kind"] = type->kind.toStdString();
    meta.erase("resourceVersion");
    meta.erase("deletionTimestamp");
    if (!meta.contains("uid"))
        meta["uid"] = newUid();
    if (!meta.contains("creationTimestamp") || meta["creationTimestamp"].is_null())
        meta["creationTimestamp"] = m_clock->nowRfc3339();
    if (type->group != QLatin1String("authorization.k8s.io"))
        meta["generation"] = 1;
    if (!meta.contains("managedFields"))
        meta["managedFields"] = json::array({json{{"manager", manager.toStdString()},
                                                  {"operation", "Update"},
                                                  {"apiVersion", type->apiVersion().toStdString()},
                                                  {"time", meta["creationTimestamp"]},
                                                  {"fieldsType", "FieldsV1"},
                                                  {"fieldsV1", managedFieldsFor(object)}}});
    return {commit(type, t, key, std::move(object), "ADDED"), std::nullopt};
}

StoreResult ObjectStore::get(const ResourceType *type, const QString &ns, const QString &name) const
{
    const Table &t = table(type);
    const auto it = t.objects.find(keyOf(type->namespaced ? ns : QString(), name));
    if (it == t.objects.end())
        return {{},
                ApiError{404, QStringLiteral("NotFound"),
                         QStringLiteral("%1 not found").arg(describe(type, name)),
                         json{{"name", name.toStdString()},
                              {"group", type->group.toStdString()},
                              {"kind", type->resource.toStdString()}}}};
    return {it->second, std::nullopt};
}

StoreResult ObjectStore::update(const ResourceType *type, json object, const QString &manager)
{
    Q_UNUSED(manager)
    const QString name = nameOf(object);
    const QString ns = type->namespaced ? namespaceOf(object) : QString();
    const auto current = get(type, ns, name);
    if (!current.ok())
        return current;
    const json &old = *current.object.object;
    auto &meta = object["metadata"];
    if (meta.contains("resourceVersion") && meta["resourceVersion"].is_string() &&
        !meta["resourceVersion"].get<std::string>().empty() &&
        meta["resourceVersion"].get<std::string>() != std::to_string(current.object.rv))
        return {{},
                ApiError{409, QStringLiteral("Conflict"),
                         QStringLiteral("Operation cannot be fulfilled on %1: the object "
                                        "has been modified; please apply your changes to "
                                        "the latest version and try again")
                             .arg(describe(type, name)),
                         json{{"name", name.toStdString()},
                              {"group", type->group.toStdString()},
                              {"kind", type->resource.toStdString()}}}};
    // Fields the client may not change.
    object["apiVersion"] = type->apiVersion().toStdString();
    object["kind"] = type->kind.toStdString();
    for (const char *k : {"uid", "creationTimestamp", "deletionTimestamp",
                          "deletionGracePeriodSeconds", "managedFields"}) {
        if (old["metadata"].contains(k))
            meta[k] = old["metadata"][k];
        else
            meta.erase(k);
    }
    if (object.value("spec", json()) != old.value("spec", json()))
        meta["generation"] = old["metadata"].value("generation", 1) + 1;
    else if (old["metadata"].contains("generation"))
        meta["generation"] = old["metadata"]["generation"];
    if (object == old) // no-op updates do not bump the resourceVersion
        return current;
    const bool deleting = meta.contains("deletionTimestamp");
    const bool noFinalizers = !meta.contains("finalizers") || meta["finalizers"].empty();
    if (deleting && noFinalizers && type->resource != QLatin1String("pods"))
        return remove(type, ns, name);
    return {commit(type, table(type), keyOf(ns, name), std::move(object), "MODIFIED"),
            std::nullopt};
}

StoreResult ObjectStore::requestDelete(const ResourceType *type, const QString &ns,
                                       const QString &name, const DeleteOptions &options)
{
    const auto current = get(type, ns, name);
    if (!current.ok())
        return current;
    json object = *current.object.object;
    auto &meta = object["metadata"];
    if (options.preconditionUid &&
        meta.value("uid", std::string()) != options.preconditionUid->toStdString())
        return {{},
                ApiError{409, QStringLiteral("Conflict"),
                         QStringLiteral("Operation cannot be fulfilled on %1: Precondition "
                                        "failed: UID in precondition: %2, UID in object "
                                        "meta: %3")
                             .arg(describe(type, name), *options.preconditionUid,
                                  QString::fromStdString(meta.value("uid", "")))}};
    const bool hasFinalizers = meta.contains("finalizers") && !meta["finalizers"].empty();
    const bool isPod = type->resource == QLatin1String("pods");
    const bool bound = isPod && sub(object, "spec").contains("nodeName");
    const bool finished = isPod && (sub(object, "status").value("phase", "") == "Succeeded" ||
                                    sub(object, "status").value("phase", "") == "Failed");
    qint64 grace = 0;
    if (isPod) {
        grace = object["spec"].value("terminationGracePeriodSeconds", 30);
        if (options.gracePeriodSeconds)
            grace = *options.gracePeriodSeconds;
        if (!bound || finished)
            grace = 0;
    }
    if (type->resource == QLatin1String("namespaces")) {
        // Delete the content, then the namespace itself.
        for (const auto &t : m_types->all()) {
            if (!t.namespaced)
                continue;
            for (const auto &o : list(&t, name))
                remove(&t, name, nameOf(*o.object), QStringLiteral("Orphan"));
        }
        return remove(type, {}, name);
    }
    if (hasFinalizers || grace > 0) {
        if (!meta.contains("deletionTimestamp")) {
            meta["deletionTimestamp"] = SimClock::rfc3339(m_clock->nowMs() + grace * 1000);
            meta["deletionGracePeriodSeconds"] = grace;
        } else if (grace < meta.value("deletionGracePeriodSeconds", grace)) {
            // A shorter grace period may replace a longer one, as with kubectl --grace-period.
            meta["deletionTimestamp"] = SimClock::rfc3339(m_clock->nowMs() + grace * 1000);
            meta["deletionGracePeriodSeconds"] = grace;
        } else {
            return current;
        }
        return {commit(type, table(type), keyOf(ns, name), std::move(object), "MODIFIED"),
                std::nullopt};
    }
    return remove(type, ns, name,
                  options.propagationPolicy.isEmpty() ? QStringLiteral("Background")
                                                      : options.propagationPolicy);
}

StoreResult ObjectStore::remove(const ResourceType *type, const QString &ns, const QString &name,
                                const QString &propagation)
{
    const auto current = get(type, ns, name);
    if (!current.ok())
        return current;
    const std::string uid = (*current.object.object)["metadata"].value("uid", "");
    StoredObject gone = commit(type, table(type), keyOf(type->namespaced ? ns : QString(), name),
                               *current.object.object, "DELETED");
    collectGarbage(uid, propagation);
    return {gone, std::nullopt};
}

void ObjectStore::indexOwners(const ResourceType *type, const std::string &key, const json &object,
                              bool add)
{
    const auto meta = object.find("metadata");
    if (meta == object.end() || !meta->contains("ownerReferences"))
        return;
    const json &refs = (*meta)["ownerReferences"];
    if (!refs.is_array())
        return;
    for (const auto &ref : refs) {
        const std::string uid = ref.is_object() ? ref.value("uid", "") : std::string();
        if (uid.empty())
            continue;
        if (add) {
            m_dependents[uid].emplace(type, key);
        } else if (const auto it = m_dependents.find(uid); it != m_dependents.end()) {
            it->second.erase({type, key});
            if (it->second.empty())
                m_dependents.erase(it);
        }
    }
}

void ObjectStore::collectGarbage(const std::string &ownerUid, const QString &propagation)
{
    if (ownerUid.empty())
        return;
    const auto found = m_dependents.find(ownerUid);
    if (found == m_dependents.end())
        return;
    const auto dependents = found->second; // deleting below changes the index
    for (const auto &[type, key] : dependents) {
        if (!type->namespaced && type->resource != QLatin1String("namespaces"))
            continue;
        const Table &t = table(type);
        const auto it = t.objects.find(key);
        if (it == t.objects.end())
            continue;
        const StoredObject o = it->second;
        if (propagation == QLatin1String("Orphan")) {
            json copy = *o.object;
            json refs = json::array();
            for (const auto &ref : copy["metadata"]["ownerReferences"]) {
                if (ref.value("uid", "") != ownerUid)
                    refs.push_back(ref);
            }
            copy["metadata"]["ownerReferences"] = refs;
            copy["metadata"].erase("resourceVersion");
            update(type, copy);
        } else {
            requestDelete(type, namespaceOf(*o.object), nameOf(*o.object), {});
        }
    }
}

std::vector<StoredObject> ObjectStore::list(const ResourceType *type, const QString &ns) const
{
    std::vector<StoredObject> out;
    const Table &t = table(type);
    if (ns.isEmpty()) {
        out.reserve(t.objects.size());
        for (const auto &[k, v] : t.objects)
            out.push_back(v);
        return out;
    }
    const std::string prefix = ns.toStdString() + '/';
    for (auto it = t.objects.lower_bound(prefix);
         it != t.objects.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
        out.push_back(it->second);
    return out;
}

void ObjectStore::scanFrom(
    const ResourceType *type, const QString &ns, const std::string &afterKey,
    const std::function<bool(const std::string &, const StoredObject &)> &visit) const
{
    const Table &t = table(type);
    const std::string prefix = ns.isEmpty() ? std::string() : ns.toStdString() + '/';
    auto it = afterKey.empty() ? t.objects.lower_bound(prefix) : t.objects.upper_bound(afterKey);
    for (; it != t.objects.end(); ++it) {
        if (!prefix.empty() && it->first.compare(0, prefix.size(), prefix) != 0)
            break;
        if (!visit(it->first, it->second))
            return;
    }
}

size_t ObjectStore::count(const ResourceType *type) const
{
    return table(type).objects.size();
}

bool ObjectStore::eventsSince(const ResourceType *type, quint64 since,
                              std::vector<WatchEvent> *out) const
{
    const Table &t = table(type);
    if (since < t.compactedRv)
        return false;
    for (const auto &ev : t.history) {
        if (ev.object.rv > since)
            out->push_back(ev);
    }
    return true;
}

quint64 ObjectStore::oldestWatchableRv(const ResourceType *type) const
{
    return table(type).compactedRv;
}

void ObjectStore::compact()
{
    for (auto &[type, t] : m_tables) {
        t.history.clear();
        t.compactedRv = m_rv;
    }
    for (const auto &type : m_types->all())
        m_tables[&type].compactedRv = m_rv;
}

} // namespace sim
