// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace gpudesk {

// A registry that is a Harbor, as its API describes itself (/api/v2.0/systeminfo).
struct HarborInfo
{
    QString version;     // "v2.10.0"
    QString registryUrl; // the registry host it serves ("harbor.lab" or "host:port")
};

// A Harbor project with its storage quota (hard -1: no limit).
struct HarborProject
{
    QString name;
    bool isPublic = false;
    int repositories = 0;
    qint64 quotaHard = -1;
    qint64 quotaUsed = 0;
    QStringList members; // user names (groups left out)
    bool membersKnown = false;
};

struct HarborTag
{
    QString name;
    QDateTime pushed, pulled; // pulled invalid: never
    bool immutable = false;
};

// What Harbor's database knows of one artifact and a registry does not: when it was pushed and
// last pulled (invalid: never), whether its tags are immutable, and an index's platforms.
struct HarborArtifact
{
    QString repository; // "project/name"
    QString digest;
    qint64 size = 0;
    QDateTime pushed, pulled;
    QList<HarborTag> tags;
    QStringList platformDigests;
    QStringList labels; // Harbor's labels on it ("production")

    bool immutable() const
    {
        for (const HarborTag &t : tags)
            if (t.immutable)
                return true;
        return false;
    }
};

// One garbage-collection run, and what its log says it found (or freed).
struct HarborGcRun
{
    int id = 0;
    QString status; // Pending, Running, Success, Error, Stopped
    bool dryRun = false;
    bool deleteUntagged = false;
    QDateTime created, updated;
    bool finished() const
    {
        return status == QLatin1String("Success") || status == QLatin1String("Error") ||
               status == QLatin1String("Stopped");
    }
};

struct HarborGcResult
{
    int blobs = -1; // eligible for deletion; -1 when the log does not say
    int manifests = -1;
    qint64 bytes = -1; // could free (dry run) or freed; -1 when the log does not say
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::HarborArtifact)
