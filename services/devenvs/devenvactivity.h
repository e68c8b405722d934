// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jupyteruse.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

namespace gpudesk {

class ClusterSession;
class DevEnvsModel;
class TelemetryStore;

// Asks each running dev environment's Jupyter how it is used (JupyterProbe), every
// intervalMs, at most MaxConcurrent at once, and hands the answers to the model (its "Idle for"
// column) and, by pod, to whoever judges idleness (the findings). An environment whose GPUs were
// busy in the last minutes is not asked: it is not idle, whatever its kernels do.
class DevEnvActivity : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxConcurrent = 4;
    static constexpr int DefaultIntervalMs = 2 * 60 * 1000;

    DevEnvActivity(ClusterSession *session, DevEnvsModel *model, QObject *parent = nullptr);

    void setTelemetry(const TelemetryStore *telemetry) { m_telemetry = telemetry; }
    // How often each environment is asked (tests shorten it).
    void setIntervalMs(int ms);
    // Asks every running environment now (those asked less than a second ago excepted).
    void refresh();
    void clear();
    // What each pod's Jupyter last said, by pod uid (answers only).
    QHash<QString, JupyterUse> byPod() const;

signals:
    void updated();

private:
    void tick();
    void pump();

    ClusterSession *m_session;
    DevEnvsModel *m_model;
    const TelemetryStore *m_telemetry = nullptr;
    int m_intervalMs = DefaultIntervalMs;
    QTimer m_timer;
    QHash<QString, qint64> m_asked;                       // environment key → when last asked
    QHash<QString, std::pair<QString, JupyterUse>> m_use; // key → (pod uid, last answer)
    QStringList m_queue;
    QSet<QString> m_inFlight;
    quint64 m_generation = 0; // answers from before a clear() are dropped
};

} // namespace gpudesk
