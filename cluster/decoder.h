// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "delta.h"

#include <QByteArray>
#include <QString>

#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace gpudesk {

// One page of a Kubernetes list, decoded.
template <class T> struct DecodedPage
{
    QList<T> items;
    QString continueToken;
    QString resourceVersion;
    QString error;   // the list was not valid (says what came back instead); items may be partial
    int skipped = 0; // items that were not objects of the expected shape
};

// The bookkeeping of a run of watch events, beside the objects they carried.
struct WatchProgress
{
    QString resourceVersion; // of the last event or bookmark; "" when none came
    int errorCode = 0;       // an ERROR event's Status code (410: relist)
    QString errorMessage;
    int skipped = 0; // lines that were not events of the expected shape
};

// Decoders of Kubernetes JSON. Pure functions, safe on any thread; malformed input gives an
// error or skipped items, never a crash.
class Decoder
{
public:
    // A list page of `resource` into `out` (items appended). Returns the page's metadata.
    // Pods go through PodDecoder (simdjson, no tree), the rest through nlohmann's tree.
    static DecodedPage<int> list(Resource resource, const QByteArray &body, Delta *out);
    // Watch event lines (one JSON object each, as the API server streams them), in order.
    static WatchProgress watchEvents(Resource resource, const QList<QByteArray> &lines, Delta *out);
    // The same through nlohmann's tree for every kind: the decoder of all but pods, and for pods
    // the oracle PodDecoder is tested against (and what reads what PodDecoder leaves).
    static DecodedPage<int> listTree(Resource resource, const QByteArray &body, Delta *out);
    static WatchProgress watchEventsTree(Resource resource, const QList<QByteArray> &lines,
                                         Delta *out);
    // One object of `resource` into its entity type (GPUDESK_KINDS): one specialization per
    // entity type, in decoder.cpp.
    template <class T> static T decode(Resource resource, const nlohmann::json &object);

    // A list page as entities of type T.
    template <class T> static DecodedPage<T> typedList(Resource resource, const QByteArray &body)
    {
        Delta d;
        d.resource = resource;
        const DecodedPage<int> meta = list(resource, body, &d);
        DecodedPage<T> page;
        page.items = std::move(d.items<T>());
        page.continueToken = meta.continueToken;
        page.resourceVersion = meta.resourceVersion;
        page.error = meta.error;
        page.skipped = meta.skipped;
        return page;
    }
    static DecodedPage<NodeInfo> nodes(const QByteArray &l)
    {
        return typedList<NodeInfo>(Resource::Nodes, l);
    }
    static DecodedPage<PodInfo> pods(const QByteArray &l)
    {
        return typedList<PodInfo>(Resource::Pods, l);
    }

    // "8", "500m", "1k", "16Gi": whole units, rounded down; invalid → -1.
    static qint64 quantityUnits(const QString &quantity);
    // The same in thousandths ("500m" → 500, "2" → 2000), for CPU.
    static qint64 quantityMilli(const QString &quantity);
    // RFC 3339 ("2026-11-22T11:01:49Z", fractions allowed) → ms since the epoch; 0 if invalid.
    static qint64 timestamp(const QString &rfc3339);
    // The same from UTF-8, the API server's own form read without QDateTime.
    static qint64 timestampOf(std::string_view rfc3339);
};

} // namespace gpudesk
