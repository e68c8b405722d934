// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jupyterprobe.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace gpudesk {

class KubeClient;

// Starts a server in a dev environment's pod over exec, from a fixed script whose only inputs
// are positional arguments, and waits until it answers: Jupyter with a fresh random token (sent
// on stdin: an exec's command line is in the API server's audit log), or TensorBoard on a log
// folder. The server outlives the exec (nohup, in the background) and logs to /tmp in the pod.
// Answers once, ready or failed, within WaitMs.
class PodServerStarter : public QObject
{
    Q_OBJECT
public:
    enum class Kind
    {
        Jupyter,
        TensorBoard
    };
    static constexpr int WaitMs = 90000;

    PodServerStarter(KubeClient *client, QString ns, QString pod, Kind kind, quint16 port,
                     QString logDir = {}, QObject *parent = nullptr);
    // The exec command for `kind`: sh -c SCRIPT NAME ARGS….
    static QStringList command(Kind kind, quint16 port, const QString &logDir);
    void start();
    // What owns the client, kept alive while it runs (a context switch lets it go).
    void holdConnection(std::shared_ptr<void> owner) { m_owner = std::move(owner); }

signals:
    void progress(const QString &text);
    // Answering: for Jupyter its port, token and base URL; for TensorBoard its port.
    void ready(const gpudesk::JupyterProbe::Server &server);
    void failed(const QString &error);

private:
    void launch();
    void poll();
    void fail(const QString &error);
    QString name() const;

    KubeClient *m_client;
    QString m_ns;
    QString m_pod;
    Kind m_kind;
    quint16 m_port;
    QString m_logDir;
    QString m_token;
    QTimer m_again;
    QTimer m_deadline; // the whole start, from the first request
    std::shared_ptr<void> m_owner;
    bool m_done = false;
};

} // namespace gpudesk
