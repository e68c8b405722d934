// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace gpudesk {

class ClusterStore;

// What the object viewer opens: an object's API path (for its YAML), the pods whose logs it can
// show, and the uids whose events belong to it.
struct ObjectRef
{
    QString kind;
    QString ns;
    QString name;
    QString apiPath;
    QStringList pods;       // namespace-local pod names, for the log tab
    QStringList eventUids;  // involved-object uids
    QStringList containers; // of the first pod
    QStringList podUids;    // for the usage tab
    QString workloadKey;    // the job's (or the pod's) key in the store

    static ObjectRef pod(const ClusterStore &store, const QString &uid);
    static ObjectRef workload(const ClusterStore &store, const QString &key);
    static ObjectRef node(const ClusterStore &store, const QString &name);
    bool isValid() const { return !apiPath.isEmpty(); }
};

} // namespace gpudesk
