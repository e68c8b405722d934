// SPDX-License-Identifier: GPL-3.0-or-later
#include "priorityclasses.h"

#include "clustersession.h"
#include "contextconnection.h"
#include "kubeclient.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace gpudesk::priorityclasses {

bool decode(const QByteArray &json, QList<PriorityClass> *out, QString *error)
{
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject() ||
        !doc.object().value(QLatin1String("items")).isArray()) {
        *error = QCoreApplication::translate(
            "PriorityClasses", "The server's answer is not a list of PriorityClasses.");
        return false;
    }
    out->clear();
    for (const QJsonValue &v : doc.object().value(QLatin1String("items")).toArray()) {
        const QJsonObject o = v.toObject();
        PriorityClass c;
        c.name =
            o.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
        if (c.name.isEmpty())
            continue;
        c.value = o.value(QLatin1String("value")).toInt();
        c.globalDefault = o.value(QLatin1String("globalDefault")).toBool();
        c.preemptionPolicy = o.value(QLatin1String("preemptionPolicy"))
                                 .toString(QStringLiteral("PreemptLowerPriority"));
        c.description = o.value(QLatin1String("description")).toString();
        out->append(c);
    }
    std::stable_sort(out->begin(), out->end(), [](const PriorityClass &a, const PriorityClass &b) {
        return a.value > b.value;
    });
    return true;
}

void fetch(ClusterSession *session, QObject *context, Done done)
{
    const auto &c = session->connection();
    KubeClient *client = c ? c->client() : nullptr;
    if (!client) {
        done({}, QCoreApplication::translate("PriorityClasses", "Not connected."));
        return;
    }
    client->get(QStringLiteral("/apis/scheduling.k8s.io/v1/priorityclasses"), context,
                [done](const KubeReply &r) {
                    QList<PriorityClass> classes;
                    QString error = r.error;
                    if (r.ok())
                        decode(r.body, &classes, &error);
                    done(classes, error);
                });
}

std::optional<StartReason> unknownReason(const QString &name, const QList<PriorityClass> &classes)
{
    if (name.isEmpty() || std::any_of(classes.cbegin(), classes.cend(),
                                      [&](const PriorityClass &c) { return c.name == name; }))
        return std::nullopt;
    QStringList offered;
    for (const PriorityClass &c : classes)
        if (!c.system())
            offered << c.name;
    StartReason r;
    r.severity = StartReason::Never;
    r.code = QStringLiteral("priority-class-unknown");
    r.field = QStringLiteral("priority");
    r.message = QCoreApplication::translate(
                    "gpudesk::PriorityClasses",
                    "The cluster has no PriorityClass named %1: the API server refuses the job's "
                    "pods (\"no PriorityClass with name %1 was found\"), so it never starts.")
                    .arg(name);
    r.fix = offered.isEmpty()
                ? QCoreApplication::translate("gpudesk::PriorityClasses",
                                              "Leave the priority empty: the cluster has no "
                                              "class a job may name.")
                : QCoreApplication::translate("gpudesk::PriorityClasses",
                                              "Name one of the cluster's classes (%1), or none.")
                      .arg(offered.join(QStringLiteral(", ")));
    r.numbers.insert(QStringLiteral("priorityClass"), name);
    r.numbers.insert(QStringLiteral("classes"), offered);
    return r;
}

} // namespace gpudesk::priorityclasses
