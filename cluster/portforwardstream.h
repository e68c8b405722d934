// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

namespace gpudesk {

class KubeClient;
class PodWebSocket;

// One TCP connection to a pod's port through the API's port-forward over WebSocket
// (v4.channel.k8s.io; data on channel 0, the kubelet's errors on channel 1, each announced by
// the port number). One stream per connection, as kubectl's WebSocket port-forward opens them.
class PortForwardStream : public QObject
{
    Q_OBJECT
public:
    PortForwardStream(KubeClient *client, const QString &ns, const QString &pod, quint16 port,
                      QObject *parent = nullptr);

    void open();
    void write(const QByteArray &data);
    void close();
    bool isReady() const { return m_ready; }
    qint64 bytesToWrite() const;
    void setPingInterval(int ms);
    QString pod() const { return m_pod; }

signals:
    // Both channels announced: data may flow.
    void ready();
    void received(const QByteArray &data);
    // The stream failed (before or after ready), with why, in words for the user.
    // `retryable`: nothing came back from the pod yet, so what was sent may be sent again on a
    // new stream (to the same pod, or to the pod that replaced it).
    void failed(const QString &error, bool retryable);
    // The pod's program closed its end.
    void finished();

private:
    void onMessage(const QByteArray &m);

    PodWebSocket *m_ws;
    QString m_pod;
    quint16 m_port;
    bool m_dataAnnounced = false;
    bool m_errorAnnounced = false;
    bool m_ready = false;
    bool m_received = false;
    bool m_ended = false;
};

} // namespace gpudesk
