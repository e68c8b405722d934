// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpuusesampler.h"

#include "clusterstore.h"
#include "connectionstate.h"
#include "gpuaccounting.h"
#include "telemetrystore.h"

#include <QDateTime>

namespace gpudesk {

GpuUseSampler::GpuUseSampler(ClusterStore *store, TelemetryStore *telemetry, ConnectionState *state,
                             QObject *parent)
    : QObject(parent), m_store(store), m_telemetry(telemetry), m_state(state)
{
    m_timer.setInterval(SampleMs);
    connect(&m_timer, &QTimer::timeout, this, &GpuUseSampler::sampleNow);
    m_timer.start();
    // The first sample as soon as the cluster is listed, not half a minute later.
    connect(state, &ConnectionState::changed, this, [this] {
        if (m_state->context() != m_context || m_history.isEmpty())
            sampleNow();
    });
}

void GpuUseSampler::sampleNow()
{
    if (m_state->context() != m_context) {
        m_context = m_state->context();
        m_history.clear();
        emit updated();
    }
    if (m_state->state() != ConnectionState::State::Connected || m_state->isStale())
        return;
    for (const InformerStatus &c : m_state->collections())
        if (c.state == InformerStatus::Idle || c.state == InformerStatus::Syncing)
            return; // not listed whole yet
    const GpuFigures g = GpuAccounting(m_store, m_telemetry).cluster();
    GpuUseHistory::Point p;
    p.timeMs = QDateTime::currentMSecsSinceEpoch();
    p.total = g.total;
    p.allocated = g.allocated;
    p.exact = g.exact;
    p.busy = m_telemetry && m_telemetry->sampledGpus() > 0 ? m_telemetry->busyGpus() : -1;
    m_history.append(p);
    emit updated();
}

} // namespace gpudesk
