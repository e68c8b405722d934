// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QHash>
#include <QMetaType>
#include <QObject>
#include <QThread>

namespace gpudesk {

struct ClusterEndpoint;
class TunnelWorker;

// What the Sessions panel shows of one tunnel.
struct TunnelInfo
{
    enum class State
    {
        Starting,
        Live,
        Reconnecting,
        Failed,
        Closed,
    };
    int id = 0;
    QString context;
    QString ns;
    QString environment;
    QString service; // jupyter, ssh, vscode, tensorboard, or the port
    QString pod;     // the pod it leads into now
    quint16 remotePort = 0;
    quint16 localPort = 0;
    State state = State::Starting;
    QString reason; // why reconnecting or failed
    QDateTime opened;
    QDateTime stateSince;
    qint64 bytesIn = 0;
    qint64 bytesOut = 0;
    int connections = 0;
};

// Every open tunnel of this gpudesk, on a thread of their own: the TLS, WebSocket framing and
// copying of many busy tunnels must not take turns with the window's painting. Tunnels outlive
// page and context switches (each has the context's endpoint it was opened with); they end when
// closed, or with the service.
class TunnelsService : public QObject
{
    Q_OBJECT
public:
    explicit TunnelsService(QObject *parent = nullptr);
    ~TunnelsService() override;

    struct Target
    {
        QString ns;
        QString environment;
        QString service;
        quint16 remotePort = 0;
        quint16 localPort = 0; // 0: any free port
        int pingIntervalMs = 20000;
    };
    // Listens at once (the local port is known when this returns); 0 with why on failure.
    int open(const ClusterEndpoint &endpoint, const Target &target, QString *error);
    void close(int id);
    QList<TunnelInfo> tunnels() const;
    TunnelInfo tunnel(int id) const { return m_tunnels.value(id); }
    // Open (not closed) tunnels, for the question on quitting.
    int openCount() const;

signals:
    void tunnelChanged(int id);

private:
    QThread m_thread;
    TunnelWorker *m_worker;
    QHash<int, TunnelInfo> m_tunnels;
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::TunnelInfo)
