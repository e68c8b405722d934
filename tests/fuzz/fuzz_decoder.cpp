// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for gpudesk's decoding of Kubernetes lists (what any API server, or anything
// pretending to be one, sends). libFuzzer with -DGPUDESK_FUZZ=ON; otherwise a corpus replay.
#include "decoder.h"

#include <QFile>

#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray body =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto nodes = gpudesk::Decoder::nodes(body);
    const auto pods = gpudesk::Decoder::pods(body);
    gpudesk::Decoder::queues(body);
    gpudesk::Decoder::namespaces(body);
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

#ifndef GPUDESK_FUZZ
int main(int argc, char **argv)
{
    int runs = 0;
    for (int i = 1; i < argc; ++i) {
        QFile f(QString::fromLocal8Bit(argv[i]));
        if (!f.open(QIODevice::ReadOnly))
            return 1;
        const QByteArray d = f.readAll();
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(d.constData()), size_t(d.size()));
        ++runs;
    }
    std::printf("%d inputs replayed\n", runs);
    return runs > 0 ? 0 : 1;
}
#endif
