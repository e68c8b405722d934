// SPDX-License-Identifier: GPL-3.0-or-later
#include "apiserver.h"

#include "objectfactory.h"

#include "podlogs.h"
#include "simclock.h"
#include "simulation.h"
#include "tableprinter.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QElapsedTimer>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcApi, "gpudesk.sim.api")

namespace sim {

using nlohmann::json;

namespace {
constexpr qint64 kBookmarkIntervalMs = 5000;
constexpr qint64 kDefaultWatchTimeoutMs = 30 * 60 * 1000;
constexpr qsizetype kPieceBytes = 1 << 20;
constexpr qint64 kMaxWatchBacklog = 64LL << 20;

QByteArray jsonBytes(const json &j)
{
    return QByteArray::fromStdString(j.dump());
}

bool acceptsTable(const HttpRequest &r)
{
    return r.header("accept").contains("as=Table");
}

std::optional<qint64> queryInt(const HttpRequest &r, const QString &key, bool *bad)
{
    if (!r.hasQuery(key))
        return std::nullopt;
    bool ok = false;
    const qint64 v = r.queryValue(key).toLongLong(&ok);
    if (!ok)
        *bad = true;
    return v;
}

bool queryBool(const HttpRequest &r, const QString &key)
{
    // As Go's strconv.ParseBool, which the API server uses (clients send "true", "True", "1").
    static const QStringList yes{QStringLiteral("1"),    QStringLiteral("t"),
                                 QStringLiteral("T"),    QStringLiteral("true"),
                                 QStringLiteral("True"), QStringLiteral("TRUE")};
    return yes.contains(r.queryValue(key));
}

TablePrinter::IncludeObject includeObject(const HttpRequest &r)
{
    const QString v = r.queryValue(QStringLiteral("includeObject"));
    if (v == QLatin1String("None"))
        return TablePrinter::IncludeObject::None;
    if (v == QLatin1String("Object"))
        return TablePrinter::IncludeObject::Object;
    return TablePrinter::IncludeObject::Metadata;
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

json apiResource(const ResourceType &t, const QString &sub = {})
{
    json r{{"name", (sub.isEmpty() ? t.resource : t.resource + u'/' + sub).toStdString()},
           {"singularName", sub.isEmpty() ? t.singular.toStdString() : std::string()},
           {"namespaced", t.namespaced},
           {"kind", t.kind.toStdString()}};
    json verbs = json::array();
    if (sub.isEmpty()) {
        for (const auto &v : t.verbs)
            verbs.push_back(v.toStdString());
        if (!t.shortNames.isEmpty()) {
            json sn = json::array();
            for (const auto &s : t.shortNames)
                sn.push_back(s.toStdString());
            r["shortNames"] = sn;
        }
        if (!t.categories.isEmpty()) {
            json cats = json::array();
            for (const auto &c : t.categories)
                cats.push_back(c.toStdString());
            r["categories"] = cats;
        }
        r["storageVersionHash"] =
            QCryptographicHash::hash(QByteArray(t.apiVersion().toUtf8() + t.kind.toUtf8()),
                                     QCryptographicHash::Sha256)
                .left(8)
                .toBase64()
                .toStdString();
    } else if (sub == QLatin1String("log")) {
        verbs = {"get"};
        r["kind"] = "Pod";
    } else if (sub == QLatin1String("token")) {
        verbs = {"create"};
        r["kind"] = "TokenRequest";
        r["group"] = "authentication.k8s.io";
        r["version"] = "v1";
    } else if (sub == QLatin1String("finalize")) {
        verbs = {"update"};
    } else {
        verbs = {"get", "patch", "update"};
    }
    r["verbs"] = verbs;
    return r;
}

} // namespace

struct ApiServer::Watch
{
    QPointer<HttpConnection> connection;
    const ResourceType *type = nullptr;
    QString ns;
    QString name; // metadata.name from the path's field selector
    LabelSelector labels;
    FieldSelector fields;
    bool table = false;
    bool tableColumnsSent = false;
    bool bookmarks = false;
    qint64 lastBookmarkMs = 0;
    qint64 deadlineMs = 0;
    quint64 lastRv = 0;
    TablePrinter::IncludeObject include = TablePrinter::IncludeObject::Metadata;
};

struct ApiServer::LogFollow
{
    QPointer<HttpConnection> connection;
    QString ns;
    QString pod;
    QString container;
    std::string uid;
    LogSpec spec;
    qint64 next = 0; // index of the next line to send
    bool timestamps = false;
    qint64 bytesLeft = -1;
};

ApiServer::ApiServer(ObjectStore *store, Simulation *simulation, Authenticator *authn,
                     QObject *parent)
    : QObject(parent), m_store(store), m_sim(simulation), m_authn(authn), m_authz(store)
{
    connect(store, &ObjectStore::changed, this, &ApiServer::onStoreChanged);
    m_timer.setInterval(250);
    connect(&m_timer, &QTimer::timeout, this, &ApiServer::tick);
    m_timer.start();
}

ApiServer::~ApiServer() = default;

json ApiServer::statusObject(const ApiError &e)
{
    json s{{"kind", "Status"},
           {"apiVersion", "v1"},
           {"metadata", json::object()},
           {"status", "Failure"},
           {"message", e.message.toStdString()},
           {"reason", e.reason.toStdString()},
           {"code", e.code}};
    if (!e.details.is_null())
        s["details"] = e.details;
    return s;
}

void ApiServer::sendJson(HttpConnection *c, int code, const json &body)
{
    c->respond(code, "application/json", jsonBytes(body));
}

void ApiServer::sendResult(HttpConnection *c, const StoreResult &res, int code)
{
    if (res.ok())
        c->respond(code, "application/json", res.object.bytes);
    else
        sendError(c, *res.error);
}

void ApiServer::sendError(HttpConnection *c, const ApiError &e)
{
    sendJson(c, e.code, statusObject(e));
}

void ApiServer::handle(HttpConnection *c, const HttpRequest &r)
{
    const QString path = QString::fromUtf8(r.path);
    qCDebug(lcApi) << r.method << path << r.query.toString();
    const UserInfo *user = m_authn->authenticate(r.header("authorization"));
    if (!user) {
        sendError(c, {401, QStringLiteral("Unauthorized"), QStringLiteral("Unauthorized")});
        return;
    }
    if (path == QLatin1String("/sim/truth")) {
        if (!user->groups.contains(QStringLiteral("system:masters"))) {
            sendError(c, {403, QStringLiteral("Forbidden"),
                          QStringLiteral("the ground truth is for the admin token only")});
            return;
        }
        sendJson(c, 200, m_sim->truth());
        return;
    }
    if (path == QLatin1String("/sim/compact")) {
        if (!user->groups.contains(QStringLiteral("system:masters")) || r.method != "POST") {
            sendError(c, {403, QStringLiteral("Forbidden"),
                          QStringLiteral("POST /sim/compact is for the admin token only")});
            return;
        }
        // As etcd compaction followed by an API server restart: history is gone and every watch
        // stream is cut, so clients resume from versions that now answer 410 Expired.
        m_store->compact();
        for (auto &w : m_watches) {
            if (w->connection)
                w->connection->abort();
        }
        m_watches.clear();
        sendJson(c, 200, json{{"compactedAt", m_store->resourceVersion()}});
        return;
    }
    if (path == QLatin1String("/sim/churn")) {
        // For client benchmarks: change the scale scenario's churn rate without a restart.
        bool ok = false;
        const double rate = r.query.queryItemValue(QStringLiteral("rate")).toDouble(&ok);
        if (!user->groups.contains(QStringLiteral("system:masters")) || r.method != "POST" || !ok ||
            rate < 0) {
            sendError(c, {400, QStringLiteral("BadRequest"),
                          QStringLiteral("POST /sim/churn?rate=N (events per second) is for the "
                                         "admin token only")});
            return;
        }
        m_sim->setChurn(rate);
        sendJson(c, 200, json{{"churn", m_sim->churnRate()}});
        return;
    }
    if (path == QLatin1String("/sim/driver")) {
        // For tests: what nvidia-smi meets on a node (a driver that broke, a node whose cards
        // vanished, a missing nvidia-smi), as admins find it on real clusters.
        const QString node = r.query.queryItemValue(QStringLiteral("node"));
        const QString state = r.query.queryItemValue(QStringLiteral("state"));
        if (!user->groups.contains(QStringLiteral("system:masters")) || r.method != "POST" ||
            !m_sim->setDriverState(node.toStdString(), state.toStdString())) {
            sendError(c, {400, QStringLiteral("BadRequest"),
                          QStringLiteral("POST /sim/driver?node=NAME&state=ok|failed|nodevices|"
                                         "missing is for the admin token only")});
            return;
        }
        sendJson(c, 200, json{{"node", node.toStdString()}, {"state", state.toStdString()}});
        return;
    }
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
        if (!discovery(c, r, path))
            sendError(c, {404, QStringLiteral("NotFound"),
                          QStringLiteral("the server could not find the requested resource")});
        return;
    }
    QString error;
    const auto rt = route(segments, &error);
    if (!rt) {
        sendError(c, {404, QStringLiteral("NotFound"),
                      error.isEmpty()
                          ? QStringLiteral("the server could not find the requested resource")
                          : error});
        return;
    }
    const bool watchRequest = rt->watchPath || queryBool(r, QStringLiteral("watch"));
    RequestAttributes attrs;
    attrs.verb = verbFor(r.method, !rt->name.isEmpty(), watchRequest);
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
    const bool table = acceptsTable(r);
    if (rt->subresource == QLatin1String("log")) {
        if (r.method != "GET")
            sendError(c, {405, QStringLiteral("MethodNotAllowed"),
                          QStringLiteral("the server does not allow this method on the requested "
                                         "resource")});
        else
            logs(c, r, *rt);
        return;
    }
    if (rt->subresource == QLatin1String("token")) {
        token(c, r, *rt);
        return;
    }
    if (r.method == "GET") {
        if (watchRequest)
            watch(c, r, *rt, table);
        else if (rt->name.isEmpty())
            list(c, r, *rt, table);
        else
            get(c, r, *rt, table);
    } else if (r.method == "POST") {
        if (rt->type->group == QLatin1String("authorization.k8s.io"))
            review(c, r, *rt, *user);
        else
            create(c, r, *rt, *user);
    } else if (r.method == "PUT") {
        replace(c, r, *rt);
    } else if (r.method == "PATCH") {
        patch(c, r, *rt);
    } else if (r.method == "DELETE") {
        remove(c, r, *rt);
    } else {
        sendError(c, {405, QStringLiteral("MethodNotAllowed"),
                      QStringLiteral("the server does not allow this method on the requested "
                                     "resource")});
    }
}

std::optional<ApiServer::Route> ApiServer::route(const QStringList &segs, QString *error) const
{
    Q_UNUSED(error)
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
    Route rt;
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

bool ApiServer::discovery(HttpConnection *c, const HttpRequest &r, const QString &path)
{
    Q_UNUSED(r)
    const ResourceTypes *types = m_store->types();
    if (path == QLatin1String("/version") || path == QLatin1String("/version/")) {
        sendJson(c, 200,
                 json{{"major", "1"},
                      {"minor", "29"},
                      {"gitVersion", "v1.29.4-gpudesk-sim"},
                      {"gitCommit", "0000000000000000000000000000000000000000"},
                      {"gitTreeState", "clean"},
                      {"buildDate", "2026-11-01T00:00:00Z"},
                      {"goVersion", "go1.21.9"},
                      {"compiler", "gc"},
                      {"platform", "linux/amd64"}});
        return true;
    }
    if (path.startsWith(QLatin1String("/healthz")) || path.startsWith(QLatin1String("/livez")) ||
        path.startsWith(QLatin1String("/readyz"))) {
        c->respond(200, "text/plain; charset=utf-8", "ok");
        return true;
    }
    if (path == QLatin1String("/api")) {
        sendJson(
            c, 200,
            json{{"kind", "APIVersions"},
                 {"versions", {"v1"}},
                 {"serverAddressByClientCIDRs",
                  {{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", m_hostPort.toStdString()}}}}});
        return true;
    }
    auto groupJson = [&](const QString &g) {
        json versions = json::array();
        for (const auto &v : types->versions(g))
            versions.push_back(json{{"groupVersion", QString(g + u'/' + v).toStdString()},
                                    {"version", v.toStdString()}});
        return json{
            {"name", g.toStdString()}, {"versions", versions}, {"preferredVersion", versions[0]}};
    };
    if (path == QLatin1String("/apis")) {
        json groups = json::array();
        for (const auto &g : types->groups())
            groups.push_back(groupJson(g));
        sendJson(c, 200, json{{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", groups}});
        return true;
    }
    const QStringList segs = path.split(u'/', Qt::SkipEmptyParts);
    QString group;
    QString version;
    if (segs.size() == 2 && segs[0] == QLatin1String("api")) {
        version = segs[1];
    } else if (segs.size() == 2 && segs[0] == QLatin1String("apis")) {
        if (!types->groups().contains(segs[1]))
            return false;
        json g = groupJson(segs[1]);
        g["kind"] = "APIGroup";
        g["apiVersion"] = "v1";
        sendJson(c, 200, g);
        return true;
    } else if (segs.size() == 3 && segs[0] == QLatin1String("apis")) {
        group = segs[1];
        version = segs[2];
    } else {
        return false;
    }
    json resources = json::array();
    for (const auto &t : types->all()) {
        if (t.group != group || t.version != version)
            continue;
        resources.push_back(apiResource(t));
        for (const auto &sub : t.subresources)
            resources.push_back(apiResource(t, sub));
    }
    if (resources.empty())
        return false;
    sendJson(c, 200,
             json{{"kind", "APIResourceList"},
                  {"apiVersion", "v1"},
                  {"groupVersion", group.isEmpty() ? version.toStdString()
                                                   : QString(group + u'/' + version).toStdString()},
                  {"resources", resources}});
    return true;
}

void ApiServer::get(HttpConnection *c, const HttpRequest &r, const Route &rt, bool table)
{
    const auto res = m_store->get(rt.type, rt.ns, rt.name);
    if (!res.ok()) {
        sendError(c, *res.error);
        return;
    }
    if (table) {
        sendJson(c, 200,
                 TablePrinter::table(*rt.type, {res.object.object.get()}, m_store->clock()->nowMs(),
                                     includeObject(r), true));
        return;
    }
    c->respond(200, "application/json", res.object.bytes);
}

void ApiServer::list(HttpConnection *c, const HttpRequest &r, const Route &rt, bool table)
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
        sendError(c, {400, QStringLiteral("BadRequest"), QStringLiteral("invalid limit")});
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
        json t =
            TablePrinter::table(*rt.type, objs, m_store->clock()->nowMs(), includeObject(r), true);
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

void ApiServer::watch(HttpConnection *c, const HttpRequest &r, const Route &rt, bool table)
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
        sendError(c, {400, QStringLiteral("BadRequest"), error});
        return;
    }
    bool bad = false;
    const qint64 timeout = queryInt(r, QStringLiteral("timeoutSeconds"), &bad).value_or(-1);
    const QString rvText = r.queryValue(QStringLiteral("resourceVersion"));
    bool ok = true;
    const quint64 since = rvText.isEmpty() ? 0 : rvText.toULongLong(&ok);
    if (!ok || bad) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("invalid resource version: %1").arg(rvText)});
        return;
    }
    auto w = std::make_unique<Watch>();
    w->connection = c;
    w->type = rt.type;
    w->ns = rt.ns;
    w->labels = std::move(*labels);
    w->fields = std::move(*fields);
    w->table = table;
    w->include = includeObject(r);
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

void ApiServer::onStoreChanged(const ResourceType *type, const WatchEvent &ev)
{
    for (auto &w : m_watches) {
        if (w->type == type && w->connection)
            deliver(*w, type, ev);
    }
}

void ApiServer::deliver(Watch &w, const ResourceType *type, const WatchEvent &ev)
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

void ApiServer::tick()
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
    for (auto it = m_follows.begin(); it != m_follows.end();) {
        LogFollow &f = **it;
        if (!f.connection || !f.connection->isOpen()) {
            it = m_follows.erase(it);
            continue;
        }
        writeFollowedLines(f);
        if (!f.connection) {
            it = m_follows.erase(it);
            continue;
        }
        ++it;
    }
}

void ApiServer::writeFollowedLines(LogFollow &f)
{
    // Re-read the pod: the container may have ended, or the pod may be gone.
    const ResourceType *pods =
        m_store->types()->find({}, QStringLiteral("v1"), QStringLiteral("pods"));
    const auto pod = m_store->get(pods, f.ns, f.pod);
    const qint64 now = m_store->clock()->nowMs();
    bool end = !pod.ok() || (*pod.object.object)["metadata"].value("uid", "") != f.uid;
    if (!end) {
        int code = 0;
        QString message;
        const auto spec = PodLogs::spec(*pod.object.object, m_sim->behaviorOf(f.uid), f.container,
                                        false, &code, &message);
        if (spec && spec->startMs == f.spec.startMs)
            f.spec = *spec;
        else
            end = true;
    }
    const qint64 count = PodLogs::lineCount(f.spec, now);
    QByteArray out;
    while (f.next < count && out.size() < kPieceBytes) {
        QByteArray line = PodLogs::line(f.spec, f.next);
        if (f.timestamps)
            line = PodLogs::timestamp(PodLogs::lineTimeMs(f.spec, f.next)) + ' ' + line;
        out += line + '\n';
        ++f.next;
    }
    if (f.bytesLeft >= 0) {
        if (out.size() >= f.bytesLeft) {
            out.truncate(f.bytesLeft);
            end = true;
        }
        f.bytesLeft -= out.size();
    }
    f.connection->writeChunk(out);
    if (f.next >= count && (end || (f.spec.endMs >= 0 && now >= f.spec.endMs))) {
        f.connection->endStream();
        f.connection = nullptr;
    }
}

void ApiServer::logs(HttpConnection *c, const HttpRequest &r, const Route &rt)
{
    const auto pod = m_store->get(rt.type, rt.ns, rt.name);
    if (!pod.ok()) {
        sendError(c, *pod.error);
        return;
    }
    const json &p = *pod.object.object;
    const std::string uid = p["metadata"].value("uid", "");
    int code = 0;
    QString message;
    const QString container = r.queryValue(QStringLiteral("container"));
    const bool previous = queryBool(r, QStringLiteral("previous"));
    const auto spec =
        PodLogs::spec(p, m_sim->behaviorOf(uid), container, previous, &code, &message);
    if (!spec) {
        sendError(c, {code, QStringLiteral("BadRequest"), message});
        return;
    }
    bool bad = false;
    const auto tail = queryInt(r, QStringLiteral("tailLines"), &bad);
    const auto sinceSeconds = queryInt(r, QStringLiteral("sinceSeconds"), &bad);
    const auto limitBytes = queryInt(r, QStringLiteral("limitBytes"), &bad);
    const QString sinceTime = r.queryValue(QStringLiteral("sinceTime"));
    if (bad || (sinceSeconds && !sinceTime.isEmpty())) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("PodLogOptions is invalid: at most one of sinceTime or "
                                     "sinceSeconds may be specified, and numbers must be "
                                     "integers")});
        return;
    }
    const qint64 now = m_store->clock()->nowMs();
    const qint64 count = PodLogs::lineCount(*spec, now);
    qint64 first = 0;
    qint64 sinceMs = -1;
    if (sinceSeconds)
        sinceMs = now - *sinceSeconds * 1000;
    else if (!sinceTime.isEmpty())
        sinceMs = QDateTime::fromString(sinceTime, Qt::ISODateWithMs).toMSecsSinceEpoch();
    if (sinceMs >= 0) {
        // Line times rise monotonically: binary search for the first one at or after since.
        qint64 lo = 0;
        qint64 hi = count;
        while (lo < hi) {
            const qint64 mid = (lo + hi) / 2;
            if (PodLogs::lineTimeMs(*spec, mid) < sinceMs)
                lo = mid + 1;
            else
                hi = mid;
        }
        first = lo;
    }
    if (tail && *tail >= 0)
        first = std::max(first, count - *tail);
    const bool timestamps = queryBool(r, QStringLiteral("timestamps"));
    const bool follow = queryBool(r, QStringLiteral("follow"));
    if (follow) {
        auto f = std::make_unique<LogFollow>();
        f->connection = c;
        f->ns = rt.ns;
        f->pod = rt.name;
        f->container = spec->container;
        f->uid = uid;
        f->spec = *spec;
        f->next = first;
        f->timestamps = timestamps;
        f->bytesLeft = limitBytes.value_or(-1);
        c->beginStream(200, "text/plain");
        writeFollowedLines(*f);
        if (f->connection)
            m_follows.push_back(std::move(f));
        return;
    }
    auto index = std::make_shared<qint64>(first);
    auto left = std::make_shared<qint64>(limitBytes.value_or(-1));
    const LogSpec s = *spec;
    c->respondProduced(200, "text/plain", [s, index, count, timestamps, left]() -> QByteArray {
        QByteArray out;
        while (*index < count && out.size() < kPieceBytes) {
            QByteArray line = PodLogs::line(s, *index);
            if (timestamps)
                line = PodLogs::timestamp(PodLogs::lineTimeMs(s, *index)) + ' ' + line;
            out += line + '\n';
            ++*index;
        }
        if (*left >= 0) {
            if (out.size() > *left)
                out.truncate(*left);
            *left -= out.size();
            if (*left == 0)
                *index = count;
        }
        return out;
    });
}

void ApiServer::create(HttpConnection *c, const HttpRequest &r, const Route &rt,
                       const UserInfo &user)
{
    Q_UNUSED(user)
    if (!rt.name.isEmpty() || !rt.subresource.isEmpty()) {
        sendError(c, {405, QStringLiteral("MethodNotAllowed"),
                      QStringLiteral("the server does not allow this method on the requested "
                                     "resource")});
        return;
    }
    json body = json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object()) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("the object provided is not valid JSON")});
        return;
    }
    if (body.contains("kind") && body["kind"] != rt.type->kind.toStdString()) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("the API version in the data (%1) does not match the "
                                     "expected API version (%2)")
                          .arg(QString::fromStdString(body.value("apiVersion", "")),
                               rt.type->apiVersion())});
        return;
    }
    if (rt.type->namespaced) {
        const std::string bodyNs = sub(body, "metadata").value("namespace", "");
        if (!bodyNs.empty() && bodyNs != rt.ns.toStdString()) {
            sendError(c, {400, QStringLiteral("BadRequest"),
                          QStringLiteral("the namespace of the provided object does not match "
                                         "the namespace sent on the request")});
            return;
        }
        body["metadata"]["namespace"] = rt.ns.toStdString();
    }
    if (QString invalid = m_sim->admit(rt.type, body); !invalid.isEmpty()) {
        sendError(c, {422, QStringLiteral("Invalid"), invalid});
        return;
    }
    const QString manager = r.queryValue(QStringLiteral("fieldManager")).isEmpty()
                                ? QStringLiteral("kubectl-create")
                                : r.queryValue(QStringLiteral("fieldManager"));
    if (r.queryValue(QStringLiteral("dryRun")) == QLatin1String("All")) {
        sendJson(c, 201, body);
        return;
    }
    const auto res = m_store->create(rt.type, std::move(body), manager);
    sendResult(c, res, 201);
}

void ApiServer::replace(HttpConnection *c, const HttpRequest &r, const Route &rt)
{
    json body = json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object() || rt.name.isEmpty()) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("the object provided is not valid JSON")});
        return;
    }
    if (sub(body, "metadata").value("name", "") != rt.name.toStdString()) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("the name of the object (%1) does not match the name on "
                                     "the URL (%2)")
                          .arg(QString::fromStdString(sub(body, "metadata").value("name", "")),
                               rt.name)});
        return;
    }
    const auto current = m_store->get(rt.type, rt.ns, rt.name);
    if (!current.ok()) {
        sendError(c, *current.error);
        return;
    }
    if (rt.type->namespaced)
        body["metadata"]["namespace"] = rt.ns.toStdString();
    // With a status subresource, the main resource ignores status and /status only takes status.
    const json &old = *current.object.object;
    if (rt.subresource == QLatin1String("status")) {
        json merged = old;
        merged["status"] = sub(body, "status");
        merged["metadata"]["resourceVersion"] = body["metadata"].value("resourceVersion", "");
        body = merged;
    } else if (rt.type->subresources.contains(QStringLiteral("status"))) {
        if (old.contains("status"))
            body["status"] = old["status"];
        else
            body.erase("status");
    }
    const auto res = m_store->update(rt.type, std::move(body));
    sendResult(c, res, 200);
}

void ApiServer::patch(HttpConnection *c, const HttpRequest &r, const Route &rt)
{
    const auto current = m_store->get(rt.type, rt.ns, rt.name);
    if (!current.ok()) {
        sendError(c, *current.error);
        return;
    }
    const QByteArray type = r.header("content-type").split(';').first().trimmed();
    const json patchDoc = json::parse(r.body.toStdString(), nullptr, false);
    if (patchDoc.is_discarded()) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("the body of the request was in an unknown format - "
                                     "accepted media types include: application/json-patch+json, "
                                     "application/merge-patch+json, "
                                     "application/strategic-merge-patch+json")});
        return;
    }
    json patched = *current.object.object;
    try {
        if (type == "application/json-patch+json") {
            patched = patched.patch(patchDoc);
        } else if (type == "application/merge-patch+json" ||
                   type == "application/strategic-merge-patch+json") {
            // Strategic merge is taken as JSON merge: lists are replaced, not merged by key.
            patched.merge_patch(patchDoc);
        } else {
            sendError(c, {415, QStringLiteral("UnsupportedMediaType"),
                          QStringLiteral("the body of the request was in an unknown format - "
                                         "accepted media types include: "
                                         "application/json-patch+json, "
                                         "application/merge-patch+json, "
                                         "application/strategic-merge-patch+json")});
            return;
        }
    } catch (const std::exception &e) {
        sendError(c, {422, QStringLiteral("Invalid"),
                      QStringLiteral("the server rejected our request due to an error in our "
                                     "request: %1")
                          .arg(QString::fromUtf8(e.what()))});
        return;
    }
    const json &old = *current.object.object;
    if (rt.subresource == QLatin1String("status")) {
        json merged = old;
        merged["status"] = sub(patched, "status");
        patched = merged;
    } else if (rt.type->subresources.contains(QStringLiteral("status")) && old.contains("status")) {
        patched["status"] = old["status"];
    }
    // A patch applies to the latest version unless it names a resourceVersion itself.
    if (!patchDoc.is_object() || !sub(patchDoc, "metadata").contains("resourceVersion"))
        patched["metadata"]["resourceVersion"] = std::to_string(current.object.rv);
    patched["metadata"]["name"] = rt.name.toStdString();
    if (rt.type->namespaced)
        patched["metadata"]["namespace"] = rt.ns.toStdString();
    const auto res = m_store->update(rt.type, std::move(patched));
    sendResult(c, res, 200);
}

void ApiServer::remove(HttpConnection *c, const HttpRequest &r, const Route &rt)
{
    DeleteOptions opts;
    const json body =
        r.body.isEmpty() ? json::object() : json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object()) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("the DeleteOptions in the body are not valid JSON")});
        return;
    }
    if (body.contains("gracePeriodSeconds") && body["gracePeriodSeconds"].is_number())
        opts.gracePeriodSeconds = body["gracePeriodSeconds"].get<qint64>();
    bool bad = false;
    if (auto g = queryInt(r, QStringLiteral("gracePeriodSeconds"), &bad))
        opts.gracePeriodSeconds = *g;
    opts.propagationPolicy = QString::fromStdString(body.value("propagationPolicy", ""));
    if (r.hasQuery(QStringLiteral("propagationPolicy")))
        opts.propagationPolicy = r.queryValue(QStringLiteral("propagationPolicy"));
    if (body.contains("preconditions") && body["preconditions"].contains("uid"))
        opts.preconditionUid =
            QString::fromStdString(body["preconditions"]["uid"].get<std::string>());
    if (!opts.propagationPolicy.isEmpty() &&
        !QStringList{QStringLiteral("Orphan"), QStringLiteral("Background"),
                     QStringLiteral("Foreground")}
             .contains(opts.propagationPolicy)) {
        sendError(c, {422, QStringLiteral("Invalid"),
                      QStringLiteral("DeleteOptions.meta.k8s.io \"\" is invalid: "
                                     "propagationPolicy: Unsupported value: \"%1\"")
                          .arg(opts.propagationPolicy)});
        return;
    }
    if (rt.name.isEmpty()) {
        // deletecollection
        QString error;
        const auto labels =
            LabelSelector::parse(r.queryValue(QStringLiteral("labelSelector")), &error);
        const auto fields =
            labels ? FieldSelector::parse(r.queryValue(QStringLiteral("fieldSelector")),
                                          rt.type->resource, &error)
                   : std::nullopt;
        if (!labels || !fields) {
            sendError(c, {400, QStringLiteral("BadRequest"), error});
            return;
        }
        json items = json::array();
        for (const auto &o : m_store->list(rt.type, rt.ns)) {
            const json &obj = *o.object;
            if (!labels->matches(sub(obj["metadata"], "labels")) || !fields->matches(obj))
                continue;
            const auto res = m_store->requestDelete(rt.type, ObjectStore::namespaceOf(obj),
                                                    ObjectStore::nameOf(obj), opts);
            if (res.ok())
                items.push_back(*res.object.object);
        }
        sendJson(
            c, 200,
            json{{"kind", rt.type->listKind().toStdString()},
                 {"apiVersion", rt.type->apiVersion().toStdString()},
                 {"metadata", {{"resourceVersion", std::to_string(m_store->resourceVersion())}}},
                 {"items", items}});
        return;
    }
    const auto res = m_store->requestDelete(rt.type, rt.ns, rt.name, opts);
    if (!res.ok()) {
        sendError(c, *res.error);
        return;
    }
    c->respond(200, "application/json", res.object.bytes);
}

void ApiServer::review(HttpConnection *c, const HttpRequest &r, const Route &rt,
                       const UserInfo &user)
{
    json body = json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object() || !body.contains("spec")) {
        sendError(c, {400, QStringLiteral("BadRequest"),
                      QStringLiteral("the review provided is not valid: spec is required")});
        return;
    }
    body["apiVersion"] = "authorization.k8s.io/v1";
    body["kind"] = rt.type->kind.toStdString();
    if (!body.contains("metadata"))
        body["metadata"] = json::object();
    body["metadata"]["creationTimestamp"] = nullptr;
    const json &spec = body["spec"];
    if (rt.type->resource == QLatin1String("selfsubjectrulesreviews")) {
        body["status"] = m_authz.rules(user, QString::fromStdString(spec.value("namespace", "")));
        sendJson(c, 201, body);
        return;
    }
    RequestAttributes a;
    if (spec.contains("resourceAttributes")) {
        const json &ra = spec["resourceAttributes"];
        a.verb = QString::fromStdString(ra.value("verb", ""));
        a.group = QString::fromStdString(ra.value("group", ""));
        a.resource = QString::fromStdString(ra.value("resource", ""));
        a.subresource = QString::fromStdString(ra.value("subresource", ""));
        a.ns = QString::fromStdString(ra.value("namespace", ""));
        a.name = QString::fromStdString(ra.value("name", ""));
    } else if (spec.contains("nonResourceAttributes")) {
        a.isResourceRequest = false;
        a.verb = QString::fromStdString(spec["nonResourceAttributes"].value("verb", ""));
        a.path = QString::fromStdString(spec["nonResourceAttributes"].value("path", ""));
    } else {
        sendError(c, {422, QStringLiteral("Invalid"),
                      QStringLiteral("SelfSubjectAccessReview.authorization.k8s.io \"\" is "
                                     "invalid: spec.resourceAttributes: Invalid value: \"null\": "
                                     "exactly one of nonResourceAttributes or "
                                     "resourceAttributes must be specified")});
        return;
    }
    QString reason;
    const bool allowed = m_authz.allowed(user, a, &reason);
    body["status"] = json{{"allowed", allowed}};
    if (!reason.isEmpty())
        body["status"]["reason"] = reason.toStdString();
    sendJson(c, 201, body);
}

void ApiServer::token(HttpConnection *c, const HttpRequest &r, const Route &rt)
{
    if (r.method != "POST") {
        sendError(c, {405, QStringLiteral("MethodNotAllowed"),
                      QStringLiteral("the server does not allow this method on the requested "
                                     "resource")});
        return;
    }
    const auto sa = m_store->get(rt.type, rt.ns, rt.name);
    if (!sa.ok()) {
        sendError(c, *sa.error);
        return;
    }
    json body = json::parse(r.body.toStdString(), nullptr, false);
    if (!body.is_object())
        body = json::object();
    qint64 seconds = sub(body, "spec").value("expirationSeconds", 3600);
    seconds = std::clamp<qint64>(seconds, 600, 48 * 3600);
    // An opaque token; the authenticator maps it to the service account.
    const QByteArray raw = QCryptographicHash::hash(
        QByteArray(rt.ns.toUtf8() + '/' + rt.name.toUtf8() + QByteArray::number(++m_tokenCounter) +
                   QByteArray::number(QDateTime::currentMSecsSinceEpoch())),
        QCryptographicHash::Sha256);
    const QString tok = QStringLiteral("sim-sa.") +
                        QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding |
                                                         QByteArray::OmitTrailingEquals));
    m_authn->addToken(tok,
                      UserInfo{QStringLiteral("system:serviceaccount:%1:%2").arg(rt.ns, rt.name),
                               {QStringLiteral("system:serviceaccounts"),
                                QStringLiteral("system:serviceaccounts:") + rt.ns,
                                QStringLiteral("system:authenticated")}});
    json out{
        {"kind", "TokenRequest"},
        {"apiVersion", "authentication.k8s.io/v1"},
        {"metadata",
         {{"name", rt.name.toStdString()},
          {"namespace", rt.ns.toStdString()},
          {"creationTimestamp", nullptr}}},
        {"spec",
         {{"audiences",
           sub(body, "spec").value("audiences", json::array({"https://kubernetes.default.svc"}))},
          {"expirationSeconds", seconds}}},
        {"status",
         {{"token", tok.toStdString()},
          {"expirationTimestamp",
           SimClock::rfc3339(QDateTime::currentMSecsSinceEpoch() + seconds * 1000)}}}};
    sendJson(c, 201, out);
}

} // namespace sim
