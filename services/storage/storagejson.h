// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "storageusage.h"

#include <QJsonArray>
#include <QJsonObject>

namespace gpudesk {

class StorageHistory;

// The NAS's measures as JSON: whole, for the cache in the data directory (so that the page and
// `--report` show the last measure, with its date, without walking the NAS again), and as the
// report's storage[] and storageRoots[] (schema: docs/report.md).
namespace storagejson {

QJsonObject toJson(const StorageRootMeasure &m);
// Fields missing or of the wrong type read as empty; false when it is not a measure at all.
bool fromJson(const QJsonObject &json, StorageRootMeasure *out);

// One entry per folder: path, owner, kind, bytes, allocated, files, dirs, lastChange,
// measuredAt, node, growth {day, week (net, null when the history is not that old),
// changedDay, changedWeek}, largest[], largestFiles[], coreDumps[].
QJsonArray reportFolders(const QList<StorageRootMeasure> &measures, const StorageHistory &history);
// One entry per root: path, kind, node, measuredAt, elapsedMs, entries, filesystem,
// capacityBytes, usedBytes, freeBytes, percentUsed, complete, problems[], error.
QJsonArray reportRoots(const QList<StorageRootMeasure> &measures);

} // namespace storagejson

} // namespace gpudesk
