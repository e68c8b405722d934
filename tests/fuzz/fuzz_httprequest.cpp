// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for the simulator's HTTP/1.1 request framing (any local process can connect).
// libFuzzer with -DGPUDESK_FUZZ=ON; otherwise replaymain.cpp replays a corpus.
#include "httpserver.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QByteArray buffer(reinterpret_cast<const char *>(data), qsizetype(size));
    for (;;) {
        const qsizetype before = buffer.size();
        sim::HttpRequest request;
        int status = 0;
        QByteArray message;
        const auto r = sim::HttpRequestParser::parse(buffer, &request, &status, &message);
        if (r == sim::HttpRequestParser::Result::Error) {
            if (status < 400 || status > 499 || message.isEmpty())
                __builtin_trap();
            break;
        }
        if (r == sim::HttpRequestParser::Result::NeedMore)
            break;
        // A request always consumes input: pipelined requests cannot loop forever.
        if (buffer.size() >= before || request.method.isEmpty())
            __builtin_trap();
    }
    return 0;
}
