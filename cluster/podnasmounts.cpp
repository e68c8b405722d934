// SPDX-License-Identifier: GPL-3.0-or-later
#include "podnasmounts.h"

#include "kubeclient.h"

#include <QDir>
#include <QEventLoop>
#include <QJsonDocument>
#include <QTimer>

#include <algorithm>

namespace gpudesk {

namespace {

bool under(const QString &path, const QStringList &roots)
{
    return std::any_of(roots.cbegin(), roots.cend(), [&path](const QString &r) {
        return path == r || path.startsWith(r + u'/');
    });
}

// A path as written in a spec, made plain: no "..", no doubled or trailing slash.
QString plain(const QString &path)
{
    if (!path.startsWith(u'/') || path.split(u'/').contains(QStringLiteral("..")))
        return QString();
    return QDir::cleanPath(path);
}

} // namespace

PodNasRoute PodNasMounts::of(const QJsonObject &pod, const QStringList &roots)
{
    PodNasRoute r;
    const QJsonObject meta = pod[QLatin1String("metadata")].toObject();
    r.ns = meta[QLatin1String("namespace")].toString();
    r.pod = meta[QLatin1String("name")].toString();
    r.environment = meta[QLatin1String("labels")][QLatin1String("gpudesk.io/devenv")].toString();
    const QJsonObject spec = pod[QLatin1String("spec")].toObject();
    const QJsonArray containers = spec[QLatin1String("containers")].toArray();
    QJsonObject chosen = containers.first().toObject();
    for (const QJsonValue &c : containers)
        if (c[QLatin1String("name")].toString() == QLatin1String("devenv"))
            chosen = c.toObject();
    r.container = chosen[QLatin1String("name")].toString();
    QHash<QString, QString> hostPaths; // volume → its hostPath
    for (const QJsonValue &v : spec[QLatin1String("volumes")].toArray())
        if (v[QLatin1String("hostPath")].isObject())
            hostPaths.insert(v[QLatin1String("name")].toString(),
                             plain(v[QLatin1String("hostPath")][QLatin1String("path")].toString()));
    for (const QJsonValue &m : chosen[QLatin1String("volumeMounts")].toArray()) {
        const QString at = plain(m[QLatin1String("mountPath")].toString());
        const QString sub = m[QLatin1String("subPath")].toString();
        if (!at.isEmpty())
            r.mountPoints << at;
        // A subPathExpr's folder is known only on the node (it names the pod's env): not taken.
        if (at.isEmpty() || sub.split(u'/').contains(QStringLiteral("..")) ||
            m[QLatin1String("subPathExpr")].isString())
            continue;
        const QString volume = m[QLatin1String("name")].toString();
        QString nas;
        if (hostPaths.contains(volume)) {
            const QString host = hostPaths.value(volume);
            nas = host.isEmpty() ? QString() : plain(sub.isEmpty() ? host : host + u'/' + sub);
        } else if (sub.isEmpty()) {
            nas = at; // mounted where the nodes have it
        }
        if (!nas.isEmpty() && under(nas, roots))
            r.mounts.append({nas, at});
    }
    return r;
}

std::optional<PodNasRoute> PodNasMounts::choose(const QJsonArray &items, const QStringList &roots,
                                                const QString &preferredNs)
{
    QList<PodNasRoute> found;
    for (const QJsonValue &item : items) {
        const QJsonObject pod = item.toObject();
        if (pod[QLatin1String("status")][QLatin1String("phase")].toString() !=
                QLatin1String("Running") ||
            pod[QLatin1String("metadata")][QLatin1String("deletionTimestamp")].isString())
            continue;
        PodNasRoute r = of(pod, roots);
        if (!r.mounts.isEmpty())
            found << r;
    }
    if (found.isEmpty())
        return std::nullopt;
    std::sort(found.begin(), found.end(),
              [&preferredNs](const PodNasRoute &a, const PodNasRoute &b) {
                  const bool pa = a.ns == preferredNs, pb = b.ns == preferredNs;
                  if (pa != pb)
                      return pa;
                  return std::pair(a.ns, a.pod) < std::pair(b.ns, b.pod);
              });
    return found.first();
}

std::optional<PodNasRoute> PodNasMounts::fetch(KubeClient *client, const QString &pod,
                                               const QStringList &roots,
                                               const std::atomic<bool> *cancel, QString *error)
{
    const QString ns = pod.section(u'/', 0, 0), name = pod.section(u'/', 1);
    QEventLoop loop;
    KubeReply reply;
    bool done = false;
    client->get(QStringLiteral("/api/v1/namespaces/%1/pods/%2").arg(ns, name), &loop,
                [&](const KubeReply &r) {
                    reply = r;
                    done = true;
                    loop.quit();
                });
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    QTimer watch; // a step cancelled (its dialog closed) does not wait the 30 s out
    QObject::connect(&watch, &QTimer::timeout, &loop, [&] {
        if (cancel && *cancel)
            loop.quit();
    });
    watch.start(100);
    if (!done)
        loop.exec();
    if (!done && cancel && *cancel) {
        *error = QCoreApplication::translate("gpudesk::PodNasMounts", "Cancelled.");
        return std::nullopt;
    }
    if (!done) {
        *error = QCoreApplication::translate("gpudesk::PodNasMounts", "%1 did not answer in 30 s.")
                     .arg(pod);
        return std::nullopt;
    }
    if (!reply.ok()) {
        *error = reply.error;
        return std::nullopt;
    }
    const QJsonArray one{QJsonDocument::fromJson(reply.body).object()};
    auto route = choose(one, roots, ns);
    if (!route)
        *error =
            QCoreApplication::translate("gpudesk::PodNasMounts",
                                        "%1 no longer runs with a folder of the NAS (%2) mounted.")
                .arg(pod, roots.join(QStringLiteral(", ")));
    return route;
}

} // namespace gpudesk
