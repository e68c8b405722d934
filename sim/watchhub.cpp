// SPDX-License-Identifier: GPL-3.0-or-later
#include "watchhub.h"

#include "objectfactory.h"
#include "simclock.h"

#include <QDateTime>

namespace sim {

using nlohmann::json;

namespace {
constexpr qint64 kBookmarkIntervalMs = 5000;
constexpr qint64 kDefaultWatchTimeoutMs = 30 * 60 * 1000;
constexpr qint64 kMaxWatchBacklog = 64LL << 20;
} // namespace

TablePrinter::IncludeObject includeObjectOf(const HttpRequest &r)
{
    const QString v = r.queryValue(QStringLiteral("includeObject"));
    if (v == QLatin1String("None"))
        return TablePrinter::IncludeObject::None;
    if (v == QLatin1String("Object"))
        return TablePrinter::IncludeObject::Object;
    return TablePrinter::IncludeObject::Metadata;
}

void WatchHub::watch(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt, bool table)
{
    QString error;
    auto labels = LabelSelector::parse(r.queryValue(QStringLiteral("labelSelector")), &error);
    QString fieldText = r.queryValue(QStringLiteral("fieldSelector"));
    if (!rt.name.isEmpty()) // /watch/namespaces/ns/pods/name
        fieldText = fieldText.isEmpty()
                        ? QString(QStringLiteral("metadata.name=") + rt.name)
                        : QString(fieldText + QStringLiteral(",metadata.name=") + rt.name);
    auto fields =
        labels ? FieldSelector::parse(fieldText, rt.type->resource, &error) : std::nullopt;
    if (!labels || !fields) {
        sendError(c, badRequest(error));
        return;
    }
    bool bad = false;
    const qint64 timeout = queryInt(r, QStringLiteral("timeoutSeconds"), &bad).value_or(-1);
    const QString rvText = r.queryValue(QStringLiteral("resourceVersion"));
    bool ok = true;
    const quint64 since = rvText.isEmpty() ? 0 : rvText.toULongLong(&ok);
    if (!ok || bad) {
        sendError(c, badRequest(QStringLiteral("invalid resource version: %1").arg(rvText)));
        return;
    }
    auto w = std::make_unique<Watch>();
    w->connection = c;
    w->type = rt.type;
    w->ns = rt.ns;
    w->labels = std::move(*labels);
    w->fields = std::move(*fields);
    w->table = table;
    w->include = includeObjectOf(r);
    w->bookmarks = queryBool(r, QStringLiteral("allowWatchBookmarks"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    w->lastBookmarkMs = now;
    w->deadlineMs = now + (timeout >= 0 ? timeout * 1000 : kDefaultWatchTimeoutMs);
    w->lastRv = m_store->resourceVersion();
    c->beginStream(200, "application/json");
    std::vector<WatchEvent> initial;
    if (since == 0) {
        for (const auto &o : m_store->list(rt.type, rt.ns))
            initial.push_back(WatchEvent{"ADDED", o});
    } else if (since > m_store->resourceVersion()) {
        // A version from the future (the client saw a server that has since restarted from older
        // state): the API server answers this Timeout and client-go relists.
        const ApiError tooLarge{504, QStringLiteral("Timeout"),
                                QStringLiteral("Too large resource version: %1, current: %2")
                                    .arg(since)
                                    .arg(m_store->resourceVersion())};
        c->writeChunk(jsonBytes(json{{"type", "ERROR"}, {"object", statusObject(tooLarge)}}) +
                      '\n');
        c->endStream();
        return;
    } else if (!m_store->eventsSince(rt.type, since, &initial)) {
        // As the API server does: a 200 stream whose only event is an Expired Status.
        const ApiError gone{410, QStringLiteral("Expired"),
                            QStringLiteral("too old resource version: %1 (%2)")
                                .arg(since)
                                .arg(m_store->oldestWatchableRv(rt.type) + 1)};
        c->writeChunk(jsonBytes(json{{"type", "ERROR"}, {"object", statusObject(gone)}}) + '\n');
        c->endStream();
        return;
    }
    Watch &watch = *w;
    m_watches.push_back(std::move(w));
    // The initial state goes to this watch only.
    for (const auto &ev : initial)
        deliver(watch, rt.type, ev);
}

void WatchHub::onStoreChanged(const ResourceType *type, const WatchEvent &ev)
{
    for (auto &w : m_watches) {
        if (w->type == type && w->connection)
            deliver(*w, type, ev);
    }
}

void WatchHub::deliver(Watch &w, const ResourceType *type, const WatchEvent &ev)
{
    const json &o = *ev.object.object;
    const json &meta = o["metadata"];
    if (!w.ns.isEmpty() && meta.value("namespace", "") != w.ns.toStdString())
        return;
    if (!w.labels.matches(sub(meta, "labels")) || !w.fields.matches(o))
        return;
    // A watcher that stops reading is dropped, as the API server drops one whose buffer
    // fills; the client watches again from its last resourceVersion.
    if (w.connection->bytesToWrite() > kMaxWatchBacklog) {
        w.connection->endStream();
        w.connection = nullptr;
        return;
    }
    QByteArray line;
    if (w.table) {
        json t = TablePrinter::table(*type, {&o}, m_store->clock()->nowMs(), w.include,
                                     !w.tableColumnsSent);
        w.tableColumnsSent = true;
        line = "{\"type\":\"" + ev.type + "\",\"object\":" + jsonBytes(t) + "}\n";
    } else {
        line = "{\"type\":\"" + ev.type + "\",\"object\":" + ev.object.bytes + "}\n";
    }
    w.lastRv = std::max(w.lastRv, ev.object.rv);
    w.connection->writeChunk(line);
}

void WatchHub::tick()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (auto it = m_watches.begin(); it != m_watches.end();) {
        Watch &w = **it;
        if (!w.connection || !w.connection->isOpen()) {
            it = m_watches.erase(it);
            continue;
        }
        if (now >= w.deadlineMs) {
            w.connection->endStream();
            it = m_watches.erase(it);
            continue;
        }
        if (w.bookmarks && now - w.lastBookmarkMs >= kBookmarkIntervalMs) {
            w.lastBookmarkMs = now;
            w.lastRv = std::max(w.lastRv, m_store->resourceVersion());
            const json bm{{"type", "BOOKMARK"},
                          {"object",
                           {{"kind", w.type->kind.toStdString()},
                            {"apiVersion", w.type->apiVersion().toStdString()},
                            {"metadata", {{"resourceVersion", std::to_string(w.lastRv)}}}}}};
            w.connection->writeChunk(jsonBytes(bm) + '\n');
        }
        ++it;
    }
}

void WatchHub::abortAll()
{
    for (auto &w : m_watches) {
        if (w->connection)
            w->connection->abort();
    }
    m_watches.clear();
}

} // namespace sim
