// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "diagnosis.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace gpudesk {

// The job doctor's view of a pod, from the object as the API serves it (the store keeps only
// the fields gpudesk counts with): its phase and reasons, each container's state — for one that
// crash-loops, what ended its last run —, and the facts of the spec the rules read (/dev/shm,
// the memory limit, the variables, the command). The events and the log tails are the caller's
// to add.
class DiagnosisDecoder
{
public:
    // False, with `error`, for what is not a pod's JSON.
    static bool decode(const QByteArray &podJson, DiagnosisInput *out, QString *error);

    // The events of an EventList (the pod's, asked with eventsPath), oldest first.
    static QList<DiagnosisInput::Event> decodeEvents(const QByteArray &eventListJson);
    static QString eventsPath(const QString &ns, const QString &podUid);

    // A log tail the diagnosis needs: none for a container that runs and never restarted or
    // waits for its image; the previous container's for one that restarted.
    struct LogWanted
    {
        QString container;
        bool previous = false;
    };
    static QList<LogWanted> logsWanted(const DiagnosisInput &in);
    // The log API's path for it: the last `lines` lines, at most `bytes` (the server's bounds:
    // the doctor never reads a whole log); `lines` 0: the first `bytes` of it.
    static QString logPath(const QString &ns, const QString &pod, const LogWanted &want, int lines,
                           int bytes);
};

} // namespace gpudesk
