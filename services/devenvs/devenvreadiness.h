// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

namespace gpudesk {

class ClusterSession;
class DevEnvsModel;

// Whether a new environment's services answer yet: once its pod runs, each named port is tried
// through a port-forward stream every PollMs — `ssh` by its banner, the others by an HTTP
// answer of any status — until every one has answered once for that pod; the model says which
// still keep it waiting. A running container is not a ready environment: Jupyter may take a
// minute more, and an image may not start what its ports promise.
class DevEnvReadiness : public QObject
{
    Q_OBJECT
public:
    static constexpr int PollMs = 3000;
    static constexpr int MaxConcurrent = 4;
    static constexpr qint64 SettleMs = 5 * 60 * 1000; // after this, "does not answer"
    static constexpr int LateIntervalMs = 60 * 1000;

    DevEnvReadiness(ClusterSession *session, DevEnvsModel *model, QObject *parent = nullptr);
    void clear();

private:
    void tick();
    void probe(const QString &key, const QString &podUid, const QString &ns, const QString &pod,
               const QString &service, quint16 port);

    ClusterSession *m_session;
    DevEnvsModel *m_model;
    QTimer m_timer;
    QHash<QString, QSet<QString>> m_answered; // pod uid → services that answered
    QSet<QString> m_inFlight;                 // "uid/service"
    QHash<QString, qint64> m_tried;           // "uid/service" → when last tried
    quint64 m_generation = 0;
};

} // namespace gpudesk
