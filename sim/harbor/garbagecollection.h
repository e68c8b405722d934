// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "harborconfig.h"

#include <QObject>

#include <map>
#include <string>
#include <vector>

namespace sim::harbor {

class ArtifactStore;
class RegistryReader;

struct GcRun
{
    int id = 0;
    bool dryRun = false;
    bool deleteUntagged = false;
    std::string status = "Pending"; // Pending, Running, Success, Error
    qint64 createdMs = 0, updatedMs = 0;
    std::string log;
};

// Harbor's garbage collection job: untagged artifacts deleted first when asked, then the real
// registry's own `garbage-collect` run on its storage (with --dry-run for a dry run), the blobs
// it finds eligible measured on disk before they go. The log reads as Harbor's job log does.
class GarbageCollection : public QObject
{
    Q_OBJECT
public:
    GarbageCollection(const HarborConfig *config, ArtifactStore *store, RegistryReader *reader,
                      QObject *parent = nullptr);

    // The new run's id, or 0 when one is running already (Harbor's 409).
    int start(bool dryRun, bool deleteUntagged);
    const std::vector<GcRun> &runs() const { return m_runs; }
    const GcRun *find(int id) const;

private:
    void say(GcRun &run, const std::string &line);
    void deleteUntagged(int id);
    void collect(int id, bool dryRun, std::map<std::string, qint64> alreadyFreed);
    void finish(int id, bool ok);
    GcRun *run(int id);
    qint64 blobBytes(const std::string &digest) const;

    const HarborConfig *m_config;
    ArtifactStore *m_store;
    RegistryReader *m_reader;
    std::vector<GcRun> m_runs;
    bool m_running = false;
};

} // namespace sim::harbor
