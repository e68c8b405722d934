// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QObject>
#include <QPointer>

class QTcpServer;
class QTimer;

namespace gpudesk {

class DevPodResolver;
class KubeClient;
class TunnelConnection;

// A local port on 127.0.0.1 that leads to a dev environment's port: every accepted connection
// gets its own port-forward stream into the pod the environment runs in at that moment, so the
// port stays the same across pod restarts and replacements. Its state says whether the path
// works now (live), is being re-established (reconnecting since, and why) or cannot work
// (failed, and why: forbidden, no such environment).
class Tunnel : public QObject
{
    Q_OBJECT
public:
    enum class State
    {
        Starting,
        Live,
        Reconnecting,
        Failed,
    };
    Q_ENUM(State)

    Tunnel(KubeClient *client, const QString &ns, const QString &environment, quint16 remotePort,
           QObject *parent = nullptr);
    ~Tunnel() override;

    // Listens on 127.0.0.1:localPort (0: any free port) and checks the path once.
    bool listen(quint16 localPort, QString *error);
    void close();
    quint16 localPort() const;
    quint16 remotePort() const { return m_remotePort; }
    QString ns() const;
    QString environment() const;
    QString pod() const { return m_pod; }
    State state() const { return m_state; }
    QString reason() const { return m_reason; } // why reconnecting or failed
    QDateTime since() const { return m_since; } // the state's start
    QDateTime opened() const { return m_opened; }
    qint64 bytesIn() const { return m_in; }
    qint64 bytesOut() const { return m_out; }
    int connectionCount() const { return m_open; }
    void setPingInterval(int ms) { m_pingMs = ms; }

signals:
    void stateChanged(gpudesk::Tunnel::State state);
    void podChanged(const QString &pod);
    void trafficChanged();

private:
    void accept();
    void probe();
    void setState(State state, const QString &reason = {});
    void onLive(const QString &pod);
    TunnelConnection *newConnection();

    KubeClient *m_client;
    DevPodResolver *m_resolver;
    QTcpServer *m_server;
    quint16 m_remotePort;
    QString m_pod;
    State m_state = State::Starting;
    QString m_reason;
    QDateTime m_since;
    QDateTime m_opened;
    QPointer<TunnelConnection> m_probe;
    QTimer *m_idleCheck;
    int m_pingMs = 20000;
    int m_open = 0;
    qint64 m_in = 0;
    qint64 m_out = 0;
};

} // namespace gpudesk
