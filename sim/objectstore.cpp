// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectstore.h"

#include "garbagecollector.h"
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

ApiError notFound(const ResourceType *type, const QString &name)
{
    const QString res =
        type->group.isEmpty() ? type->resource : QString(type->resource + u'.' + type->group);
    return {404, QStringLiteral("NotFound"), QStringLiteral("%1 \"%2\" not found").arg(res, name),
            json{{"name", name.toStdString()},
                 {"group", type->group.toStdString()},
                 {"kind", type->resource.toStdString()}}};
}

ApiError conflict(const ResourceType *type, const QString &name, const QString &why)
{
    const QString res =
        type->group.isEmpty() ? type->resource : QString(type->resource + u'.' + type->group);
    return {409, QStringLiteral("Conflict"),
            QStringLiteral("Operation cannot be fulfilled on %1 \"%2\": %3").arg(res, name, why),
            json{{"name", name.toStdString()},
                 {"group", type->group.toStdString()},
                 {"kind", type->resource.toStdString()}}};
}

ObjectStore::ObjectStore(const ResourceTypes *types, SimClock *clock, quint64 seed, QObject *parent)
    : QObject(parent), m_types(types), m_clock(clock), m_rng(seed ^ 0x9e3779b97f4a7c15ULL),
      m_dryRunRng(seed ^ 0x2545f4914f6cdd1dULL), m_gc(std::make_unique<GarbageCollector>(this))
{}

ObjectStore::~ObjectStore() = default;

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
    const auto old = t.objects.find(key);
    m_gc->indexWrite(type, key, old != t.objects.end() ? old->second.object.get() : nullptr,
                     eventType == "DELETED" ? nullptr : stored.object.get());
    if (eventType == "DELETED")
        t.objects.erase(key);
    else
        t.objects[key] = stored;
    WatchEvent ev{eventType, stored};
    t.history.push_back(ev);
    while (t.history.size() > m_window) {
        t.compactedRv = t.history.front().object.rv;
        t.history.pop_front();
    }
    emit changed(type, ev);
    return stored;
}

StoredObject ObjectStore::preview(json object, quint64 rv)
{
    if (rv > 0)
        object["metadata"]["resourceVersion"] = std::to_string(rv);
    else
        object["metadata"].erase("resourceVersion");
    StoredObject out;
    out.rv = rv;
    out.bytes = QByteArray::fromStdString(object.dump());
    out.object = std::make_shared<const json>(std::move(object));
    return out;
}

std::string ObjectStore::nameSuffix(bool dryRun)
{
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    std::mt19937_64 &rng = dryRun ? m_dryRunRng : m_rng;
    std::string suffix;
    for (int i = 0; i < 5; ++i)
        suffix += alphabet[rng() % (sizeof alphabet - 1)];
    return suffix;
}

StoreResult ObjectStore::create(const ResourceType *type, json object, const QString &manager,
                                bool dryRun)
{
    if (!object.is_object() || !object.contains("metadata") || !object["metadata"].is_object())
        object["metadata"] = json::object();
    auto &meta = object["metadata"];
    QString name = QString::fromStdString(meta.value("name", std::string()));
    const QString ns =
        type->namespaced ? QString::fromStdString(meta.value("namespace", "")) : QString();
    if (name.isEmpty() && meta.contains("generateName") && meta["generateName"].is_string()) {
        name = QString::fromStdString(meta["generateName"].get<std::string>() + nameSuffix(dryRun));
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
    if (!meta.contains("uid")) {
        if (dryRun) {
            // A uid of its own generator: a dry run leaves the seeded sequence where it was.
            std::swap(m_rng, m_dryRunRng);
            meta["uid"] = newUid();
            std::swap(m_rng, m_dryRunRng);
        } else {
            meta["uid"] = newUid();
        }
    }
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
    if (dryRun)
        return {preview(std::move(object), 0), std::nullopt};
    return {commit(type, t, key, std::move(object), "ADDED"), std::nullopt};
}

StoreResult ObjectStore::get(const ResourceType *type, const QString &ns, const QString &name) const
{
    const Table &t = table(type);
    const auto it = t.objects.find(keyOf(type->namespaced ? ns : QString(), name));
    if (it == t.objects.end())
        return {{}, notFound(type, name)};
    return {it->second, std::nullopt};
}

StoreResult ObjectStore::update(const ResourceType *type, json object, const QString &manager,
                                bool dryRun)
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
                conflict(type, name,
                         QStringLiteral("the object has been modified; please apply your "
                                        "changes to the latest version and try again"))};
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
    // The specs compared where they are, not copied (a pod's is most of it).
    const auto specOf = [](const json &o) -> const json * {
        const auto it = o.find("spec");
        return it == o.end() ? nullptr : &*it;
    };
    const json *newSpec = specOf(object), *oldSpec = specOf(old);
    if ((newSpec == nullptr) != (oldSpec == nullptr) || (newSpec && *newSpec != *oldSpec))
        meta["generation"] = old["metadata"].value("generation", 1) + 1;
    else if (old["metadata"].contains("generation"))
        meta["generation"] = old["metadata"]["generation"];
    if (object == old) // no-op updates do not bump the resourceVersion
        return current;
    // An object being deleted goes once its last finalizer does (a pod once its grace is 0).
    const bool deleting = meta.contains("deletionTimestamp");
    const bool noFinalizers = !meta.contains("finalizers") || meta["finalizers"].empty();
    const bool graceOver = type->resource != QLatin1String("pods") ||
                           meta.value("deletionGracePeriodSeconds", qint64(1)) == 0;
    if (dryRun)
        return {preview(std::move(object), current.object.rv), std::nullopt};
    if (deleting && noFinalizers && graceOver)
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
    // rest.BeforeDelete checks the preconditions first, with these words (the storage layer's
    // "Precondition failed: …" only answers a change that races the delete).
    const QString kindRes = type->group.isEmpty() ? type->kind : type->kind + u'.' + type->group;
    auto preconditionFailed = [&](const QString &why) {
        ApiError e = conflict(type, name, why);
        e.message = QStringLiteral("Operation cannot be fulfilled on %1 \"%2\": %3")
                        .arg(kindRes, name, why);
        e.details["kind"] = type->kind.toStdString();
        return StoreResult{{}, e};
    };
    const QString uid = QString::fromStdString(meta.value("uid", std::string()));
    if (options.preconditionUid && *options.preconditionUid != uid)
        return preconditionFailed(
            QStringLiteral("the UID in the precondition (%1) does not match the UID in record "
                           "(%2). The object might have been deleted and then recreated")
                .arg(*options.preconditionUid, uid));
    const QString rv = QString::number(current.object.rv);
    if (options.preconditionResourceVersion && *options.preconditionResourceVersion != rv)
        return preconditionFailed(
            QStringLiteral("the ResourceVersion in the precondition (%1) does not match the "
                           "ResourceVersion in record (%2). The object might have been modified")
                .arg(*options.preconditionResourceVersion, rv));
    const bool isPod = type->resource == QLatin1String("pods");
    if (type->resource == QLatin1String("namespaces")) {
        // Terminating: the namespace controller deletes the content (pods with their grace),
        // then drops the "kubernetes" finalizer and the namespace goes.
        if (meta.contains("deletionTimestamp"))
            return current;
        meta["deletionTimestamp"] = m_clock->nowRfc3339();
        meta["deletionGracePeriodSeconds"] = 0;
        object["spec"]["finalizers"] = json::array({"kubernetes"});
        object["status"]["phase"] = "Terminating";
        if (options.dryRun)
            return {preview(std::move(object), current.object.rv), std::nullopt};
        return {commit(type, table(type), keyOf({}, name), std::move(object), "MODIFIED"),
                std::nullopt};
    }
    // The pod strategy's CheckGracefulDelete: the pod's own grace unless the request gives one;
    // none for a pod no node runs or one that has finished.
    qint64 grace = 0;
    if (isPod) {
        const std::string phase = sub(object, "status").value("phase", "");
        grace = object["spec"].value("terminationGracePeriodSeconds", qint64(30));
        if (options.gracePeriodSeconds)
            grace = *options.gracePeriodSeconds;
        if (!sub(object, "spec").contains("nodeName") || phase == "Succeeded" || phase == "Failed")
            grace = 0;
        if (grace < 0)
            grace = 1;
    }
    // The garbage collector's finalizer for the propagation asked for.
    json finalizers = sub(meta, "finalizers").is_array() ? meta["finalizers"] : json::array();
    auto addFinalizer = [&](const char *f) {
        for (const auto &x : finalizers)
            if (x == f)
                return;
        finalizers.push_back(f);
    };
    if (options.propagationPolicy == QLatin1String("Orphan"))
        addFinalizer(GarbageCollector::kOrphan);
    else if (options.propagationPolicy == QLatin1String("Foreground"))
        addFinalizer(GarbageCollector::kForeground);
    const bool hasFinalizers = !finalizers.empty();
    if (meta.contains("deletionTimestamp")) {
        // Already going: only a shorter grace period may replace the pending one (kubectl
        // --grace-period); a pod whose grace reaches 0 with no finalizer left goes now.
        const qint64 pending = meta.value("deletionGracePeriodSeconds", qint64(0));
        if (!isPod || grace >= pending)
            return current;
        meta["deletionTimestamp"] = SimClock::rfc3339(m_clock->nowMs() + grace * 1000);
        meta["deletionGracePeriodSeconds"] = grace;
        if (grace == 0 && !hasFinalizers) {
            if (options.dryRun)
                return {preview(std::move(object), current.object.rv), std::nullopt};
            return remove(type, ns, name);
        }
        if (options.dryRun)
            return {preview(std::move(object), current.object.rv), std::nullopt};
        return {commit(type, table(type), keyOf(ns, name), std::move(object), "MODIFIED"),
                std::nullopt};
    }
    if (hasFinalizers || grace > 0) {
        meta["deletionTimestamp"] = SimClock::rfc3339(m_clock->nowMs() + grace * 1000);
        meta["deletionGracePeriodSeconds"] = grace;
        if (hasFinalizers)
            meta["finalizers"] = finalizers;
        if (meta.value("generation", 0) > 0 && grace > 0)
            meta["generation"] = meta.value("generation", 0) + 1;
        if (options.dryRun)
            return {preview(std::move(object), current.object.rv), std::nullopt};
        const StoredObject stored =
            commit(type, table(type), keyOf(ns, name), std::move(object), "MODIFIED");
        m_gc->deletionRequested(type, *stored.object);
        // The collector may have finished the deletion already: answer with what is stored.
        const auto after = get(type, ns, name);
        return {after.ok() ? after.object : stored, std::nullopt};
    }
    if (options.dryRun)
        return current;
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
    StoredObject gone = commit(type, table(type), keyOf(type->namespaced ? ns : QString(), name),
                               *current.object.object, "DELETED");
    m_gc->removed(*gone.object, propagation);
    return {gone, std::nullopt};
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
