// SPDX-License-Identifier: GPL-3.0-or-later
// Differential fuzz target: the same bytes through PodDecoder (simdjson On-Demand) and through
// the tree-based decoder it replaced for pods (kept as the oracle) must give the same pods, page
// metadata and watch progress. PodDecoder may hand an input back to the tree (then the tree's
// answer is used), and may read JSON the tree refuses outright (it does not validate what it
// skips); anything else that differs is a bug.
#include "boundedjson.h"
#include "decoder.h"
#include "poddecoder.h"

#include <cstdint>

using namespace gpudesk;

namespace {

bool same(const WatchProgress &a, const WatchProgress &b)
{
    return a.resourceVersion == b.resourceVersion && a.errorCode == b.errorCode &&
           a.errorMessage == b.errorMessage && a.skipped == b.skipped;
}

void asList(const QByteArray &body)
{
    Delta tree, fast;
    const DecodedPage<int> t = Decoder::listTree(Resource::Pods, body, &tree);
    const auto f = PodDecoder::list(body, &fast);
    if (!f)
        return; // the tree reads it
    if (!t.error.isEmpty()) {
        // Only what the tree could not even parse may read differently.
        if (!parseBoundedJson(body).is_discarded())
            __builtin_trap();
        return;
    }
    if (f->continueToken != t.continueToken || f->resourceVersion != t.resourceVersion ||
        f->skipped != t.skipped || !f->error.isEmpty())
        __builtin_trap();
    if (fast.items<PodInfo>() != tree.items<PodInfo>())
        __builtin_trap();
}

void asWatchLine(const QByteArray &line)
{
    if (parseBoundedJson(line).is_discarded())
        return;
    Delta tree, fast;
    const WatchProgress t = Decoder::watchEventsTree(Resource::Pods, {line}, &tree);
    const WatchProgress f = Decoder::watchEvents(Resource::Pods, {line}, &fast);
    if (!same(t, f) || tree.removed != fast.removed ||
        tree.items<PodInfo>() != fast.items<PodInfo>())
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray body =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    asList(body);
    for (const QByteArray &line : body.split('\n'))
        asWatchLine(line);
    return 0;
}
