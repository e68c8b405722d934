// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apihelpers.h"
#include "execshell.h"
#include "podjupyters.h"

#include <QHash>
#include <QObject>
#include <QPointer>

namespace sim {

class NasTree;
class ChannelTransport;

// pods/exec and pods/portforward over WebSocket and over SPDY/3.1, as the API server serves them
// to kubectl (SPDY up to 1.29, and for port-forward unless it tunnels) and the client libraries:
// the channel protocols v5 / v4.channel.k8s.io and portforward.k8s.io (a channel byte before
// each message; exec's 0 stdin, 1 stdout, 2 stderr, 3 the Status with the exit code, 4 resize,
// v5's 255 to close a stream; port-forward's data and error channel a port, each first announced
// by the port as a little-endian uint16). A pod's port leads to the real program the simulator
// was told serves the port's name (--service-backend jupyter=127.0.0.1:PORT), as the kubelet's
// leads into the pod; a port with none refuses, as a port nothing listens on does.
class PodStreams : public QObject
{
    Q_OBJECT
public:
    struct Backend
    {
        QString host;
        quint16 port = 0;
    };

    explicit PodStreams(ObjectStore *store, QObject *parent = nullptr);

    void setBackend(const QString &portName, const Backend &backend);
    void setJupyterToken(const QString &token) { m_jupyterToken = token; }
    // The NAS the nodes mount: a dev environment's file commands reach its folders.
    void setNas(const NasTree *nas) { m_nas = nas; }
    PodJupyters *jupyters() const { return m_jupyters; }
    // The kubelet's streaming-connection-idle-timeout (4 h by default): a stream that carried
    // nothing for this long is closed.
    void setIdleTimeoutMs(qint64 ms) { m_idleTimeoutMs = ms; }
    qint64 idleTimeoutMs() const { return m_idleTimeoutMs; }

    void exec(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt);
    void portForward(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt);
    // Cuts every stream into a pod ("" namespace and name: all), as a restarted API server or a
    // dropped load balancer does; they go without a close frame. How many were cut.
    int drop(const QString &ns, const QString &pod);
    // Open streams, for /sim/streams: kind, namespace, pod, protocol, idle seconds.
    nlohmann::json list() const;
    // Closes the streams whose pod is gone or no longer running and those idle too long.
    void tick();

private:
    struct Stream
    {
        QPointer<ChannelTransport> ws;
        QString kind; // exec, portforward
        QString ns;
        QString pod;
        std::string uid;
    };
    // The pod when it may be streamed into; else answers the API server's error and returns
    // nullopt.
    std::optional<nlohmann::json> runningPod(HttpConnection *c, const ApiRoute &rt,
                                             const QString &container);
    // The WebSocket a request asks for, or the SPDY channels of an exec (`spdyExpected`: the
    // channels its streams must open). nullptr after answering an error, and for port-forward
    // over SPDY, whose forwarded connections are bridged as their streams open.
    ChannelTransport *upgrade(HttpConnection *c, const HttpRequest &r,
                              const QList<QByteArray> &protocols, const QString &kind,
                              const nlohmann::json &pod, const QList<char> &spdyExpected);
    void track(ChannelTransport *ws, const QString &kind, const nlohmann::json &pod);
    void bridge(ChannelTransport *ws, const nlohmann::json &pod, const QList<quint16> &ports);
    // Where a pod's port leads: its name's backend; for jupyter, the pod's own server or none.
    Backend backendFor(const nlohmann::json &pod, quint16 port) const;
    // The token `jupyter server list` shows in the pod ("": no server runs there).
    QString jupyterToken(const std::string &podUid) const;
    static bool isJupyterStart(const QStringList &command);
    void startJupyter(ChannelTransport *ws, const nlohmann::json &pod, const QStringList &command,
                      const std::function<void(QByteArray)> &out,
                      const std::function<void(const QByteArray &)> &err,
                      const std::function<void(const ExecShell::Result &)> &finish);

    ObjectStore *m_store;
    QHash<QString, Backend> m_backends;
    QString m_jupyterToken;
    PodJupyters *m_jupyters;
    const NasTree *m_nas = nullptr;
    qint64 m_idleTimeoutMs = 4 * 3600 * 1000LL;
    QList<Stream> m_streams;
};

} // namespace sim
