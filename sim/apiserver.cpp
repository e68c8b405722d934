// SPDX-License-Identifier: GPL-3.0-or-later
#include "apiserver.h"

#include "objectfactory.h"
#include "simclock.h"
#include "simulation.h"
#include "tableprinter.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcApi, "gpudesk.sim.api")

namespace sim {

using nlohmann::json;

namespace {
constexpr qsizetype kPieceBytes = 1 << 20;

bool acceptsTable(const HttpRequest &r)
{
    return r.header("accept").contains("as=Table");
}

QString verbFor(const QByteArray &method, bool hasName, bool watch)
{
    if (method == "GET" || method == "HEAD")
        return watch ? QStringLiteral("watch")
                     : (hasName ? QStringLiteral("get") : QStringLiteral("list"));
    if (method == "POST")
        return QStringLiteral("create");
    if (method == "PUT")
        return QStringLiteral("update");
    if (method == "PATCH")
        return QStringLiteral("patch");
    if (method == "DELETE")
        return hasName ? QStringLiteral("delete") : QStringLiteral("deletecollection");
    return QString::fromLatin1(method.toLower());
}

} // namespace

ApiServer::ApiServer(ObjectStore *store, Simulation *simulation, Authenticator *authn,
                     QObject *parent)
    : QObject(parent), m_store(store), m_authn(authn), m_authz(store), m_reviews(&m_authz),
      m_tokens(store, authn), m_discovery(store->types()), m_openapi(store->types()),
      m_watches(store), m_logs(store, simulation), m_writes(store, simulation),
      m_eviction(store, simulation), m_podStreams(store),
      m_simEndpoints(store, simulation, &m_podStreams, [this] { m_watches.abortAll(); })
{
    connect(store, &ObjectStore::changed, this,
            [this](const ResourceType *type, const WatchEvent &ev) {
                m_watches.onStoreChanged(type, ev);
            });
    m_timer.setInterval(250);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        m_watches.tick();
        m_logs.tick();
        m_podStreams.tick();
    });
    m_timer.start();
}

ApiServer::~ApiServer() = default;

void ApiServer::handle(HttpConnection *c, const HttpRequest &r)
{
    const QString path = QString::fromUtf8(r.path);
    qCDebug(lcApi) << r.method << path << r.query.toString();
    const UserInfo *authenticated = m_authn->authenticate(r.header("authorization"));
    if (!authenticated) {
        sendError(c, {401, QStringLiteral("Unauthorized"), QStringLiteral("Unauthorized")});
        return;
    }
    // kubectl --as, and `auth can-i --as`: the request is then the impersonated user's.
    UserInfo impersonated;
    QString refused;
    if (!m_authz.impersonate(*authenticated, r.headers, &impersonated, &refused)) {
        sendError(c, {403, QStringLiteral("Forbidden"), refused});
        return;
    }
    const UserInfo *user = &impersonated;
    if (m_simEndpoints.serve(c, r, path, *user))
        return;
    QStringList segments = path.split(u'/', Qt::SkipEmptyParts);
    const bool resourcePath = (segments.value(0) == QLatin1String("api") && segments.size() >= 3) ||
                              (segments.value(0) == QLatin1String("apis") && segments.size() >= 4);
    if (!resourcePath) {
        RequestAttributes attrs;
        attrs.isResourceRequest = false;
        attrs.verb = QStringLiteral("get");
        attrs.path = path;
        QString reason;
        if (!m_authz.allowed(*user, attrs, &reason)) {
            sendError(
                c, {403, QStringLiteral("Forbidden"), Authorizer::forbiddenMessage(*user, attrs)});
            return;
        }
        if (!m_discovery.serve(c, path) && !m_openapi.serve(c, r, path))
            sendError(c, {404, QStringLiteral("NotFound"),
                          QStringLiteral("the server could not find the requested resource")});
        return;
    }
    const auto rt = route(segments);
    if (!rt) {
        sendError(c, {404, QStringLiteral("NotFound"),
                      QStringLiteral("the server could not find the requested resource")});
        return;
    }
    const bool watchRequest = rt->watchPath || queryBool(r, QStringLiteral("watch"));
    RequestAttributes attrs;
    attrs.verb = verbFor(r.method, !rt->name.isEmpty(), watchRequest);
    // A WebSocket's upgrade is a GET, but opening a stream into a pod is authorized as create
    // (AuthorizePodWebsocketUpgradeCreatePermission, on since 1.31): a role that may only read
    // pods must not reach exec through a browser-style upgrade.
    if (rt->subresource == QLatin1String("exec") || rt->subresource == QLatin1String("portforward"))
        attrs.verb = QStringLiteral("create");
    attrs.group = rt->type->group;
    attrs.resource = rt->type->resource;
    attrs.subresource = rt->subresource;
    attrs.ns = rt->ns;
    attrs.name = rt->name;
    QString reason;
    if (!m_authz.allowed(*user, attrs, &reason)) {
        json details{{"kind", rt->type->resource.toStdString()}};
        if (!rt->name.isEmpty())
            details["name"] = rt->name.toStdString();
        if (!rt->type->group.isEmpty())
            details["group"] = rt->type->group.toStdString();
        sendError(c, {403, QStringLiteral("Forbidden"), Authorizer::forbiddenMessage(*user, attrs),
                      details});
        return;
    }
    dispatch(c, r, *rt, *user, watchRequest);
}

void ApiServer::dispatch(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt,
                         const UserInfo &user, bool watch)
{
    const bool table = acceptsTable(r);
    if (rt.subresource == QLatin1String("log")) {
        m_logs.logs(c, r, rt);
        return;
    }
    if (rt.subresource == QLatin1String("exec")) {
        m_podStreams.exec(c, r, rt);
        return;
    }
    if (rt.subresource == QLatin1String("portforward")) {
        m_podStreams.portForward(c, r, rt);
        return;
    }
    if (rt.subresource == QLatin1String("token")) {
        m_tokens.tokenRequest(c, r, rt);
        return;
    }
    if (rt.subresource == QLatin1String("eviction")) {
        m_eviction.evict(c, r, rt);
        return;
    }
    if (r.method == "GET") {
        if (watch)
            m_watches.watch(c, r, rt, table);
        else if (rt.name.isEmpty())
            list(c, r, rt, table);
        else
            get(c, r, rt, table);
    } else if (r.method == "POST") {
        if (rt.type->group == QLatin1String("authorization.k8s.io"))
            m_reviews.review(c, r, rt, user);
        else
            m_writes.create(c, r, rt);
    } else if (r.method == "PUT") {
        m_writes.replace(c, r, rt);
    } else if (r.method == "PATCH") {
        m_writes.patch(c, r, rt);
    } else if (r.method == "DELETE") {
        m_writes.remove(c, r, rt);
    } else {
        sendError(c, methodNotAllowed());
    }
}

std::optional<ApiRoute> ApiServer::route(const QStringList &segs) const
{
    // /api/v1/... or /apis/<group>/<version>/...
    QString group;
    QString version;
    int i = 0;
    if (segs[0] == QLatin1String("api")) {
        version = segs[1];
        i = 2;
    } else {
        group = segs[1];
        version = segs[2];
        i = 3;
    }
    ApiRoute rt;
    QStringList rest = segs.mid(i);
    if (rest.value(0) == QLatin1String("watch")) {
        rt.watchPath = true;
        rest.removeFirst();
    }
    const ResourceTypes *types = m_store->types();
    if (rest.size() >= 3 && rest[0] == QLatin1String("namespaces") &&
        types->find(group, version, rest[2]) && rest[2] != QLatin1String("status") &&
        rest[2] != QLatin1String("finalize")) {
        rt.ns = rest[1];
        rest = rest.mid(2);
    }
    if (rest.isEmpty() || rest.size() > 3)
        return std::nullopt;
    rt.type = types->find(group, version, rest[0]);
    if (!rt.type)
        return std::nullopt;
    if (!rt.type->namespaced && !rt.ns.isEmpty())
        return std::nullopt;
    rt.name = rest.value(1);
    rt.subresource = rest.value(2);
    if (!rt.subresource.isEmpty() && !rt.type->subresources.contains(rt.subresource))
        return std::nullopt;
    return rt;
}

void ApiServer::get(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt, bool table)
{
    const auto res = m_store->get(rt.type, rt.ns, rt.name);
    if (!res.ok()) {
        sendError(c, *res.error);
        return;
    }
    if (table) {
        sendJson(c, 200,
                 TablePrinter::table(*rt.type, {res.object.object.get()}, m_store->clock()->nowMs(),
                                     includeObjectOf(r), true));
        return;
    }
    c->respond(200, "application/json", res.object.bytes);
}

void ApiServer::list(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt, bool table)
{
    QString error;
    const auto labels = LabelSelector::parse(r.queryValue(QStringLiteral("labelSelector")), &error);
    const auto fields = labels ? FieldSelector::parse(r.queryValue(QStringLiteral("fieldSelector")),
                                                      rt.type->resource, &error)
                               : std::nullopt;
    if (!labels || !fields) {
        sendError(c, {400, QStringLiteral("BadRequest"), error});
        return;
    }
    bool bad = false;
    const qint64 limit = queryInt(r, QStringLiteral("limit"), &bad).value_or(0);
    if (bad) {
        sendError(c, badRequest(QStringLiteral("invalid limit")));
        return;
    }
    quint64 listRv = m_store->resourceVersion();
    std::string after;
    qint64 offset = 0; // items before this page, carried in the continue token
    const QString cont = r.queryValue(QStringLiteral("continue"));
    if (!cont.isEmpty()) {
        const json token = json::parse(
            QByteArray::fromBase64(cont.toLatin1(), QByteArray::Base64UrlEncoding).toStdString(),
            nullptr, false);
        if (!token.is_object() || !token.contains("rv") || !token.contains("start")) {
            sendError(c, {400, QStringLiteral("BadRequest"),
                          QStringLiteral("continue key is not valid: incorrect encoded start "
                                         "resourceVersion (version meta.k8s.io/v1)")});
            return;
        }
        listRv = token["rv"].get<quint64>();
        offset = token.value("offset", qint64(0));
        if (listRv < m_store->oldestWatchableRv(rt.type)) {
            sendError(c, {410, QStringLiteral("Expired"),
                          QStringLiteral("The provided continue parameter is too old to display "
                                         "a consistent list result. You can start a new list "
                                         "without the continue parameter.")});
            return;
        }
        after = token["start"].get<std::string>();
    } else if (r.hasQuery(QStringLiteral("resourceVersion"))) {
        const QString rvText = r.queryValue(QStringLiteral("resourceVersion"));
        bool ok = true;
        const quint64 want = rvText.isEmpty() ? 0 : rvText.toULongLong(&ok);
        if (!ok) {
            sendError(c, {400, QStringLiteral("BadRequest"),
                          QStringLiteral("invalid resource version: %1").arg(rvText)});
            return;
        }
        if (want > m_store->resourceVersion()) {
            sendError(c, {504, QStringLiteral("Timeout"),
                          QStringLiteral("Too large resource version: %1, current: %2")
                              .arg(want)
                              .arg(m_store->resourceVersion())});
            return;
        }
        if (r.queryValue(QStringLiteral("resourceVersionMatch")) == QLatin1String("Exact") &&
            want != m_store->resourceVersion()) {
            // Only the latest state is kept, as with a compacted etcd.
            sendError(c, {410, QStringLiteral("Expired"),
                          QStringLiteral("too old resource version: %1 (%2)")
                              .arg(want)
                              .arg(m_store->resourceVersion())});
            return;
        }
    }
    std::vector<const StoredObject *> selected;
    std::vector<StoredObject> keep; // holds the selected objects alive while we serialize
    std::string lastKey;
    bool more = false;
    qint64 remaining = 0;
    const bool filtering = !labels->isEmpty() || !fields->isEmpty();
    m_store->scanFrom(rt.type, rt.ns, after, [&](const std::string &key, const StoredObject &obj) {
        const json &o = *obj.object;
        if (filtering) {
            const json &meta = o["metadata"];
            if (!labels->matches(sub(meta, "labels")) || !fields->matches(o))
                return true;
        }
        if (limit > 0 && qint64(keep.size()) == limit) {
            more = true;
            return false;
        }
        keep.push_back(obj);
        lastKey = key;
        return true;
    });
    selected.reserve(keep.size());
    for (const auto &k : keep)
        selected.push_back(&k);
    json meta{{"resourceVersion", std::to_string(listRv)}};
    if (more) {
        // Without selectors the API server says how many remain (an estimate under change).
        const qint64 total = rt.ns.isEmpty() ? qint64(m_store->count(rt.type))
                                             : qint64(m_store->list(rt.type, rt.ns).size());
        remaining = std::max<qint64>(1, total - offset - qint64(keep.size()));
        meta["continue"] =
            QByteArray::fromStdString(
                json{{"rv", listRv}, {"start", lastKey}, {"offset", offset + qint64(keep.size())}}
                    .dump())
                .toBase64(QByteArray::Base64UrlEncoding)
                .toStdString();
        if (!filtering)
            meta["remainingItemCount"] = remaining;
    }
    if (table) {
        std::vector<const json *> objs;
        objs.reserve(selected.size());
        for (const auto *s : selected)
            objs.push_back(s->object.get());
        json t = TablePrinter::table(*rt.type, objs, m_store->clock()->nowMs(), includeObjectOf(r),
                                     true);
        t["metadata"] = meta;
        sendJson(c, 200, t);
        return;
    }
    // Stream: the items are already serialized; only join them, in pieces as the socket drains.
    auto pieces = std::make_shared<std::vector<QByteArray>>();
    pieces->reserve(selected.size());
    for (const auto *s : selected)
        pieces->push_back(s->bytes);
    auto header = std::make_shared<QByteArray>(
        "{\"kind\":\"" + rt.type->listKind().toUtf8() + "\",\"apiVersion\":\"" +
        rt.type->apiVersion().toUtf8() + "\",\"metadata\":" + jsonBytes(meta) + ",\"items\":[");
    auto index = std::make_shared<size_t>(0);
    auto done = std::make_shared<bool>(false);
    c->respondProduced(200, "application/json", [pieces, header, index, done]() -> QByteArray {
        if (*done)
            return {};
        QByteArray out;
        if (!header->isEmpty()) {
            out = *header;
            header->clear();
        }
        while (*index < pieces->size() && out.size() < kPieceBytes) {
            if (*index > 0)
                out += ',';
            out += (*pieces)[*index];
            (*pieces)[*index] = QByteArray(); // release as we go
            ++*index;
        }
        if (*index >= pieces->size()) {
            out += "]}\n";
            *done = true;
        }
        return out;
    });
}

} // namespace sim
