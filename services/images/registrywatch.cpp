// SPDX-License-Identifier: GPL-3.0-or-later
#include "registrywatch.h"

#include "imagesservice.h"
#include "registryclient.h"

#include <QDateTime>
#include <QPointer>

namespace gpudesk {

namespace {

bool isPublicService(const QString &host)
{
    static const QStringList hosts{
        QStringLiteral("docker.io"),         QStringLiteral("registry-1.docker.io"),
        QStringLiteral("nvcr.io"),           QStringLiteral("ghcr.io"),
        QStringLiteral("quay.io"),           QStringLiteral("registry.k8s.io"),
        QStringLiteral("k8s.gcr.io"),        QStringLiteral("gcr.io"),
        QStringLiteral("mcr.microsoft.com"), QStringLiteral("public.ecr.aws")};
    return hosts.contains(host) || host.endsWith(QLatin1String(".gcr.io")) ||
           host.endsWith(QLatin1String(".pkg.dev"));
}

} // namespace

RegistryWatch::RegistryWatch(ImagesService *images, QObject *parent)
    : QObject(parent), m_images(images)
{
    m_timer.setInterval(IntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &RegistryWatch::checkNow);
    m_timer.start();
    // A registry seen for the first time (pods started pulling from it, one was added) is
    // checked at once, not in five minutes.
    connect(images, &ImagesService::registriesChanged, this, [this] {
        for (const QString &host : watched())
            if (!m_checkedOnce.contains(host)) {
                checkNow();
                return;
            }
    });
}

QStringList RegistryWatch::watched() const
{
    QStringList out;
    for (const QString &host : m_images->registries())
        if (!isPublicService(host))
            out << host;
    return out;
}

void RegistryWatch::checkNow()
{
    if (m_pending > 0)
        return; // a round is under way
    const QStringList hosts = watched();
    if (hosts.isEmpty()) {
        if (!m_down.isEmpty()) {
            m_down.clear();
            emit checked();
        }
        return;
    }
    m_round.clear();
    m_pending = int(hosts.size());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const QString &host : hosts) {
        m_checkedOnce.insert(host);
        auto *client = new RegistryClient(m_images->endpointFor(host), this);
        client->ping(client, [this, client, host, now](const RegistryReply &r) {
            client->deleteLater();
            // Any HTTP answer but a server error is the registry answering (401: it wants a
            // login; the check does not log in).
            const bool answered = !r.connectionFailed && r.httpStatus > 0 && r.httpStatus < 500;
            if (answered)
                m_answered.insert(host);
            else if (m_answered.contains(host) || m_images->addedRegistries().contains(host))
                m_round.insert(host,
                               {r.error.isEmpty() ? tr("HTTP %1").arg(r.httpStatus) : r.error,
                                m_down.value(host).sinceMs ? m_down.value(host).sinceMs : now});
            if (--m_pending == 0) {
                m_down = m_round;
                emit checked();
            }
        });
    }
}

} // namespace gpudesk
