// SPDX-License-Identifier: GPL-3.0-or-later
#include "garbagecollection.h"

#include "artifactstore.h"
#include "registryreader.h"

#include <QDateTime>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>

#include <memory>

namespace sim::harbor {

namespace {

std::string megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 2).toStdString() + " MB";
}

} // namespace

GarbageCollection::GarbageCollection(const HarborConfig *config, ArtifactStore *store,
                                     RegistryReader *reader, QObject *parent)
    : QObject(parent), m_config(config), m_store(store), m_reader(reader)
{}

GcRun *GarbageCollection::run(int id)
{
    for (auto &r : m_runs)
        if (r.id == id)
            return &r;
    return nullptr;
}

const GcRun *GarbageCollection::find(int id) const
{
    for (const auto &r : m_runs)
        if (r.id == id)
            return &r;
    return nullptr;
}

void GarbageCollection::say(GcRun &r, const std::string &line)
{
    r.updatedMs = ArtifactStore::nowMs();
    r.log += QDateTime::currentDateTimeUtc()
                 .toString(QStringLiteral("yyyy-MM-ddThh:mm:ssZ"))
                 .toStdString() +
             " [INFO] [/jobservice/job/impl/gc/garbage_collection.go] " + line + "\n";
}

int GarbageCollection::start(bool dryRun, bool deleteUntagged)
{
    if (m_running)
        return 0;
    m_running = true;
    GcRun r;
    r.id = m_runs.empty() ? 1 : m_runs.back().id + 1;
    r.dryRun = dryRun;
    r.deleteUntagged = deleteUntagged;
    r.createdMs = r.updatedMs = ArtifactStore::nowMs();
    r.status = "Running";
    m_runs.push_back(r);
    say(m_runs.back(), std::string("start to run gc in job, dry run: ") +
                           (dryRun ? "true" : "false") +
                           ", delete untagged: " + (deleteUntagged ? "true" : "false"));
    const int id = r.id;
    if (deleteUntagged)
        this->deleteUntagged(id);
    else
        collect(id, dryRun, {});
    return id;
}

void GarbageCollection::deleteUntagged(int id)
{
    GcRun &r = *run(id);
    const auto untagged = m_store->untagged();
    auto freed = m_store->blobsOfUntaggedOnly();
    say(r, std::to_string(untagged.size()) + " untagged artifact(s) to delete");
    if (r.dryRun || untagged.empty()) {
        collect(id, r.dryRun, r.dryRun ? freed : std::map<std::string, qint64>{});
        return;
    }
    auto left = std::make_shared<int>(int(untagged.size()));
    for (const ArtifactRecord *a : untagged) {
        const std::string repository = a->repository, digest = a->digest;
        m_reader->deleteManifest(repository, digest, [=, this](const auto &reply) {
            GcRun &r = *run(id);
            if (reply.error.empty() || reply.status == 404) {
                m_store->deleted(repository, digest);
                say(r, "deleted untagged artifact " + repository + "@" + digest);
            } else {
                say(r, "failed to delete " + repository + "@" + digest + ": " + reply.error);
            }
            if (--*left == 0)
                collect(id, false, {});
        });
    }
}

qint64 GarbageCollection::blobBytes(const std::string &digest) const
{
    const auto colon = digest.find(':');
    if (colon == std::string::npos || digest.size() < colon + 3)
        return 0;
    const std::string hex = digest.substr(colon + 1);
    return QFileInfo(QString::fromStdString(m_config->registryData + "/docker/registry/v2/blobs/" +
                                            digest.substr(0, colon) + "/" + hex.substr(0, 2) + "/" +
                                            hex + "/data"))
        .size();
}

void GarbageCollection::collect(int id, bool dryRun, std::map<std::string, qint64> alreadyFreed)
{
    // First always a dry run: it names the eligible blobs while they are still on disk to measure.
    auto *dry = new QProcess(this);
    dry->setProcessChannelMode(QProcess::MergedChannels);
    connect(dry, &QProcess::finished, this, [=, this](int code, QProcess::ExitStatus status) {
        dry->deleteLater();
        GcRun &r = *run(id);
        const QString out = QString::fromUtf8(dry->readAll());
        if (status != QProcess::NormalExit || code != 0) {
            say(r, "garbage-collect failed: " + out.right(500).toStdString());
            finish(id, false);
            return;
        }
        std::map<std::string, qint64> freed = alreadyFreed;
        static const QRegularExpression eligible(
            QStringLiteral("blob eligible for deletion: (\\S+)"));
        for (auto it = eligible.globalMatch(out); it.hasNext();) {
            const std::string digest = it.next().captured(1).toStdString();
            freed[digest] = blobBytes(digest);
        }
        static const QRegularExpression summary(
            QStringLiteral("(\\d+) blobs marked, (\\d+) blobs and (\\d+) manifests eligible"));
        const auto m = summary.match(out);
        qint64 bytes = 0;
        for (const auto &[digest, size] : freed)
            bytes += size;
        say(r, std::to_string(freed.size()) + " blobs and " +
                   (m.hasMatch() ? m.captured(3).toStdString() : std::string("0")) +
                   " manifests eligible for deletion");
        if (dryRun) {
            say(r, "The GC could free up " + megabytes(bytes) + " space (" + std::to_string(bytes) +
                       " bytes), the size is a rough estimate.");
            finish(id, true);
            return;
        }
        auto *real = new QProcess(this);
        real->setProcessChannelMode(QProcess::MergedChannels);
        connect(real, &QProcess::finished, this, [=, this](int code, QProcess::ExitStatus status) {
            real->deleteLater();
            GcRun &r = *run(id);
            if (status != QProcess::NormalExit || code != 0) {
                say(r, "garbage-collect failed: " +
                           QString::fromUtf8(real->readAll()).right(500).toStdString());
                finish(id, false);
                return;
            }
            qint64 gone = 0;
            for (const auto &[digest, size] : freed)
                if (blobBytes(digest) == 0)
                    gone += size;
            say(r, "The GC job actual frees up " + megabytes(gone) + " space (" +
                       std::to_string(gone) + " bytes).");
            finish(id, true);
        });
        connect(real, &QProcess::errorOccurred, this, [=, this](QProcess::ProcessError e) {
            if (e != QProcess::FailedToStart)
                return;
            real->deleteLater();
            say(*run(id), "cannot run " + m_config->registryBinary);
            finish(id, false);
        });
        real->start(
            QString::fromStdString(m_config->registryBinary),
            {QStringLiteral("garbage-collect"), QString::fromStdString(m_config->registryConfig)});
    });
    // A binary that does not start never finishes: the run ends as Harbor's would, in error.
    connect(dry, &QProcess::errorOccurred, this, [=, this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart)
            return;
        dry->deleteLater();
        say(*run(id),
            "cannot run " + m_config->registryBinary + ": " + dry->errorString().toStdString());
        finish(id, false);
    });
    dry->start(QString::fromStdString(m_config->registryBinary),
               {QStringLiteral("garbage-collect"), QStringLiteral("--dry-run"),
                QString::fromStdString(m_config->registryConfig)});
}

void GarbageCollection::finish(int id, bool ok)
{
    GcRun &r = *run(id);
    r.status = ok ? "Success" : "Error";
    say(r, ok ? "success to run gc in job." : "failed to run gc in job.");
    m_running = false;
}

} // namespace sim::harbor
