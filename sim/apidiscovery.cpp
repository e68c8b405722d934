// SPDX-License-Identifier: GPL-3.0-or-later
#include "apidiscovery.h"

#include "apihelpers.h"
#include "resourcetypes.h"

#include <QCryptographicHash>

namespace sim {

using nlohmann::json;

namespace {

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
    } else if (sub == QLatin1String("eviction")) {
        // kubectl drain finds the Eviction's version here (CheckEvictionSupport).
        verbs = {"create"};
        r["kind"] = "Eviction";
        r["group"] = "policy";
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

bool ApiDiscovery::serve(HttpConnection *c, const QString &path) const
{
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
        for (const auto &v : m_types->versions(g))
            versions.push_back(json{{"groupVersion", QString(g + u'/' + v).toStdString()},
                                    {"version", v.toStdString()}});
        return json{
            {"name", g.toStdString()}, {"versions", versions}, {"preferredVersion", versions[0]}};
    };
    if (path == QLatin1String("/apis")) {
        json groups = json::array();
        for (const auto &g : m_types->groups())
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
        if (!m_types->groups().contains(segs[1]))
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
    for (const auto &t : m_types->all()) {
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

} // namespace sim
