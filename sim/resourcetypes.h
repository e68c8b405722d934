// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace sim {

// What discovery says of one resource, and how the store keys it.
struct ResourceType
{
    QString group; // "" for the core group
    QString version;
    QString resource; // plural, as in URLs
    QString singular;
    QString kind;
    bool namespaced = true;
    QStringList shortNames;
    QStringList verbs;
    QStringList categories;
    QStringList subresources; // "status", "log", "token"

    QString apiVersion() const { return group.isEmpty() ? version : group + u'/' + version; }
    QString listKind() const { return kind + QStringLiteral("List"); }
};

// The fixed set of resources the simulator serves.
class ResourceTypes
{
public:
    // `mpiJobVersion`: kubeflow.org/v1 (the training operator) or v2beta1 (the MPI operator,
    // which current clusters run).
    explicit ResourceTypes(const QString &mpiJobVersion = QStringLiteral("v1"));
    const ResourceType *find(const QString &group, const QString &version,
                             const QString &resource) const;
    const ResourceType *byKind(const QString &apiVersion, const QString &kind) const;
    // The one version of a group's resource this simulator serves.
    const ResourceType *served(const QString &group, const QString &resource) const;
    const std::vector<ResourceType> &all() const { return m_types; }
    QStringList groups() const; // non-core groups in a stable order
    QStringList versions(const QString &group) const;

private:
    std::vector<ResourceType> m_types;
};

} // namespace sim
