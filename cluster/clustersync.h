// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "delta.h"
#include "informer.h"

#include <QObject>

#include <map>
#include <memory>

namespace gpudesk {

class KubeClient;

// The informers of one context: every collection gpudesk shows, kept in sync together. The
// window and `--report` both run on this, so the report tests what the user sees.
class ClusterSync : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        // Where a cluster-wide list is forbidden, fall back to this namespace (the context's).
        // Empty for the report, whose cluster-wide figures must not silently shrink.
        QString fallbackNamespace;
        bool events = true;
    };

    ClusterSync(KubeClient *client, Options options, QObject *parent = nullptr);
    ~ClusterSync() override;

    void start();
    void stop();
    bool hasSynced() const;
    Informer *informer(Resource r) const;
    QList<Informer *> informers() const;
    // A sentence on what is not live, or "" when everything is (for the status bar).
    QString problems() const;

signals:
    void delta(const gpudesk::Delta &delta);
    void synced();
    void statusChanged();

private:
    std::map<Resource, std::unique_ptr<Informer>> m_informers;
    bool m_syncedEmitted = false;
};

} // namespace gpudesk
