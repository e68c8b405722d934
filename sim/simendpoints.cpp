// SPDX-License-Identifier: GPL-3.0-or-later
#include "simendpoints.h"

#include "podstreams.h"
#include "simulation.h"

namespace sim {

using nlohmann::json;

namespace {

bool isAdmin(const UserInfo &user)
{
    return user.groups.contains(QStringLiteral("system:masters"));
}

} // namespace

bool SimEndpoints::serve(HttpConnection *c, const HttpRequest &r, const QString &path,
                         const UserInfo &user)
{
    if (!path.startsWith(QLatin1String("/sim/")))
        return false;
    if (path == QLatin1String("/sim/truth")) {
        if (!isAdmin(user))
            sendError(c, {403, QStringLiteral("Forbidden"),
                          QStringLiteral("the ground truth is for the admin token only")});
        else
            sendJson(c, 200, m_sim->truth());
        return true;
    }
    if (path == QLatin1String("/sim/compact")) {
        if (!isAdmin(user) || r.method != "POST") {
            sendError(c, {403, QStringLiteral("Forbidden"),
                          QStringLiteral("POST /sim/compact is for the admin token only")});
            return true;
        }
        // As etcd compaction followed by an API server restart: history is gone and every watch
        // stream is cut, so clients resume from versions that now answer 410 Expired.
        m_store->compact();
        m_cutWatches();
        sendJson(c, 200, json{{"compactedAt", m_store->resourceVersion()}});
        return true;
    }
    if (path == QLatin1String("/sim/churn")) {
        // For client benchmarks: change the scale scenario's churn rate without a restart.
        bool ok = false;
        const double rate = r.queryValue(QStringLiteral("rate")).toDouble(&ok);
        if (!isAdmin(user) || r.method != "POST" || !ok || rate < 0) {
            sendError(c, badRequest(QStringLiteral("POST /sim/churn?rate=N (events per second) "
                                                   "is for the admin token only")));
            return true;
        }
        m_sim->setChurn(rate);
        sendJson(c, 200, json{{"churn", m_sim->churnRate()}});
        return true;
    }
    if (path == QLatin1String("/sim/advance")) {
        // For tests: the simulated clock moved on by N seconds now, as N steps of a second (what
        // waits on time — a token's expiry, a grace period — then happens without real waiting).
        bool ok = false;
        const int seconds = r.queryValue(QStringLiteral("seconds")).toInt(&ok);
        if (!isAdmin(user) || r.method != "POST" || !ok || seconds < 1 || seconds > 86400) {
            sendError(c, badRequest(QStringLiteral("POST /sim/advance?seconds=N (1 to 86400) is "
                                                   "for the admin token only")));
            return true;
        }
        for (int i = 0; i < seconds; ++i)
            m_sim->step(1000);
        sendJson(c, 200, json{{"advanced", seconds}, {"time", m_sim->truth()["time"]}});
        return true;
    }
    if (path == QLatin1String("/sim/driver")) {
        // For tests: what nvidia-smi meets on a node (a driver that broke, a node whose cards
        // vanished, a missing nvidia-smi), as admins find it on real clusters.
        const QString node = r.queryValue(QStringLiteral("node"));
        const QString state = r.queryValue(QStringLiteral("state"));
        if (!isAdmin(user) || r.method != "POST" ||
            !m_sim->setDriverState(node.toStdString(), state.toStdString())) {
            sendError(c, badRequest(QStringLiteral("POST /sim/driver?node=NAME&state=ok|failed|"
                                                   "nodevices|missing is for the admin token "
                                                   "only")));
            return true;
        }
        sendJson(c, 200, json{{"node", node.toStdString()}, {"state", state.toStdString()}});
        return true;
    }
    if (path == QLatin1String("/sim/node")) {
        // For tests: a node's kubelet that stops posting its status (NotReady, as the node
        // controller marks it) and comes back (Ready), again and again for a flapping node.
        // Several names (a,b,c): all in one go, as a rack losing its switch.
        const QString node = r.queryValue(QStringLiteral("name"));
        const QString ready = r.queryValue(QStringLiteral("ready"));
        bool ok = isAdmin(user) && r.method == "POST" &&
                  (ready == QLatin1String("true") || ready == QLatin1String("false"));
        for (const QString &one : node.split(u',', Qt::SkipEmptyParts))
            ok = ok && m_sim->setNodeReady(one.toStdString(), ready == QLatin1String("true"));
        if (!ok || node.isEmpty()) {
            sendError(c, badRequest(QStringLiteral("POST /sim/node?name=NAME[,NAME…]&ready=true|"
                                                   "false is for the admin token only")));
            return true;
        }
        sendJson(c, 200,
                 json{{"node", node.toStdString()}, {"ready", ready == QLatin1String("true")}});
        return true;
    }
    if (path == QLatin1String("/sim/ssh")) {
        // For tests: a node that freezes under a running gpudesk (a hung kernel, a link that
        // black-holes): its SSH sessions and new connections go unanswered until it thaws.
        const QString node = r.queryValue(QStringLiteral("node"));
        const QString state = r.queryValue(QStringLiteral("state"));
        if (!isAdmin(user) || r.method != "POST" ||
            !m_sim->setSshState(node.toStdString(), state.toStdString())) {
            sendError(c, badRequest(QStringLiteral("POST /sim/ssh?node=NAME&state=frozen|live is "
                                                   "for the admin token only")));
            return true;
        }
        sendJson(c, 200, json{{"node", node.toStdString()}, {"ssh", state.toStdString()}});
        return true;
    }
    if (path.startsWith(QLatin1String("/sim/streams")) ||
        path == QLatin1String("/sim/pods/recreate") || path == QLatin1String("/sim/jupyter/stop")) {
        if (!isAdmin(user)) {
            sendError(c, {403, QStringLiteral("Forbidden"),
                          QStringLiteral("%1 is for the admin token only").arg(path)});
            return true;
        }
        return streams(c, r, path);
    }
    if (path == QLatin1String("/sim/dcgm/metrics") || path == QLatin1String("/sim/dcgm/history")) {
        if (!isAdmin(user)) {
            sendError(c, {403, QStringLiteral("Forbidden"),
                          QStringLiteral("the DCGM metrics are for the admin token only")});
            return true;
        }
        if (r.method != "GET") {
            sendError(c, methodNotAllowed());
            return true;
        }
        if (path.endsWith(QLatin1String("/history"))) {
            dcgmHistory(c, r);
            return true;
        }
        c->respond(200, "text/plain; version=0.0.4; charset=utf-8",
                   QByteArray::fromStdString(m_sim->dcgmMetrics()));
        return true;
    }
    return false;
}

bool SimEndpoints::streams(HttpConnection *c, const HttpRequest &r, const QString &path)
{
    // For tests of tunnels: what is open, a cut (as a dropped load balancer leaves it), the
    // kubelet's idle timeout shortened, a dev environment's pod replaced under a new name.
    const QString ns = r.queryValue(QStringLiteral("namespace"));
    const QString name = r.queryValue(QStringLiteral("name"));
    if (path == QLatin1String("/sim/streams") && r.method == "GET") {
        sendJson(c, 200,
                 json{{"streams", m_streams->list()},
                      {"idleTimeoutSeconds", m_streams->idleTimeoutMs() / 1000}});
    } else if (path == QLatin1String("/sim/streams/drop") && r.method == "POST") {
        sendJson(c, 200, json{{"dropped", m_streams->drop(ns, name)}});
    } else if (path == QLatin1String("/sim/streams/idle-timeout") && r.method == "POST") {
        bool ok = false;
        const int seconds = r.queryValue(QStringLiteral("seconds")).toInt(&ok);
        if (!ok || seconds < 1) {
            sendError(c, badRequest(QStringLiteral("POST /sim/streams/idle-timeout?seconds=N")));
            return true;
        }
        m_streams->setIdleTimeoutMs(qint64(seconds) * 1000);
        sendJson(c, 200, json{{"idleTimeoutSeconds", seconds}});
    } else if (path == QLatin1String("/sim/jupyter/stop") && r.method == "POST") {
        // The pod's Jupyter ended (its user stopped it): none runs there until one is started.
        const auto res = m_store->get(
            m_store->types()->find({}, QStringLiteral("v1"), QStringLiteral("pods")), ns, name);
        if (!res.ok()) {
            sendError(c, {404, QStringLiteral("NotFound"),
                          QStringLiteral("pods \"%1\" not found").arg(name)});
            return true;
        }
        m_streams->jupyters()->stop(ns, name, (*res.object.object)["metadata"].value("uid", ""));
        sendJson(c, 200, json{{"namespace", ns.toStdString()}, {"name", name.toStdString()}});
    } else if (path == QLatin1String("/sim/pods/recreate") && r.method == "POST") {
        const std::string made = m_sim->recreatePod(ns.toStdString(), name.toStdString());
        if (made.empty())
            sendError(c, {404, QStringLiteral("NotFound"),
                          QStringLiteral("pods \"%1\" not found").arg(name)});
        else
            sendJson(c, 200, json{{"namespace", ns.toStdString()}, {"name", made}});
    } else {
        sendError(c, badRequest(QStringLiteral(
                         "GET /sim/streams; POST /sim/streams/drop?namespace=NS&name=POD (none: "
                         "all), /sim/streams/idle-timeout?seconds=N, "
                         "/sim/pods/recreate?namespace=NS&name=POD, "
                         "/sim/jupyter/stop?namespace=NS&name=POD")));
    }
    return true;
}

void SimEndpoints::dcgmHistory(HttpConnection *c, const HttpRequest &r)
{
    bool bad = false;
    const auto start = queryInt(r, QStringLiteral("start"), &bad);
    const auto end = queryInt(r, QStringLiteral("end"), &bad);
    const auto step = queryInt(r, QStringLiteral("step"), &bad);
    // Bounded, so that a typo cannot ask for a billion samples.
    if (bad || !start || !end || !step || *step < 1 || *end < *start ||
        (*end - *start) / *step > 100000) {
        sendError(c, badRequest(QStringLiteral("GET /sim/dcgm/history?start=S&end=E&step=SECONDS "
                                               "(unix seconds, at most 100000 steps)")));
        return;
    }
    c->respondProduced(200, "application/openmetrics-text; version=1.0.0; charset=utf-8",
                       m_sim->dcgmHistory(*start, *end, *step));
}

} // namespace sim
