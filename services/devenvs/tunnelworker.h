// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tunnelsservice.h"

#include <QObject>
#include <QTimer>

#include <map>
#include <memory>

namespace gpudesk {

class KubeClient;
class Tunnel;

// The tunnels' side of TunnelsService, living on its thread: a client per context (made from
// the endpoint the tunnel was opened with), the tunnels, and their figures sent to the service
// on every change of state and at most twice a second for traffic.
class TunnelWorker : public QObject
{
    Q_OBJECT
public:
    TunnelWorker();
    ~TunnelWorker() override;

    // On the worker's thread.
    TunnelInfo open(int id, const ClusterEndpoint &endpoint, const TunnelsService::Target &target,
                    QString *error);
    void close(int id);
    void closeAll();

signals:
    void changed(const gpudesk::TunnelInfo &info);

private:
    struct Entry
    {
        std::unique_ptr<Tunnel> tunnel;
        TunnelInfo info;
        bool trafficDirty = false;
    };
    void publish(Entry &e);

    std::map<QString, std::unique_ptr<KubeClient>> m_clients; // by context
    std::map<int, Entry> m_entries;
    QTimer *m_traffic; // a child, so that it moves to the worker's thread with it
};

} // namespace gpudesk
