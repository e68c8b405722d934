// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for Prometheus's answers to a range query (its JSON, error bodies included): a
// decoded series holds only finite values, in the units gpudesk plots.
#include "prometheusclient.h"

#include <cmath>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray body =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    const QList<gpudesk::PromSeries> series = gpudesk::PrometheusClient::parseMatrix(body, &error);
    for (const gpudesk::PromSeries &s : series)
        for (const QPointF &p : s.points)
            if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
                __builtin_trap();
    return 0;
}
