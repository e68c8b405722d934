// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for the simulator's SPDY/3.1 framing (exec, attach and port-forward of kubectl up to
// 1.29): frames and zlib-compressed header blocks from the network. Built with libFuzzer under
// clang (-DGPUDESK_FUZZ=ON); otherwise replaymain.cpp runs it on the corpus files given.
#include "spdyframer.h"

#include <QString>

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QByteArray buffer(reinterpret_cast<const char *>(data), qsizetype(size));
    sim::SpdyFramer framer;
    while (true) {
        sim::SpdyFrame frame;
        QString error;
        const qsizetype before = buffer.size();
        const auto result = framer.parse(buffer, &frame, &error);
        if (result == sim::SpdyFramer::Result::NeedMore) {
            if (buffer.size() != before) // waiting for more never eats what came
                __builtin_trap();
            break;
        }
        if (result == sim::SpdyFramer::Result::Error) {
            if (error.isEmpty()) // a refusal always says why
                __builtin_trap();
            break;
        }
        if (buffer.size() >= before) // each frame takes bytes off the front
            __builtin_trap();
        for (const auto &h : frame.headers)
            if (h.first.isEmpty() || h.first != h.first.toLower())
                __builtin_trap();
        // What the server answers a stream with parses back with a framer of its own.
        if (frame.type == sim::SpdyFrame::SynStream)
            (void)framer.synReply(frame.streamId, frame.headers);
    }
    return 0;
}
