// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectservice.h"

#include "clustersession.h"
#include "contextconnection.h"
#include "kubeclient.h"
#include "yamlconvert.h"

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

} // namespace gpudesk
