// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <functional>

namespace gpudesk {

class ClusterSession;

// Kubernetes objects as the server holds them now, for the viewers: fetched fresh each time
// (the store keeps only the fields gpudesk counts with).
class ObjectService : public QObject
{
    Q_OBJECT
public:
    explicit ObjectService(ClusterSession *session, QObject *parent = nullptr);

    using YamlDone = std::function<void(const QString &yaml, const QString &error)>;
    // The object at `apiPath` as YAML, managedFields left out unless asked for. The answer goes
    // to `context` (dropped when it is gone); `error` is a sentence when it failed.
    void fetchYaml(const QString &apiPath, bool managedFields, QObject *context, YamlDone done);

    // What the server would make of an edit (PUT at `apiPath`) or of a new object (POST to
    // `collectionPath`), with dryRun=All: the object it would store, as YAML, or its refusal in
    // its words. `conflict` is set when the object changed since the edit's resourceVersion.
    using DryRunDone =
        std::function<void(const QString &yaml, const QString &error, bool conflict)>;
    void dryRunUpdate(const QString &apiPath, const QString &yaml, QObject *context,
                      DryRunDone done);
    void dryRunCreate(const QString &collectionPath, const QString &yaml, QObject *context,
                      DryRunDone done);
    // The YAML a person edited as the JSON the API takes ("" with the line at fault).
    static QByteArray toJson(const QString &yaml, QString *error);
    // An object's JSON as YAML, as `kubectl get -o yaml` prints it.
    static QString toYaml(const QByteArray &json, QString *error);
    // A copy to run again: the object without what the server gave it (uid, resourceVersion,
    // status, times, owner, managed fields, the pod's node), under `name`.
    static QString cloneYaml(const QString &yaml, const QString &name, QString *error);

private:
    ClusterSession *m_session;
};

} // namespace gpudesk
