// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resource.h"

#include <QString>

namespace gpudesk {

// A kind of object gpudesk writes, as the API addresses it: the kinds it syncs (Resource), at the
// version the cluster serves, and the few it only creates or deletes (a user's account and
// rights, a dev environment's volume claim). Planners name an object's kind once through it
// instead of spelling its kind, group, version and plural at every step.
struct ApiKind
{
    QString kind;    // "RoleBinding"
    QString group;   // "" for the core group
    QString version; // "v1"
    QString plural;  // "rolebindings"
    bool namespaced = true;

    // A synced kind at `version` (the one discovery found; empty: the preferred one).
    static ApiKind of(Resource r, const QString &version = {})
    {
        const ResourceInfo info = resourceInfo(r);
        return {QLatin1String(info.kind), QLatin1String(info.group),
                version.isEmpty() ? defaultVersion(r) : version, QLatin1String(info.plural),
                info.namespaced()};
    }
    static ApiKind serviceAccounts()
    {
        return {QStringLiteral("ServiceAccount"),
                {},
                QStringLiteral("v1"),
                QStringLiteral("serviceaccounts"),
                true};
    }
    static ApiKind roleBindings()
    {
        return {QStringLiteral("RoleBinding"), QStringLiteral("rbac.authorization.k8s.io"),
                QStringLiteral("v1"), QStringLiteral("rolebindings"), true};
    }
    static ApiKind clusterRoleBindings()
    {
        return {QStringLiteral("ClusterRoleBinding"), QStringLiteral("rbac.authorization.k8s.io"),
                QStringLiteral("v1"), QStringLiteral("clusterrolebindings"), false};
    }
    static ApiKind limitRanges()
    {
        return {QStringLiteral("LimitRange"),
                {},
                QStringLiteral("v1"),
                QStringLiteral("limitranges"),
                true};
    }
    static ApiKind persistentVolumeClaims()
    {
        return {QStringLiteral("PersistentVolumeClaim"),
                {},
                QStringLiteral("v1"),
                QStringLiteral("persistentvolumeclaims"),
                true};
    }

    // "/api/v1/namespaces/NS/pods", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings".
    QString collection(const QString &ns = {}) const
    {
        QString path = group.isEmpty() ? QString(QStringLiteral("/api/") + version)
                                       : QString(QStringLiteral("/apis/") + group + u'/' + version);
        if (namespaced && !ns.isEmpty())
            path += QStringLiteral("/namespaces/") + ns;
        return path + u'/' + plural;
    }
    QString path(const QString &ns, const QString &name) const
    {
        return collection(ns) + u'/' + name;
    }
};

} // namespace gpudesk
