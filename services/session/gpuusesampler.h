// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gpuusehistory.h"

#include <QObject>
#include <QTimer>

namespace gpudesk {

class ClusterStore;
class ConnectionState;
class TelemetryStore;

// Samples the cluster's GPUs allocated and busy every SampleMs while the figures are current
// (nothing is recorded while they are stale), for the Overview's chart. A new context starts a
// new history.
class GpuUseSampler : public QObject
{
    Q_OBJECT
public:
    static constexpr int SampleMs = 30 * 1000;

    GpuUseSampler(ClusterStore *store, TelemetryStore *telemetry, ConnectionState *state,
                  QObject *parent = nullptr);
    const GpuUseHistory &history() const { return m_history; }

public slots:
    // Records a sample now, if the figures are current.
    void sampleNow();

signals:
    void updated();

private:
    ClusterStore *m_store;
    TelemetryStore *m_telemetry;
    ConnectionState *m_state;
    QTimer m_timer;
    GpuUseHistory m_history;
    QString m_context;
};

} // namespace gpudesk
