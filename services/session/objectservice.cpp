// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectservice.h"
#include "boundedjson.h"

#include "clustersession.h"
#include "contextconnection.h"
#include "jsonfields.h"
#include "kubeclient.h"
#include "yamlconvert.h"

#include <nlohmann/json.hpp>

namespace gpudesk {

ObjectService::ObjectService(ClusterSession *session, QObject *parent)
    : QObject(parent), m_session(session)
{}

void ObjectService::fetchYaml(const QString &apiPath, bool managedFields, QObject *context,
                              YamlDone done)
{
    const auto &connection = m_session->connection();
    if (!connection) {
        done({}, tr("Not connected."));
        return;
    }
    connection->client()->get(apiPath, context, [managedFields, done](const KubeReply &r) {
        if (!r.error.isEmpty()) {
            done({}, tr("Cannot fetch the object: %1").arg(r.error));
            return;
        }
        QString error;
        const QString yaml = objectYaml(r.body, managedFields, &error);
        if (yaml.isEmpty())
            done({}, tr("Cannot show the object: %1").arg(error));
        else
            done(yaml, {});
    });
}

namespace {

void dryRun(const std::shared_ptr<ContextConnection> &connection, bool create, const QString &path,
            const QString &yaml, QObject *context, const ObjectService::DryRunDone &done)
{
    if (!connection) {
        done({}, ObjectService::tr("Not connected."), false);
        return;
    }
    QString error;
    const QByteArray json = objectJson(yaml, &error);
    if (json.isEmpty()) {
        done({}, error, false);
        return;
    }
    auto answer = [done](const KubeReply &r) {
        if (!r.ok()) {
            QString m = r.error;
            for (const ApiStatus::Cause &c : r.status.causes)
                if (!c.message.isEmpty() && !m.contains(c.message))
                    m += u'\n' + (c.field.isEmpty() ? c.message
                                                    : c.field + QStringLiteral(": ") + c.message);
            done({}, m, r.httpStatus == 409);
            return;
        }
        QString e;
        done(objectYaml(r.body, false, &e), e, false);
    };
    if (create)
        connection->client()->create(path, json, true, context, answer);
    else
        connection->client()->update(path, json, true, context, answer);
}

} // namespace

void ObjectService::dryRunUpdate(const QString &apiPath, const QString &yaml, QObject *context,
                                 DryRunDone done)
{
    dryRun(m_session->connection(), false, apiPath, yaml, context, done);
}

void ObjectService::dryRunCreate(const QString &collectionPath, const QString &yaml,
                                 QObject *context, DryRunDone done)
{
    dryRun(m_session->connection(), true, collectionPath, yaml, context, done);
}

QByteArray ObjectService::toJson(const QString &yaml, QString *error)
{
    return objectJson(yaml, error);
}

QString ObjectService::toYaml(const QByteArray &json, QString *error)
{
    return objectYaml(json, false, error);
}

QString ObjectService::cloneYaml(const QString &yaml, const QString &name, QString *error)
{
    const QByteArray json = objectJson(yaml, error);
    if (json.isEmpty())
        return {};
    auto o = parseBoundedJson(json);
    if (!o.is_object()) {
        *error = tr("not an object");
        return {};
    }
    o.erase("status");
    if (o.contains("metadata") && o["metadata"].is_object()) {
        auto &m = o["metadata"];
        for (const char *k : {"uid", "resourceVersion", "creationTimestamp", "deletionTimestamp",
                              "deletionGracePeriodSeconds", "generation", "managedFields",
                              "ownerReferences", "finalizers", "selfLink", "generateName"})
            m.erase(k);
        m["name"] = name.toStdString();
        // Annotations a controller wrote about this run, not the job's own.
        if (m.contains("annotations") && m["annotations"].is_object())
            m["annotations"].erase("kubectl.kubernetes.io/last-applied-configuration");
    }
    // A pod copied as it ran would be bound to the same node, whatever is free now.
    if (jsonfields::text(o, "kind") == QLatin1String("Pod") && o.contains("spec") &&
        o["spec"].is_object())
        o["spec"].erase("nodeName");
    return objectYaml(QByteArray::fromStdString(o.dump()), false, error);
}

} // namespace gpudesk
