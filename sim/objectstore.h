// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resourcetypes.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QObject>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <unordered_map>

namespace sim {

class SimClock;

// One stored version of an object: the tree and its serialized bytes, made once per write so
// that lists and watch streams only concatenate.
struct StoredObject
{
    std::shared_ptr<const nlohmann::json> object;
    QByteArray bytes;
    quint64 rv = 0;
    explicit operator bool() const { return bool(object); }
};

struct WatchEvent
{
    QByteArray type; // ADDED, MODIFIED, DELETED
    StoredObject object;
};

struct ApiError
{
    int code = 500;
    QString reason;
    QString message;
    nlohmann::json details = nullptr;
};

struct StoreResult
{
    StoredObject object;
    std::optional<ApiError> error;
    bool ok() const { return !error.has_value(); }
};

struct DeleteOptions
{
    std::optional<qint64> gracePeriodSeconds;
    QString propagationPolicy; // Orphan, Background, Foreground ("": the resource's default)
    std::optional<QString> preconditionUid;
    std::optional<QString> preconditionResourceVersion;
    bool dryRun = false; // everything but the write: the answer the real delete would give
};

class GarbageCollector;

// The simulator's etcd: objects per resource type, a global resourceVersion, and a bounded
// history of events per type for watches (older resourceVersions answer 410 Expired).
class ObjectStore : public QObject
{
    Q_OBJECT
public:
    ObjectStore(const ResourceTypes *types, SimClock *clock, quint64 seed,
                QObject *parent = nullptr);

    const ResourceTypes *types() const { return m_types; }
    const SimClock *clock() const { return m_clock; }
    quint64 resourceVersion() const { return m_rv; }

    ObjectStore(const ObjectStore &) = delete;
    ObjectStore &operator=(const ObjectStore &) = delete;
    ~ObjectStore() override;

    // With `dryRun`, each write validates and answers as it would, and changes nothing: no
    // resourceVersion is used up and no watch event is sent.
    StoreResult create(const ResourceType *type, nlohmann::json object,
                       const QString &manager = QStringLiteral("gpudesk-sim"), bool dryRun = false);
    StoreResult get(const ResourceType *type, const QString &ns, const QString &name) const;
    StoreResult update(const ResourceType *type, nlohmann::json object,
                       const QString &manager = QStringLiteral("gpudesk-sim"), bool dryRun = false);
    // Delete as the API server does it: preconditions, pod grace periods, the garbage
    // collector's finalizers (orphan, foregroundDeletion), then removal.
    StoreResult requestDelete(const ResourceType *type, const QString &ns, const QString &name,
                              const DeleteOptions &options);
    // Final removal, and garbage collection of dependents.
    StoreResult remove(const ResourceType *type, const QString &ns, const QString &name,
                       const QString &propagation = QStringLiteral("Background"));

    std::vector<StoredObject> list(const ResourceType *type, const QString &ns = {}) const;
    // Visits objects in key order from the first key after `afterKey` until `visit` returns
    // false; used for paging without copying what a page does not need.
    void
    scanFrom(const ResourceType *type, const QString &ns, const std::string &afterKey,
             const std::function<bool(const std::string &, const StoredObject &)> &visit) const;
    size_t count(const ResourceType *type) const;

    // Events with rv > since; false when `since` is older than the kept history.
    bool eventsSince(const ResourceType *type, quint64 since, std::vector<WatchEvent> *out) const;
    quint64 oldestWatchableRv(const ResourceType *type) const;
    // Forgets all history so far (as etcd compaction does): watches from older versions get 410.
    void compact();
    void setHistoryWindow(size_t events) { m_window = events; }

    std::string newUid();
    static std::string keyOf(const QString &ns, const QString &name);
    static QString nameOf(const nlohmann::json &object);
    static QString namespaceOf(const nlohmann::json &object);
    QString describe(const ResourceType *type, const QString &name) const;

signals:
    void changed(const sim::ResourceType *type, const sim::WatchEvent &event);

private:
    struct Table
    {
        std::map<std::string, StoredObject> objects;
        std::deque<WatchEvent> history;
        quint64 compactedRv = 0; // events at or below this rv are gone
    };
    Table &table(const ResourceType *type) const;
    StoredObject commit(const ResourceType *type, Table &t, const std::string &key,
                        nlohmann::json object, const QByteArray &eventType);
    // The object as a write would store it, without storing it.
    static StoredObject preview(nlohmann::json object, quint64 rv);
    std::string nameSuffix(bool dryRun);

    const ResourceTypes *m_types;
    SimClock *m_clock;
    quint64 m_rv = 1;
    size_t m_window = 5000;
    std::mt19937_64 m_rng;
    std::mt19937_64 m_dryRunRng; // dry runs must not move the seeded sequence of uids
    mutable std::unordered_map<const ResourceType *, Table> m_tables;
    std::unique_ptr<GarbageCollector> m_gc;
};

// The store's errors, worded as the API server words them.
ApiError notFound(const ResourceType *type, const QString &name);
ApiError conflict(const ResourceType *type, const QString &name, const QString &why);

nlohmann::json managedFieldsFor(const nlohmann::json &object);

} // namespace sim
