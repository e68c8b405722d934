// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

namespace gpudesk {

class DevPodResolver;
class KubeClient;
class PortForwardStream;

// One local connection carried to a dev environment's port. Until the pod has answered, what
// the local side sent is kept: a stream that fails then (the pod restarting, a new pod under a
// new name, an API server that dropped the upgrade) is opened again to the pod the environment
// runs in now and the bytes sent again, so a browser or ssh sees a stall, not an error. Once the
// pod has answered, a cut stream ends the connection (its TCP state in the pod is gone).
class TunnelConnection : public QObject
{
    Q_OBJECT
public:
    TunnelConnection(KubeClient *client, DevPodResolver *resolver, quint16 port,
                     QObject *parent = nullptr);

    void start();
    void sendToPod(const QByteArray &data);
    // The local side closed: the stream goes too.
    void localClosed();
    void setPingInterval(int ms) { m_pingMs = ms; }
    // How long to keep trying for a pod before giving up (default a minute).
    void setRetryBudgetMs(int ms) { m_budgetMs = ms; }
    QString pod() const { return m_pod; }
    // What is queued for the pod and not yet on the wire.
    qint64 pendingToPod() const;
    qint64 bytesIn() const { return m_in; }
    qint64 bytesOut() const { return m_out; }

signals:
    void toLocal(const QByteArray &data);
    void live(const QString &pod);
    void retrying(const QString &why);
    // The end: "" when one side closed in order, else why it broke.
    void ended(const QString &error);

private:
    void attempt();
    void openStream();
    void onFailed(const QString &error, bool retryable);
    void end(const QString &error);

    KubeClient *m_client;
    DevPodResolver *m_resolver;
    quint16 m_port;
    QPointer<PortForwardStream> m_stream;
    QString m_pod;
    QByteArray m_unanswered; // sent, not yet answered: sent again on a new stream
    bool m_answered = false;
    bool m_localClosed = false;
    bool m_ended = false;
    int m_pingMs = 20000;
    int m_budgetMs = 60000;
    int m_delayMs = 0;
    QElapsedTimer m_retryingFor;
    QTimer m_retry;
    qint64 m_in = 0;
    qint64 m_out = 0;
};

} // namespace gpudesk
