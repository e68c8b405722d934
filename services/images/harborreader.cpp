// SPDX-License-Identifier: GPL-3.0-or-later
#include "harborreader.h"

#include "harborclient.h"
#include "harborpulltimes.h"
#include "imagesizes.h"
#include "registryclient.h"

namespace gpudesk {

HarborReader::HarborReader(RegistryClient *registry, QString cacheFile, QObject *parent)
    : QObject(parent), m_registry(registry), m_cacheFile(std::move(cacheFile))
{}

void HarborReader::start()
{
    m_context = new QObject(this);
    // The registry's challenge names its token service; a Harbor's API is on its origin.
    m_registry->ping(m_context, [this](const RegistryReply &) {
        m_candidates = HarborClient::candidates(m_registry->endpoint(), m_registry->tokenRealm());
        probe(0);
    });
}

void HarborReader::cancel()
{
    delete m_context;
    if (!m_finished) {
        m_cancelled = true;
        m_errors << tr("Reading Harbor's records was cancelled.");
        done();
    }
}

void HarborReader::probe(int candidate)
{
    if (candidate >= m_candidates.size()) {
        done(); // no Harbor: a plain registry
        return;
    }
    if (m_client)
        m_client->deleteLater(); // probe() runs inside its reply's finished signal
    m_client = new HarborClient(m_candidates[candidate], m_registry->endpoint(),
                                m_registry->credentials(), this);
    m_client->systemInfo(m_context, [this, candidate](const std::optional<HarborInfo> &info,
                                                      const QString &) {
        // A Harbor that says it serves another registry is not this registry's.
        if (!info ||
            (!info->registryUrl.isEmpty() && info->registryUrl != m_registry->endpoint().host)) {
            probe(candidate + 1);
            return;
        }
        m_info = info;
        m_apiBase = m_candidates[candidate];
        readProjects();
    });
}

void HarborReader::readProjects()
{
    emit progress(tr("Asking Harbor %1 for its projects…").arg(m_info->version));
    m_client->projects(m_context,
                       [this](const QList<HarborProject> &projects, const QString &error) {
                           m_projects = projects;
                           if (!error.isEmpty())
                               m_errors << error;
                           for (const HarborProject &p : projects)
                               m_projectsLeft << p.name;
                           pump();
                       });
}

void HarborReader::pump()
{
    while (m_inFlight < Concurrency && !m_projectsLeft.isEmpty()) {
        ++m_inFlight;
        m_client->repositories(m_projectsLeft.takeFirst(), m_context,
                               [this](const QStringList &names, const QString &error) {
                                   --m_inFlight;
                                   if (!error.isEmpty())
                                       m_errors << error;
                                   m_repositoriesLeft << names;
                                   m_repositoriesTotal += int(names.size());
                                   pump();
                               });
    }
    while (m_inFlight < Concurrency && !m_repositoriesLeft.isEmpty()) {
        ++m_inFlight;
        m_client->artifacts(
            m_repositoriesLeft.takeFirst(), m_context,
            [this](const QList<HarborArtifact> &artifacts, const QString &error) {
                --m_inFlight;
                if (!error.isEmpty())
                    m_errors << error;
                for (const HarborArtifact &a : artifacts)
                    m_artifacts.insert(ImageSizes::key(a.repository, a.digest), a);
                emit progress(tr("Asking Harbor for push and pull times: %1 of %2 repositories")
                                  .arg(m_repositoriesTotal - m_repositoriesLeft.size() - m_inFlight)
                                  .arg(m_repositoriesTotal));
                pump();
            });
    }
    if (m_inFlight == 0 && m_projectsLeft.isEmpty() && m_repositoriesLeft.isEmpty())
        done();
}

void HarborReader::done()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_info) {
        QList<HarborArtifact> all = m_artifacts.values();
        HarborPullTimes(m_cacheFile).resolve(&all);
        m_artifacts.clear();
        for (const HarborArtifact &a : std::as_const(all))
            m_artifacts.insert(ImageSizes::key(a.repository, a.digest), a);
    }
    emit finished();
}

QList<HarborArtifact> HarborReader::untagged() const
{
    QList<HarborArtifact> out;
    for (const HarborArtifact &a : m_artifacts)
        if (a.tags.isEmpty())
            out << a;
    return out;
}

void HarborReader::remember(const QDateTime &readStart, const QDateTime &readEnd) const
{
    if (m_info)
        HarborPullTimes(m_cacheFile).remember(m_artifacts.values(), readStart, readEnd);
}

} // namespace gpudesk
