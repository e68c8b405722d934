// SPDX-License-Identifier: GPL-3.0-or-later
#include "registryscan.h"

#include "registryclient.h"
#include "registrydecoder.h"

namespace gpudesk {

namespace {
constexpr int kFlushMs = 150;
constexpr qint64 kMaxConfigBytes = 8 << 20;
constexpr int kMaxErrorsKept = 20;
} // namespace

RegistryScan::RegistryScan(RegistryClient *client, QObject *parent)
    : QObject(parent), m_client(client)
{
    m_flush.setInterval(kFlushMs);
    connect(&m_flush, &QTimer::timeout, this, &RegistryScan::flush);
}

void RegistryScan::setRepositories(const QStringList &repositories)
{
    m_given = repositories;
}

void RegistryScan::start()
{
    cancel();
    m_cancelled = false;
    m_running = true;
    m_context = new QObject(this);
    m_progress = {};
    m_pending = {};
    m_errors.clear();
    m_failures = 0;
    m_seenManifests.clear();
    m_seenConfigs.clear();
    m_openTagLists.clear();
    m_flush.start();
    if (m_given.isEmpty()) {
        enqueue([this] { catalogPage({}); }, true);
    } else {
        m_progress.catalogDone = true;
        m_progress.repositories = int(m_given.size());
        m_pending.repositories = m_given;
        for (const QString &r : std::as_const(m_given))
            enqueue([this, r] { tagsPage(r, {}); });
    }
    pump();
}

void RegistryScan::cancel()
{
    if (!m_running)
        return;
    // Answers still on their way arrive to a context that is gone: nothing of them is used.
    delete m_context;
    m_fine.clear();
    m_coarse.clear();
    m_inFlight = 0;
    m_cancelled = true;
    m_running = false;
    m_flush.stop();
    flush();
    emit finished(false, m_errors + QStringList{tr("Cancelled.")});
}

void RegistryScan::enqueue(std::function<void()> job, bool coarse)
{
    (coarse ? m_coarse : m_fine).push_back(std::move(job));
}

void RegistryScan::pump()
{
    // Tags, manifests and configs before the next catalog page: what was found is finished
    // before more is looked for, so memory stays bounded and results come early.
    while (m_running && m_inFlight < m_concurrency && (!m_fine.empty() || !m_coarse.empty())) {
        auto &q = m_fine.empty() ? m_coarse : m_fine;
        auto job = std::move(q.front());
        q.pop_front();
        ++m_inFlight;
        job();
    }
    m_progress.pending = int(m_fine.size() + m_coarse.size()) + m_inFlight;
    if (m_running && m_inFlight == 0 && m_fine.empty() && m_coarse.empty()) {
        m_running = false;
        m_flush.stop();
        flush();
        emit finished(isComplete(), m_errors);
    }
}

void RegistryScan::done()
{
    --m_inFlight;
    pump();
}

void RegistryScan::fail(const QString &error)
{
    ++m_failures;
    if (m_errors.size() < kMaxErrorsKept)
        m_errors << error;
    else if (m_errors.size() == kMaxErrorsKept)
        m_errors << tr("… and more errors.");
}

void RegistryScan::flush()
{
    if (m_pending.tags.isEmpty() && m_pending.manifests.isEmpty() && m_pending.configs.isEmpty() &&
        m_pending.repositories.isEmpty()) {
        emit progressed(m_progress);
        return;
    }
    emit batch(std::exchange(m_pending, RegistryScanBatch{}));
    emit progressed(m_progress);
}

void RegistryScan::catalogPage(const QUrl &next)
{
    m_client->catalogPage(next, m_pageSize, m_context, [this](const RegistryReply &reply) {
        if (!reply.ok()) {
            fail(reply.error);
            m_progress.catalogDone = true;
            done();
            return;
        }
        QString error;
        const QStringList repos = RegistryDecoder::catalog(reply.body, &error);
        if (!error.isEmpty())
            fail(error);
        m_progress.repositories += int(repos.size());
        m_pending.repositories += repos;
        for (const QString &r : repos)
            enqueue([this, r] { tagsPage(r, {}); });
        if (!reply.next.isEmpty() && !repos.isEmpty())
            enqueue([this, next = reply.next] { catalogPage(next); }, true);
        else
            m_progress.catalogDone = true;
        done();
    });
}

void RegistryScan::tagsPage(const QString &repository, const QUrl &next)
{
    m_client->tagsPage(
        repository, next, m_pageSize, m_context, [this, repository](const RegistryReply &reply) {
            QStringList tags;
            if (!reply.ok()) {
                fail(reply.error);
            } else {
                QString error;
                tags = RegistryDecoder::tags(reply.body, &error);
                if (!error.isEmpty())
                    fail(error);
            }
            for (const QString &t : std::as_const(tags))
                enqueue([this, repository, t] { manifest(repository, t, true); });
            if (reply.ok() && !reply.next.isEmpty() && !tags.isEmpty())
                enqueue([this, repository, next = reply.next] { tagsPage(repository, next); });
            else
                ++m_progress.repositoriesDone;
            done();
        });
}

void RegistryScan::manifest(const QString &repository, const QString &reference, bool tagged)
{
    m_client->manifest(
        repository, reference, m_context,
        [this, repository, reference, tagged](const RegistryManifest &m,
                                              const RegistryReply &reply) {
            if (!reply.ok()) {
                fail(reply.error);
                done();
                return;
            }
            if (tagged) {
                m_pending.tags << RegistryTag{repository, reference, m.digest};
                ++m_progress.tags;
            }
            if (!m_seenManifests.contains(m.digest)) {
                m_seenManifests.insert(m.digest);
                m_pending.manifests << m;
                ++m_progress.manifests;
                for (const RegistryDescriptor &e : m.entries)
                    if (!e.attestation && !m_seenManifests.contains(e.digest))
                        enqueue(
                            [this, repository, d = e.digest] { manifest(repository, d, false); });
                if (!m.isIndex && !m_seenConfigs.contains(m.config.digest)) {
                    m_seenConfigs.insert(m.config.digest);
                    enqueue([this, repository, d = m.config.digest] { config(repository, d); });
                }
            }
            done();
        });
}

void RegistryScan::config(const QString &repository, const QString &digest)
{
    m_client->blob(
        repository, digest, kMaxConfigBytes, m_context, [this, digest](const RegistryReply &reply) {
            if (!reply.ok()) {
                fail(reply.error);
            } else {
                QString error;
                const RegistryImageConfig c = RegistryDecoder::imageConfig(reply.body, &error);
                if (!error.isEmpty())
                    fail(error);
                else
                    m_pending.configs.insert(digest, c);
            }
            done();
        });
}

} // namespace gpudesk
