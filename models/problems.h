// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "alertrules.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace gpudesk {

class ClusterStore;
class TelemetryStore;

// Something that needs an admin's eyes now, with the node it is about (if any) and since when.
struct Problem
{
    enum Severity
    {
        Critical, // GPUs are lost or about to be: a node down, a disk full, cards failing
        Warning
    };
    Severity severity = Warning;
    QString key;      // the rule and its subject ("notready:g4090-10"): stable while it lasts
    QString node;     // "" when it is not one node's
    QString text;     // one sentence, with the figures
    qint64 since = 0; // ms since the epoch; 0 when not known
};

// The conditions an admin must hear about, as rules over what gpudesk already knows: nodes
// NotReady or under pressure (the kubelet's DiskPressure, MemoryPressure, PIDPressure), nodes
// that stopped answering over SSH, disks over 80 % / 90 %, cards over 85 °C or with
// uncorrectable ECC errors; VCs and users' GPU quotas 90 % full — thresholds and which rules are
// on as AlertRules say. Critical first, then the oldest. The Overview lists them (through the
// AlertCenter, which adds the rules that need a history); `gpudesk --alerts` prints them.
class Problems
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::Problems)
public:
    static QList<Problem> now(const ClusterStore &store, const TelemetryStore *telemetry,
                              const AlertRules &rules = {});
    // Critical first, then the oldest (the order lists show).
    static void sort(QList<Problem> &problems);
};

} // namespace gpudesk
