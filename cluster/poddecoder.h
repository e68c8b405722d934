// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "decoder.h"

#include <optional>

namespace gpudesk {

// One line of a watch, as the watch loop needs it (Decoder::watchEvents).
struct WatchLine
{
    QString type; // ADDED, MODIFIED, DELETED, BOOKMARK, ERROR; "" when the line is no event
    QString resourceVersion;
    QString key; // the object's key; "" when it has none
    int errorCode = 0;
    QString errorMessage;
};

// Pods, the bulk of any sync (100,000 in a large cluster), decoded straight from the bytes with
// simdjson's On-Demand API: only the fields PodInfo holds are read, no document tree is built,
// and repeated texts come from the thread's StringPool. Gives exactly what Decoder's tree-based
// decoding gives for the same bytes (the differential fuzz target fuzz_poddiff and
// tst_decoder check it); whatever it does not read the common way — a list that is not a list,
// an ERROR event, anything malformed — it leaves to that decoder (nullopt / false), so the
// messages for bad input stay the ones users know. Safe on any thread.
class PodDecoder
{
public:
    // A page of a pod list into *out; nullopt: read it with Decoder::listDom.
    static std::optional<DecodedPage<int>> list(const QByteArray &body, Delta *out);
    // One watch line of a pod: ADDED, MODIFIED, DELETED or BOOKMARK. False: read it with the
    // tree-based decoder.
    static bool event(const QByteArray &line, WatchLine *event, PodInfo *pod);
};

} // namespace gpudesk
