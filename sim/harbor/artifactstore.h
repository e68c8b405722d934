// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sim::harbor {

class RegistryReader;

struct TagRecord
{
    std::string name;
    qint64 pushMs = 0;
    qint64 pullMs = 0; // 0: never pulled
};

struct PlatformReference
{
    std::string digest, os, architecture, variant;
};

struct ArtifactRecord
{
    int id = 0;
    std::string repository; // "project/name"
    std::string digest;
    std::string mediaType;
    qint64 manifestBytes = 0;
    qint64 pushMs = 0;
    qint64 pullMs = 0;
    std::vector<TagRecord> tags;
    std::vector<PlatformReference> references;       // an index's platforms
    std::map<std::string, qint64> blobs;             // config and layers by digest
    nlohmann::json extra = nlohmann::json::object(); // architecture, os, created, …
    std::vector<int> labels;                         // ids of HarborConfig::labels
};

// Harbor's database of artifacts, kept as its core keeps it: from the registry's own event
// notifications (push, pull by GET, delete), each pushed manifest read back from the registry
// for its size, layers, platforms and configuration. Times are the wall clock's, less the age
// the test gave the records (/sim/age), so "not pulled for 40 days" can be made without waiting.
class ArtifactStore
{
public:
    explicit ArtifactStore(RegistryReader *reader) : m_reader(reader) {}

    // A manifest was pushed (by tag, or by digest when `tag` is empty); `done` once it was read.
    void pushed(const std::string &repository, const std::string &digest,
                const std::string &mediaType, const std::string &tag, std::function<void()> done);
    void pulled(const std::string &repository, const std::string &digest, const std::string &tag);
    void deleted(const std::string &repository, const std::string &digest);
    void age(qint64 ms);
    // Adds a label to an artifact: false when it has it already (Harbor's 409).
    bool addLabel(const std::string &repository, const std::string &digest, int label);
    bool removeLabel(const std::string &repository, const std::string &digest, int label);

    static qint64 nowMs();
    // Listed artifacts of a repository: those no index of it refers to, newest push first.
    std::vector<const ArtifactRecord *> listed(const std::string &repository) const;
    const ArtifactRecord *find(const std::string &repository, const std::string &reference) const;
    std::vector<std::string> repositories(const std::string &project) const;
    // What Harbor shows as an artifact's size: its manifest and blobs, an index's its platforms'.
    qint64 size(const ArtifactRecord &a) const;
    // A project's used storage: every distinct blob and manifest of its repositories once.
    qint64 projectUsage(const std::string &project) const;
    // Blobs only untagged artifacts (not referenced by a tagged index) hold: what deleting them
    // lets garbage collection free, by digest.
    std::map<std::string, qint64> blobsOfUntaggedOnly() const;
    std::vector<const ArtifactRecord *> untagged() const;
    int pushCount() const { return m_pushes; }

private:
    ArtifactRecord &record(const std::string &repository, const std::string &digest);
    void read(const std::string &repository, const std::string &digest, std::function<void()> done);
    bool referenced(const std::string &repository, const std::string &digest) const;

    RegistryReader *m_reader;
    std::map<std::string, std::map<std::string, ArtifactRecord>> m_repos; // repo -> digest ->
    int m_nextId = 1;
    int m_pushes = 0;
};

} // namespace sim::harbor
