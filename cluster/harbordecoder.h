// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "harbortypes.h"

#include <QByteArray>

#include <optional>

namespace gpudesk {

// Harbor's v2.0 API documents, read without trusting them: a field of the wrong type is absent,
// a document of the wrong shape an error. Pure functions, fuzzed (fuzz_registry).
class HarborDecoder
{
public:
    // A Harbor's systeminfo (it has a harbor_version); nothing for any other answer.
    static std::optional<HarborInfo> systemInfo(const QByteArray &json);
    static QList<HarborProject> projects(const QByteArray &json, QString *error);
    // The quota of a project's summary into `project`; false when it has none.
    static bool summary(const QByteArray &json, HarborProject *project);
    // The user members of a project's members page (groups, entity_type "g", left out).
    // `groups`: some member is a group (whose users gpudesk cannot list).
    static QStringList members(const QByteArray &json, QString *error, bool *groups = nullptr);
    // Repository names ("project/name") of a repositories page.
    static QStringList repositories(const QByteArray &json, QString *error);
    static QList<HarborArtifact> artifacts(const QByteArray &json, const QString &repository,
                                           QString *error);
    static QList<HarborGcRun> gcRuns(const QByteArray &json, QString *error);
    static std::optional<HarborGcRun> gcRun(const QByteArray &json);
    // What a GC job's log says: blobs and manifests eligible, bytes it could free or freed.
    static HarborGcResult gcLog(const QString &log);
    // The first message of Harbor's {"errors": [{"code", "message"}]}, or "".
    static QString errorMessage(const QByteArray &json, QString *code = nullptr);
    // Harbor's times: RFC 3339; its zero time (0001-01-01…) means never, an invalid QDateTime.
    static QDateTime time(const QString &text);
};

} // namespace gpudesk
