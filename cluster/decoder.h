// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <QByteArray>
#include <QString>

namespace gpudesk {

// One page of a Kubernetes list, decoded.
template <class T> struct DecodedPage
{
    QList<T> items;
    QString continueToken;
    QString resourceVersion;
    QString error;   // the list was not valid; items may be partial
    int skipped = 0; // items that were not objects of the expected shape
};

// Decoders of Kubernetes JSON lists. Pure functions, safe on any thread; malformed input gives an
// error or skipped items, never a crash.
class Decoder
{
public:
    static DecodedPage<NodeInfo> nodes(const QByteArray &list);
    static DecodedPage<PodInfo> pods(const QByteArray &list);
    static DecodedPage<QueueInfo> queues(const QByteArray &list);
    static DecodedPage<NamespaceInfo> namespaces(const QByteArray &list);
    // "8", "500m", "1k": whole units, rounded down; invalid → -1.
    static qint64 quantityUnits(const QString &quantity);
};

} // namespace gpudesk
