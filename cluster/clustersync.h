// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "delta.h"
#include "discovery.h"
#include "informer.h"

#include <QDateTime>
#include <QObject>
#include <QTimer>

#include <map>
#include <memory>

namespace gpudesk {

class KubeClient;

// The informers of one context: every collection gpudesk shows, kept in sync together. Discovery
// first picks the version of each kind the cluster serves; then every informer lists and watches.
// A server that cannot be reached at all is said once, for the server, not blamed on whichever
// collection asked first. The window and `--report` both run on this, so the report tests what
// the user sees.
class ClusterSync : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        // Where a cluster-wide list is forbidden, fall back to this namespace (the context's).
        // A lower bound is then all that is known of cluster-wide figures: the store says so
        // (Delta::scope) and so does everything that shows them.
        QString fallbackNamespace;
        QSet<Resource> skip; // kinds not to sync (the report has no use for events)
    };

    ClusterSync(KubeClient *client, Options options, QObject *parent = nullptr);
    ~ClusterSync() override;

    void start();
    void stop();
    bool hasSynced() const;
    Informer *informer(Resource r) const;
    QList<Informer *> informers() const;
    const ApiDiscovery::Result &discovered() const { return m_discovery.result(); }
    // The server itself cannot be reached (refused, TLS, DNS, proxy, not responding): "" when it
    // answers. Found by discovery, or by the collections: once every collection that followed
    // the server has lost it for the connection's sake, that is one failure, the server's.
    QString serverError() const;
    QDateTime serverErrorSince() const;
    // A sentence on what is not live, or "" when everything is (for the status bar).
    QString problems() const;

signals:
    void delta(const gpudesk::Delta &delta);
    void synced();
    void statusChanged();
    // The server could not be reached; retried with back-off (the report gives up instead).
    void serverUnreachable(const QString &error);

private:
    void onDiscovered();
    void onDiscoveryFailed(const QString &error, int httpStatus);
    void updateConnectionError();

    KubeClient *m_client;
    std::map<Resource, std::unique_ptr<Informer>> m_informers;
    ApiDiscovery m_discovery;
    QTimer m_discoveryRetry;
    int m_discoveryAttempt = 0;
    QString m_serverError;
    QDateTime m_serverErrorSince;
    QString m_connectionError; // from the collections (see serverError())
    QDateTime m_connectionErrorSince;
    bool m_running = false;
    bool m_syncedEmitted = false;
};

} // namespace gpudesk
