// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resource.h"

#include <QHash>
#include <QJsonObject>
#include <QStringList>

namespace gpudesk {

class PreemptionLog;

class ClusterStore;
class DiagnosisBook;
class TelemetryStore;

// What the report says about how it was read, beside the figures.
struct ReportSource
{
    QString context;
    QString server;
    QHash<Resource, QString> versions; // served kinds → the version read
    QHash<Resource, QString> missing;  // kinds the cluster does not serve → what was looked for
    QStringList unreadable;            // kinds this account may not list, with the server's words
    // Images in use, by reference as pods name them: bytes a node pulls, or why not known.
    QHash<QString, qint64> imageBytes;
    // The job doctor's findings for the failed and crash-looping pods (null: not asked), and
    // what kept it from reading them all ("" when it did).
    const DiagnosisBook *diagnoses = nullptr;
    QString diagnosesNote;
    QHash<QString, QString> imageErrors;
    // The preemptions seen (kept for the context, and the store's events looked up): null when
    // not asked.
    const PreemptionLog *preemptions = nullptr;
    QString preemptionsNote; // what kept their lookups from ending ("" when they did)
};

// The distinct images that running pods name (their first container's), most used first.
QStringList imagesInUse(const ClusterStore &store);

// The report's document (schema: docs/report.md), from the same store, telemetry and analyses
// (GpuAccounting, GpuPlacement, FreeGpus) as the window, so that it says what the window shows.
QJsonObject reportJson(const ClusterStore &store, const TelemetryStore *telemetry,
                       const ReportSource &source);

} // namespace gpudesk
