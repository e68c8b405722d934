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

private:
    ClusterSession *m_session;
};

} // namespace gpudesk
