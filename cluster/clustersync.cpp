// SPDX-License-Identifier: GPL-3.0-or-later
#include "clustersync.h"

#include <QRandomGenerator>

namespace gpudesk {

ClusterSync::ClusterSync(KubeClient *client, Options options, QObject *parent)
    : QObject(parent), m_client(client), m_discovery(client)
{
    for (const Resource r : kAllResources) {
        if (options.skip.contains(r))
            continue;
        auto informer = std::make_unique<Informer>(client, r);
        informer->setFallbackNamespace(options.fallbackNamespace);
        connect(informer.get(), &Informer::delta, this, &ClusterSync::delta);
        connect(informer.get(), &Informer::statusChanged, this, [this] {
            updateConnectionError();
            emit statusChanged();
        });
        connect(informer.get(), &Informer::synced, this, [this] {
            if (!m_syncedEmitted && hasSynced()) {
                m_syncedEmitted = true;
                emit synced();
            }
        });
        m_informers[r] = std::move(informer);
    }
    m_discoveryRetry.setSingleShot(true);
    connect(&m_discoveryRetry, &QTimer::timeout, &m_discovery, &ApiDiscovery::start);
    connect(&m_discovery, &ApiDiscovery::finished, this, &ClusterSync::onDiscovered);
    connect(&m_discovery, &ApiDiscovery::failed, this, &ClusterSync::onDiscoveryFailed);
}

ClusterSync::~ClusterSync() = default;

void ClusterSync::start()
{
    m_running = true;
    m_discovery.start();
}

void ClusterSync::stop()
{
    m_running = false;
    m_discoveryRetry.stop();
    for (auto &[r, informer] : m_informers)
        informer->stop();
}

void ClusterSync::onDiscovered()
{
    if (!m_running)
        return;
    m_discoveryAttempt = 0;
    if (!m_serverError.isEmpty()) {
        m_serverError.clear();
        emit statusChanged();
    }
    const ApiDiscovery::Result &found = m_discovery.result();
    for (auto &[r, informer] : m_informers) {
        if (found.serves(r)) {
            informer->setVersion(found.version(r));
            informer->start();
        } else {
            informer->setUnavailable(
                tr("not served by this cluster (looked for %1)").arg(found.missing.value(r)));
        }
    }
}

void ClusterSync::onDiscoveryFailed(const QString &error, int httpStatus)
{
    if (!m_running)
        return;
    Q_UNUSED(httpStatus)
    if (m_serverError.isEmpty())
        m_serverErrorSince = QDateTime::currentDateTimeUtc();
    m_serverError = error;
    // Capped exponential back-off with jitter, as the informers do.
    const int base = std::min(30000, 800 << std::min(m_discoveryAttempt, 6));
    ++m_discoveryAttempt;
    m_discoveryRetry.start(int(base * (0.8 + 0.4 * QRandomGenerator::global()->generateDouble())));
    emit statusChanged();
    emit serverUnreachable(error);
}

QString ClusterSync::serverError() const
{
    return m_serverError.isEmpty() ? m_connectionError : m_serverError;
}

QDateTime ClusterSync::serverErrorSince() const
{
    return m_serverError.isEmpty() ? m_connectionErrorSince : m_serverErrorSince;
}

void ClusterSync::updateConnectionError()
{
    // The server is unreachable when a collection lost it for the connection's sake and none
    // has been live since: one dropped stream among live ones is that stream's blip, and is
    // retried without a word.
    QString error;
    QDateTime since;
    QDateTime liveSince;
    for (const auto &[r, informer] : m_informers) {
        const InformerStatus &s = informer->status();
        if (s.state == InformerStatus::Retrying && s.serverUnreachable) {
            if (!since.isValid() || s.since < since) {
                since = s.since;
                error = s.error;
            }
        } else if (s.state == InformerStatus::Live &&
                   (!liveSince.isValid() || s.since > liveSince)) {
            liveSince = s.since;
        }
    }
    if (since.isValid() && liveSince.isValid() && liveSince >= since)
        error.clear();
    m_connectionError = error;
    m_connectionErrorSince = error.isEmpty() ? QDateTime() : since;
}

bool ClusterSync::hasSynced() const
{
    for (const auto &[r, informer] : m_informers) {
        if (!informer->hasSynced())
            return false;
    }
    return !m_informers.empty();
}

Informer *ClusterSync::informer(Resource r) const
{
    const auto it = m_informers.find(r);
    return it == m_informers.end() ? nullptr : it->second.get();
}

QList<Informer *> ClusterSync::informers() const
{
    QList<Informer *> out;
    for (const auto &[r, informer] : m_informers)
        out.append(informer.get());
    return out;
}

QString ClusterSync::problems() const
{
    if (!serverError().isEmpty())
        return tr("Cannot reach the API server since %1: %2")
            .arg(serverErrorSince().toLocalTime().toString(u"HH:mm:ss"), serverError());
    QStringList out;
    for (const auto &[r, informer] : m_informers) {
        const InformerStatus &s = informer->status();
        switch (s.state) {
        case InformerStatus::Retrying:
        case InformerStatus::Failed:
            out.append(
                tr("%1: retrying since %2 (%3)")
                    .arg(resourceName(r), s.since.toLocalTime().toString(u"HH:mm:ss"), s.error));
            break;
        case InformerStatus::Syncing:
            out.append(tr("%1: syncing").arg(resourceName(r)));
            break;
        default:
            break;
        }
    }
    return out.join(QStringLiteral("; "));
}

} // namespace gpudesk
