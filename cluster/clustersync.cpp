// SPDX-License-Identifier: GPL-3.0-or-later
#include "clustersync.h"

namespace gpudesk {

ClusterSync::ClusterSync(KubeClient *client, Options options, QObject *parent) : QObject(parent)
{
    for (const Resource r : kAllResources) {
        if (r == Resource::Events && !options.events)
            continue;
        auto informer = std::make_unique<Informer>(client, r);
        informer->setFallbackNamespace(options.fallbackNamespace);
        connect(informer.get(), &Informer::delta, this, &ClusterSync::delta);
        connect(informer.get(), &Informer::statusChanged, this, &ClusterSync::statusChanged);
        connect(informer.get(), &Informer::synced, this, [this] {
            if (!m_syncedEmitted && hasSynced()) {
                m_syncedEmitted = true;
                emit synced();
            }
        });
        m_informers[r] = std::move(informer);
    }
}

ClusterSync::~ClusterSync() = default;

void ClusterSync::start()
{
    for (auto &[r, informer] : m_informers)
        informer->start();
}

void ClusterSync::stop()
{
    for (auto &[r, informer] : m_informers)
        informer->stop();
}

bool ClusterSync::hasSynced() const
{
    for (const auto &[r, informer] : m_informers) {
        if (!informer->hasSynced())
            return false;
    }
    return true;
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
