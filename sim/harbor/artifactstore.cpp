// SPDX-License-Identifier: GPL-3.0-or-later
#include "artifactstore.h"

#include "registryreader.h"

#include <QDateTime>

#include <algorithm>
#include <memory>
#include <set>

namespace sim::harbor {

qint64 ArtifactStore::nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

ArtifactRecord &ArtifactStore::record(const std::string &repository, const std::string &digest)
{
    ArtifactRecord &a = m_repos[repository][digest];
    if (a.id == 0) {
        a.id = m_nextId++;
        a.repository = repository;
        a.digest = digest;
    }
    return a;
}

void ArtifactStore::pushed(const std::string &repository, const std::string &digest,
                           const std::string &mediaType, const std::string &tag,
                           std::function<void()> done)
{
    ++m_pushes;
    const qint64 now = nowMs();
    const bool known = m_repos[repository].count(digest) > 0;
    ArtifactRecord &a = record(repository, digest);
    a.mediaType = mediaType;
    a.pushMs = now;
    if (!tag.empty()) {
        // A tag names one artifact of a repository: pushing it elsewhere moves it.
        for (auto &[d, other] : m_repos[repository])
            std::erase_if(other.tags, [&](const TagRecord &t) { return t.name == tag; });
        a.tags.push_back({tag, now, 0});
    }
    if (known) {
        done();
        return;
    }
    read(repository, digest, std::move(done));
}

void ArtifactStore::read(const std::string &repository, const std::string &digest,
                         std::function<void()> done)
{
    m_reader->manifest(
        repository, digest, [this, repository, digest, done = std::move(done)](const auto &reply) {
            auto repo = m_repos.find(repository);
            if (!reply.error.empty() || repo == m_repos.end() || !repo->second.count(digest)) {
                done();
                return;
            }
            ArtifactRecord &a = repo->second[digest];
            a.manifestBytes = reply.body.size();
            const auto m = nlohmann::json::parse(reply.body.toStdString(), nullptr, false);
            std::string config;
            // What a pusher wrote may have any shape: a field of the wrong type is left out.
            try {
                if (m.is_object() && m.contains("manifests")) {
                    for (const auto &child : m["manifests"]) {
                        const auto platform = child.value("platform", nlohmann::json::object());
                        a.references.push_back({child.value("digest", ""), platform.value("os", ""),
                                                platform.value("architecture", ""),
                                                platform.value("variant", "")});
                    }
                } else if (m.is_object()) {
                    const auto c = m.value("config", nlohmann::json::object());
                    config = c.value("digest", "");
                    a.blobs[config] = c.value("size", 0LL);
                    for (const auto &layer : m.value("layers", nlohmann::json::array()))
                        a.blobs[layer.value("digest", "")] = layer.value("size", 0LL);
                }
            } catch (const nlohmann::json::exception &) {
            }
            if (config.empty()) {
                done();
                return;
            }
            m_reader->blob(repository, config, [this, repository, digest, done](const auto &blob) {
                auto repo = m_repos.find(repository);
                const auto c = nlohmann::json::parse(blob.body.toStdString(), nullptr, false);
                if (repo != m_repos.end() && repo->second.count(digest) && c.is_object()) {
                    auto &extra = repo->second[digest].extra;
                    try {
                        extra["architecture"] = c.value("architecture", "");
                        extra["os"] = c.value("os", "");
                        extra["created"] = c.value("created", "");
                        extra["author"] = c.value("author", "");
                        extra["config"] = c.value("config", nlohmann::json::object());
                    } catch (const nlohmann::json::exception &) {
                    }
                }
                done();
            });
        });
}

void ArtifactStore::pulled(const std::string &repository, const std::string &digest,
                           const std::string &tag)
{
    auto repo = m_repos.find(repository);
    if (repo == m_repos.end())
        return;
    auto it = repo->second.find(digest);
    if (it == repo->second.end())
        return;
    const qint64 now = nowMs();
    it->second.pullMs = now;
    for (auto &t : it->second.tags)
        if (t.name == tag)
            t.pullMs = now;
}

void ArtifactStore::deleted(const std::string &repository, const std::string &digest)
{
    auto repo = m_repos.find(repository);
    if (repo == m_repos.end())
        return;
    repo->second.erase(digest);
    if (repo->second.empty())
        m_repos.erase(repo);
}

void ArtifactStore::age(qint64 ms)
{
    for (auto &[name, artifacts] : m_repos)
        for (auto &[digest, a] : artifacts) {
            a.pushMs -= ms;
            if (a.pullMs)
                a.pullMs -= ms;
            for (auto &t : a.tags) {
                t.pushMs -= ms;
                if (t.pullMs)
                    t.pullMs -= ms;
            }
        }
}

bool ArtifactStore::addLabel(const std::string &repository, const std::string &digest, int label)
{
    auto repo = m_repos.find(repository);
    if (repo == m_repos.end() || !repo->second.count(digest))
        return false;
    auto &labels = repo->second[digest].labels;
    if (std::find(labels.begin(), labels.end(), label) != labels.end())
        return false;
    labels.push_back(label);
    return true;
}

bool ArtifactStore::removeLabel(const std::string &repository, const std::string &digest, int label)
{
    auto repo = m_repos.find(repository);
    if (repo == m_repos.end() || !repo->second.count(digest))
        return false;
    auto &labels = repo->second[digest].labels;
    const auto it = std::find(labels.begin(), labels.end(), label);
    if (it == labels.end())
        return false;
    labels.erase(it);
    return true;
}

bool ArtifactStore::referenced(const std::string &repository, const std::string &digest) const
{
    const auto repo = m_repos.find(repository);
    if (repo == m_repos.end())
        return false;
    for (const auto &[d, a] : repo->second)
        for (const auto &r : a.references)
            if (r.digest == digest)
                return true;
    return false;
}

std::vector<const ArtifactRecord *> ArtifactStore::listed(const std::string &repository) const
{
    std::vector<const ArtifactRecord *> out;
    const auto repo = m_repos.find(repository);
    if (repo == m_repos.end())
        return out;
    for (const auto &[digest, a] : repo->second)
        if (!referenced(repository, digest))
            out.push_back(&a);
    std::sort(out.begin(), out.end(), [](const auto *a, const auto *b) {
        return a->pushMs != b->pushMs ? a->pushMs > b->pushMs : a->id > b->id;
    });
    return out;
}

const ArtifactRecord *ArtifactStore::find(const std::string &repository,
                                          const std::string &reference) const
{
    const auto repo = m_repos.find(repository);
    if (repo == m_repos.end())
        return nullptr;
    if (const auto it = repo->second.find(reference); it != repo->second.end())
        return &it->second;
    for (const auto &[digest, a] : repo->second)
        for (const auto &t : a.tags)
            if (t.name == reference)
                return &a;
    return nullptr;
}

std::vector<std::string> ArtifactStore::repositories(const std::string &project) const
{
    std::vector<std::string> out;
    for (const auto &[name, artifacts] : m_repos)
        if (name.rfind(project + "/", 0) == 0)
            out.push_back(name);
    return out;
}

qint64 ArtifactStore::size(const ArtifactRecord &a) const
{
    qint64 total = a.manifestBytes;
    for (const auto &[digest, bytes] : a.blobs)
        total += bytes;
    for (const auto &r : a.references)
        if (const ArtifactRecord *child = find(a.repository, r.digest))
            total += size(*child);
    return total;
}

qint64 ArtifactStore::projectUsage(const std::string &project) const
{
    std::map<std::string, qint64> distinct;
    for (const auto &name : repositories(project))
        for (const auto &[digest, a] : m_repos.at(name)) {
            distinct[digest] = a.manifestBytes;
            for (const auto &[blob, bytes] : a.blobs)
                distinct[blob] = bytes;
        }
    qint64 total = 0;
    for (const auto &[digest, bytes] : distinct)
        total += bytes;
    return total;
}

std::vector<const ArtifactRecord *> ArtifactStore::untagged() const
{
    std::vector<const ArtifactRecord *> out;
    for (const auto &[name, artifacts] : m_repos)
        for (const auto &[digest, a] : artifacts)
            if (a.tags.empty() && !referenced(name, digest))
                out.push_back(&a);
    return out;
}

std::map<std::string, qint64> ArtifactStore::blobsOfUntaggedOnly() const
{
    std::set<std::string> doomed;
    for (const ArtifactRecord *a : untagged()) {
        doomed.insert(a->repository + "@" + a->digest);
        for (const auto &r : a->references)
            doomed.insert(a->repository + "@" + r.digest);
    }
    std::map<std::string, qint64> kept, freed;
    for (const auto &[name, artifacts] : m_repos)
        for (const auto &[digest, a] : artifacts) {
            auto &into = doomed.count(name + "@" + digest) ? freed : kept;
            for (const auto &[blob, bytes] : a.blobs)
                into[blob] = bytes;
        }
    for (const auto &[blob, bytes] : kept)
        freed.erase(blob);
    return freed;
}

} // namespace sim::harbor
