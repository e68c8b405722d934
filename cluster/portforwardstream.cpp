// SPDX-License-Identifier: GPL-3.0-or-later
#include "portforwardstream.h"

#include "channelprotocol.h"
#include "podwebsocket.h"

namespace gpudesk {

namespace {
constexpr quint8 DataChannel = 0, ErrorChannel = 1;
}

PortForwardStream::PortForwardStream(KubeClient *client, const QString &ns, const QString &pod,
                                     quint16 port, QObject *parent)
    : QObject(parent), m_pod(pod), m_port(port)
{
    m_ws = new PodWebSocket(
        client,
        QStringLiteral("/api/v1/namespaces/%1/pods/%2/portforward?ports=%3").arg(ns, pod).arg(port),
        {QStringLiteral("v4.channel.k8s.io")}, this);
    connect(m_ws, &PodWebSocket::message, this, &PortForwardStream::onMessage);
    connect(m_ws, &PodWebSocket::failed, this, [this](const QString &error, int httpStatus) {
        // Forbidden stays forbidden: trying again would only hide it.
        if (!std::exchange(m_ended, true))
            emit failed(error, !m_received && httpStatus != 403);
    });
    connect(m_ws, &PodWebSocket::closed, this, [this] {
        if (std::exchange(m_ended, true))
            return;
        if (m_ready)
            emit finished();
        else
            emit failed(tr("The stream to port %1 of %2 closed before it was ready.")
                            .arg(m_port)
                            .arg(m_pod),
                        true);
    });
}

void PortForwardStream::open()
{
    m_ws->open();
}

void PortForwardStream::setPingInterval(int ms)
{
    m_ws->setPingInterval(ms);
}

qint64 PortForwardStream::bytesToWrite() const
{
    return m_ws->bytesToWrite();
}

void PortForwardStream::onMessage(const QByteArray &m)
{
    if (m.isEmpty() || m_ended)
        return;
    const auto channel = quint8(m.at(0));
    QByteArray data = m.mid(1);
    bool &announced = channel == DataChannel ? m_dataAnnounced : m_errorAnnounced;
    if (channel != DataChannel && channel != ErrorChannel)
        return;
    if (!announced) {
        const auto port = channel::portPrefix(data);
        if (!port || *port != m_port) {
            m_ended = true;
            m_ws->close();
            emit failed(tr("The server announced the wrong port on the stream to %1.").arg(m_pod),
                        false);
            return;
        }
        announced = true;
        data.remove(0, 2);
        if (m_dataAnnounced && m_errorAnnounced && !m_ready) {
            m_ready = true;
            emit ready();
        }
    }
    if (data.isEmpty())
        return;
    if (channel == DataChannel) {
        m_received = true;
        emit received(data);
        return;
    }
    // The kubelet's error: connection refused in the pod, and the like.
    m_ended = true;
    m_ws->close();
    emit failed(QString::fromUtf8(data).trimmed(), !m_received);
}

void PortForwardStream::write(const QByteArray &data)
{
    m_ws->send(channel::frame(DataChannel, data));
}

void PortForwardStream::close()
{
    m_ended = true;
    m_ws->close();
}

} // namespace gpudesk
