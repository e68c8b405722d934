// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectevent.h"

#include "kubeclient.h"

#include <QDateTime>
#include <QHostInfo>

#include <nlohmann/json.hpp>

namespace gpudesk {

QByteArray ObjectEvent::body(qint64 nowMs) const
{
    using json = nlohmann::json;
    const std::string stamp =
        QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC).toString(Qt::ISODate).toStdString();
    const std::string host = QHostInfo::localHostName().toStdString();
    json involved{{"apiVersion", apiVersion.toStdString()},
                  {"kind", kind.toStdString()},
                  {"name", name.toStdString()}};
    if (!uid.isEmpty())
        involved["uid"] = uid.toStdString();
    if (!ns.isEmpty())
        involved["namespace"] = ns.toStdString();
    // Named as the API's own recorders name them: the object, then a unique suffix.
    const QString eventName = name + u'.' + QString::number(nowMs * 1000000, 16);
    const json event{
        {"apiVersion", "v1"},
        {"kind", "Event"},
        {"metadata",
         {{"name", eventName.toStdString()}, {"namespace", eventNamespace().toStdString()}}},
        {"involvedObject", involved},
        {"reason", reason.toStdString()},
        {"message", message.left(1024).toStdString()},
        {"type", "Warning"},
        {"source", {{"component", "gpudesk"}, {"host", host}}},
        {"reportingComponent", "gpudesk"},
        {"reportingInstance", host},
        {"firstTimestamp", stamp},
        {"lastTimestamp", stamp},
        {"count", 1}};
    return QByteArray::fromStdString(event.dump());
}

void ObjectEvent::post(KubeClient *client, QObject *context,
                       std::function<void(const QString &)> done) const
{
    client->create(
        QStringLiteral("/api/v1/namespaces/%1/events").arg(eventNamespace()),
        body(QDateTime::currentMSecsSinceEpoch()), false, context,
        [done = std::move(done)](const KubeReply &r) { done(r.ok() ? QString() : r.error); });
}

} // namespace gpudesk
