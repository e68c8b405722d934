// SPDX-License-Identifier: GPL-3.0-or-later
#include "harborapi.h"

#include "apihelpers.h"
#include "artifactstore.h"
#include "garbagecollection.h"
#include "harborconfig.h"
#include "registryreader.h"
#include "tokenissuer.h"

#include <QDateTime>
#include <QPointer>
#include <QUrl>

#include <memory>
#include <set>

namespace sim::harbor {

using nlohmann::json;

namespace {

constexpr const char *kApi = "/api/v2.0/";

void sendErrors(HttpConnection *c, int status, const char *code, const std::string &message)
{
    if (status == 401)
        c->addResponseHeader("WWW-Authenticate", "Basic realm=\"harbor\"");
    sendJson(c, status, json{{"errors", {{{"code", code}, {"message", message}}}}});
}

std::string rfc3339(qint64 ms)
{
    if (ms == 0)
        return "0001-01-01T00:00:00.000Z"; // Harbor's zero time: never
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-ddThh:mm:ss.zzzZ"))
        .toStdString();
}

std::vector<std::string> split(const std::string &path)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= path.size()) {
        const size_t slash = path.find('/', start);
        const size_t end = slash == std::string::npos ? path.size() : slash;
        if (end > start)
            out.push_back(path.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

// Harbor's repository names in paths are URL-encoded once more ("a%252Fb"): the server has
// decoded the path once, this decodes the rest.
std::string decoded(const std::string &segment)
{
    return QUrl::fromPercentEncoding(QByteArray::fromStdString(segment)).toStdString();
}

// page and page_size as Harbor reads them: page from 1, at most 100 a page, 10 when not given.
template <typename T>
std::vector<T> page(HttpConnection *c, const HttpRequest &r, const std::vector<T> &all,
                    const std::string &path)
{
    const int pageNo = std::max(1, r.queryValue(QStringLiteral("page")).toInt());
    int size = r.queryValue(QStringLiteral("page_size")).toInt();
    size = size <= 0 ? 10 : std::min(size, 100);
    c->addResponseHeader("X-Total-Count", QByteArray::number(qulonglong(all.size())));
    const size_t from = size_t(pageNo - 1) * size_t(size);
    if (from + size_t(size) < all.size()) {
        QUrlQuery next = r.query;
        next.removeAllQueryItems(QStringLiteral("page"));
        next.addQueryItem(QStringLiteral("page"), QString::number(pageNo + 1));
        next.removeAllQueryItems(QStringLiteral("page_size"));
        next.addQueryItem(QStringLiteral("page_size"), QString::number(size));
        c->addResponseHeader("Link", "<" + QByteArray::fromStdString(path) + "?" +
                                         next.toString(QUrl::FullyEncoded).toLatin1() +
                                         ">; rel=\"next\"");
    }
    if (from >= all.size())
        return {};
    return std::vector<T>(all.begin() + long(from),
                          all.begin() + long(std::min(all.size(), from + size_t(size))));
}

bool immutableTag(const HarborProject &p, const std::string &tag)
{
    for (const auto &pattern : p.immutable)
        if (matchesPattern(pattern, tag))
            return true;
    return false;
}

} // namespace

HarborApi::HarborApi(const HarborConfig *config, ArtifactStore *store, GarbageCollection *gc,
                     RegistryReader *reader, const TokenIssuer *issuer)
    : m_config(config), m_store(store), m_gc(gc), m_reader(reader), m_issuer(issuer)
{}

HarborApi::Caller HarborApi::caller(const HttpRequest &r) const
{
    Caller who;
    const QByteArray auth = r.header("authorization");
    if (!auth.startsWith("Basic "))
        return who;
    const QByteArray pair = QByteArray::fromBase64(auth.mid(6).trimmed());
    const int colon = int(pair.indexOf(':'));
    const HarborUser *u = colon > 0 ? m_config->user(pair.left(colon).toStdString()) : nullptr;
    if (!u || u->password != pair.mid(colon + 1).toStdString()) {
        who.badCredentials = true;
        return who;
    }
    who.user = u->name;
    who.admin = u->admin;
    return who;
}

bool HarborApi::canRead(const Caller &who, const HarborProject &project) const
{
    return project.isPublic || who.admin || !roleIn(*m_config, project, who.user).empty();
}

void HarborApi::handle(HttpConnection *c, const HttpRequest &r)
{
    // A field of the wrong type in a request body is the client's error, never the server's end.
    try {
        route(c, r);
    } catch (const nlohmann::json::exception &e) {
        sendErrors(c, 400, "BAD_REQUEST", std::string("malformed request: ") + e.what());
    }
}

void HarborApi::route(HttpConnection *c, const HttpRequest &r)
{
    const std::string path = r.path.toStdString();
    const Caller who = caller(r);
    if (who.badCredentials) {
        sendErrors(c, 401, "UNAUTHORIZED", "invalid credentials");
        return;
    }
    if (path == "/service/token") {
        token(c, r);
        return;
    }
    if (path == "/sim/age") {
        age(c, r, who);
        return;
    }
    if (path.rfind(kApi, 0) != 0) {
        sendErrors(c, 404, "NOT_FOUND", "no such path: " + path);
        return;
    }
    const auto parts = split(path.substr(std::string(kApi).size()));
    if (parts.size() == 1 && parts[0] == "systeminfo" && r.method == "GET") {
        sendJson(c, 200,
                 json{{"harbor_version", "v2.10.0-gpudesk-sim"},
                      {"auth_mode", "db_auth"},
                      {"registry_url", m_config->registryHost()},
                      {"external_url", "https://" + m_config->registryHost()},
                      {"self_registration", false},
                      {"has_ca_root", false},
                      {"read_only", false}});
        return;
    }
    if (!parts.empty() && parts[0] == "projects") {
        if (parts.size() == 1)
            projects(c, r, who);
        else
            project(c, r, who, parts);
        return;
    }
    if (parts.size() >= 2 && parts[0] == "system" && parts[1] == "gc") {
        gc(c, r, who, parts);
        return;
    }
    sendErrors(c, 404, "NOT_FOUND", "no such path: " + path);
}

void HarborApi::token(HttpConnection *c, const HttpRequest &r)
{
    // The Docker token protocol: the scopes asked for, each granted as far as the caller may.
    const Caller who = caller(r);
    if (r.queryValue(QStringLiteral("service")).toStdString() != m_issuer->service()) {
        sendErrors(c, 400, "BAD_REQUEST", "unknown service");
        return;
    }
    json access = json::array();
    const auto scopes = r.query.allQueryItemValues(QStringLiteral("scope"), QUrl::FullyDecoded);
    for (const QString &scope : scopes) {
        const QStringList fields = scope.split(u':');
        if (fields.size() != 3)
            continue;
        const std::string type = fields[0].toStdString(), name = fields[1].toStdString();
        json granted = json::array();
        if (type == "registry" && name == "catalog" && who.admin) {
            granted.push_back("*");
        } else if (type == "repository") {
            const HarborProject *p = m_config->project(name.substr(0, name.find('/')));
            const std::string role = p ? roleIn(*m_config, *p, who.user) : std::string();
            for (const QString &action : fields[2].split(u',')) {
                const std::string a = action.toStdString();
                const bool ok =
                    p && ((a == "pull" && (p->isPublic || !role.empty())) ||
                          (a == "push" && (role == "projectAdmin" || role == "maintainer" ||
                                           role == "developer")) ||
                          ((a == "delete" || a == "*") &&
                           (role == "projectAdmin" || role == "maintainer")));
                if (ok)
                    granted.push_back(a);
            }
        }
        if (!granted.empty())
            access.push_back({{"type", type}, {"name", name}, {"actions", granted}});
    }
    const int ttl = 1800;
    const std::string t = m_issuer->issue(who.user.empty() ? "" : who.user, access, ttl);
    sendJson(c, 200,
             json{{"token", t},
                  {"access_token", t},
                  {"expires_in", ttl},
                  {"issued_at", rfc3339(QDateTime::currentMSecsSinceEpoch())}});
}

json HarborApi::projectJson(const HarborProject &p, const Caller &who) const
{
    return json{{"project_id", p.id},
                {"name", p.name},
                {"metadata", {{"public", p.isPublic ? "true" : "false"}}},
                {"repo_count", m_store->repositories(p.name).size()},
                {"current_user_role_id",
                 [&] {
                     const std::string role = roleIn(*m_config, p, who.user);
                     return role == "projectAdmin" ? 1
                            : role == "developer"  ? 2
                            : role == "guest"      ? 3
                            : role == "maintainer" ? 4
                                                   : 0;
                 }()},
                {"owner_name", "admin"}};
}

void HarborApi::projects(HttpConnection *c, const HttpRequest &r, const Caller &who)
{
    std::vector<json> visible;
    const std::string name = r.queryValue(QStringLiteral("name")).toStdString();
    for (const auto &p : m_config->projects)
        if (canRead(who, p) && (name.empty() || p.name.find(name) != std::string::npos))
            visible.push_back(projectJson(p, who));
    sendJson(c, 200, json(page(c, r, visible, "/api/v2.0/projects")));
}

void HarborApi::project(HttpConnection *c, const HttpRequest &r, const Caller &who,
                        const std::vector<std::string> &parts)
{
    const HarborProject *p = m_config->project(parts[1]);
    if (!p || !canRead(who, *p)) {
        // Harbor answers 404 alike for a project that is not there and one hidden from the caller.
        sendErrors(c, who.user.empty() && p ? 401 : 404,
                   who.user.empty() && p ? "UNAUTHORIZED" : "NOT_FOUND",
                   "project " + parts[1] + " not found");
        return;
    }
    if (parts.size() == 2 && r.method == "GET") {
        sendJson(c, 200, projectJson(*p, who));
        return;
    }
    if (parts.size() == 3 && parts[2] == "summary" && r.method == "GET") {
        sendJson(c, 200,
                 json{{"repo_count", m_store->repositories(p->name).size()},
                      {"quota",
                       {{"hard", {{"storage", p->quotaBytes}}},
                        {"used", {{"storage", m_store->projectUsage(p->name)}}}}}});
        return;
    }
    if (parts.size() == 3 && parts[2] == "members" && r.method == "GET") {
        // Harbor lists members to those who may see them; a deleted user is no member any more.
        std::vector<json> members;
        int id = 1;
        for (const auto &[user, role] : p->members)
            if (m_config->user(user))
                members.push_back({{"id", id++},
                                   {"project_id", p->id},
                                   {"entity_name", user},
                                   {"entity_type", "u"},
                                   {"role_name", role}});
        sendJson(c, 200, json(page(c, r, members, "/api/v2.0/projects/" + p->name + "/members")));
        return;
    }
    if (parts.size() == 3 && parts[2] == "repositories" && r.method == "GET") {
        std::vector<json> repos;
        for (const std::string &name : m_store->repositories(p->name)) {
            qint64 pulled = 0, updated = 0;
            for (const ArtifactRecord *a : m_store->listed(name)) {
                pulled = std::max(pulled, a->pullMs);
                updated = std::max(updated, a->pushMs);
            }
            repos.push_back({{"name", name},
                             {"project_id", p->id},
                             {"artifact_count", m_store->listed(name).size()},
                             {"update_time", rfc3339(updated)},
                             {"pull_time", rfc3339(pulled)}});
        }
        sendJson(c, 200,
                 json(page(c, r, repos, "/api/v2.0/projects/" + p->name + "/repositories")));
        return;
    }
    if (parts.size() >= 5 && parts[2] == "repositories" && parts[4] == "artifacts") {
        const std::string repository = p->name + "/" + decoded(parts[3]);
        artifacts(c, r, who, *p, repository,
                  parts.size() >= 6 ? std::optional(decoded(parts[5])) : std::nullopt,
                  parts.size() >= 7 ? parts[6] : std::string(),
                  parts.size() >= 8 ? parts[7] : std::string());
        return;
    }
    sendErrors(c, 404, "NOT_FOUND", "no such path");
}

void HarborApi::artifacts(HttpConnection *c, const HttpRequest &r, const Caller &who,
                          const HarborProject &project, const std::string &repository,
                          const std::optional<std::string> &reference, const std::string &sub,
                          const std::string &subId)
{
    const auto toJson = [&](const ArtifactRecord &a) {
        json tags = json::array();
        for (const auto &t : a.tags)
            tags.push_back({{"name", t.name},
                            {"push_time", rfc3339(t.pushMs)},
                            {"pull_time", rfc3339(t.pullMs)},
                            {"immutable", immutableTag(project, t.name)},
                            {"artifact_id", a.id}});
        json references = json::array();
        for (const auto &ref : a.references) {
            const ArtifactRecord *child = m_store->find(repository, ref.digest);
            references.push_back(
                {{"parent_id", a.id},
                 {"child_id", child ? child->id : 0},
                 {"child_digest", ref.digest},
                 {"platform",
                  {{"os", ref.os}, {"architecture", ref.architecture}, {"variant", ref.variant}}}});
        }
        return json{{"id", a.id},
                    {"type", "IMAGE"},
                    {"digest", a.digest},
                    {"manifest_media_type", a.mediaType},
                    {"media_type", a.mediaType},
                    {"project_id", project.id},
                    {"repository_name", repository},
                    {"size", m_store->size(a)},
                    {"push_time", rfc3339(a.pushMs)},
                    {"pull_time", rfc3339(a.pullMs)},
                    {"tags", a.tags.empty() ? json(nullptr) : tags},
                    {"references", a.references.empty() ? json(nullptr) : references},
                    {"extra_attrs", a.extra},
                    {"labels", [&] {
                         json labels = json::array();
                         for (int id : a.labels)
                             if (const HarborLabel *l = m_config->label(id))
                                 labels.push_back({{"id", l->id},
                                                   {"name", l->name},
                                                   {"color", l->color},
                                                   {"description", l->description},
                                                   {"scope", "g"}});
                         return labels.empty() ? json(nullptr) : labels;
                     }()}};
    };
    if (!reference) {
        if (r.method != "GET") {
            sendErrors(c, 405, "METHOD_NOT_ALLOWED", "copy is not simulated");
            return;
        }
        std::vector<json> all;
        for (const ArtifactRecord *a : m_store->listed(repository))
            all.push_back(toJson(*a));
        if (all.empty() && m_store->repositories(project.name).empty()) {
            sendErrors(c, 404, "NOT_FOUND", "repository " + repository + " not found");
            return;
        }
        sendJson(c, 200,
                 json(page(c, r, all,
                           "/api/v2.0/projects/" + project.name + "/repositories/" +
                               QUrl::toPercentEncoding(QString::fromLatin1(QUrl::toPercentEncoding(
                                                           QString::fromStdString(repository.substr(
                                                               project.name.size() + 1)))))
                                   .toStdString() +
                               "/artifacts")));
        return;
    }
    const ArtifactRecord *a = m_store->find(repository, *reference);
    if (!a) {
        sendErrors(c, 404, "NOT_FOUND", "artifact " + repository + "@" + *reference + " not found");
        return;
    }
    if (sub == "labels") {
        // POST {"id": N} adds a global label; DELETE …/labels/N removes it. Developers and up.
        const std::string role = roleIn(*m_config, project, who.user);
        if (role.empty() || role == "guest") {
            sendErrors(c, who.user.empty() ? 401 : 403,
                       who.user.empty() ? "UNAUTHORIZED" : "FORBIDDEN", "forbidden");
            return;
        }
        const auto body = json::parse(r.body.toStdString(), nullptr, false);
        const int id = r.method == "DELETE" ? QByteArray::fromStdString(subId).toInt()
                       : body.is_object()   ? body.value("id", 0)
                                            : 0;
        if (!m_config->label(id)) {
            sendErrors(c, 404, "NOT_FOUND", "label " + std::to_string(id) + " not found");
            return;
        }
        const bool changed = r.method == "DELETE" ? m_store->removeLabel(repository, a->digest, id)
                                                  : m_store->addLabel(repository, a->digest, id);
        if (!changed) {
            sendErrors(c, r.method == "DELETE" ? 404 : 409,
                       r.method == "DELETE" ? "NOT_FOUND" : "CONFLICT",
                       r.method == "DELETE" ? "the artifact has no such label"
                                            : "the label is on the artifact already");
            return;
        }
        c->respond(r.method == "DELETE" ? 200 : 201, "application/json", {});
        return;
    }
    if (!sub.empty()) {
        sendErrors(c, 404, "NOT_FOUND", "no such path");
        return;
    }
    if (r.method == "GET") {
        sendJson(c, 200, toJson(*a));
        return;
    }
    if (r.method != "DELETE") {
        sendErrors(c, 405, "METHOD_NOT_ALLOWED", "method not allowed");
        return;
    }
    const std::string role = roleIn(*m_config, project, who.user);
    if (who.user.empty()) {
        sendErrors(c, 401, "UNAUTHORIZED", "unauthorized");
        return;
    }
    if (role != "projectAdmin" && role != "maintainer") {
        sendErrors(c, 403, "FORBIDDEN", "forbidden");
        return;
    }
    for (const auto &t : a->tags)
        if (immutableTag(project, t.name)) {
            sendErrors(c, 412, "PRECONDITION",
                       "the operation is prohibited by the immutable rule: tag " + t.name + " of " +
                           repository + " is immutable and cannot be deleted");
            return;
        }
    QPointer<HttpConnection> conn(c);
    deleteArtifact(repository, a->digest, [conn](const std::string &error) {
        if (!conn)
            return;
        if (error.empty())
            conn->respond(200, "application/json", {});
        else
            sendErrors(conn, 500, "UNKNOWN", error);
    });
}

void HarborApi::deleteArtifact(const std::string &repository, const std::string &digest,
                               std::function<void(const std::string &)> done)
{
    std::vector<std::string> children;
    if (const ArtifactRecord *a = m_store->find(repository, digest))
        for (const auto &ref : a->references)
            children.push_back(ref.digest);
    m_reader->deleteManifest(repository, digest, [=, this](const auto &reply) {
        if (!reply.error.empty() && reply.status != 404) {
            done(reply.error);
            return;
        }
        m_store->deleted(repository, digest);
        std::vector<std::string> orphans;
        for (const auto &child : children) {
            bool used = false;
            for (const ArtifactRecord *other : m_store->listed(repository))
                for (const auto &ref : other->references)
                    used |= ref.digest == child;
            if (!used)
                orphans.push_back(child);
        }
        if (orphans.empty()) {
            done({});
            return;
        }
        auto left = std::make_shared<size_t>(orphans.size());
        for (const auto &child : orphans)
            m_reader->deleteManifest(repository, child, [=, this](const auto &) {
                m_store->deleted(repository, child);
                if (--*left == 0)
                    done({});
            });
    });
}

void HarborApi::gc(HttpConnection *c, const HttpRequest &r, const Caller &who,
                   const std::vector<std::string> &parts)
{
    if (!who.admin) {
        sendErrors(c, who.user.empty() ? 401 : 403, who.user.empty() ? "UNAUTHORIZED" : "FORBIDDEN",
                   "garbage collection is for system administrators");
        return;
    }
    const auto runJson = [](const GcRun &run) {
        return json{{"id", run.id},
                    {"job_name", "GARBAGE_COLLECTION"},
                    {"job_kind", "MANUAL"},
                    {"job_parameters",
                     json{{"dry_run", run.dryRun}, {"delete_untagged", run.deleteUntagged}}.dump()},
                    {"schedule", {{"type", "Manual"}}},
                    {"job_status", run.status},
                    {"deleted", false},
                    {"creation_time", rfc3339(run.createdMs)},
                    {"update_time", rfc3339(run.updatedMs)}};
    };
    if (parts.size() == 3 && parts[2] == "schedule" && r.method == "POST") {
        const auto body = json::parse(r.body.toStdString(), nullptr, false);
        const auto parameters =
            body.is_object() ? body.value("parameters", json::object()) : json::object();
        const std::string type =
            body.is_object() ? body.value("schedule", json::object()).value("type", "") : "";
        if (type != "Manual") {
            sendErrors(c, 400, "BAD_REQUEST", "only a Manual schedule is simulated");
            return;
        }
        const int id = m_gc->start(parameters.value("dry_run", false),
                                   parameters.value("delete_untagged", false));
        if (id == 0) {
            sendErrors(c, 409, "CONFLICT", "a garbage collection job is running already");
            return;
        }
        c->addResponseHeader("Location", "/api/v2.0/system/gc/" + QByteArray::number(id));
        c->respond(201, "application/json", {});
        return;
    }
    if (parts.size() == 2 && r.method == "GET") {
        std::vector<json> runs;
        for (auto it = m_gc->runs().rbegin(); it != m_gc->runs().rend(); ++it)
            runs.push_back(runJson(*it));
        sendJson(c, 200, json(page(c, r, runs, "/api/v2.0/system/gc")));
        return;
    }
    const GcRun *run =
        parts.size() >= 3 ? m_gc->find(QByteArray::fromStdString(parts[2]).toInt()) : nullptr;
    if (!run) {
        sendErrors(c, 404, "NOT_FOUND", "no such garbage collection run");
        return;
    }
    if (parts.size() == 3)
        sendJson(c, 200, runJson(*run));
    else if (parts.size() == 4 && parts[3] == "log")
        c->respond(200, "text/plain", QByteArray::fromStdString(run->log));
    else
        sendErrors(c, 404, "NOT_FOUND", "no such path");
}

void HarborApi::age(HttpConnection *c, const HttpRequest &r, const Caller &who)
{
    if (!who.admin || r.method != "POST") {
        sendErrors(c, 403, "FORBIDDEN", "POST /sim/age?days=N, as a system administrator");
        return;
    }
    const int days = r.queryValue(QStringLiteral("days")).toInt();
    m_store->age(qint64(days) * 24 * 3600 * 1000);
    sendJson(c, 200, json{{"aged", days}});
}

void HarborApi::handleNotifications(HttpConnection *c, const HttpRequest &r)
{
    try {
        notifications(c, r);
    } catch (const nlohmann::json::exception &e) {
        c->respond(400, "text/plain", QByteArray("malformed envelope: ") + e.what() + '\n');
    }
}

void HarborApi::notifications(HttpConnection *c, const HttpRequest &r)
{
    const auto body = json::parse(r.body.toStdString(), nullptr, false);
    if (r.method != "POST" || !body.is_object()) {
        c->respond(400, "text/plain", "an envelope of events, POSTed\n");
        return;
    }
    // Answered once every pushed manifest has been read, so the registry's next events (a
    // pull right after the push) find the artifact.
    auto left = std::make_shared<int>(1);
    QPointer<HttpConnection> conn(c);
    const auto one = [left, conn] {
        if (--*left == 0 && conn)
            conn->respond(200, "text/plain", {});
    };
    for (const auto &e : body.value("events", json::array())) {
        const auto target = e.value("target", json::object());
        const std::string action = e.value("action", ""), mediaType = target.value("mediaType", "");
        const std::string repository = target.value("repository", ""),
                          digest = target.value("digest", ""), tag = target.value("tag", "");
        const bool manifest = mediaType.find("manifest") != std::string::npos ||
                              mediaType.find("index") != std::string::npos;
        if (action == "delete") {
            m_store->deleted(repository, digest);
        } else if (!manifest) {
            continue;
        } else if (action == "push") {
            ++*left;
            m_store->pushed(repository, digest, mediaType, tag, one);
        } else if (action == "pull" &&
                   e.value("request", json::object()).value("method", "") == "GET" &&
                   e.value("actor", json::object()).value("name", "") != RegistryReader::kSubject) {
            // A HEAD resolves a digest and pulls nothing; Harbor counts GETs only.
            m_store->pulled(repository, digest, tag);
        }
    }
    one();
}

} // namespace sim::harbor
