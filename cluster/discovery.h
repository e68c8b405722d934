// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resource.h"

#include <QHash>
#include <QObject>
#include <QPointer>

namespace gpudesk {

class KubeClient;
struct KubeReply;

// Which version of each kind gpudesk reads the cluster serves, found as kubectl finds it: the API
// groups (/apis), then each candidate group version's resources (/apis/<group>/<version>). A
// cluster may serve MPIJobs only at kubeflow.org/v2beta1 (the MPI operator) or only at v1 (the
// training operator); asking for a fixed version made them vanish.
class ApiDiscovery : public QObject
{
    Q_OBJECT
public:
    struct Result
    {
        QHash<Resource, QString> versions; // served kinds → the version to read
        // Kinds not served, with what was looked for ("kubeflow.org/v2beta1, kubeflow.org/v1").
        QHash<Resource, QString> missing;
        // Every API group the server serves, with its versions (empty when discovery was
        // denied): what an action needs beyond the kinds gpudesk reads (Volcano's commands).
        QHash<QString, QStringList> groups;
        QString version(Resource r) const { return versions.value(r); }
        bool serves(Resource r) const { return versions.contains(r); }
    };

    explicit ApiDiscovery(KubeClient *client, QObject *parent = nullptr);
    void start();
    // The answer as it stands (complete after finished()).
    const Result &result() const { return m_result; }
    // Decodes an APIGroupList (/apis): group → versions it serves. For tests and fuzzing.
    static QHash<QString, QStringList> parseGroups(const QByteArray &body, QString *error);
    // Decodes an APIResourceList: the plural names of its resources (subresources left out).
    static QStringList parseResources(const QByteArray &body, QString *error);

signals:
    void finished();
    // The server could not be asked (connection, TLS, 401): the message names the server.
    void failed(const QString &error, int httpStatus);

private:
    void onGroups(const KubeReply &reply);
    void askNext();

    KubeClient *m_client;
    Result m_result;
    QHash<QString, QStringList> m_groups;
    // Group versions still to ask, and what each one serves once asked.
    QStringList m_toAsk;
    QHash<QString, QStringList> m_resourcesOf; // "group/version" → plurals
};

} // namespace gpudesk
