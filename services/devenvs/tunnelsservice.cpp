// SPDX-License-Identifier: GPL-3.0-or-later
#include "tunnelsservice.h"

#include "kubeconfig.h"
#include "tunnelworker.h"

namespace gpudesk {

TunnelsService::TunnelsService(QObject *parent) : QObject(parent), m_worker(new TunnelWorker)
{
    qRegisterMetaType<TunnelInfo>();
    m_thread.setObjectName(QStringLiteral("gpudesk tunnels"));
    m_worker->moveToThread(&m_thread);
    connect(m_worker, &TunnelWorker::changed, this, [this](const TunnelInfo &info) {
        if (!m_tunnels.contains(info.id))
            return; // closed here already
        m_tunnels[info.id] = info;
        emit tunnelChanged(info.id);
    });
    m_thread.start();
}

TunnelsService::~TunnelsService()
{
    // The worker and its sockets go on their own thread, then the thread.
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { delete w; }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

int TunnelsService::open(const ClusterEndpoint &endpoint, const Target &target, QString *error)
{
    static int nextId = 0;
    const int id = ++nextId;
    TunnelInfo info;
    // Listening is immediate; the caller learns the local port (or why not) at once.
    QMetaObject::invokeMethod(
        m_worker, [&] { info = m_worker->open(id, endpoint, target, error); },
        Qt::BlockingQueuedConnection);
    if (info.id == 0)
        return 0;
    m_tunnels.insert(id, info);
    emit tunnelChanged(id);
    return id;
}

void TunnelsService::close(int id)
{
    if (!m_tunnels.contains(id))
        return;
    m_tunnels[id].state = TunnelInfo::State::Closed;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id] { w->close(id); }, Qt::QueuedConnection);
    emit tunnelChanged(id);
    m_tunnels.remove(id);
}

QList<TunnelInfo> TunnelsService::tunnels() const
{
    return m_tunnels.values();
}

int TunnelsService::openCount() const
{
    return int(m_tunnels.size());
}

} // namespace gpudesk
