// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <QList>
#include <QString>

#include <optional>

namespace gpudesk {

// The objects that make up one user on the cluster, as fetched when the admin looks at that user
// (they are not synced: a thousand users' RoleBindings and Secrets are not worth a watch each).
// Plain data, decoded in cluster/ (accountdecoder.h).

struct Subject
{
    QString kind; // User, Group, ServiceAccount
    QString name;
    QString ns; // a ServiceAccount's
    bool operator==(const Subject &) const = default;
};

struct RoleBindingInfo
{
    QString uid;
    QString ns; // "" for a ClusterRoleBinding
    QString name;
    QString roleKind; // ClusterRole, Role
    QString roleName;
    QList<Subject> subjects;
    Labels labels;
};

struct ServiceAccountInfo
{
    QString uid;
    QString ns;
    QString name;
    Labels labels;
    qint64 created = 0;
};

// A long-lived ServiceAccount token Secret (type kubernetes.io/service-account-token).
struct TokenSecretInfo
{
    QString uid;
    QString name;
    QString serviceAccount; // annotation kubernetes.io/service-account.name
    bool filled = false;    // the token controller has put a token in it
    qint64 created = 0;
};

struct PvcInfo
{
    QString uid;
    QString name;
    qint64 requestBytes = 0; // spec.resources.requests.storage
    QString storageClass;
    QString phase;
};

// A namespace as a user account sees it: with its labels and annotations.
struct NamespaceObject
{
    QString uid;
    QString name;
    QString phase;
    Labels labels;
    Labels annotations;
    QString label(const QString &key) const
    {
        for (const auto &[k, v] : labels)
            if (k == key)
                return v;
        return {};
    }
    QString annotation(const QString &key) const
    {
        for (const auto &[k, v] : annotations)
            if (k == key)
                return v;
        return {};
    }
};

// A ResourceQuota with the annotation gpudesk keeps on it: the limits it last set, so that an
// edit by hand shows.
struct QuotaObject
{
    ResourceQuotaInfo quota;
    QString appliedHard; // annotation gpudesk.io/hard (JSON of the limits gpudesk set)
    QString lastManager; // the managedFields manager of the latest update of spec.hard
};

struct UserObjects
{
    QString ns;
    QString user;
    std::optional<NamespaceObject> namespaceObject;
    QList<ServiceAccountInfo> serviceAccounts;
    QList<RoleBindingInfo> roleBindings;
    QList<RoleBindingInfo> clusterRoleBindings; // those naming the user or its ServiceAccount
    QList<QuotaObject> quotas;
    QList<LimitRangeInfo> limitRanges;
    QList<TokenSecretInfo> tokenSecrets;
    QList<PvcInfo> pvcs;
    // Collections that could not be read, each in a sentence ("secrets: forbidden …"): what
    // they would have said is unknown, not absent.
    QStringList unreadable;

    const ServiceAccountInfo *serviceAccount(const QString &name) const
    {
        for (const auto &sa : serviceAccounts)
            if (sa.name == name)
                return &sa;
        return nullptr;
    }
    const RoleBindingInfo *roleBinding(const QString &name) const
    {
        for (const auto &rb : roleBindings)
            if (rb.name == name)
                return &rb;
        return nullptr;
    }
};

} // namespace gpudesk
