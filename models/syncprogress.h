// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "collectionstatus.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace gpudesk {

// How far the collections' lists have come while they sync (issue 39: a determinate progress
// per collection on a big cluster): each collection's objects so far against the count its
// server announced with the first page, and the sum over those listing now for one bar.
struct SyncProgress
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::SyncProgress)
public:
    int syncing = 0;     // collections listing now
    qint64 listed = 0;   // their objects so far
    qint64 expected = 0; // and in all, over those whose server said
    // Every collection listing now has said its count: the bar can show a fraction.
    bool determinate = false;

    static SyncProgress of(const QList<InformerStatus> &collections);
    // One collection listing: "pods: 45,000 of 100,000 (45 %)", or "pods: 4,500 so far" while its
    // server has not said a count, or "pods: starting" before its first page.
    static QString describe(const InformerStatus &s);
    // 0–100 where determinate, else -1.
    int percent() const;
};

} // namespace gpudesk
