// SPDX-License-Identifier: GPL-3.0-or-later
#include "discovery.h"
#include "boundedjson.h"

#include "kubeclient.h"

#include <QLoggingCategory>

#include <nlohmann/json.hpp>

Q_DECLARE_LOGGING_CATEGORY(lcKube)

namespace gpudesk {

using nlohmann::json;

ApiDiscovery::ApiDiscovery(KubeClient *client, QObject *parent) : QObject(parent), m_client(client)
{}

QHash<QString, QStringList> ApiDiscovery::parseGroups(const QByteArray &body, QString *error)
{
    QHash<QString, QStringList> out;
    const json j = parseBoundedJson(body);
    if (!j.is_object() || !j.contains("groups") || !j["groups"].is_array()) {
        *error = QStringLiteral("the answer to /apis is not an APIGroupList");
        return out;
    }
    for (const json &g : j["groups"]) {
        if (!g.is_object() || !g.contains("name") || !g["name"].is_string())
            continue;
        QStringList versions;
        if (g.contains("versions") && g["versions"].is_array())
            for (const json &v : g["versions"])
                if (v.is_object() && v.contains("version") && v["version"].is_string())
                    versions << QString::fromStdString(v["version"].get<std::string>());
        out.insert(QString::fromStdString(g["name"].get<std::string>()), versions);
    }
    return out;
}

QStringList ApiDiscovery::parseResources(const QByteArray &body, QString *error)
{
    QStringList out;
    const json j = parseBoundedJson(body);
    if (!j.is_object() || !j.contains("resources") || !j["resources"].is_array()) {
        *error = QStringLiteral("not an APIResourceList");
        return out;
    }
    for (const json &r : j["resources"]) {
        if (!r.is_object() || !r.contains("name") || !r["name"].is_string())
            continue;
        const QString name = QString::fromStdString(r["name"].get<std::string>());
        if (!name.contains(u'/')) // pods/log, jobs/status: subresources
            out << name;
    }
    return out;
}

void ApiDiscovery::start()
{
    m_result = {};
    m_groups.clear();
    m_toAsk.clear();
    m_resourcesOf.clear();
    m_client->get(QStringLiteral("/apis"), this, [this](const KubeReply &r) { onGroups(r); });
}

void ApiDiscovery::onGroups(const KubeReply &reply)
{
    if (!reply.error.isEmpty() && reply.httpStatus != 403 && reply.httpStatus != 404) {
        emit failed(reply.error, reply.httpStatus);
        return;
    }
    QString error;
    if (reply.error.isEmpty())
        m_groups = parseGroups(reply.body, &error);
    m_result.groups = m_groups;
    if (!reply.error.isEmpty() || !error.isEmpty()) {
        // Discovery denied or mangled (a proxy, a locked-down account): read the preferred
        // versions and let each list say whether the kind is there.
        qCDebug(lcKube) << "discovery unavailable:" << reply.error << error;
        for (const Resource r : kAllResources)
            m_result.versions.insert(r, defaultVersion(r));
        emit finished();
        return;
    }
    for (const Resource r : kAllResources) {
        const ResourceInfo info = resourceInfo(r);
        if (!*info.group)
            continue;
        const QStringList served = m_groups.value(QLatin1String(info.group));
        for (const QString &v : info.candidateVersions()) {
            const QString gv = QLatin1String(info.group) + u'/' + v;
            if (served.contains(v) && !m_toAsk.contains(gv))
                m_toAsk << gv;
        }
    }
    askNext();
}

void ApiDiscovery::askNext()
{
    for (const QString &gv : std::as_const(m_toAsk)) {
        if (m_resourcesOf.contains(gv))
            continue;
        m_client->get(QStringLiteral("/apis/") + gv, this, [this, gv](const KubeReply &r) {
            if (!r.error.isEmpty() && r.httpStatus != 404 && r.httpStatus != 403 &&
                r.httpStatus != 503) {
                emit failed(r.error, r.httpStatus);
                return;
            }
            QString error;
            // 404: the version went away since /apis; 503: an aggregated API that is down.
            m_resourcesOf.insert(gv, r.error.isEmpty() ? parseResources(r.body, &error)
                                                       : QStringList());
            askNext();
        });
        return;
    }
    for (const Resource r : kAllResources) {
        const ResourceInfo info = resourceInfo(r);
        if (!*info.group) {
            m_result.versions.insert(r, defaultVersion(r));
            continue;
        }
        QStringList lookedFor;
        for (const QString &v : info.candidateVersions()) {
            const QString gv = QLatin1String(info.group) + u'/' + v;
            lookedFor << gv;
            if (m_resourcesOf.value(gv).contains(QLatin1String(info.plural))) {
                m_result.versions.insert(r, v);
                break;
            }
        }
        if (!m_result.versions.contains(r))
            m_result.missing.insert(r, lookedFor.join(QStringLiteral(", ")));
    }
    emit finished();
}

} // namespace gpudesk
