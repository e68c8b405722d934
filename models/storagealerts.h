// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "alertrules.h"
#include "problems.h"
#include "storagehistory.h"

namespace gpudesk {

// The NAS's alerts, from the last measures (rule "storage"): a root over the disk thresholds
// (critical over diskCriticalPercent: a full NAS stops every job that writes a checkpoint), a
// user's or group's folder over storageFolderGiB, or more than storageDayGiB written to one in
// the day before the walk (or grown by that much net, where the history says so).
class StorageAlerts
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::StorageAlerts)
public:
    static QList<Problem> now(const QList<StorageRootMeasure> &measures,
                              const StorageHistory &history, const AlertRules &rules);
    // A walk's problem in the user's language (the page's banner, the report).
    static QString describe(const StorageProblem &problem, const QString &root);
    static QStringList describe(const StorageRootMeasure &measure);
};

} // namespace gpudesk
