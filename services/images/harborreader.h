// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "harbortypes.h"
#include "registrytypes.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace gpudesk {

class HarborClient;
class RegistryClient;

// What a registry's Harbor knows, read before gpudesk reads the registry's manifests (Harbor
// counts those reads as pulls): whether there is a Harbor (its API on the registry's origin, or
// on its token service's), its projects with quotas, and every artifact of every repository with
// push and pull times (gpudesk's own earlier reads left out: HarborPullTimes) and immutable tags
// — at most a few requests at a time, with progress and cancel. A registry with no Harbor ends
// at once with `isHarbor()` false.
class HarborReader : public QObject
{
    Q_OBJECT
public:
    HarborReader(RegistryClient *registry, QString cacheFile, QObject *parent = nullptr);

    void start();
    void cancel();

    bool isHarbor() const { return m_info.has_value(); }
    bool wasCancelled() const { return m_cancelled; }
    bool isFinished() const { return m_finished; }
    const std::optional<HarborInfo> &info() const { return m_info; }
    QUrl apiBase() const { return m_apiBase; }
    const QList<HarborProject> &projects() const { return m_projects; }
    // By "repository@digest" (ImageSizes::key).
    const QHash<QString, HarborArtifact> &artifacts() const { return m_artifacts; }
    QList<HarborArtifact> untagged() const;
    QStringList errors() const { return m_errors; }
    // After the registry was read: the window of gpudesk's own pulls, for the next read.
    void remember(const QDateTime &readStart, const QDateTime &readEnd) const;

    static constexpr int Concurrency = 4;

signals:
    void progress(const QString &text);
    void finished();

private:
    void probe(int candidate);
    void readProjects();
    void pump();
    void done();

    RegistryClient *m_registry;
    QString m_cacheFile;
    HarborClient *m_client = nullptr;
    QList<QUrl> m_candidates;
    QUrl m_apiBase;
    std::optional<HarborInfo> m_info;
    QList<HarborProject> m_projects;
    QStringList m_projectsLeft, m_repositoriesLeft;
    int m_inFlight = 0;
    int m_repositoriesTotal = 0;
    QHash<QString, HarborArtifact> m_artifacts;
    QStringList m_errors;
    QPointer<QObject> m_context;
    bool m_finished = false;
    bool m_cancelled = false;
};

} // namespace gpudesk
