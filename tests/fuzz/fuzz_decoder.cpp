// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for gpudesk's decoding of Kubernetes lists (what any API server, or anything
// pretending to be one, sends). libFuzzer with -DGPUDESK_FUZZ=ON; otherwise replaymain.cpp replays
// a corpus.
#include "decoder.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray body =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto nodes = gpudesk::Decoder::nodes(body);
    const auto pods = gpudesk::Decoder::pods(body);
    // Every kind gpudesk lists, through the same dispatch the informers use.
    for (const gpudesk::Resource r : gpudesk::kAllResources) {
        gpudesk::Delta d;
        d.resource = r;
        gpudesk::Decoder::list(r, body, &d);
    }
    for (const auto &n : nodes.items) {
        if (n.gpuAllocatable < 0 || n.name.isEmpty())
            __builtin_trap();
    }
    for (const auto &p : pods.items) {
        if (p.gpuRequest < 0)
            __builtin_trap();
    }
    return 0;
}
