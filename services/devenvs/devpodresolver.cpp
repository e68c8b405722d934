// SPDX-License-Identifier: GPL-3.0-or-later
#include "devpodresolver.h"

#include "kubeclient.h"
#include "kubeconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QUrl>

namespace gpudesk {

namespace {

bool runningNotDeleting(const QJsonObject &pod)
{
    if (pod.value(QLatin1String("metadata"))
            .toObject()
            .contains(QLatin1String("deletionTimestamp")))
        return false;
    const QJsonObject status = pod.value(QLatin1String("status")).toObject();
    if (status.value(QLatin1String("phase")).toString() != QLatin1String("Running"))
        return false;
    for (const QJsonValue &cs : status.value(QLatin1String("containerStatuses")).toArray())
        if (!cs[QLatin1String("state")].toObject().contains(QLatin1String("running")))
            return false;
    return true;
}

} // namespace

DevPodResolver::DevPodResolver(KubeClient *client, QString ns, QString environment, QObject *parent)
    : QObject(parent), m_client(client), m_ns(std::move(ns)), m_environment(std::move(environment))
{}

void DevPodResolver::resolve(QObject *context, Done done)
{
    const QString selector = QString::fromLatin1(
        QUrl::toPercentEncoding(QStringLiteral("gpudesk.io/devenv=") + m_environment));
    const QString path =
        QStringLiteral("/api/v1/namespaces/%1/pods?labelSelector=%2").arg(m_ns, selector);
    QPointer<QObject> ctx(context);
    m_client->get(path, this, [this, ctx, done](const KubeReply &r) {
        if (!ctx)
            return;
        if (!r.ok()) {
            done({}, r.error, r.httpStatus != 403);
            return;
        }
        QString best, bestCreated;
        int labelled = 0;
        for (const QJsonValue &v :
             QJsonDocument::fromJson(r.body).object().value(QLatin1String("items")).toArray()) {
            const QJsonObject pod = v.toObject();
            ++labelled;
            if (!runningNotDeleting(pod))
                continue;
            const QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
            const QString created = meta.value(QLatin1String("creationTimestamp")).toString();
            if (best.isEmpty() || created > bestCreated) {
                best = meta.value(QLatin1String("name")).toString();
                bestCreated = created;
            }
        }
        if (!best.isEmpty()) {
            done(best, {}, true);
            return;
        }
        if (labelled > 0) {
            done({}, tr("No pod of environment %1 is running yet.").arg(m_environment), true);
            return;
        }
        // Not an environment gpudesk labelled: the name is a pod's.
        m_client->get(
            QStringLiteral("/api/v1/namespaces/%1/pods/%2").arg(m_ns, m_environment), this,
            [this, ctx, done](const KubeReply &p) {
                if (!ctx)
                    return;
                if (p.notFound())
                    done({},
                         tr("There is no environment or pod %1 in %2.").arg(m_environment, m_ns),
                         true);
                else if (!p.ok())
                    done({}, p.error, p.httpStatus != 403);
                else if (!runningNotDeleting(QJsonDocument::fromJson(p.body).object()))
                    done({}, tr("Pod %1 is not running.").arg(m_environment), true);
                else
                    done(m_environment, {}, true);
            });
    });
}

std::unique_ptr<KubeClient> DevPodResolver::clientFor(const QStringList &kubeconfigFiles,
                                                      const QString &context, QString *error)
{
    const auto config = KubeConfig::load(kubeconfigFiles, error);
    const auto endpoint = config ? config->endpoint(context, error) : std::nullopt;
    if (!endpoint)
        return nullptr;
    auto client = std::make_unique<KubeClient>(*endpoint);
    if (!client->setupError().isEmpty()) {
        *error = client->setupError();
        return nullptr;
    }
    return client;
}

} // namespace gpudesk
