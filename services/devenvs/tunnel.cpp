// SPDX-License-Identifier: GPL-3.0-or-later
#include "tunnel.h"

#include "devpodresolver.h"
#include "tunnelconnection.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <functional>
#include <memory>

namespace gpudesk {

namespace {
constexpr qint64 MaxReadBytes = 256 << 10;
constexpr qint64 MaxBacklogBytes = 4 << 20;
// How often an idle tunnel checks that its path still leads somewhere: a stopped or deleted
// environment shows as such without waiting for someone to connect.
constexpr int IdleCheckMs = 10000;
} // namespace

Tunnel::Tunnel(KubeClient *client, const QString &ns, const QString &environment,
               quint16 remotePort, QObject *parent)
    : QObject(parent), m_client(client),
      m_resolver(new DevPodResolver(client, ns, environment, this)), m_server(new QTcpServer(this)),
      m_remotePort(remotePort), m_since(QDateTime::currentDateTime()), m_idleCheck(new QTimer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &Tunnel::accept);
    m_idleCheck->setInterval(IdleCheckMs);
    connect(m_idleCheck, &QTimer::timeout, this, [this] {
        // Busy tunnels learn it from their own streams (pings, closes).
        if (m_open == 0)
            probe();
    });
}

Tunnel::~Tunnel() = default;

QString Tunnel::ns() const
{
    return m_resolver->ns();
}

QString Tunnel::environment() const
{
    return m_resolver->environment();
}

quint16 Tunnel::localPort() const
{
    return m_server->serverPort();
}

bool Tunnel::listen(quint16 localPort, QString *error)
{
    // Loopback only: a tunnel into someone's environment must not be open to the network.
    if (!m_server->listen(QHostAddress::LocalHost, localPort)) {
        *error =
            tr("Cannot listen on 127.0.0.1:%1: %2").arg(localPort).arg(m_server->errorString());
        return false;
    }
    m_opened = QDateTime::currentDateTime();
    probe();
    m_idleCheck->start();
    return true;
}

void Tunnel::close()
{
    m_server->close();
    m_idleCheck->stop();
    for (TunnelConnection *c : findChildren<TunnelConnection *>())
        c->localClosed();
    setState(State::Failed, tr("Closed."));
}

TunnelConnection *Tunnel::newConnection()
{
    auto *c = new TunnelConnection(m_client, m_resolver, m_remotePort, this);
    c->setPingInterval(m_pingMs);
    connect(c, &TunnelConnection::live, this, &Tunnel::onLive);
    connect(c, &TunnelConnection::retrying, this,
            [this](const QString &why) { setState(State::Reconnecting, why); });
    return c;
}

void Tunnel::probe()
{
    // A stream opened and closed again, to know the path works before anyone connects, and to
    // see it back after a failure.
    if (m_probe || !m_server->isListening())
        return;
    m_probe = newConnection();
    m_probe->setRetryBudgetMs(24 * 3600 * 1000);
    connect(m_probe, &TunnelConnection::live, m_probe, &TunnelConnection::localClosed);
    connect(m_probe, &TunnelConnection::ended, this, [this](const QString &error) {
        m_probe->deleteLater();
        if (!error.isEmpty())
            setState(State::Failed, error);
    });
    m_probe->start();
}

void Tunnel::onLive(const QString &pod)
{
    if (pod != m_pod) {
        m_pod = pod;
        emit podChanged(pod);
    }
    setState(State::Live);
}

void Tunnel::accept()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        // Keepalive: an idle browser tab or ssh session behind a NAT is not forgotten.
        socket->setSocketOption(QAbstractSocket::KeepAliveOption, 1);
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        TunnelConnection *c = newConnection();
        ++m_open;
        // A bounded read a turn, and none while the stream has a backlog: a browser uploading
        // a large file through one tunnel must not stall the window, nor grow without bound.
        socket->setReadBufferSize(MaxReadBytes * 4);
        auto pump = std::make_shared<std::function<void()>>();
        *pump = [this, socket, c, weak = std::weak_ptr(pump)] {
            if (c->pendingToPod() > MaxBacklogBytes) {
                QTimer::singleShot(10, socket, [weak] {
                    if (auto p = weak.lock())
                        (*p)();
                });
                return;
            }
            const QByteArray data = socket->read(MaxReadBytes);
            if (data.isEmpty())
                return;
            m_out += data.size();
            c->sendToPod(data);
            emit trafficChanged();
            if (socket->bytesAvailable() > 0)
                QMetaObject::invokeMethod(
                    socket,
                    [weak] {
                        if (auto p = weak.lock())
                            (*p)();
                    },
                    Qt::QueuedConnection);
        };
        connect(socket, &QTcpSocket::readyRead, c, [pump] { (*pump)(); });
        connect(c, &TunnelConnection::toLocal, socket, [this, socket](const QByteArray &data) {
            m_in += data.size();
            socket->write(data);
            emit trafficChanged();
        });
        connect(socket, &QTcpSocket::disconnected, c, &TunnelConnection::localClosed);
        connect(c, &TunnelConnection::ended, this, [this, socket, c](const QString &error) {
            --m_open;
            if (socket->state() == QAbstractSocket::ConnectedState)
                socket->disconnectFromHost();
            socket->deleteLater();
            c->deleteLater();
            // A stream that broke after the pod had answered: say so until the path is back.
            if (!error.isEmpty() && m_server->isListening()) {
                setState(State::Reconnecting, error);
                probe();
            }
            emit trafficChanged();
        });
        c->start();
    }
}

void Tunnel::setState(State state, const QString &reason)
{
    if (state == m_state && reason == m_reason)
        return;
    if (state != m_state)
        m_since = QDateTime::currentDateTime();
    m_state = state;
    m_reason = reason;
    // Failed is final (refused, closed): asking again every 10 s would only repeat the refusal.
    if (state == State::Failed)
        m_idleCheck->stop();
    emit stateChanged(state);
}

} // namespace gpudesk
