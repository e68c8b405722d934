// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jupyteruse.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace gpudesk {

class KubeClient;

// Asks a dev environment's Jupyter server how it is used: the server found through exec
// (`jupyter server list --json`: its port and token), then GET /api/kernels and /api/terminals
// through a port-forward stream, the token in the Authorization header — never in a URL, which
// the API server would log. Answers once, with finished, within TimeoutMs.
class JupyterProbe : public QObject
{
    Q_OBJECT
public:
    static constexpr int TimeoutMs = 20000;

    struct Server
    {
        quint16 port = 0;
        QString token;
        QString baseUrl = QStringLiteral("/");
    };
    // The servers `jupyter server list --json` names (a JSON object a line; --jsonlist and
    // older versions print an array); `fallbackPort` for one that names no port.
    static QList<Server> parseServerList(const QByteArray &out, quint16 fallbackPort);
    // The kernels' and terminals' JSON arrays, into `use`; false when they are not arrays.
    static bool readActivity(const QByteArray &kernels, const QByteArray &terminals,
                             JupyterUse *use);

    JupyterProbe(KubeClient *client, QString ns, QString pod, quint16 jupyterPort,
                 QObject *parent = nullptr);
    // What owns the client, kept alive while the probe runs (a context switch lets it go).
    void holdConnection(std::shared_ptr<void> owner) { m_owner = std::move(owner); }
    void start();

signals:
    void finished(const gpudesk::JupyterUse &use);

private:
    void get(const QString &path, std::function<void(const QByteArray &)> then);
    void fail(const QString &error);

    KubeClient *m_client;
    QString m_ns;
    QString m_pod;
    quint16 m_port;
    Server m_server;
    QByteArray m_kernels;
    QTimer m_timeout;
    std::shared_ptr<void> m_owner;
    bool m_done = false;
};

} // namespace gpudesk
