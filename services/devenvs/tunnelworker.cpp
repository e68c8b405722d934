// SPDX-License-Identifier: GPL-3.0-or-later
#include "tunnelworker.h"

#include "kubeclient.h"
#include "tunnel.h"

namespace gpudesk {

namespace {

TunnelInfo::State infoState(Tunnel::State s)
{
    switch (s) {
    case Tunnel::State::Starting:
        return TunnelInfo::State::Starting;
    case Tunnel::State::Live:
        return TunnelInfo::State::Live;
    case Tunnel::State::Reconnecting:
        return TunnelInfo::State::Reconnecting;
    case Tunnel::State::Failed:
        return TunnelInfo::State::Failed;
    }
    return TunnelInfo::State::Failed;
}

} // namespace

TunnelWorker::TunnelWorker() : m_traffic(new QTimer(this))
{
    m_traffic->setInterval(500);
    connect(m_traffic, &QTimer::timeout, this, [this] {
        for (auto &[id, e] : m_entries)
            if (std::exchange(e.trafficDirty, false))
                publish(e);
    });
}

TunnelWorker::~TunnelWorker()
{
    closeAll();
}

TunnelInfo TunnelWorker::open(int id, const ClusterEndpoint &endpoint,
                              const TunnelsService::Target &target, QString *error)
{
    auto &client = m_clients[endpoint.context];
    if (!client)
        client = std::make_unique<KubeClient>(endpoint);
    auto tunnel =
        std::make_unique<Tunnel>(client.get(), target.ns, target.environment, target.remotePort);
    tunnel->setPingInterval(target.pingIntervalMs);
    if (!tunnel->listen(target.localPort, error))
        return {};
    Entry &e = m_entries[id];
    e.info.id = id;
    e.info.context = endpoint.context;
    e.info.ns = target.ns;
    e.info.environment = target.environment;
    e.info.service = target.service;
    e.info.remotePort = target.remotePort;
    e.info.localPort = tunnel->localPort();
    e.info.opened = tunnel->opened();
    e.info.stateSince = tunnel->since();
    Tunnel *t = tunnel.get();
    connect(t, &Tunnel::stateChanged, this, [this, id] { publish(m_entries.at(id)); });
    connect(t, &Tunnel::podChanged, this, [this, id] { publish(m_entries.at(id)); });
    connect(t, &Tunnel::trafficChanged, this, [this, id] {
        m_entries.at(id).trafficDirty = true;
        if (!m_traffic->isActive())
            m_traffic->start();
    });
    e.tunnel = std::move(tunnel);
    return e.info;
}

void TunnelWorker::publish(Entry &e)
{
    if (!e.tunnel)
        return;
    const Tunnel &t = *e.tunnel;
    e.info.pod = t.pod();
    e.info.state = infoState(t.state());
    e.info.reason = t.reason();
    e.info.stateSince = t.since();
    e.info.bytesIn = t.bytesIn();
    e.info.bytesOut = t.bytesOut();
    e.info.connections = t.connectionCount();
    emit changed(e.info);
}

void TunnelWorker::close(int id)
{
    const auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    it->second.tunnel->close();
    TunnelInfo info = it->second.info;
    info.state = TunnelInfo::State::Closed;
    info.stateSince = QDateTime::currentDateTime();
    // Deleted once the closing connections have let go of it.
    it->second.tunnel.release()->deleteLater();
    m_entries.erase(it);
    emit changed(info);
}

void TunnelWorker::closeAll()
{
    while (!m_entries.empty())
        close(m_entries.begin()->first);
}

} // namespace gpudesk
