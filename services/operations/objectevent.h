// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

#include <functional>

namespace gpudesk {

class KubeClient;

// A Kubernetes Event that tells an object's owner what gpudesk did to it, by whom and why:
// `kubectl get events` and every dashboard show it where they show the cluster's own.
struct ObjectEvent
{
    // The object: apiVersion as "group/version" or "v1"; no namespace for a cluster-scoped one
    // (a Node), whose Event then lives in `default`, as the kubelet's do.
    QString apiVersion;
    QString kind;
    QString ns;
    QString name;
    QString uid;
    QString reason; // GpudeskDeleted, GpudeskKilledProcess, …
    QString message;

    QByteArray body(qint64 nowMs) const;
    QString eventNamespace() const { return ns.isEmpty() ? QStringLiteral("default") : ns; }

    // Creates it; `done` receives "" or why the server refused (the action stands either way).
    void post(KubeClient *client, QObject *context,
              std::function<void(const QString &)> done) const;
};

} // namespace gpudesk
