// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "startcheck.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace gpudesk {

class ClusterSession;

// The cluster's PriorityClasses (scheduling.k8s.io/v1), for the New Job form's Priority: which
// classes a job may name, and what each is worth. Read when asked (a handful of objects, and
// rarely changed), not synced.
struct PriorityClass
{
    QString name;
    int value = 0;
    bool globalDefault = false;
    QString preemptionPolicy; // PreemptLowerPriority, Never
    QString description;
    bool system() const { return name.startsWith(QLatin1String("system-")); }
};

namespace priorityclasses {

// The classes, highest first; on failure none, and why in `error`.
using Done = std::function<void(const QList<PriorityClass> &classes, const QString &error)>;
void fetch(ClusterSession *session, QObject *context, Done done);
// Decodes a PriorityClassList (JSON); false with why for anything else.
bool decode(const QByteArray &json, QList<PriorityClass> *out, QString *error);
// The submit check's reason for a job that names a class the cluster does not have: its pods
// are refused by the API server's Priority admission (a job's, by its controller: the job
// waits for ever with FailedCreate events). None when `name` is empty or a class.
std::optional<StartReason> unknownReason(const QString &name, const QList<PriorityClass> &classes);

} // namespace priorityclasses
} // namespace gpudesk
