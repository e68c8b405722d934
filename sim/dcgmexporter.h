// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cardtimeline.h"

#include <QByteArray>

#include <functional>
#include <string>
#include <vector>

namespace sim {

struct SimState;

// NVIDIA's dcgm-exporter (3.x) for every GPU node: DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_FB_USED,
// DCGM_FI_DEV_GPU_TEMP and DCGM_FI_DEV_POWER_USAGE per card (per GPU instance on a card in MIG
// mode, with GPU_I_PROFILE and GPU_I_ID, and no utilization, which DCGM does not report for
// MIG), labelled as its template writes them: gpu, UUID, device, modelName, Hostname, the
// DCGM_FI_DRIVER_VERSION label, and the pod-resources attributes container, namespace, pod
// (empty where no pod holds the device). Now, in the Prometheus text format; or over a span of
// the simulated past, as OpenMetrics with timestamps, replayed from the card timeline.
class DcgmExporter
{
public:
    explicit DcgmExporter(const SimState &state) : m_state(state) {}

    std::string metrics() const;
    // Produces the history in pieces (one family of one card each), "# EOF" last.
    std::function<QByteArray()> history(qint64 startSecs, qint64 endSecs, qint64 stepSecs) const;

    // One card, or one GPU instance of a card in MIG mode, as a series source.
    struct Device
    {
        std::string labels; // gpu … DCGM_FI_DRIVER_VERSION, without the pod attributes
        int card = 0;
        int gpuInstance = -1;
        int memoryTotalMiB = 0;
        double idlePower = 0;
        double powerLimit = 0;
        quint64 uuidHash = 0;
        std::vector<CardSegment> segments;
        std::vector<size_t> siblings; // all instances of its MIG card (indexes), itself too
    };

private:
    const SimState &m_state;
};

} // namespace sim
