// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

class QWebSocket;

namespace gpudesk {

class KubeClient;

// A WebSocket into a pod's exec or portforward subresource with the context's server, trust and
// credentials. It pings while open, so that proxies and load balancers do not cut a quiet
// stream, and takes a stream that stops answering pings for dead rather than waiting on it.
// A refused upgrade is explained from the pod itself (not found, not running, forbidden), as
// QtWebSockets gives only the status code.
class PodWebSocket : public QObject
{
    Q_OBJECT
public:
    // `path`: /api/v1/namespaces/NS/pods/NAME/exec?…; `protocols` in order of preference.
    // What exec and port-forward send is a read of the container's output or of the forwarded
    // connection — 32 KiB in the kubelet, one frame a message. A frame or message past these
    // closes the stream with words (issue 33: 1 GiB in 512 KiB fragments was taken whole, and a
    // frame over the read buffer stalled the tunnel for good).
    static constexpr qint64 MaxFrameBytes = 1 << 20;
    static constexpr qint64 MaxMessageBytes = 1 << 20;
    PodWebSocket(KubeClient *client, const QString &path, const QStringList &protocols,
                 QObject *parent = nullptr);
    ~PodWebSocket() override;

    void open();
    void send(const QByteArray &message);
    void close();
    bool isOpen() const { return m_open; }
    QString protocol() const;
    qint64 bytesToWrite() const;
    // Pings every `ms` while open; two intervals without an answer count as a dead stream.
    void setPingInterval(int ms);
    qint64 lastPongMs() const { return m_lastPong; }

signals:
    void opened();
    void message(const QByteArray &message);
    // Before or after opening: what went wrong, for the user. `httpStatus` when the server
    // refused the upgrade.
    void failed(const QString &error, int httpStatus);
    // The server closed it normally (the command ended, the program closed its port).
    void closed();
    void ponged(qint64 roundTripMs);
    // Some of what was sent went out (bytesToWrite() is lower): a sender that holds back while
    // much is queued goes on.
    void written();

private:
    void start();
    void onError();
    void explainRefusal(int status, const QString &qtError);
    void fail(const QString &error, int httpStatus);

    KubeClient *m_client;
    QString m_path;
    QStringList m_protocols;
    QWebSocket *m_ws = nullptr;
    QTimer m_ping;
    QElapsedTimer m_sincePong;
    qint64 m_lastPong = -1;
    bool m_open = false;
    bool m_done = false;
    bool m_retried401 = false;
};

} // namespace gpudesk
